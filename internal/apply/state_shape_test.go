package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// stateShapes pins the members the state schema allows at each version
// (stateShape's hash). An agyconf validates its state against the schema
// of its version, which refuses a member it does not know: a member added
// without a new version makes an older agyconf of the same version (a
// Home Manager rollback) call a newer state hand-edited and advise
// starting over, where a new version gets "written by a newer agyconf;
// upgrade". Adding a member: bump StateVersion, freeze the schema as
// state-vN for the migration, and pin the new shape here.
var stateShapes = map[int]string{
	5: "1b4b809a11ad8bb2906549e50fbb3a7f33ee6d084e14a120dda93c458fbc347d",
	6: "749150828ac4e69124366c55b2c3d93e98d3694b0263c903f60bc666b70510e7",
}

// TestStateShapePinned: the state schema's members are the ones pinned for
// StateVersion.
func TestStateShapePinned(t *testing.T) {
	raw, err := os.ReadFile("../../schema/state.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	got, paths := stateShape(t, raw)
	if want := stateShapes[StateVersion]; got != want {
		t.Errorf("the state schema's members at version %d hash to %s, pinned %q: a member added or removed needs a new StateVersion (see stateShapes). Members:\n%s", StateVersion, got, want, strings.Join(paths, "\n"))
	}
}

// stateShape is the hash of the paths of every member a schema's
// properties name, sorted, and those paths.
func stateShape(t *testing.T, schemaJSON []byte) (string, []string) {
	t.Helper()
	var doc any
	if err := json.Unmarshal(schemaJSON, &doc); err != nil {
		t.Fatal(err)
	}
	var paths []string
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch v := v.(type) {
		case map[string]any:
			for k, sub := range v {
				if k == "properties" {
					if props, ok := sub.(map[string]any); ok {
						for name, p := range props {
							paths = append(paths, at+"/"+name)
							walk(p, at+"/"+name)
						}
						continue
					}
				}
				walk(sub, at)
			}
		case []any:
			for _, sub := range v {
				walk(sub, at)
			}
		}
	}
	walk(doc, "")
	slices.Sort(paths)
	paths = slices.Compact(paths)
	sum := sha256.Sum256([]byte(strings.Join(paths, "\n")))
	return hex.EncodeToString(sum[:]), paths
}
