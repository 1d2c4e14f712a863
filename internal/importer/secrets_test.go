package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// TestCredentialRule pins the rule `import --help` states for values no
// state marks: what counts, and look-alikes that do not (a false positive
// costs a value moved to a file in global scope, a whole server in
// workspace scope).
func TestCredentialRule(t *testing.T) {
	for _, k := range []string{"GITHUB_PERSONAL_ACCESS_TOKEN", "api_key", "X-Api-Key", "Authorization", "DB_PASSWORD", "client_secret", "Cookie", "AWS_CREDENTIALS"} {
		if !keySays(k) {
			t.Errorf("key %q: not taken for a credential's name", k)
		}
	}
	for _, k := range []string{"LEVEL", "MODE", "X-Trace", "PATH", "HOME"} {
		if keySays(k) {
			t.Errorf("key %q: taken for a credential's name", k)
		}
	}
	for _, v := range []string{
		"Bearer abc.def", "basic dXNlcjpwYXNz", "token x1",
		"ghp_abcdef0123", "gho_16C7e42F292c6912E7710c838347Ae178B4a", "github_pat_11ABCDEFG0123456789",
		"glpat-abcdEFGH1234", "sk-proj-abcdefghijklmnop", "sk-ant-api03-abcdefghij", "xoxb-1234-5678-abcdef",
		"AKIAIOSFODNN7EXAMPLE", "AIzaSyA-abcdefghijklmnopqrstu",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig",
		"https://x.example.com/?key=ghp_abcdef0123",
		"postgres://app:pw@db/app", "https://h/sse?access_token=abc", "https://h/cb#token=abc", "redis://:pw@cache:6379",
		"https://h/mcp/sk-canary0123456789abcdef/sse", `{"url":"https://u:p@h/"}`,
		"Q8xZ3kLm9PwR2tVb7NcY4hJd", "wG+DNCv0hx+8jgo2UBSPZ/4mi1yDJoXV", "canary-cid-Q8xZ3kLm9PwR2tVb7NcY4hJd",
		`{"token":"plain"}`, `[{"auth":{"password":"x"}}]`, `{"url":"u","h":"Bearer x"}`, `{"api_key":12345}`,
	} {
		if !valueSays(v) {
			t.Errorf("value %q: not taken for a credential", v)
		}
	}
	for _, v := range []string{
		"", "on", "debug", "stdio", "8080", "task-master-ai", "--disk-cache-size", "sk-learn", "risk-assessment",
		"@modelcontextprotocol/server-filesystem", "ModelContextProtocolServerEverything2025",
		"AnthropicClaudeSonnet4Model20250514Latest", "Users/Alice2/Projects/MyRepo/dist/index.js",
		"/nix/store/x3cmbbx3hb6wz4l4z8fhb8q3wdcjvd9r-nodejs-22.1.0/bin/node",
		"0c9a7b4e-2f3d-4a1b-9c8d-7e6f5a4b3c2d", "9591b4de99972b23ea8fe5332bf99731", "my-app.apps.example.com",
		"https://mcp.example.com/mcp", "https://user@h/", "ssh://git@github.com/org/repo", "postgres://db:5432/app",
		"https://h/sse?mode=ro&token=", "https://h/docs#section-2", `{"mode":"ro"}`, `{"auth":{"type":"none"}}`, `{"auth":true}`, "{not json",
	} {
		if valueSays(v) {
			t.Errorf("value %q: taken for a credential", v)
		}
	}
	args := []string{"--port", "8080", "--token", "t1", "--api-key=k1", "--api-key=", "--auth", "--verbose",
		"--key-file", "/k", "--client-secret", "s1", "--header", "Authorization: Bearer b1", "X-Trace: on",
		"-pat", "p1", "--use-oauth", "stdio", `{"token":"j1"}`}
	want := map[int]string{3: "it follows --token", 4: whyFlag, 11: "it follows --client-secret", 13: whyHeader, 16: "it follows -pat", 19: whyValue}
	for i, why := range argReasons(args) {
		if why != want[i] {
			t.Errorf("args[%d] %q: reason %q, want %q", i, args[i], why, want[i])
		}
	}
}

// TestURLCredentials pins what a server URL may hold that import takes
// for a credential, the URL it shows instead, and the values it then
// redacts from everything it prints.
func TestURLCredentials(t *testing.T) {
	for _, c := range []struct {
		url, shown, where string
		values            []string
	}{
		{"https://mcp.example.com/sse", "https://mcp.example.com/sse", "", nil},
		{"https://mcp.example.com/sse?mode=ro&region=eu#top", "https://mcp.example.com/sse?mode=ro&region=eu#top", "", nil},
		{"https://user@mcp.example.com/", "https://user@mcp.example.com/", "", nil},
		{"https://mcp.example.com/sse?token=", "https://mcp.example.com/sse?token=", "", nil},
		{"https://user:hunter2-canary@mcp.example.com/sse", "https://user:<secret>@mcp.example.com/sse", "URL userinfo", []string{"hunter2-canary"}},
		{"https://us%40er:p%40ss@h/", "https://us%40er:<secret>@h/", "URL userinfo", []string{"p%40ss", "p@ss"}},
		{"https://ghp_canary0123456789@h/", "https://<secret>@h/", "URL userinfo", []string{"ghp_canary0123456789"}},
		{"https://mcp.example.com/sse?api_key=ghp_canary0123456789abcdefABCDEF", "https://mcp.example.com/sse?api_key=<secret>", "query parameter api_key", []string{"ghp_canary0123456789abcdefABCDEF"}},
		{"https://h/sse?x=1&access_token=abc;mode=ro", "https://h/sse?x=1&access_token=<secret>;mode=ro", "query parameter access_token", []string{"abc"}},
		{"https://h/sse?auth=Bearer+canary", "https://h/sse?auth=<secret>", "query parameter auth", []string{"Bearer+canary", "Bearer canary"}},
		{"https://h/sse?q=Q8xZ3kLm9PwR2tVb7NcY4hJd", "https://h/sse?q=<secret>", "query parameter q", []string{"Q8xZ3kLm9PwR2tVb7NcY4hJd"}},
		{"https://h/sse?ghp_canary0123456789", "https://h/sse?<secret>", "query parameter", []string{"ghp_canary0123456789"}},
		{"https://mcp.example.com/mcp/sk-ak-canary0123456789abcdef/sse", "https://mcp.example.com/mcp/<secret>/sse", "path segment", []string{"sk-ak-canary0123456789abcdef"}},
		{"https://h/cb#access_token=abc", "https://h/cb#access_token=<secret>", "URL fragment", []string{"abc"}},
		{"ftp://u:ghp_canary0123456789abcdefABCDEF@x/", "ftp://u:<secret>@x/", "URL userinfo", []string{"ghp_canary0123456789abcdefABCDEF"}},
		{"https://u:p@h/%zz?key=v", "https://u:<secret>@h/%zz?key=<secret>", "URL userinfo, query parameter key", []string{"p", "v"}},
		{"https://h:ghp_canary0123456789/", "<secret>", "URL", []string{"https://h:ghp_canary0123456789/"}},
	} {
		im := &importer{}
		shown, where := im.urlSecrets(c.url)
		if shown != c.shown || strings.Join(where, ", ") != c.where {
			t.Errorf("%s: shown as %s (%s), want %s (%s)", c.url, shown, strings.Join(where, ", "), c.shown, c.where)
		}
		if c.where == "" && len(im.values) > 0 {
			t.Errorf("%s: redacts %q", c.url, im.values)
		}
		for _, v := range c.values {
			if !slices.Contains(im.values, v) {
				t.Errorf("%s: %q is not redacted elsewhere (%q)", c.url, v, im.values)
			}
		}
	}
}

// TestRedactValues: the migration diff hides a secret however a JSON file
// writes it, HTML characters escaped or not.
func TestRedactValues(t *testing.T) {
	v := `canary-<&>"q"`
	for _, text := range []string{v, `canary-<&>\"q\"`, `canary-\u003c\u0026\u003e\"q\"`} {
		if got := redactValues("a "+text+" b", []string{v}); got != "a "+render.Placeholder+" b" {
			t.Errorf("%s: redacted to %s", text, got)
		}
	}
}

// TestRedactShortValues: a short value is redacted where it stands alone,
// not inside a longer word, which would garble every line.
func TestRedactShortValues(t *testing.T) {
	for text, want := range map[string]string{
		`"us"`:                     `"<secret>"`,
		"layout us, because":       "layout <secret>, because",
		"status":                   "status",
		"us":                       "<secret>",
		"?k=us&x=1":                "?k=<secret>&x=1",
		"plugins/us/x.md: thus:us": "plugins/<secret>/x.md: thus:<secret>",
	} {
		if got := redactValues(text, []string{"us"}); got != want {
			t.Errorf("%q: redacted to %q, want %q", text, got, want)
		}
	}
	if got := redactValues("xhunter2x", []string{"hunter2"}); got != "x<secret>x" {
		t.Errorf("a value of %d bytes or more is not redacted inside a word: %q", shortValue, got)
	}
}

// runCommands runs the report's "create it:" commands, as the report tells
// a person to, and checks each made a 0600 file, which secretReader then
// reads; without jq it leaves the placeholders' values to secretReader.
func runCommands(t *testing.T, res *Result) {
	t.Helper()
	if _, err := exec.LookPath("jq"); err != nil {
		t.Log("jq is not installed: the report's commands are not run")
		return
	}
	n := 0
	for _, it := range res.Items {
		if it.Command == "" {
			continue
		}
		if out, err := exec.Command("sh", "-c", it.Command).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", it.Command, err, out)
		}
		n++
	}
	for p := range res.secretFiles {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: not made mode 0600 by the report's command: %v", p, err)
		}
	}
	if n == 0 || n != len(res.secretFiles) {
		t.Errorf("%d commands for %d secret files", n, len(res.secretFiles))
	}
}

// checkSecretsTree: what testdata/secrets must import as besides the
// secrets — the look-alike neighbours of each credential stay literal,
// and the local server keeps its secrets inline.
func checkSecretsTree(t *testing.T, res *Result, out bool) {
	t.Helper()
	for _, want := range []string{
		`"--port", "8080", "task-master-ai", "--token", secret_file(`,
		`"--header", secret_file(`,
		`, "--verbose"]`,
		`"DOCS"             = "https://docs.example.com/guide?lang=en"`,
		// A URL without a credential imports as it stands.
		`server_url = "https://mcp.example.com/sse?mode=ro&region=eu"`,
		`"LEVEL"            = "debug"`,
		`"X-Trace"       = "on"`,
		`client_id = "my-app.apps.example.com"`,
		`secret_mode = "inline"`,
	} {
		if !bytes.Contains(res.HCL, []byte(want)) {
			t.Errorf("no %s in:\n%s", want, res.HCL)
		}
	}
	// A URL holding a credential: the server is left out whole.
	for _, name := range []string{"url-userinfo", "url-query", "url-path", "url-invalid"} {
		if bytes.Contains(res.HCL, []byte(`mcp_server "`+name+`"`)) {
			t.Errorf("the server %s, whose URL holds a credential, is imported:\n%s", name, res.HCL)
		}
	}
	// args: after --token, --api-key=, ghp_, JSON, header; env: 4, a URL
	// with a password one of them; headers: 2 and the plugin's 1; oauth: 2.
	if n := len(res.secretFiles); n != 14 {
		t.Errorf("%d secrets found, want 14", n)
	}
	if out == bytes.Contains(res.HCL, []byte("TODO")) {
		t.Errorf("TODO comments %v with --out %v:\n%s", !out, out, res.HCL)
	}
}

// stateSecretsOf is what internal/cli's stateSecrets makes of the one
// state renderInto writes, read from its JSON (the state's documented
// shape) rather than through internal/apply's API.
func stateSecretsOf(t *testing.T, root string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".local", "state", "agyconf", "test.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Files map[string]struct {
			Secrets []string `json:"secrets"`
		} `json:"files"`
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for key, f := range st.Files {
		file, entry, _ := strings.Cut(key, "#")
		for _, p := range f.Secrets {
			out[file] = append(out[file], entry+p)
		}
	}
	return out
}

// TestImportStateSecrets: a config agyconf rendered with secret_mode
// "inline" and secret_file() in every position — args, a jsonencode()
// arg, env (a template too), headers, oauth client_id and client_secret, a
// plugin's server — whose values look like nothing: the state's pointers
// alone keep them out of what import prints, and the imported config,
// with --out or with the report's commands run, renders back to the same
// bytes.
func TestImportStateSecrets(t *testing.T) {
	dir := t.TempDir()
	canaries := map[string]string{
		"arg": "canary-arg-1234", "json": "canary-json-5678", "env": "canary-env-9012", "hdr": "canary-hdr-2468",
		"cid": "canary-cid-3456", "csec": "canary-csec-7890", "plugin": "canary-plugin-1357",
	}
	path := map[string]string{}
	for k, v := range canaries {
		path[k] = filepath.Join(dir, k)
		if err := os.WriteFile(path[k], []byte(v+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg := fmt.Sprintf(`agyconf {
  scope   = "global"
  product = "cli"
}
mcp_server "local" {
  command     = "local-mcp"
  args        = ["--port", "8080", secret_file(%q), jsonencode({token = secret_file(%q), mode = "ro"})]
  env         = { PLAIN = secret_file(%[3]q), LEVEL = "debug", AUTH = "Bearer ${secret_file(%[3]q)}" }
  secret_mode = "inline"
}
mcp_server "remote" {
  server_url = "https://mcp.example.com/mcp"
  headers    = { X-Custom = secret_file(%q), X-Trace = "on" }
  oauth {
    client_id     = secret_file(%q)
    client_secret = secret_file(%q)
  }
}
plugin "kit" {
  mcp_server "api" {
    command     = "api-mcp"
    env         = { VALUE = secret_file(%q) }
    secret_mode = "inline"
  }
}
`, path["arg"], path["json"], path["env"], path["hdr"], path["cid"], path["csec"], path["plugin"])
	root := t.TempDir()
	renderInto(t, root, cfg)
	state := stateSecretsOf(t, root)
	if len(state) != 2 {
		t.Fatalf("the state records secrets in %d files, want mcp_config.json and the plugin's: %v", len(state), state)
	}

	// The control: the rule alone does not know these values.
	bare, err := Import(Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductCLI})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(bare.HCL, []byte(canaries["arg"])) {
		t.Fatalf("the rule alone already hides %s: the state proves nothing here", canaries["arg"])
	}

	for _, out := range []bool{false, true} {
		t.Run(fmt.Sprintf("out=%v", out), func(t *testing.T) {
			opts := Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductCLI, StateSecrets: func() map[string][]string { return state }}
			if out {
				opts.Out = t.TempDir()
			}
			res, err := Import(opts)
			if err != nil {
				t.Fatal(err)
			}
			checkSecretsKept(t, root, res)
			secrets := 0
			for _, it := range res.Items {
				if it.Kind != KindSecret {
					continue
				}
				secrets++
				if !strings.Contains(it.Reason, whyState) {
					t.Errorf("%s: %s, not the state's record", it.Unit, it.Reason)
				}
			}
			// args 2, env 2 (PLAIN, AUTH), headers 1, oauth 2, plugin 1.
			if secrets != 8 {
				t.Errorf("%d secrets reported, want 8:\n%s", secrets, report(res, root))
			}
			for _, want := range []string{`"--port", "8080", secret_file(`, `"LEVEL" = "debug"`, `"X-Trace"  = "on"`, `secret_mode = "inline"`} {
				if !bytes.Contains(res.HCL, []byte(want)) {
					t.Errorf("no %s in:\n%s", want, res.HCL)
				}
			}
			if !out {
				runCommands(t, res)
			}
			plan := checkRoundTrip(t, root, opts.Out, res)
			for _, p := range []string{".gemini/config/mcp_config.json", ".gemini/config/plugins/kit/mcp_config.json"} {
				checkSameBytes(t, plan, root, p, secretReader(res))
			}
		})
	}
}

// TestSecretFileData: what --out writes reads back through secret_file()'s
// trimming as the value, line endings included.
func TestSecretFileData(t *testing.T) {
	dir := t.TempDir()
	for i, v := range []string{"x", "x\n", "x\r", "x\r\n", "x\n\n", ""} {
		p := filepath.Join(dir, fmt.Sprint(i))
		if err := os.WriteFile(p, secretFileData(v), 0o600); err != nil {
			t.Fatal(err)
		}
		if got, err := readSecretFile(p); err != nil || got != v {
			t.Errorf("%q reads back as %q (%v)", v, got, err)
		}
	}
}

func TestKeyAndCommandSay(t *testing.T) {
	for key, want := range map[string]bool{
		"DB_PASS": true, "PGPASS": true, "SMTP_PASS_FILE": true, "PASSTHROUGH": false, "PASSAGE": false, "LOG_LEVEL": false,
		"MYSQL_PWD": true, "GPG_PASSPHRASE": true, "PWD": false, "OLDPWD": false,
	} {
		if got := keySays(key); got != want {
			t.Errorf("keySays(%q) = %v, want %v", key, got, want)
		}
	}
	for cmd, want := range map[string]bool{
		`curl -H "Authorization: Bearer abcdefghijkl0123" https://x`: true,
		`notify --token AbCdEf1234567890XyZ`:                         true,
		`notify --api-key=s3cr3tvalue`:                               true,
		`mysql -u root --pass hunter2`:                               true,
		`sync ghp_abcdefgh12345678`:                                  true,
		`/usr/local/bin/check-1 --key-file /run/k`:                   false,
		`echo token refreshed; exit 0`:                               false,
		`git -C /repo status`:                                        false,
		`python3 "$HOME/.mempalace/hooks/save.py"`:                   false,
		`API_KEY=s3cr3t-api-value ./notify.sh`:                       true,
		`export SLACK_TOKEN=xyz; ./notify.sh`:                        true,
		`curl -H 'X-Api-Key: plainsecretvalue' https://x`:            true,
		`curl -u alice:hunter2pw https://x`:                          true,
		`curl -H 'Content-Type: application/json' -d @- https://x`:   false,
		`LOG_LEVEL=debug ./run.sh`:                                   false,
		`cd "$PWD" && make`:                                          false,
	} {
		if got := commandSays(cmd); got != want {
			t.Errorf("commandSays(%q) = %v, want %v", cmd, got, want)
		}
	}
}
