package apply

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agyconf/agyconf/schema"
)

// TestMigrateV2: a state of version 2 (no list of what waits for a
// secret) reads as the current version with everything it recorded, says it was
// migrated, and is written back in the current shape, which the current
// schema accepts; version 2 with a version 3 member is refused by the
// version 2 schema, and a version newer than this agyconf's is refused
// with a message, never misread.
func TestMigrateV2(t *testing.T) {
	_, want, got := readFullState(t, 2)
	if got.MigratedFrom() != 2 || got.Version != StateVersion || got.Waiting != nil {
		t.Errorf("migrated from %d to version %d, waiting %v; want from 2 to %d, nothing waiting", got.MigratedFrom(), got.Version, got.Waiting, StateVersion)
	}
	want.Version = StateVersion
	migrateV4(&want) // the shared files it has entries in: written, as far as it knows
	if d := cmp.Diff(&want, got, cmpopts.IgnoreUnexported(State{})); d != "" {
		t.Errorf("the migrated state lost or changed something (-v2 +v3):\n%s", d)
	}
	enc, err := got.encode()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(enc), fmt.Sprintf(`"version": %d`, StateVersion)) {
		t.Errorf("written back as\n%s", enc)
	}
	v, err := schema.NewValidator(schema.State)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.ValidateJSON(schema.State, enc); err != nil {
		t.Errorf("the migrated state fails the current schema: %v", err)
	}
	again, err := ParseState("full.json", enc)
	if err != nil || again.MigratedFrom() != 0 {
		t.Errorf("reading it again: migrated from %d, %v", again.MigratedFrom(), err)
	}

	if _, err := ParseState("v2.json", []byte(`{"version": 2, "files": {}, "waiting": {"a.json#/x": ["/s"]}}`)); err == nil || !strings.Contains(err.Error(), "waiting") {
		t.Errorf("a version 2 state with a version 3 member: %v", err)
	}
	if _, err := ParseState("newer.json", []byte(fmt.Sprintf(`{"version": %d, "files": {}}`, StateVersion+1))); err == nil || !strings.Contains(err.Error(), "newer agyconf") {
		t.Errorf("a newer state: %v", err)
	}
	// Waiting survives a round trip, sorted.
	st := NewState()
	st.Waiting = map[string][]string{"a.json#/x": {"/z", "%r/a"}}
	enc, err = st.encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseState("s.json", enc)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string][]string{"a.json#/x": {"%r/a", "/z"}}, back.Waiting); d != "" {
		t.Errorf("waiting (-want +got):\n%s", d)
	}
}

// TestMigrateV4: a state of version 4 (before what letting go needs was
// recorded) reads as the current version with everything it recorded,
// the shared files it has entries in as written into (what was written
// unknown) and nothing else of version 5 (no earlier layouts, folders,
// gone entries), says it was migrated, needs no move on disk, and is written
// back in a shape the current schema accepts; a version 4 state with a
// version 5 member is refused by the version 4 schema; and every member
// version 5 added survives a round trip.
func TestMigrateV4(t *testing.T) {
	_, want, got := readFullState(t, 4)
	if got.MigratedFrom() != 4 || got.Version != StateVersion || got.NeedsMove() {
		t.Errorf("migrated from %d to version %d, needs a move %v; want from 4 to %d, no move", got.MigratedFrom(), got.Version, got.NeedsMove(), StateVersion)
	}
	want.Version = StateVersion
	// The shared files it has entries in are ones it wrote into, what it
	// wrote unknown.
	want.Shared = map[string]*SharedFile{".gemini/antigravity-cli/settings.json": {}, ".gemini/config/mcp_config.json": {}}
	if d := cmp.Diff(&want, got, cmpopts.IgnoreUnexported(State{})); d != "" {
		t.Errorf("the migrated state lost or changed something (-v4 +v5):\n%s", d)
	}
	enc, err := got.encode()
	if err != nil {
		t.Fatal(err)
	}
	v, err := schema.NewValidator(schema.State)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.ValidateJSON(schema.State, enc); err != nil {
		t.Errorf("the migrated state fails the current schema: %v", err)
	}
	if _, err := ParseState("v4.json", []byte(`{"version": 4, "files": {}, "folders": ["a"]}`)); err == nil || !strings.Contains(err.Error(), "folders") {
		t.Errorf("a version 4 state with a version 5 member: %v", err)
	}
	st := NewState()
	st.Files["a.json#/mcpServers/x"] = &FileState{SHA256: strings.Repeat("a", 64), Origin: OriginCreated, Earlier: []string{strings.Repeat("b", 64)}, SecretsBefore: []string{"/env/T"}}
	st.Layout = map[string][]string{"skills": {"z", "a"}}
	st.Shared = map[string]*SharedFile{"a.json": {Created: true, SHA256: strings.Repeat("c", 64)}}
	st.Folders = []string{"b", "a"}
	st.Gone = []Gone{{Key: "a.json#/mcpServers/y", Hashes: []string{strings.Repeat("d", 64)}, Origin: OriginAdopted, Original: strings.Repeat("e", 32)}}
	if enc, err = st.encode(); err != nil {
		t.Fatal(err)
	}
	if err := v.ValidateJSON(schema.State, enc); err != nil {
		t.Fatalf("a state with every version 5 member fails the schema: %v\n%s", err, enc)
	}
	back, err := ParseState("s.json", enc)
	if err != nil {
		t.Fatal(err)
	}
	st.Layout["skills"], st.Folders = []string{"a", "z"}, []string{"a", "b"} // written sorted
	if d := cmp.Diff(st, back, cmpopts.IgnoreUnexported(State{})); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}

// TestRememberItem: a list item agyconf removed is remembered as its
// text's hash, in the shape the schema allows, and comes back as one it
// created; a record whose hash is not the item's (an edited state)
// claims nothing.
func TestRememberItem(t *testing.T) {
	key := "s.json#/permissions/allow[]command(git *)"
	st := NewState()
	st.remember(key, &FileState{Item: true, Origin: OriginCreated})
	if len(st.Gone) != 1 || !slices.Equal(st.Gone[0].Hashes, []string{sum([]byte("command(git *)"))}) {
		t.Fatalf("gone %+v", st.Gone)
	}
	enc, err := st.encode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseState("s.json", enc); err != nil {
		t.Fatalf("a state remembering an item fails the schema: %v\n%s", err, enc)
	}
	if f := st.gone(key).asOwned(); f == nil || !f.Item || f.Origin != OriginCreated {
		t.Errorf("a remembered item claims %+v, want a created item", f)
	}
	st.Gone[0].Hashes = []string{strings.Repeat("a", 64)}
	if f := st.gone(key).asOwned(); f != nil {
		t.Errorf("an item remembered with another hash claims %+v", f)
	}
}

// TestMigrateV5: a state of version 5 (before the containers of shared
// files were recorded) reads as the current version with everything it
// recorded and no containers, says it was migrated, and is written back
// in a shape the current schema accepts; the containers the builds of
// version 5 from commit 6be76c7 on wrote are read as version 6 reads them,
// and another member of a later version is refused.
func TestMigrateV5(t *testing.T) {
	_, want, got := readFullState(t, 5)
	if got.MigratedFrom() != 5 || got.Version != StateVersion || got.NeedsMove() {
		t.Errorf("migrated from %d to version %d, needs a move %v; want from 5 to %d, no move", got.MigratedFrom(), got.Version, got.NeedsMove(), StateVersion)
	}
	want.Version = StateVersion
	if d := cmp.Diff(&want, got, cmpopts.IgnoreUnexported(State{})); d != "" {
		t.Errorf("the migrated state lost or changed something (-v5 +v6):\n%s", d)
	}
	enc, err := got.encode()
	if err != nil {
		t.Fatal(err)
	}
	v, err := schema.NewValidator(schema.State)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.ValidateJSON(schema.State, enc); err != nil {
		t.Errorf("the migrated state fails the current schema: %v", err)
	}
	v5 := `{"version": 5, "files": {}, "shared": {"a.json": {"containers": ["/mcpServers"]}}}`
	for _, text := range []string{v5, strings.Replace(v5, `"version": 5`, `"version": 6`, 1)} {
		st, err := ParseState("v.json", []byte(text))
		if err != nil || !slices.Equal(st.Shared["a.json"].Containers, []string{"/mcpServers"}) {
			t.Errorf("%s: %v", text, err)
		}
	}
	if _, err := ParseState("v5.json", []byte(`{"version": 5, "files": {}, "shared": {"a.json": {"later": true}}}`)); err == nil || !strings.Contains(err.Error(), "later") {
		t.Errorf("a version 5 state with an unknown member: %v", err)
	}
}

// readFullState reads the schema's full fixture of a state version: its
// text, the State it decodes to as written, and what ParseState makes of
// it (migrated to the current version).
func readFullState(t *testing.T, version int) ([]byte, State, *State) {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("../../schema/testdata/documents/state-v%d/valid/full.json", version))
	if err != nil {
		t.Fatal(err)
	}
	var want State
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	got, err := ParseState("full.json", raw)
	if err != nil {
		t.Fatal(err)
	}
	return raw, want, got
}
