package importer

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/model"
)

// TestImportPluginFolder: a plugin whose folder is not the name its
// plugin.json gives (a repository cloned into the plugins folder, such as
// memlin-antigravity-plugin naming itself memlin) is imported whole, with
// its folder kept: agy names a plugin by plugin.json and finds it in any
// folder of the plugins folder, and its hooks and servers run in that
// folder, beside files render does not write (dist/). Render into a fresh
// root writes every file agy reads back to the same paths, and a second
// folder naming the same plugin is reported, not imported twice.
func TestImportPluginFolder(t *testing.T) {
	for _, tc := range []struct {
		scope   model.Scope
		plugins string
	}{
		{model.ScopeWorkspace, ".agents/plugins"},
		{model.ScopeGlobal, ".gemini/config/plugins"},
	} {
		t.Run(string(tc.scope), func(t *testing.T) {
			root := t.TempDir()
			dir := tc.plugins + "/memlin-antigravity-plugin"
			plant(t, root, dir+"/plugin.json", `{"$schema": "https://antigravity.google/schemas/v1/plugin.json", "name": "memlin", "description": "Shared project context."}`+"\n")
			plant(t, root, dir+"/mcp_config.json", `{"mcpServers": {"memlin": {"command": "node", "args": ["./dist/mcp-server.js"], "env": {"MEMLIN_HOST": "antigravity"}}}}`+"\n")
			plant(t, root, dir+"/hooks.json", `{"memlin": {"PreInvocation": [{"type": "command", "command": "node ./dist/hooks/session-start.js", "timeout": 15}]}}`+"\n")
			plant(t, root, dir+"/skills/memlin/SKILL.md", "---\nname: memlin\ndescription: Resolve project context.\n---\n\nCall memlin_resolve_task first.\n")
			plant(t, root, dir+"/rules/memlin.md", "---\ntrigger: always_on\n---\n\nUse memlin.\n")
			plant(t, root, dir+"/dist/mcp-server.js", "// the server\n")
			// A second folder naming the same plugin: agy would find two.
			plant(t, root, tc.plugins+"/memlin-copy/plugin.json", `{"name": "memlin"}`+"\n")
			res, err := Import(Options{Root: root, Scope: tc.scope, Product: model.ProductCLI})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Config.Plugins) != 1 {
				t.Fatalf("plugins imported: %d, want 1\n%s", len(res.Config.Plugins), report(res, root))
			}
			p := res.Config.Plugins[0]
			if p.Name != "memlin" || p.Folder != "memlin-antigravity-plugin" {
				t.Errorf("plugin %q in folder %q, want memlin in memlin-antigravity-plugin", p.Name, p.Folder)
			}
			if len(p.MCPServers) != 1 || len(p.Hooks) != 1 || len(p.Skills) != 1 || len(p.Rules) != 1 {
				t.Errorf("components: %d servers, %d hooks, %d skills, %d rules; want one of each", len(p.MCPServers), len(p.Hooks), len(p.Skills), len(p.Rules))
			}
			if !regexp.MustCompile(`(?m)^  folder += "memlin-antigravity-plugin"$`).Match(res.HCL) {
				t.Errorf("the config does not keep the folder:\n%s", res.HCL)
			}
			rep := report(res, root)
			for _, want := range []string{
				"converted: " + dir + `: plugin.json names it "memlin", not its folder: imported as plugin "memlin" with folder = "memlin-antigravity-plugin", so render writes it back to ` + dir,
				"not imported: " + tc.plugins + `/memlin-copy: plugin.json names it "memlin", as ` + dir + " does, which is imported",
				"not imported: " + dir + "/dist/mcp-server.js: not a plugin component agyconf models",
			} {
				if !strings.Contains(rep, want) {
					t.Errorf("the report lacks %q:\n%s", want, rep)
				}
			}
			if strings.Contains(rep, "not imported: "+dir+":") {
				t.Errorf("the plugin is still refused:\n%s", rep)
			}
			// The round trip: every file agy reads comes back, at its path.
			plan := checkRoundTrip(t, root, "", res)
			var paths []string
			for _, d := range plan.Documents {
				paths = append(paths, d.Path)
			}
			for _, f := range []string{"plugin.json", "mcp_config.json", "hooks.json", "skills/memlin/SKILL.md", "rules/memlin.md"} {
				if !slices.Contains(paths, dir+"/"+f) {
					t.Errorf("%s/%s not rendered: %v", dir, f, paths)
				}
			}
			for _, d := range plan.Documents {
				if strings.HasPrefix(d.Path, tc.plugins+"/memlin/") {
					t.Errorf("rendered to the folder of the name, away from its dist/: %s", d.Path)
				}
			}
			// checkRoundTrip compared each with the live file (JSON member by
			// member, Markdown by frontmatter and body); plugin.json exactly.
			fresh := t.TempDir()
			writePlan(t, plan, fresh)
			got, err := os.ReadFile(filepath.Join(fresh, dir, "plugin.json"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(root, dir, "plugin.json"))
			if err != nil {
				t.Fatal(err)
			}
			if g, w := parseJSON(t, got), parseJSON(t, want); !reflect.DeepEqual(g, w) {
				t.Errorf("plugin.json rendered as\n%s\nlive\n%s", got, want)
			}
		})
	}
}

// TestImportPluginFolderNotDeclarable: a plugin folder that a config's
// folder argument refuses (a space, a name Windows reserves) is reported
// as not imported, not written into a config that does not validate; a
// second folder of one plugin is reported as not imported only, not also
// as converted.
func TestImportPluginFolderNotDeclarable(t *testing.T) {
	root := t.TempDir()
	plugins := ".gemini/config/plugins"
	for dir, name := range map[string]string{"my plugin": "spaced", "CON": "device", "memlin.repo": "memlin", "zz-copy": "memlin"} {
		plant(t, root, plugins+"/"+dir+"/plugin.json", `{"name": "`+name+`"}`+"\n")
		plant(t, root, plugins+"/"+dir+"/skills/"+name+"/SKILL.md", "---\nname: "+name+"\ndescription: Resolve project context.\n---\n\nCall it first.\n")
	}
	res, err := Import(Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductCLI})
	if err != nil {
		t.Fatal(err)
	}
	rep := report(res, root)
	if len(res.Config.Plugins) != 1 || res.Config.Plugins[0].Folder != "memlin.repo" {
		t.Fatalf("plugins imported: %d, want memlin in memlin.repo only\n%s", len(res.Config.Plugins), rep)
	}
	for _, dir := range []string{"my plugin", "CON", "zz-copy"} {
		if want := "not imported: " + plugins + "/" + dir + ": "; !strings.Contains(rep, want) {
			t.Errorf("the report lacks %q:\n%s", want, rep)
		}
		if bad := "converted: " + plugins + "/" + dir + ": "; strings.Contains(rep, bad) {
			t.Errorf("the report has %q for a plugin it did not import:\n%s", bad, rep)
		}
	}
	checkRoundTrip(t, root, "", res)
}
