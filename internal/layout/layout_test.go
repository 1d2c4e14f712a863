package layout

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agyconf/agyconf/internal/model"
)

// TestTableComplete: every scope has a cell for every artifact, and every
// artifact has a place somewhere (or is reachable by override only, as the
// IDE's legacy MCP path is).
func TestTableComplete(t *testing.T) {
	for scope, cells := range table {
		if len(cells) != len(Artifacts()) {
			t.Errorf("scope %s has %d artifacts, want %d", scope, len(cells), len(Artifacts()))
		}
	}
	for _, a := range Artifacts() {
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
		a       Artifact
		want    []string
	}{
		{model.ScopeGlobal, model.ProductCLI, MCPConfig, []string{".gemini/config/mcp_config.json"}},
		{model.ScopeGlobal, model.ProductIDE, Workflows, []string{".gemini/antigravity/global_workflows"}},
		{model.ScopeGlobal, model.ProductBoth, Workflows, []string{".gemini/antigravity-cli/global_workflows", ".gemini/antigravity/global_workflows"}},
		{model.ScopeGlobal, model.ProductIDE, Settings, nil},
		{model.ScopeGlobal, model.ProductBoth, Rules, nil},
		{model.ScopeGlobal, model.ProductBoth, GlobalRules, []string{".gemini/GEMINI.md"}},
		{model.ScopeWorkspace, model.ProductCLI, Settings, nil},
		{model.ScopeWorkspace, model.ProductBoth, IDESettings, []string{".antigravity/settings.json"}},
		{model.ScopeWorkspace, model.ProductCLI, Skills, []string{".agents/skills"}},
		{model.ScopeWorkspace, model.ProductBoth, ACPSettings, nil},
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
	if diff := cmp.Diff([]string{".agents/settings.json"}, l.Paths(Settings)); diff != "" {
		t.Errorf("settings override (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"flows"}, l.Paths(Workflows)); diff != "" {
		t.Errorf("workflows override (-want +got):\n%s", diff)
	}
	// Callers may not change the table through a returned slice.
	New(model.Agyconf{Scope: model.ScopeGlobal, Product: model.ProductBoth}).Paths(Workflows)[0] = "x"
	if got := New(model.Agyconf{Scope: model.ScopeGlobal, Product: model.ProductBoth}).Paths(Workflows)[0]; got == "x" {
		t.Error("Paths returned the table's own slice")
	}
}

func TestFolders(t *testing.T) {
	got := New(model.Agyconf{Scope: model.ScopeWorkspace, Product: model.ProductBoth}).Folders()
	for _, want := range []string{".agents", ".agents/skills", ".agents/plugins", ".antigravity"} {
		if !got[want] {
			t.Errorf("Folders lacks %s", want)
		}
	}
	if got[".agents/hooks.json"] {
		t.Error("Folders names a file")
	}
}
