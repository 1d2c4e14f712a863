package layout

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/model"
)

// TestElsewhereNamesTheKey: the error for a kind with no place here names
// its override key, for every kind.
func TestElsewhereNamesTheKey(t *testing.T) {
	for _, a := range agy.KindIDs() {
		l := New(model.Agyconf{Scope: model.ScopeGlobal, Product: model.ProductCLI})
		if msg := l.Elsewhere(a); !strings.Contains(msg, string(a)) {
			t.Errorf("Elsewhere(%s) = %q: does not name the override key", a, msg)
		}
	}
}

func TestPaths(t *testing.T) {
	for _, tc := range []struct {
		scope   model.Scope
		product model.Product
		a       agy.KindID
		want    []string
	}{
		{model.ScopeGlobal, model.ProductCLI, agy.MCPConfig, []string{".gemini/config/mcp_config.json"}},
		{model.ScopeGlobal, model.ProductIDE, agy.Workflows, []string{".gemini/antigravity/global_workflows"}},
		{model.ScopeGlobal, model.ProductBoth, agy.Workflows, []string{".gemini/antigravity-cli/global_workflows", ".gemini/antigravity/global_workflows"}},
		{model.ScopeGlobal, model.ProductIDE, agy.Settings, nil},
		{model.ScopeGlobal, model.ProductBoth, agy.Rules, nil},
		{model.ScopeGlobal, model.ProductBoth, agy.GlobalRules, []string{".gemini/GEMINI.md"}},
		{model.ScopeWorkspace, model.ProductCLI, agy.Settings, nil},
		{model.ScopeWorkspace, model.ProductIDE, agy.Settings, nil},
		{model.ScopeWorkspace, model.ProductBoth, agy.IDESettings, nil}, // retired
		{model.ScopeWorkspace, model.ProductCLI, agy.Skills, []string{".agents/skills"}},
		{model.ScopeWorkspace, model.ProductBoth, agy.ACPSettings, nil},
	} {
		l := New(model.Agyconf{Scope: tc.scope, Product: tc.product})
		if diff := cmp.Diff(tc.want, l.Paths(tc.a)); diff != "" {
			t.Errorf("%s/%s %s (-want +got):\n%s", tc.scope, tc.product, tc.a, diff)
		}
	}
}

func TestOverride(t *testing.T) {
	l := New(model.Agyconf{Scope: model.ScopeWorkspace, Product: model.ProductCLI, Layout: map[string]string{
		"settings": ".agents/settings.json", "workflows": "flows",
	}})
	if diff := cmp.Diff([]string{".agents/settings.json"}, l.Paths(agy.Settings)); diff != "" {
		t.Errorf("settings override (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"flows"}, l.Paths(agy.Workflows)); diff != "" {
		t.Errorf("workflows override (-want +got):\n%s", diff)
	}
	// Callers may not change the table through a returned slice.
	New(model.Agyconf{Scope: model.ScopeGlobal, Product: model.ProductBoth}).Paths(agy.Workflows)[0] = "x"
	if got := New(model.Agyconf{Scope: model.ScopeGlobal, Product: model.ProductBoth}).Paths(agy.Workflows)[0]; got == "x" {
		t.Error("Paths returned the table's own slice")
	}
}

func TestFolders(t *testing.T) {
	got := New(model.Agyconf{Scope: model.ScopeWorkspace, Product: model.ProductBoth}).Folders()
	for _, want := range []string{".agents", ".agents/skills", ".agents/plugins"} {
		if !got[want] {
			t.Errorf("Folders lacks %s", want)
		}
	}
	if got[".agents/hooks.json"] {
		t.Error("Folders names a file")
	}
}

// TestWritesRetired: a retired kind's former path stays a place agyconf
// may prune and give back (an older agyconf wrote entries there), for
// every product of the scope, and nothing else beside it becomes one.
func TestWritesRetired(t *testing.T) {
	for _, p := range []model.Product{model.ProductCLI, model.ProductIDE, model.ProductBoth} {
		l := New(model.Agyconf{Scope: model.ScopeWorkspace, Product: p})
		if !l.Writes(".antigravity/settings.json") {
			t.Errorf("%s: a workspace no longer lets go of .antigravity/settings.json", p)
		}
		if l.Writes(".antigravity/keybindings.json") {
			t.Errorf("%s: .antigravity/keybindings.json became a place", p)
		}
	}
	if New(model.Agyconf{Scope: model.ScopeGlobal, Product: model.ProductBoth}).Writes(".antigravity/settings.json") {
		t.Error("global scope writes .antigravity/settings.json")
	}
}

// TestWithFormer: an override an earlier render wrote under stays a place
// to let go of (Writes) and its folders are kept (Folders), though Paths
// never names it; an entry for a kind that does not exist, or a path no
// override may name (in .git, agyconf's own folder, absolute, leaving the
// root), is ignored — a workspace's state is trusted with no more than
// its config.
func TestWithFormer(t *testing.T) {
	l := New(model.Agyconf{Scope: model.ScopeWorkspace, Product: model.ProductBoth})
	f := l.WithFormer(map[string][]string{
		"skills":     {"myskills"},
		"mcp_config": {"custom/mcp.json"},
		"nonsense":   {"x"},
		"agents":     {".git/hooks", ".agyconf/x", "/etc", "../up", "a/../../b", "."},
	})
	for p, want := range map[string]bool{
		"myskills/s/SKILL.md": true, "custom/mcp.json": true, "custom/other.json": false,
		"x/y": false, ".git/hooks/pre-commit": false, ".agyconf/x/a.md": false, "/etc/passwd": false, "../up/a": false,
	} {
		if got := f.Writes(p); got != want {
			t.Errorf("Writes(%q) = %v, want %v", p, got, want)
		}
		if l.Writes(p) && !want {
			t.Errorf("the layout itself writes %q", p)
		}
	}
	if !f.Folders()["myskills"] || !f.Folders()["custom"] || f.Folders()[".git"] {
		t.Errorf("folders: %v", f.Folders())
	}
	if ps := f.Paths(agy.Skills); len(ps) != 1 || ps[0] == "myskills" {
		t.Errorf("a former override is rendered to: %v", ps)
	}
	if got := l.Overrides(); len(got) != 0 {
		t.Errorf("overrides: %v", got)
	}
}
