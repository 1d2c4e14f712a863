package apply

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// flatToFolder maps agents/<name>.md to agents/<name>/agent.md, as the
// engine's layout does.
func flatToFolder(p string) (string, bool) {
	name, ok := strings.CutPrefix(p, "agents/")
	if !ok || strings.Contains(name, "/") {
		return "", false
	}
	name, ok = strings.CutSuffix(name, ".md")
	return "agents/" + name + "/agent.md", ok
}

// flatState is a state of the version before agentFolderVersion, as
// parseState reads it, recording the files given (path → content, as
// agyconf wrote them).
func flatState(t *testing.T, files map[string]string, origin Origin) *State {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, `{"version": %d, "files": {`, agentFolderVersion-1)
	var keys []string
	for k := range files {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"` + k + `": {"sha256": "` + sum([]byte(files[k])) + `", "origin": "` + string(origin) + `"}`)
	}
	b.WriteString("}}")
	st, err := ParseState("state.json", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestParseStateBeforeAgentFolders: every older version reads as the
// current shape, remembers the version it was read as, and says its
// artifacts may have moved (version 1 through every step); a state of
// agentFolderVersion or later does not; a migrated state is written as
// the current version; the older version is still checked against its
// own schema.
func TestParseStateBeforeAgentFolders(t *testing.T) {
	st := flatState(t, map[string]string{"agents/a.md": "x"}, OriginCreated)
	if st.MigratedFrom() != agentFolderVersion-1 || !st.NeedsMove() || st.Files["agents/a.md"].Origin != OriginCreated {
		t.Errorf("version %d: from %d, needs move %v, %+v", agentFolderVersion-1, st.MigratedFrom(), st.NeedsMove(), st.Files)
	}
	for v := 2; v < agentFolderVersion-1; v++ {
		older, err := ParseState("s.json", []byte(fmt.Sprintf(`{"version": %d, "files": {}}`, v)))
		if err != nil || !older.NeedsMove() || older.MigratedFrom() != v {
			t.Errorf("version %d: %v, needs move %v, from %d", v, err, older != nil && older.NeedsMove(), older.MigratedFrom())
		}
	}
	for v := agentFolderVersion; v <= StateVersion; v++ {
		cur, err := ParseState("s.json", []byte(fmt.Sprintf(`{"version": %d, "files": {}}`, v)))
		if err != nil || cur.NeedsMove() {
			t.Errorf("version %d: %v, needs move %v", v, err, cur != nil && cur.NeedsMove())
		}
	}
	v1, err := ParseState("s.json", []byte(`{"version": 1, "files": {"agents/a.md": {"sha256": "`+sum([]byte("x"))+`"}}}`))
	if err != nil || !v1.NeedsMove() {
		t.Errorf("v1: %v, needs move %v", err, v1.NeedsMove())
	}
	data, err := st.encode()
	if want := fmt.Sprintf(`"version": %d`, StateVersion); err != nil || !strings.Contains(string(data), want) {
		t.Errorf("a migrated state is written as version %d: %s %v", StateVersion, data, err)
	}
	if _, err := ParseState("s.json", []byte(fmt.Sprintf(`{"version": %d, "files": {}, "extra": 1}`, agentFolderVersion-1))); err == nil {
		t.Errorf("a version %d state is not checked against its schema", agentFolderVersion-1)
	}
}

// TestMove is the on-disk step's truth table: what agyconf owns and finds
// as it wrote it moves, with its history; everything else stays where it
// is, recorded, with a note; nothing of the user's is touched or lost.
func TestMove(t *testing.T) {
	const wrote = "---\nname: a\ndescription: d\n---\n\nYou help.\n"
	for _, tc := range []struct {
		name string
		// setup lays out the tree after agyconf wrote agents/a.md.
		setup func(e *env)
		other bool // another instance owns the new place
		// want: the key the state records a under, whether the flat file
		// and the folder file exist after, and the note's start ("" none).
		wantKey      string
		flat, folder bool
		note         string
	}{
		{name: "pristine moves", wantKey: "agents/a/agent.md", folder: true, note: "moved agents/a.md to agents/a/agent.md"},
		{name: "edited stays", setup: func(e *env) { e.write("agents/a.md", wrote+"mine\n") }, wantKey: "agents/a.md", flat: true, note: "agents/a.md was edited since agyconf wrote it"},
		{name: "gone is recorded at the new place", setup: func(e *env) { _ = os.Remove(filepath.Join(e.root, "agents/a.md")) }, wantKey: "agents/a/agent.md"},
		{name: "a move cut short before the state", setup: func(e *env) {
			e.write("agents/a/agent.md", wrote)
			_ = os.Remove(filepath.Join(e.root, "agents/a.md"))
		}, wantKey: "agents/a/agent.md", folder: true},
		{name: "both there, identical", setup: func(e *env) { e.write("agents/a/agent.md", wrote) }, wantKey: "agents/a/agent.md", folder: true, note: "moved agents/a.md"},
		{name: "the new place is the user's", setup: func(e *env) { e.write("agents/a/agent.md", "mine\n") }, wantKey: "agents/a.md", flat: true, folder: true, note: "agents/a.md would move to agents/a/agent.md, which exists and is not agyconf's"},
		{name: "gone, and the new place is the user's", setup: func(e *env) {
			e.write("agents/a/agent.md", "mine\n")
			_ = os.Remove(filepath.Join(e.root, "agents/a.md"))
		}, wantKey: "agents/a.md", folder: true},
		{name: "a link stays", setup: func(e *env) {
			e.write("elsewhere.md", wrote)
			_ = os.Remove(filepath.Join(e.root, "agents/a.md"))
			if err := os.Symlink("../elsewhere.md", filepath.Join(e.root, "agents/a.md")); err != nil {
				t.Fatal(err)
			}
		}, wantKey: "agents/a.md", flat: true, note: "agents/a.md is a link"},
		{name: "the folder is a file", setup: func(e *env) { e.write("agents/a", "not a folder\n") }, wantKey: "agents/a.md", flat: true, note: "agents/a.md would move into agents/a, which is not a folder"},
		{name: "another instance owns the new place", other: true, wantKey: "agents/a.md", flat: true, note: `agents/a.md would move to agents/a/agent.md, which the config instance "other" owns`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.write("agents/a.md", wrote)
			e.write("agents/mine.md", "the user's own\n")
			if tc.setup != nil {
				tc.setup(e)
			}
			st := flatState(t, map[string]string{"agents/a.md": wrote}, OriginAdopted)
			st.Files["agents/a.md"].Original = "0123456789abcdef"
			others := map[string]*State{}
			if tc.other {
				others["other"] = &State{Files: map[string]*FileState{"agents/a/agent.md": {SHA256: sum([]byte(wrote))}}}
			}
			notes, err := st.Move(e.fs, others, flatToFolder, true)
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Files) != 1 || st.Files[tc.wantKey] == nil {
				t.Fatalf("the state records %v, want only %s", keysOf(st.Files), tc.wantKey)
			}
			if f := st.Files[tc.wantKey]; f.Origin != OriginAdopted || f.Original != "0123456789abcdef" {
				t.Errorf("the history did not move with it: %+v", f)
			}
			if got := exists(e, "agents/a.md"); got != tc.flat {
				t.Errorf("agents/a.md exists: %v, want %v", got, tc.flat)
			}
			if got := exists(e, "agents/a/agent.md"); got != tc.folder {
				t.Errorf("agents/a/agent.md exists: %v, want %v", got, tc.folder)
			}
			if tc.wantKey == "agents/a/agent.md" && tc.folder && e.read("agents/a/agent.md") != wrote {
				t.Errorf("moved content: %q", e.read("agents/a/agent.md"))
			}
			if e.read("agents/mine.md") != "the user's own\n" {
				t.Error("the user's flat file was touched")
			}
			switch {
			case tc.note == "" && len(notes) != 0:
				t.Errorf("notes %q, want none", notes)
			case tc.note != "" && (len(notes) != 1 || !strings.HasPrefix(notes[0], tc.note)):
				t.Errorf("notes %q, want one starting %q", notes, tc.note)
			}
		})
	}
}

// TestMoveDryRun: a read-only command records where a render would put a
// file and says so, and changes nothing on disk.
func TestMoveDryRun(t *testing.T) {
	const wrote = "---\nname: a\ndescription: d\n---\n\nYou help.\n"
	e := newEnv(t)
	e.write("agents/a.md", wrote)
	st := flatState(t, map[string]string{"agents/a.md": wrote}, OriginCreated)
	notes, err := st.Move(e.fs, nil, flatToFolder, false)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("a render moves agents/a.md to agents/a/agent.md, where agy reads it (state version %d)", agentFolderVersion)
	if diff := cmp.Diff([]string{want}, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if st.Files["agents/a/agent.md"] == nil || !exists(e, "agents/a.md") || exists(e, "agents/a/agent.md") {
		t.Errorf("state %v; flat %v, folder %v", keysOf(st.Files), exists(e, "agents/a.md"), exists(e, "agents/a/agent.md"))
	}
}

// TestMoveOnlyWhatMoved: units of shared files, managed blocks and list
// items, and files the mapping does not name, stay as they are.
func TestMoveOnlyWhatMoved(t *testing.T) {
	e := newEnv(t)
	e.write("rules/a.md", "x")
	st := flatState(t, map[string]string{"rules/a.md": "x", "agents/b.md#/x": "y"}, OriginCreated)
	st.Files["agents/c.md"] = &FileState{SHA256: sum([]byte("z")), Block: true}
	notes, err := st.Move(e.fs, nil, flatToFolder, true)
	if err != nil || len(notes) != 0 {
		t.Fatalf("%v %v", notes, err)
	}
	if diff := cmp.Diff([]string{"agents/b.md#/x", "agents/c.md", "rules/a.md"}, keysOf(st.Files)); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
}

func exists(e *env, p string) bool {
	_, err := os.Lstat(filepath.Join(e.root, p))
	return err == nil
}

func keysOf(m map[string]*FileState) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
