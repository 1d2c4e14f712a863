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

// TestXmsgGolden: the xmsg harness renders exactly the documented wiring,
// in both forms, and the tools block turns `xmsg` into its path.
func TestXmsgGolden(t *testing.T) {
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
