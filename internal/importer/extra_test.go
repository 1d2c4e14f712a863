package importer

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// unknownFieldsTree is a hand-made global tree whose servers, subagent and
// plugin manifest carry members agyconf does not know, written in the form
// render writes (sorted keys, two-space indent), so that the round trip can
// compare bytes.
var unknownFieldsTree = map[string]string{
	".gemini/config/mcp_config.json": `{
  "mcpServers": {
    "local": {
      "command": "local-mcp",
      "trust": true,
      "x-limits": {
        "burst": 1.5,
        "rate": 10,
        "tags": [
          "a",
          "${NOT_A_TEMPLATE}",
          false
        ]
      }
    },
    "remote": {
      "serverUrl": "https://mcp.example.com/mcp",
      "transport": "streamable-http"
    }
  }
}
`,
	".gemini/config/plugins/team/plugin.json": `{
  "$schema": "https://antigravity.google/schemas/v1/plugin.json",
  "author": "Google Antigravity",
  "description": "Team tools",
  "license": "Apache-2.0",
  "name": "team",
  "repository": {
    "type": "git",
    "url": "https://example.com/team.git"
  },
  "version": "1.2.0"
}
`,
	".gemini/config/plugins/team/rules/style.md": "---\ntrigger: always_on\n---\n\nWrap at 100.\n",
	".gemini/config/agents/reviewer.md":          "---\nname: reviewer\ndescription: Reviews diffs\neffort: high\ntemperature: 0.2\nrouting:\n  prefer: [pro, flash]\n  fallback: true\n---\n\nYou review diffs.\n",
}

// TestImportUnknownFieldsRoundTrip: members agyconf does not know go into
// extra = { … } and render back exactly; one holding a credential is left
// out, listed, and printed nowhere.
func TestImportUnknownFieldsRoundTrip(t *testing.T) {
	root := t.TempDir()
	for rel, data := range unknownFieldsTree {
		plant(t, root, rel, data)
	}
	secretTree := t.TempDir()
	plant(t, secretTree, ".gemini/config/mcp_config.json", `{"mcpServers": {"s": {"command": "s", "apiToken": "canary-tok-0123456789abcdef", "opts": {"password": "canary-pw"}, "note": "ghp_canary0123456789ABCDEF"}}}`)
	for _, out := range []bool{false, true} {
		opts := Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductBoth}
		if out {
			opts.Out = t.TempDir()
		}
		res, err := Import(opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"extra", "trust", "x-limits", "transport", "allow_extra", "temperature"} {
			if !strings.Contains(string(res.HCL), w) {
				t.Errorf("the imported config has no %q:\n%s", w, res.HCL)
			}
		}
		for _, it := range res.Items {
			if it.Kind == KindNotImported {
				t.Errorf("not imported: %s", it)
			}
		}
		dir := opts.Out
		if dir == "" {
			dir = t.TempDir()
		}
		plan := decodeRender(t, res, dir)
		read := secretReader(res)
		checkSameBytes(t, plan, root, ".gemini/config/mcp_config.json", read)
		checkSameBytes(t, plan, root, ".gemini/config/plugins/team/plugin.json", read)
		found := false
		for _, d := range plan.Documents {
			if d.Schema != render.SchemaOf(agy.Agents) || !strings.Contains(d.Path, "reviewer") {
				continue
			}
			found = true
			gfm, gbody, err := Markdown(d.Text)
			if err != nil {
				t.Fatal(err)
			}
			lfm, lbody, err := Markdown([]byte(unknownFieldsTree[".gemini/config/agents/reviewer.md"]))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(gfm, lfm) || gbody != lbody {
				t.Errorf("%s: rendered %v %q, live %v %q", filepath.Base(d.Path), gfm, gbody, lfm, lbody)
			}
		}
		if !found {
			t.Error("the imported config renders no subagent reviewer")
		}
	}

	res, err := Import(Options{Root: secretTree, Scope: model.ScopeGlobal, Product: model.ProductBoth})
	if err != nil {
		t.Fatal(err)
	}
	checkSecretsKept(t, secretTree, res)
	checkItems(t, res,
		"not imported: .gemini/config/mcp_config.json mcpServers.s.apiToken: a member agyconf does not know, holding what looks like a credential: extra = { … } is written as given into a file other users may read, so it cannot carry one; pass the credential in env or headers with secret_file()",
		"not imported: .gemini/config/mcp_config.json mcpServers.s.opts: a member agyconf does not know, holding what looks like a credential: extra = { … } is written as given into a file other users may read, so it cannot carry one; pass the credential in env or headers with secret_file()",
		"not imported: .gemini/config/mcp_config.json mcpServers.s.note: a member agyconf does not know, holding what looks like a credential: extra = { … } is written as given into a file other users may read, so it cannot carry one; pass the credential in env or headers with secret_file()")
}
