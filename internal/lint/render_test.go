package lint_test

import (
	iofs "io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/harness"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/lint"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// findAll is a LookPath that finds every command: rendered configs name
// commands that are not installed here.
func findAll(name string) (string, error) { return "/usr/bin/" + name, nil }

// TestRenderedTreesLintClean renders configs that use every block render
// supports, in both scopes and all products, writes them as agyconf would,
// and lints the trees: agyconf's own output must have no findings.
func TestRenderedTreesLintClean(t *testing.T) {
	// tests/render: configs that together use every block render supports.
	names, err := filepath.Glob("../../tests/render/*.hcl")
	if err != nil || len(names) == 0 {
		t.Fatalf("no configs in tests/render: %v", err)
	}
	sort.Strings(names)
	// Also the bundled examples and render's own complete test configs.
	names = append(names, "../../examples/global", "../../examples/workspace",
		"../render/testdata/config/global", "../render/testdata/config/workspace")
	counts := map[string]int{}
	for _, name := range names {
		label := strings.TrimSuffix(filepath.Base(name), ".hcl")
		if !strings.HasSuffix(name, ".hcl") {
			label = filepath.Base(filepath.Dir(name)) + "-" + filepath.Base(name)
		}
		t.Run(label, func(t *testing.T) {
			cfg, diags := config.NewParser().LoadConfig(name)
			if diags.HasErrors() {
				t.Fatalf("load: %v", diags)
			}
			if diags := harness.Expand(cfg); diags.HasErrors() {
				t.Fatal(diags)
			}
			plan, diags := render.Render(cfg, layout.New(cfg.Agyconf))
			if diags.HasErrors() {
				t.Fatalf("render: %v", diags)
			}
			root := t.TempDir()
			for _, d := range plan.Documents {
				data, err := d.Bytes(func(string) (string, error) { return "x", nil })
				if err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(root, filepath.FromSlash(d.Path))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, data, d.Mode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(p, d.Mode); err != nil {
					t.Fatal(err)
				}
				counts[d.Schema]++
			}
			v, _ := agy.ParseVersion(cfg.Agyconf.AgyVersion)
			// The configs name programs of their own machine: every one
			// is found, as on that machine.
			fs, err := lint.Paths([]string{root}, lint.Options{LookPath: findAll, Stat: func(string) (iofs.FileInfo, error) { return executable{}, nil }, AgyVersion: v})
			if err != nil {
				t.Fatal(err)
			}
			// The one finding render's output may have: a member the
			// config's extra = { … } wrote, reported as unknown to agyconf.
			extra := extraKeys(cfg)
			for _, f := range fs {
				if strings.HasSuffix(f.Rule, "/unknown-field") && extra[f.Pointer[strings.LastIndexByte(f.Pointer, '/')+1:]] {
					continue
				}
				t.Errorf("%s:%d:%d: %s: %s", f.File, f.Line, f.Column, f.Rule, f.Message)
			}
			if len(plan.Documents) == 0 {
				t.Error("rendered no documents")
			}
			// Zero findings must not come from finding nothing: break
			// every document that has a schema with a byte order mark,
			// and every one of them must now have a finding.
			broken := map[string]bool{}
			for _, d := range plan.Documents {
				if d.Schema == "" {
					continue
				}
				p := filepath.Join(root, filepath.FromSlash(d.Path))
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, append([]byte("\xef\xbb\xbf"), data...), d.Mode); err != nil {
					t.Fatal(err)
				}
				broken[p] = true
			}
			// Judged for an old build: the newest reads a byte order mark
			// in mcp_config.json, hooks.json, plugin.json and config.json.
			fs, err = lint.Paths([]string{root}, lint.Options{LookPath: findAll, AgyVersion: agy.V(1, 0, 0)})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				delete(broken, f.File)
			}
			for p := range broken {
				t.Errorf("%s: not linted", p)
			}
		})
	}
	t.Logf("documents written per schema: %v", counts)
}

// extraKeys are the member names a config's extra = { … } write.
func extraKeys(cfg *model.Config) map[string]bool {
	out := map[string]bool{}
	servers, agents := cfg.MCPServers, cfg.Agents
	for _, p := range cfg.Plugins {
		for k := range p.Extra {
			out[k] = true
		}
		servers, agents = append(servers, p.MCPServers...), append(agents, p.Agents...)
	}
	for _, s := range servers {
		for k := range s.Extra {
			out[k] = true
		}
	}
	for _, a := range agents {
		for k := range a.Extra {
			out[k] = true
		}
	}
	return out
}
