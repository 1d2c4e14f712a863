package render_test

import (
	"encoding/json"
	"path"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/frontmatter"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/render"
)

// TestOwnFields: every member render writes into an MCP server entry, a
// subagent's frontmatter and plugin.json is in internal/agy's list of the
// fields agyconf writes itself — the list the decoder refuses extra keys
// from — unless the config's extra put it there.
func TestOwnFields(t *testing.T) {
	cfg := load(t, "global")
	extra := map[string]bool{}
	servers, agents := cfg.MCPServers, cfg.Agents
	for _, p := range cfg.Plugins {
		for k := range p.Extra {
			extra[string(agy.PluginManifest)+k] = true
		}
		servers, agents = append(servers, p.MCPServers...), append(agents, p.Agents...)
	}
	for _, s := range servers {
		for k := range s.Extra {
			extra[string(agy.MCPServerEntry)+k] = true
		}
	}
	for _, a := range agents {
		for k := range a.Extra {
			extra[string(agy.AgentFrontmatter)+k] = true
		}
	}
	plan, diags := render.Render(cfg, layout.New(cfg.Agyconf))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	check := func(set agy.FieldSet, doc string, keys []string) {
		t.Helper()
		if len(keys) == 0 {
			t.Errorf("%s: no members: the test config must use %s", doc, set)
		}
		for _, k := range keys {
			if _, own := agy.OwnField(set, k); !own && !extra[string(set)+k] {
				t.Errorf("%s: render writes %q, which agy.OwnFields(%s) does not list", doc, k, set)
			}
		}
	}
	seen := map[agy.FieldSet]bool{}
	for _, d := range plan.Documents {
		switch {
		case d.Schema == render.SchemaOf(agy.MCPConfig):
			var doc struct {
				Servers map[string]map[string]json.RawMessage `json:"mcpServers"`
			}
			data, err := d.Bytes(render.Redact)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			for name, srv := range doc.Servers {
				check(agy.MCPServerEntry, d.Path+" "+name, keysOf(srv))
			}
			seen[agy.MCPServerEntry] = true
		case d.Schema == render.SchemaOf(agy.Plugins):
			var m map[string]json.RawMessage
			data, _ := d.Bytes(render.Redact)
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			check(agy.PluginManifest, d.Path, keysOf(m))
			seen[agy.PluginManifest] = true
		case d.Schema == render.SchemaOf(agy.Agents) && strings.HasSuffix(d.Path, ".md"):
			fm, _, _, err := frontmatter.Split(d.Text)
			if err != nil {
				t.Fatal(err)
			}
			m, err := frontmatter.Parse(fm)
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for k := range m {
				keys = append(keys, k)
			}
			check(agy.AgentFrontmatter, path.Base(d.Path), keys)
			seen[agy.AgentFrontmatter] = true
		}
	}
	for _, s := range []agy.FieldSet{agy.MCPServerEntry, agy.PluginManifest, agy.AgentFrontmatter} {
		if !seen[s] {
			t.Errorf("the test config renders no document with %s", s)
		}
	}
}

func keysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
