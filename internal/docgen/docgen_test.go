package docgen

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite docs/reference.md")

const (
	referencePath = "../../docs/reference.md"
	updateDocs    = "AGYCONF_UPDATE_DOCS"
)

// TestReference keeps docs/reference.md equal to what the schema and the
// layout say: AGYCONF_UPDATE_DOCS=1 (or -update) rewrites it.
func TestReference(t *testing.T) {
	want, err := Reference()
	if err != nil {
		t.Fatal(err)
	}
	if *update || os.Getenv(updateDocs) != "" {
		if err := os.WriteFile(referencePath, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(referencePath)
	if err != nil {
		t.Fatalf("%v (run %s=1 go test ./internal/docgen/ to create it)", err, updateDocs)
	}
	if diff := cmp.Diff(string(got), string(want)); diff != "" {
		t.Errorf("docs/reference.md is stale: run %s=1 go test ./internal/docgen/ to rewrite it (-file +generated):\n%s", updateDocs, diff)
	}
}

// TestReferenceCovers: every property of every body in the schema appears
// in the reference, and every block has a section.
func TestReferenceCovers(t *testing.T) {
	b, err := Reference()
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{
		"`mcp_server \"NAME\"`", "`hook \"NAME\" › pre_tool_use › handler`", "`plugin \"NAME\" › agent \"NAME\"`",
		"`harness \"mempalace\"`", "`harness \"xmsg\"`", "`acp`", "`agyconf › layout`",
		"- `server_url` (", "- `timeout` (", "- `save_interval` (", "- `agy_exe` (", "`toolPermission` (", "`legacy_mcp_config`",
		"[`mcp_config`](#where-files-go) → `mcpServers.NAME`", "[`rules`](#where-files-go)`/NAME.md`",
		"a managed block of [`global_rules`](#where-files-go)", "## Where files go", "| `mcp_config` | `.gemini/config/mcp_config.json` |",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the reference lacks %q", want)
		}
	}
	for _, bad := range []string{"(no definition", " (any)", " (any;", "→ any)", "→ any;"} {
		if strings.Contains(text, bad) {
			t.Errorf("the reference contains %q: a schema form the generator does not know", bad)
		}
	}
}
