package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/harness"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// decodeAndRender decodes the config text as render does, up to the plan,
// and returns every diagnostic.
func decodeAndRender(t *testing.T, text []byte) hcl.Diagnostics {
	t.Helper()
	path := filepath.Join(t.TempDir(), "agyconf.hcl")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.NewParser().LoadConfig(path)
	if diags.HasErrors() {
		return diags
	}
	diags = append(diags, harness.Expand(cfg)...)
	if diags.HasErrors() {
		return diags
	}
	_, rdiags := render.Render(cfg, layout.New(cfg.Agyconf))
	return append(diags, rdiags...)
}

// commentedBlock finds the blocks a starter shows commented out: a line
// "# kind "name" {" through the next "# }".
var commentedBlock = regexp.MustCompile(`(?m)^# [a-z_]+( "[^"]*")? \{\n(#.*\n)*?# \}$`)

// uncomment turns every commented-out block of a starter into config.
func uncomment(text []byte) []byte {
	return commentedBlock.ReplaceAllFunc(text, func(b []byte) []byte {
		lines := strings.Split(string(b), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimPrefix(strings.TrimPrefix(l, "#"), " ")
		}
		return []byte(strings.Join(lines, "\n"))
	})
}

// TestStarterValid holds every starter config to what init promises: it
// decodes and renders with no error, is formatted as agyconf fmt leaves
// it, and its commented-out examples are valid too once uncommented.
func TestStarterValid(t *testing.T) {
	for _, scope := range scopeValues() {
		for _, product := range productValues() {
			t.Run(scope+"/"+product, func(t *testing.T) {
				text, err := starter(model.Scope(scope), model.Product(product), "agyconf.hcl", false)
				if err != nil {
					t.Fatal(err)
				}
				if scope == "global" {
					// In the default folder it names no --config, and is
					// otherwise the same config.
					atDefault, err := starter(model.Scope(scope), model.Product(product), "agyconf.hcl", true)
					if err != nil {
						t.Fatal(err)
					}
					if bytes.Contains(atDefault, []byte("--config agyconf.hcl")) {
						t.Errorf("the starter for the default folder names --config:\n%s", atDefault)
					}
					if !bytes.Contains(text, []byte("--config agyconf.hcl")) {
						t.Errorf("the starter elsewhere does not name its --config:\n%s", text)
					}
					if got, want := regexp.MustCompile(`(?m)^\s*#.*\n`).ReplaceAll(atDefault, nil), regexp.MustCompile(`(?m)^\s*#.*\n`).ReplaceAll(text, nil); !bytes.Equal(got, want) {
						t.Errorf("the two starters differ outside comments")
					}
				}
				if diags := decodeAndRender(t, text); diags.HasErrors() {
					t.Fatalf("starter has errors: %s\n%s", diags.Error(), text)
				}
				if got := hclwrite.Format(text); !bytes.Equal(got, text) {
					t.Errorf("starter is not formatted")
				}
				if !bytes.Contains(text, []byte(`scope   = "`+scope+`"`)) || !bytes.Contains(text, []byte(`product = "`+product+`"`)) {
					t.Errorf("starter does not declare scope %s and product %s:\n%s", scope, product, text)
				}
				if scope == "workspace" {
					code := regexp.MustCompile(`(?m)^\s*#.*$`).ReplaceAll(uncomment(text), nil)
					for _, fn := range []string{"secret_file(", "env(", "abspath("} {
						if bytes.Contains(code, []byte(fn)) {
							t.Errorf("workspace starter uses %s, which workspace scope refuses", fn)
						}
					}
				}
				// In product "both" every block has a place, so every
				// commented-out example must be valid as it stands.
				if product != "both" {
					return
				}
				blocks := commentedBlock.FindAll(text, -1)
				if len(blocks) < 4 {
					t.Fatalf("found %d commented-out blocks, want the examples:\n%s", len(blocks), text)
				}
				full := uncomment(text)
				if diags := decodeAndRender(t, full); diags.HasErrors() {
					t.Fatalf("uncommented starter has errors: %s\n%s", diags.Error(), full)
				}
				kinds := []string{"mcp_server", "rule", "skill", "hook"}
				if scope == "global" {
					kinds = append(kinds, "harness", "agent", "permissions")
				} else {
					kinds = append(kinds, "workflow")
				}
				for _, kind := range kinds {
					if !regexp.MustCompile(`(?m)^` + kind + `\b`).Match(full) {
						t.Errorf("the starter shows no %s block", kind)
					}
				}
				if scope == "global" && !regexp.MustCompile(`(?m)^mcp_server .*\n(.*\n)*?\s+env\s+= \{.*secret_file\(`).Match(full) {
					t.Errorf("the global starter shows no MCP server with secret_file() in env")
				}
			})
		}
	}
}

// TestFmtIdempotent checks that formatting is a fixed point on the
// examples and the starters: fmt --check passes right after fmt.
func TestFmtIdempotent(t *testing.T) {
	var inputs [][]byte
	files, _ := filepath.Glob("../../examples/*/*.hcl")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, b)
	}
	for _, scope := range scopeValues() {
		text, err := starter(model.Scope(scope), model.ProductBoth, "x.hcl", false)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, text, uncomment(text))
	}
	inputs = append(inputs, []byte("rule \"a\"{\nbody=\"x\"\n    trigger   =  \"always_on\" # why\n}\n"))
	for i, in := range inputs {
		once, diags := formatHCL(in, "in.hcl")
		if diags.HasErrors() {
			t.Fatalf("input %d: %s", i, diags.Error())
		}
		twice, _ := formatHCL(once, "in.hcl")
		if !bytes.Equal(once, twice) {
			t.Errorf("input %d: formatting twice differs from once:\n%s\n---\n%s", i, once, twice)
		}
	}
}
