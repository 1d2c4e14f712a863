package importer

import (
	"slices"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/model"
)

// TestImportPluginServerNames: a grant naming a plugin's server
// <plugin>_<server> raises agy_version to 1.2.2, the build that reads it,
// and the imported config decodes; a grant naming the server by its own
// name, which matches nothing on such a build, is left out and listed. A
// grant naming a top-level server of that name is about that server.
func TestImportPluginServerNames(t *testing.T) {
	for _, tc := range []struct {
		name, grants, version string
		kept, dropped         []string
	}{
		{"namespaced", `"mcp(tools_search/*)", "mcp(search/delete)", "mcp(github/*)"`, "1.2.2", []string{"mcp(tools_search/*)", "mcp(github/*)"}, []string{"mcp(search/delete)"}},
		{"own name only", `"mcp(search/delete)", "mcp(github/*)"`, "", []string{"mcp(search/delete)", "mcp(github/*)"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			plant(t, root, ".gemini/config/mcp_config.json", `{"mcpServers": {"github": {"command": "github-mcp-server"}}}`)
			plant(t, root, ".gemini/config/plugins/tools/plugin.json", `{"name": "tools", "description": "Team tools"}`)
			plant(t, root, ".gemini/config/plugins/tools/mcp_config.json", `{"mcpServers": {"search": {"command": "search-mcp"}, "github": {"command": "gh"}}}`)
			plant(t, root, ".gemini/antigravity-cli/settings.json", `{"permissions": {"allow": [`+tc.grants+`]}}`)
			res, err := Import(Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductBoth})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Config.Agyconf.AgyVersion; got != tc.version {
				t.Errorf("agy_version %q, want %q", got, tc.version)
			}
			var allow []string
			if res.Config.Permissions != nil {
				allow = res.Config.Permissions.Allow
			}
			slices.Sort(allow)
			want := slices.Clone(tc.kept)
			slices.Sort(want)
			if !slices.Equal(allow, want) {
				t.Errorf("allow %q, want %q", allow, want)
			}
			for _, d := range tc.dropped {
				if !slices.ContainsFunc(res.Items, func(it Item) bool {
					return it.Kind == KindNotImported && strings.Contains(it.Reason, d) && strings.Contains(it.Reason, "tools_search")
				}) {
					t.Errorf("%s is not listed as not imported: %v", d, res.Items)
				}
			}
			decodeRender(t, res, t.TempDir())
		})
	}
}
