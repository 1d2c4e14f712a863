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
`, secret("hdr", "canary-hdr-2468"), secret("cid", "canary-cid-3456"), secret("csec", "canary-csec-7890")), 0o644)

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
	if n != 11 {
		t.Errorf("%d secrets reported, want 11 (6 recorded by the states, 5 by the rule):\n%s", n, report)
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
	if nSecrets != 11 {
		t.Errorf("--out wrote %d secret files, want 11", nSecrets)
	}
	rendersBack(filepath.Join(out, "agyconf.hcl"))

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
