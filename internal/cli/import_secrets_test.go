package cli

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportSecretCanaries: two config instances render secret_file()
// canaries inline into one root — args (plain and in jsonencode()), env,
// headers, oauth client_id and client_secret, none looking like a
// credential — beside hand-written entries whose credentials only the
// key-name and value rule knows. agyconf import, printing and with --out,
// shows no canary on stdout or stderr or in any file it writes but the
// 0600 secret files (in a 0700 folder, the config naming them 0600 too);
// its --out config, and its printed one once the report's commands have
// run, render back to the same mcp_config.json.
func TestImportSecretCanaries(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "home")
	secrets := filepath.Join(dir, "secrets")
	for _, d := range []string{filepath.Join(root, ".gemini", "config"), secrets} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), mode); err != nil {
			t.Fatal(err)
		}
	}
	secret := func(name, value string) string {
		p := filepath.Join(secrets, name)
		write(p, value+"\n", 0o600)
		return p
	}
	// Hand-written entries, formatted as agyconf writes and named to sort
	// before agyconf's, so that the merged file is the one a render of
	// the imported config writes, byte for byte.
	write(filepath.Join(root, ".gemini/config/mcp_config.json"), `{
  "mcpServers": {
    "hand": {
      "args": [
        "--api-key",
        "canary-hand-arg-1"
      ],
      "command": "hand-mcp",
      "env": {
        "GITHUB_TOKEN": "canary-hand-env-2",
        "LEVEL": "info"
      }
    },
    "hand-web": {
      "headers": {
        "Authorization": "Bearer canary-hand-hdr-3"
      },
      "oauth": {
        "clientId": "canary-hand-cid-Q8xZ3kLm9PwR2tVb7NcY4hJd",
        "clientSecret": "canary-hand-csec-4"
      },
      "serverUrl": "https://web.example.com/mcp"
    }
  }
}
`, 0o644)
	cfgA := filepath.Join(dir, "a.hcl")
	write(cfgA, fmt.Sprintf(`agyconf {
  scope   = "global"
  product = "cli"
}
mcp_server "local" {
  command     = "local-mcp"
  args        = ["--port", secret_file(%q), jsonencode({token = secret_file(%q)})]
  env         = { PLAIN = secret_file(%q), LEVEL = "debug" }
  secret_mode = "inline"
}
`, secret("arg", "canary-arg-1234"), secret("json", "canary-json-5678"), secret("env", "canary-env-9012")), 0o644)
	cfgB := filepath.Join(dir, "b.hcl")
	write(cfgB, fmt.Sprintf(`agyconf {
  scope   = "global"
  product = "cli"
}
mcp_server "remote" {
  server_url = "https://mcp.example.com/mcp"
  headers    = { X-Custom = secret_file(%q) }
  oauth {
    client_id     = secret_file(%q)
    client_secret = secret_file(%q)
  }
}
mcp_server "remote-key" {
  server_url  = "https://key.example.com/mcp"
  headers     = { Authorization = "Bearer ${secret_file(%q)}" }
  secret_mode = "inline"
}
`, secret("hdr", "canary-hdr-2468"), secret("cid", "canary-cid-3456"), secret("csec", "canary-csec-7890"), secret("key", "canary-key-1357")), 0o644)

	var shown bytes.Buffer
	run := func(want int, args ...string) (string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := Main(append([]string{"agyconf"}, args...), &stdout, &stderr)
		fmt.Fprintf(&shown, "$ agyconf %s\n%s%s", strings.Join(args, " "), &stdout, &stderr)
		if code != want {
			t.Fatalf("agyconf %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, &stdout, &stderr)
		}
		return stdout.String(), stderr.String()
	}
	run(0, "render", "--config", cfgA, "--root", root, "--instance", "a")
	run(0, "render", "--config", cfgB, "--root", root, "--instance", "b")
	live, err := os.ReadFile(filepath.Join(root, ".gemini/config/mcp_config.json"))
	if err != nil {
		t.Fatal(err)
	}
	// rendersBack renders an imported config into a fresh root and
	// compares its mcp_config.json with the live one.
	rendersBack := func(cfg string) {
		t.Helper()
		fresh := t.TempDir()
		run(0, "render", "--config", cfg, "--root", fresh, "--instance", "imported")
		got, err := os.ReadFile(filepath.Join(fresh, ".gemini/config/mcp_config.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, live) {
			t.Errorf("%s renders a different mcp_config.json:\n%s\nlive:\n%s", cfg, got, live)
		}
	}

	printed, report := run(0, "import", "--root", root, "--product", "cli")
	out := filepath.Join(dir, "out")
	run(0, "import", "--root", root, "--product", "cli", "--out", out)
	for _, want := range []string{"an agyconf state records it", "its name says it is a credential", "it follows --api-key", "its value looks like a credential"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report names no secret because %s:\n%s", want, report)
		}
	}
	n := 0
	for _, line := range strings.Split(report, "\n") {
		if strings.HasPrefix(line, "secret: ") {
			n++
		}
	}
	if n != 12 {
		t.Errorf("%d secrets reported, want 12 (7 recorded by the states, 5 by the rule):\n%s", n, report)
	}

	// Every file --out wrote: a canary only in its own 0600 secret file.
	nSecrets := 0
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		inSecrets := filepath.Dir(rel) == "secrets"
		switch {
		case d.IsDir() && rel == "secrets":
			if fi.Mode().Perm() != 0o700 {
				t.Errorf("%s: mode %v, want 0700", rel, fi.Mode().Perm())
			}
		case d.IsDir():
		case rel == "agyconf.hcl" || inSecrets:
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("%s: mode %v, want 0600", rel, fi.Mode().Perm())
			}
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if inSecrets {
			nSecrets++
			if !bytes.Contains(data, []byte("canary")) {
				t.Errorf("%s holds no canary", rel)
			}
		} else if bytes.Contains(data, []byte("canary")) {
			t.Errorf("%s holds a canary:\n%s", rel, data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if nSecrets != 12 {
		t.Errorf("--out wrote %d secret files, want 12", nSecrets)
	}
	rendersBack(filepath.Join(out, "agyconf.hcl"))
	// The remote server's header credential renders back inline, and the
	// config offers the bridge, as it offers exec-env to local servers.
	if cfg, _ := os.ReadFile(filepath.Join(out, "agyconf.hcl")); !bytes.Contains(cfg, []byte("Remove secret_mode to have agyhook-bridge read them")) {
		t.Errorf("the imported config does not offer the bridge:\n%s", cfg)
	}

	// A second import does not overwrite a thing.
	before, _ := os.ReadFile(filepath.Join(out, "secrets", "local-arg1"))
	if err := os.Remove(filepath.Join(out, "agyconf.hcl")); err != nil {
		t.Fatal(err)
	}
	_, stderr := run(2, "import", "--root", root, "--product", "cli", "--out", out)
	if !strings.Contains(stderr, "already exists") {
		t.Errorf("a second --out into the same folder: %s", stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(out, "secrets", "local-arg1")); !bytes.Equal(before, after) || len(after) == 0 {
		t.Error("a second import changed a secret file")
	}
	if _, err := os.Stat(filepath.Join(out, "agyconf.hcl")); err == nil {
		t.Error("a refused import wrote agyconf.hcl")
	}

	// The printed config, once the report's commands have made its files.
	if _, err := exec.LookPath("jq"); err == nil {
		for _, line := range strings.Split(report, "\n") {
			if cmd, ok := strings.CutPrefix(line, "  create it: "); ok {
				if b, err := exec.Command("sh", "-c", cmd).CombinedOutput(); err != nil {
					t.Fatalf("%s: %v\n%s", cmd, err, b)
				}
			}
		}
		cfg := filepath.Join(dir, "printed.hcl")
		write(cfg, printed, 0o600)
		rendersBack(cfg)
	} else {
		t.Log("jq is not installed: the report's commands are not run")
	}

	if strings.Contains(shown.String(), "canary") {
		t.Errorf("a command's output holds a canary:\n%s", &shown)
	}
}

// TestImportLinkAndURLCanaries: what a hostile workspace can plant and
// what a hand-written server URL can hold. In workspace scope links out
// of the project — to a canary file, to /proc/self/environ — are reported
// and never read, while a link inside still imports; in global scope a
// link out of the home is read (--help, "Links"). Servers whose URL holds
// a credential in its userinfo, a query parameter or a path segment, or
// is no http URL at all, are reported with <secret> in its place and not
// imported, a harmless URL is; beside xmsg's server in a compact file, so
// that the migration diff shows the whole live line, redacted. No canary
// is on stdout, on stderr or in any file --out writes.
func TestImportLinkAndURLCanaries(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, s string) string {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(rel, target string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	secret := write("outside/notes.md", "---\ntrigger: always_on\n---\n\ncanary-outside-file TOP-SECRET\n")
	write("project/docs/inside.md", "---\ntrigger: always_on\n---\n\nShared from inside the project.\n")
	link("project/.agents/rules/notes.md", secret)
	link("project/.agents/workflows/env.md", "/proc/self/environ")
	link("project/.agents/rules/inside.md", "../../docs/inside.md")
	dotfile := write("dotfiles/linked.md", "---\nname: linked\ndescription: Kept in a dotfiles checkout\n---\n\nRead through a link out of the home.\n")
	link("home/.gemini/config/agents/linked.md", dotfile)
	write("home/.gemini/config/mcp_config.json", `{"mcpServers": {"xmsg": {"command": "xmsg", "args": ["mcp"], "disabledTools": []}, `+
		`"userinfo": {"serverUrl": "https://user:hunter2-canary@mcp.example.com/sse"}, `+
		`"query": {"serverUrl": "https://mcp.example.com/sse?api_key=ghp_canary0123456789abcdefABCDEF"}, `+
		`"segment": {"serverUrl": "https://mcp.example.com/mcp/sk-ak-canary0123456789abcdef/sse"}, `+
		`"invalid": {"url": "ftp://u:ghp_canary0123456789abcdefABCDEF@x/"}, `+
		`"plain": {"serverUrl": "https://mcp.example.com/sse?mode=ro"}}}`+"\n")
	// With its register hook, xmsg's server is the harness's (as in
	// testdata/script/import_global.txtar).
	write("home/.gemini/config/hooks.json", `{"xmsg-register": {"PreInvocation": [{"type": "command", "command": "xmsg register agy --hook"}]}}`+"\n")

	var shown strings.Builder
	run := func(args ...string) (string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := Main(append([]string{"agyconf"}, args...), &stdout, &stderr)
		fmt.Fprintf(&shown, "$ agyconf %s\n%s%s", strings.Join(args, " "), &stdout, &stderr)
		if code != 0 {
			t.Fatalf("agyconf %s: exit %d\n%s%s", strings.Join(args, " "), code, &stdout, &stderr)
		}
		return stdout.String(), stderr.String()
	}
	contains := func(what, text string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s lacks %q:\n%s", what, w, text)
			}
		}
	}

	project := filepath.Join(dir, "project")
	stdout, stderr := run("import", "--scope", "workspace", "--root", project)
	contains("stderr", stderr,
		"not imported: .agents/rules/notes.md: is a link to "+secret+", outside the project; agyconf does not read through it\n",
		"not imported: .agents/workflows/env.md: is a link to /proc/self/environ, outside the project; agyconf does not read through it\n")
	contains("stdout", stdout, `rule "inside" {`, "Shared from inside the project.")
	run("import", "--scope", "workspace", "--root", project, "--out", filepath.Join(dir, "project-out"))

	home := filepath.Join(dir, "home")
	stdout, stderr = run("import", "--root", home, "--product", "cli")
	contains("stdout", stdout, `agent "linked" {`, "Read through a link out of the home.",
		`server_url = "https://mcp.example.com/sse?mode=ro"`, `harness "xmsg"`)
	const header = `move it into a header (headers = { Authorization = "Bearer ${secret_file(…)}" }) and import again`
	contains("stderr", stderr,
		`mcpServers.userinfo: serverUrl "https://user:<secret>@mcp.example.com/sse" holds a credential (URL userinfo); `+header,
		`mcpServers.query: serverUrl "https://mcp.example.com/sse?api_key=<secret>" holds a credential (query parameter api_key); `+header,
		`mcpServers.segment: serverUrl "https://mcp.example.com/mcp/<secret>/sse" holds a credential (path segment); `+header,
		`mcpServers.invalid: url "ftp://u:<secret>@x/" is not an absolute http or https URL`,
		"migration diff (what agyconf render would change",
		// The backstop: the live line, which no message quotes, redacted.
		`-{"mcpServers": {"xmsg"`, `"serverUrl": "https://user:<secret>@mcp.example.com/sse"`)
	for _, name := range []string{"userinfo", "query", "segment", "invalid"} {
		if strings.Contains(stdout, `mcp_server "`+name+`"`) {
			t.Errorf("the server %s, whose URL holds a credential, is imported:\n%s", name, stdout)
		}
	}
	run("import", "--root", home, "--product", "cli", "--out", filepath.Join(dir, "home-out"))

	// Nothing behind a link out of the project, and no credential of a
	// URL, in any file --out wrote.
	for _, out := range []string{"project-out", "home-out"} {
		err := filepath.WalkDir(filepath.Join(dir, out), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if bytes.Contains(data, []byte("canary")) || bytes.Contains(data, []byte("PATH=")) {
				t.Errorf("%s holds a canary:\n%s", p, data)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if s := shown.String(); strings.Contains(s, "canary") || strings.Contains(s, "TOP-SECRET") || strings.Contains(s, "PATH=") {
		t.Errorf("a command's output holds a canary or the environment:\n%s", s)
	}
}
