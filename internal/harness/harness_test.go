package harness_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/harness"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/render"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func renderConfig(t *testing.T, src string) (*render.Plan, string) {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "agyconf.hcl")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.NewParser().LoadConfig(p)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if diags := harness.Expand(cfg); diags.HasErrors() {
		return nil, diags.Error()
	}
	if len(cfg.Harnesses) != 0 {
		t.Fatalf("harnesses left after Expand: %v", cfg.Harnesses)
	}
	plan, rdiags := render.Render(cfg, layout.New(cfg.Agyconf))
	if rdiags.HasErrors() {
		t.Fatal(rdiags)
	}
	return plan, ""
}

// TestGolden: each harness renders exactly its documented wiring, in
// each of its forms, and the tools block turns commands into their paths;
// the acp block renders the ACP server's settings beside them.
func TestGolden(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"xmsg", `
agyconf {
  scope   = "global"
  product = "cli"
}
tools {
  xmsg = "/home/me/.nix-profile/bin/xmsg"
}
harness "xmsg" {
  reply_only = true
  agy_exe    = "/home/me/.nix-profile/bin/agy"
}
`},
		{"xmsg-legacy", `
agyconf {
  scope   = "global"
  product = "cli"
}
harness "xmsg" {
  legacy_hooks = true
}
`},
		{"mempalace", `
agyconf {
  scope   = "global"
  product = "both"
}
tools {
  agyhook       = "/home/me/.nix-profile/bin/agyhook"
  mempalace     = "/home/me/.local/bin/mempalace"
  mempalace-mcp = "/home/me/.local/bin/mempalace-mcp"
}
harness "mempalace" {
  save_interval = 10
  state_dir     = "/home/me/mem palace/state"
}
`},
		{"mempalace-loose", `
agyconf {
  scope   = "global"
  product = "cli"
}
harness "mempalace" {
  mode = "loose"
  wake = false
}
`},
		{"mempalace-workspace", `
agyconf {
  scope   = "workspace"
  product = "both"
}
harness "mempalace" {
  save = false
}
`},
		{"acp-business", `
agyconf {
  scope   = "global"
  product = "cli"
}
acp {
  auth_type    = "oauth-business"
  gcp_project  = "my-project"
  gcp_location = "us-central1"
  config_root  = "isolated/acp"
}
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan, errText := renderConfig(t, tc.src)
			if errText != "" {
				t.Fatal(errText)
			}
			var got bytes.Buffer
			for _, d := range plan.Documents {
				b, err := d.Bytes(render.Redact)
				if err != nil {
					t.Fatal(err)
				}
				got.WriteString("-- " + d.Path + " --\n")
				got.Write(b)
			}
			golden := filepath.Join("testdata", tc.name+".txtar")
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if diff := cmp.Diff(string(want), got.String()); diff != "" {
				t.Errorf("%s (-want +got):\n%s", golden, diff)
			}
		})
	}
}

// TestXmsgClash: a name the harness needs that the config declares by hand
// is an error naming both places.
func TestXmsgClash(t *testing.T) {
	_, errText := renderConfig(t, `
mcp_server "xmsg" {
  command = "xmsg"
}
harness "xmsg" {}
`)
	if !strings.Contains(errText, "Declared twice") || !strings.Contains(errText, `MCP server "xmsg"`) {
		t.Fatalf("want a clash naming the server, got %q", errText)
	}
}

// TestMemPalaceClash: in plugin mode a hand-written "mempalace" server
// clashes too, since agy merges plugin servers into the user's; in loose
// mode each hook and the skill clash by name.
func TestMemPalaceClash(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`
mcp_server "mempalace" {
  command = "mempalace-mcp"
}
harness "mempalace" {}
`, `MCP server "mempalace"`},
		{`
plugin "mempalace" {
  skill "notes" {
    description = "Notes"
    body        = "x"
  }
}
harness "mempalace" {}
`, `plugin "mempalace"`},
		{`
hook "mempalace-save" {
  stop { command = "/bin/true" }
}
harness "mempalace" {
  mode = "loose"
}
`, `hook "mempalace-save"`},
		{`
skill "mempalace" {
  description = "mine"
  body        = "x"
}
harness "mempalace" {
  mode = "loose"
}
`, `skill "mempalace"`},
	} {
		_, errText := renderConfig(t, "agyconf {\n  scope = \"global\"\n}\n"+tc.src)
		if !strings.Contains(errText, "Declared twice") || !strings.Contains(errText, tc.want) {
			t.Errorf("want a clash naming %s, got %q", tc.want, errText)
		}
	}
}

// TestMemPalaceWakeOffFreesName: wake off in loose mode leaves the
// name mempalace-wake free for a hand-written hook.
func TestMemPalaceWakeOffFreesName(t *testing.T) {
	plan, errText := renderConfig(t, `
agyconf {
  scope   = "global"
  product = "cli"
}
hook "mempalace-wake" {
  pre_invocation { command = "/usr/local/bin/my-wake" }
}
harness "mempalace" {
  mode = "loose"
  wake = false
}
`)
	if errText != "" {
		t.Fatal(errText)
	}
	for _, d := range plan.Documents {
		if strings.HasSuffix(d.Path, "hooks.json") {
			b, _ := d.Bytes(render.Redact)
			if !strings.Contains(string(b), "my-wake") || !strings.Contains(string(b), "mempalace-save") {
				t.Errorf("hooks.json lacks the hand-written wake or the save hook:\n%s", b)
			}
			return
		}
	}
	t.Fatal("no hooks.json rendered")
}
