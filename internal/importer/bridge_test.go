package importer

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// TestImportBridge: a remote server agyconf rendered through
// agyhook-bridge (secret_mode "exec", the default for headers holding a
// secret) imports as the remote server, its headers' secrets the
// secret_file() calls they came from in every position — a whole value, a
// template's part, inside jsonencode() — read from neither the files nor
// anywhere else, and renders back to the same mcp_config.json; the tools
// block's bridge comes back too.
func TestImportBridge(t *testing.T) {
	root := t.TempDir()
	secrets := t.TempDir()
	canary := func(name string) string {
		p := filepath.Join(secrets, name)
		if err := os.WriteFile(p, []byte("CANARY-bridge-"+name+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	renderInto(t, root, `agyconf {
  scope   = "global"
  product = "cli"
}
tools {
  agyhook-bridge = "/opt/bin/agyhook-bridge"
}
mcp_server "linear" {
  server_url = "https://mcp.linear.app/mcp"
  headers = {
    Authorization = "Bearer ${secret_file("`+canary("bearer")+`")}"
    X-Whole       = secret_file("%r/agenix/whole")
    X-Json        = jsonencode({ token = secret_file("`+canary("json")+`"), note = "a<b \"q\"" })
    X-Plain       = "hello"
  }
  disabled_tools = ["delete"]
}
`)
	res, err := Import(Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductCLI})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`server_url = "https://mcp.linear.app/mcp"`,
		`"Authorization" = "Bearer ${secret_file("` + filepath.Join(secrets, "bearer") + `")}"`,
		`"X-Whole"       = secret_file("%r/agenix/whole")`,
		`"X-Json"        = "{\"note\":\"a\\u003cb \\\"q\\\"\",\"token\":${jsonencode(secret_file("` + filepath.Join(secrets, "json") + `"))}}"`,
		`"X-Plain"       = "hello"`,
		`agyhook-bridge = "/opt/bin/agyhook-bridge"`,
	} {
		if !bytes.Contains(res.HCL, []byte(want)) {
			t.Errorf("no %s in:\n%s", want, res.HCL)
		}
	}
	if bytes.Contains(res.HCL, []byte("--header")) || bytes.Contains(res.HCL, []byte("secret_mode")) || bytes.Contains(res.HCL, []byte("CANARY")) {
		t.Errorf("the wrapping, an inline mode or a secret's value survived:\n%s", res.HCL)
	}
	if rep := report(res, root); strings.Contains(rep, "CANARY") || len(res.Secrets) > 0 || len(res.Files) > 0 {
		t.Errorf("import read a secret file the bridge reads:\n%s\n%q %v", rep, res.Secrets, res.Files)
	}
	checkItems(t, res, "converted: .gemini/config/mcp_config.json mcpServers.linear.command: agyhook-bridge read back as the remote server it relays to (server_url https://mcp.linear.app/mcp), its --header-file headers as secret_file() (never read)")
	plan := decodeRender(t, res, t.TempDir())
	checkSameBytes(t, plan, root, ".gemini/config/mcp_config.json", render.Redact)
}

// TestImportBridgeEdges: what import reads back through the bridge's own
// grammar and what it leaves a local server, each with the reason:
// `agyhook bridge` written by hand, a credential typed into a header
// (moved into a secret file the report's command extracts from the
// argument), a bridge with env, a URL holding a token, a --header-file-json
// no jsonencode() can have made, arguments the bridge refuses.
func TestImportBridgeEdges(t *testing.T) {
	root := t.TempDir()
	plant(t, root, ".gemini/config/mcp_config.json", `{
  "mcpServers": {
    "by-hand": {"command": "agyhook", "args": ["bridge", "--header-file", "Authorization=/run/secrets/a", "--", "https://a.example.com/mcp"]},
    "typed": {"command": "agyhook-bridge", "args": ["--header", "X-Api-Key=sk_live_51HqTyped0Canary1234567890", "--header-file", "X-Other=/run/secrets/o", "--", "https://b.example.com/mcp"]},
    "with-env": {"command": "agyhook-bridge", "args": ["--header-file", "A=/run/secrets/a", "--", "https://c.example.com/mcp"], "env": {"HTTPS_PROXY": "http://proxy:3128"}},
    "url-token": {"command": "agyhook-bridge", "args": ["--header-file", "A=/run/secrets/a", "--", "https://d.example.com/mcp?token=sk_live_51HqUrl0Canary1234567890"]},
    "bare-json": {"command": "agyhook-bridge", "args": ["--header-file-json", "A=1:/run/secrets/a", "--", "https://e.example.com/mcp"]},
    "refused": {"command": "agyhook-bridge", "args": ["--header", "A=1", "https://f.example.com/mcp"]}
  }
}
`)
	res, err := Import(Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductCLI})
	if err != nil {
		t.Fatal(err)
	}
	const f = ".gemini/config/mcp_config.json"
	checkItems(t, res,
		"converted: "+f+" mcpServers.by-hand.command: agyhook read back as the remote server it relays to (server_url https://a.example.com/mcp), its --header-file headers as secret_file() (never read)",
		"converted: "+f+" mcpServers.typed.command: agyhook-bridge read back as the remote server it relays to (server_url https://b.example.com/mcp), its --header-file headers as secret_file() (never read)",
		"converted: "+f+" mcpServers.with-env.command: runs agyhook-bridge but is kept as a local server: env is not a field of the bridge's entry (agyconf writes none)",
		"converted: "+f+" mcpServers.url-token.command: runs agyhook-bridge but is kept as a local server: its URL holds a credential, which server_url cannot read from a file",
		"converted: "+f+" mcpServers.bare-json.command: runs agyhook-bridge but is kept as a local server: a header's parts cannot be written as a secret_file() template",
	)
	hcl := string(res.HCL)
	for _, want := range []string{
		`mcp_server "by-hand" {
  server_url = "https://a.example.com/mcp"`,
		`"X-Api-Key" = secret_file(`,
		`command = "agyhook-bridge"`,
	} {
		if !strings.Contains(hcl, want) {
			t.Errorf("no %s in:\n%s", want, hcl)
		}
	}
	checkSecretsKept(t, root, res)
	rep := report(res, root)
	for _, c := range []string{"Typed0Canary", "Url0Canary"} {
		if strings.Contains(hcl, c) || strings.Contains(rep, c) {
			t.Errorf("%s is shown:\n%s\n%s", c, hcl, rep)
		}
	}
	// The typed-in header's file holds the header's value, not its
	// NAME=TEXT argument.
	if _, err := exec.LookPath("jq"); err == nil {
		for _, line := range strings.Split(report(res, root), "\n") {
			cmd, ok := strings.CutPrefix(line, "  create it: ")
			if !ok || !strings.Contains(cmd, "X-Api-Key") {
				continue
			}
			cmd = strings.ReplaceAll(cmd, "$ROOT", root)
			if out, err := exec.Command("sh", "-c", cmd).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", cmd, err, out)
			}
			p := filepath.Join(root, ".config/agyconf/secrets/typed-X-Api-Key")
			got, err := os.ReadFile(p)
			if err != nil || string(got) != "sk_live_51HqTyped0Canary1234567890" {
				t.Errorf("%s holds %q (%v)", p, got, err)
			}
		}
	} else {
		t.Log("jq is not installed: the report's command is not run")
	}
}
