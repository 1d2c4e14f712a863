package apply

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// env is one root and its state file.
type env struct {
	t       *testing.T
	root    string
	fs      FS // the root, opened once
	opts    Options
	secrets map[string]string
}

// stateDir is where the tests keep the state, as global scope does.
const stateDir = ".local/state/agyconf"

func newEnv(t *testing.T) *env {
	e := &env{t: t, secrets: map[string]string{"/run/secrets/t": "tok-1"}}
	e.opts = Options{Instance: "state", Secrets: func(p string) (string, error) {
		s, ok := e.secrets[p]
		if !ok {
			return "", os.ErrNotExist
		}
		return s, nil
	}}
	e.setRoot(t.TempDir())
	return e
}

// setRoot renders into root from now on.
func (e *env) setRoot(root string) {
	e.t.Helper()
	fsys, err := confine.Open(root, confine.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { fsys.Close() })
	e.root, e.fs = root, fsys
	e.opts.FS = fsys
}

// options are the env's options with the FS a test set (nil: the root)
// and a store on it.
func (e *env) options() Options {
	o := e.opts
	if o.FS == nil {
		o.FS = e.fs
	}
	o.Store = NewStore(o.FS, stateDir)
	return o
}

// statePath is the state file, absolute.
func (e *env) statePath() string { return filepath.Join(e.root, stateDir, e.opts.Instance+".json") }

// loadState reads the state as a render would.
func (e *env) loadState() (*State, error) { return NewStore(e.fs, stateDir).LoadState(e.opts.Instance) }

// run applies plan and returns the action per path, or the error.
func (e *env) run(plan *render.Plan) (map[string]Action, error) {
	e.t.Helper()
	changes, _, decided, err := e.apply(plan)
	if !decided {
		return nil, err
	}
	got := map[string]Action{}
	for _, c := range changes {
		got[c.Path] = c.Action
	}
	return got, err
}

// apply decides and executes plan as a render does, and returns the
// changes and the state the render left; decided is false when Decide
// failed (err is its error), else err is Execute's.
func (e *env) apply(plan *render.Plan) (changes []Change, st *State, decided bool, err error) {
	e.t.Helper()
	st, err = e.loadState()
	if err != nil {
		e.t.Fatal(err)
	}
	opts := e.options()
	if changes, err = Decide(plan, st, opts); err != nil {
		return nil, st, false, err
	}
	return changes, st, true, Execute(changes, st, opts)
}

func (e *env) read(p string) string {
	e.t.Helper()
	b, err := os.ReadFile(filepath.Join(e.root, p))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

func (e *env) write(p, s string) {
	e.t.Helper()
	full := filepath.Join(e.root, p)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

func textDoc(p, s string) *render.Document {
	return &render.Document{Path: p, Mode: render.ModeFile, Text: []byte(s)}
}

func mcpDoc(token model.Str) *render.Document {
	return &render.Document{Path: "cfg/mcp_config.json", Mode: render.ModeSecret, JSON: map[string]any{
		"mcpServers": map[string]any{"gh": map[string]any{"command": "gh", "env": map[string]any{"TOKEN": token}}},
	}}
}

func plan(docs ...*render.Document) *render.Plan { return &render.Plan{Documents: docs} }

func wantActions(t *testing.T, got map[string]Action, want map[string]Action) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
}

// TestLifecycle walks one file through the decision table: create,
// unchanged, update, edited (conflict), deleted (recreate), prune.
func TestLifecycle(t *testing.T) {
	e := newEnv(t)
	got, err := e.run(plan(textDoc("a.md", "one\n")))
	if err != nil {
		t.Fatal(err)
	}
	wantActions(t, got, map[string]Action{"a.md": Create})

	got, _ = e.run(plan(textDoc("a.md", "one\n")))
	wantActions(t, got, map[string]Action{"a.md": Unchanged})

	got, _ = e.run(plan(textDoc("a.md", "two\n")))
	wantActions(t, got, map[string]Action{"a.md": Update})
	if s := e.read("a.md"); s != "two\n" {
		t.Errorf("a.md = %q after update", s)
	}

	e.write("a.md", "edited by hand\n")
	got, err = e.run(plan(textDoc("a.md", "three\n")))
	var ce *ConflictError
	if !errors.As(err, &ce) || got["a.md"] != Conflict {
		t.Fatalf("edited file: got %v, %v; want a conflict", got, err)
	}
	if s := e.read("a.md"); s != "edited by hand\n" {
		t.Errorf("a conflict changed the file: %q", s)
	}

	if err := os.Remove(filepath.Join(e.root, "a.md")); err != nil {
		t.Fatal(err)
	}
	got, _ = e.run(plan(textDoc("a.md", "three\n")))
	wantActions(t, got, map[string]Action{"a.md": Recreate})

	got, _ = e.run(plan())
	wantActions(t, got, map[string]Action{"a.md": Prune})
	if _, err := os.Stat(filepath.Join(e.root, "a.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("pruned file still there: %v", err)
	}
}

// TestForeignFiles: a file agyconf did not write is recorded as found
// when it already holds what agyconf wants, refused otherwise, and never
// changed; once found, it is given back when agyconf lets go of it: left
// in place if agyconf never changed it, restored if it did.
func TestForeignFiles(t *testing.T) {
	e := newEnv(t)
	e.write("same.md", "x\n")
	e.write("other.md", "mine\n")
	e.write("kept.md", "k\n")
	got, err := e.run(plan(textDoc("same.md", "x\n"), textDoc("other.md", "theirs\n"), textDoc("new.md", "n\n")))
	wantActions(t, got, map[string]Action{"same.md": Found, "other.md": Conflict, "new.md": Create})
	var ce *ConflictError
	if !errors.As(err, &ce) || len(ce.Changes) != 1 || !strings.Contains(ce.Error(), "other.md") || !strings.Contains(ce.Error(), "agyconf render --adopt") {
		t.Fatalf("want one conflict naming other.md and its way out, got %v", err)
	}
	if e.read("other.md") != "mine\n" {
		t.Error("the foreign file was changed")
	}
	if _, err := os.Stat(filepath.Join(e.root, "new.md")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a run with a conflict wrote another file")
	}
	if err := os.Remove(filepath.Join(e.root, "other.md")); err != nil {
		t.Fatal(err)
	}
	got, err = e.run(plan(textDoc("same.md", "x\n"), textDoc("other.md", "theirs\n"), textDoc("kept.md", "k\n")))
	if err != nil {
		t.Fatal(err)
	}
	wantActions(t, got, map[string]Action{"same.md": Found, "other.md": Create, "kept.md": Found})
	st, _ := e.loadState()
	if o := st.Files["same.md"].Origin; o != OriginFound {
		t.Fatalf("same.md recorded as %q, want found", o)
	}
	// agyconf changes a found file: what was found is backed up first.
	got, _ = e.run(plan(textDoc("same.md", "y\n"), textDoc("other.md", "theirs\n"), textDoc("kept.md", "k\n")))
	wantActions(t, got, map[string]Action{"same.md": Update, "other.md": Unchanged, "kept.md": Unchanged})
	st, _ = e.loadState()
	if st.Files["same.md"].Original == "" || len(st.Backups) != 1 || st.Backups[0].Reason != "found" {
		t.Fatalf("no backup of what was found: %+v %+v", st.Files["same.md"], st.Backups)
	}
	// Dropped from the config: what agyconf created goes, what it found
	// stays (kept.md) or comes back as it was found (same.md).
	got, err = e.run(plan())
	if err != nil {
		t.Fatal(err)
	}
	wantActions(t, got, map[string]Action{"same.md": Restore, "other.md": Prune, "kept.md": Release})
	if e.read("same.md") != "x\n" || e.read("kept.md") != "k\n" {
		t.Fatalf("not given back: same.md %q, kept.md %q", e.read("same.md"), e.read("kept.md"))
	}
	if _, err := os.Stat(filepath.Join(e.root, "other.md")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a file agyconf created was not pruned")
	}
	if st, _ := e.loadState(); len(st.Files) != 0 {
		t.Errorf("the state still records %v", st.Files)
	}
}

// TestStaleEdited: a file agyconf wrote, edited, then dropped from the
// config is kept and stays recorded.
func TestStaleEdited(t *testing.T) {
	e := newEnv(t)
	if _, err := e.run(plan(textDoc("a.md", "one\n"))); err != nil {
		t.Fatal(err)
	}
	e.write("a.md", "mine now\n")
	got, err := e.run(plan())
	if err != nil {
		t.Fatal(err)
	}
	wantActions(t, got, map[string]Action{"a.md": Keep})
	if e.read("a.md") != "mine now\n" {
		t.Error("an edited stale file was changed")
	}
}

// TestSecretsNeverHashed: the state holds the hash of the redacted form;
// a new secret value changes nothing on disk, and a moved secret is an
// update, not a conflict.
func TestSecretsNeverHashed(t *testing.T) {
	e := newEnv(t)
	secret := model.Str{{SecretFile: "/run/secrets/t"}}
	if _, err := e.run(plan(mcpDoc(secret))); err != nil {
		t.Fatal(err)
	}
	if s := e.read("cfg/mcp_config.json"); !strings.Contains(s, `"TOKEN": "tok-1"`) {
		t.Fatalf("secret not written:\n%s", s)
	}
	st, _ := os.Stat(filepath.Join(e.root, "cfg/mcp_config.json"))
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %o, want 0600", st.Mode().Perm())
	}
	state := e.read(".local/state/agyconf/state.json")
	if strings.Contains(state, "tok-1") || !strings.Contains(state, "/mcpServers/gh/env/TOKEN") {
		t.Errorf("state leaks the secret or lacks its pointer:\n%s", state)
	}
	got, err := e.run(plan(mcpDoc(secret)))
	if err != nil {
		t.Fatal(err)
	}
	wantActions(t, got, map[string]Action{"cfg/mcp_config.json": Unchanged})
	// A rotated secret is found by comparing bytes in memory, and the file
	// is agyconf's (its redacted hash is the recorded one): an update.
	e.secrets["/run/secrets/t"] = "tok-2"
	got, _ = e.run(plan(mcpDoc(secret)))
	wantActions(t, got, map[string]Action{"cfg/mcp_config.json": Update})
	if s := e.read("cfg/mcp_config.json"); !strings.Contains(s, `"TOKEN": "tok-2"`) {
		t.Errorf("rotated secret not written:\n%s", s)
	}
	// The value becomes a literal: an update of agyconf's own file.
	got, err = e.run(plan(mcpDoc(model.Str{{Text: "literal"}})))
	if err != nil {
		t.Fatal(err)
	}
	wantActions(t, got, map[string]Action{"cfg/mcp_config.json": Update})
	// An unreadable secret stops the run before anything is written.
	e.secrets = map[string]string{}
	if _, err := e.run(plan(mcpDoc(secret), textDoc("b.md", "b\n"))); err == nil {
		t.Error("an unreadable secret must be an error")
	}
	if _, err := os.Stat(filepath.Join(e.root, "b.md")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a failed run wrote a file")
	}
}

// TestJSONCanonical: reformatting a JSON file agyconf wrote (indentation,
// key order) is not an edit.
func TestJSONCanonical(t *testing.T) {
	e := newEnv(t)
	d := &render.Document{Path: "h.json", Mode: render.ModeFile, JSON: map[string]any{"b": 1, "a": []any{"x"}}}
	if _, err := e.run(plan(d)); err != nil {
		t.Fatal(err)
	}
	e.write("h.json", `{"a":["x"],   "b":1}`)
	got, err := e.run(plan(d))
	if err != nil {
		t.Fatal(err)
	}
	wantActions(t, got, map[string]Action{"h.json": Update}) // only the mode/bytes are restored
	if e.read("h.json") != "{\n  \"a\": [\n    \"x\"\n  ],\n  \"b\": 1\n}\n" {
		t.Errorf("not rewritten canonically:\n%s", e.read("h.json"))
	}
}

// TestInvalidLiveJSON: a live JSON file agyconf cannot parse is never
// overwritten, and the error names line and column.
func TestInvalidLiveJSON(t *testing.T) {
	e := newEnv(t)
	d := &render.Document{Path: "h.json", Mode: render.ModeFile, JSON: map[string]any{"a": 1}}
	if _, err := e.run(plan(d)); err != nil {
		t.Fatal(err)
	}
	e.write("h.json", "{\n  \"a\": 1,\n}\n")
	_, err := e.run(plan(&render.Document{Path: "h.json", Mode: render.ModeFile, JSON: map[string]any{"a": 2}}))
	if err == nil || !strings.Contains(err.Error(), "line 3, column") {
		t.Fatalf("want an error with the position, got %v", err)
	}
}

// TestSymlink: agyconf never writes through a symbolic link.
func TestSymlink(t *testing.T) {
	e := newEnv(t)
	target := filepath.Join(e.root, "elsewhere.md")
	e.write("elsewhere.md", "theirs\n")
	if err := os.Symlink(target, filepath.Join(e.root, "a.md")); err != nil {
		t.Fatal(err)
	}
	got, err := e.run(plan(textDoc("a.md", "ours\n")))
	wantActions(t, got, map[string]Action{"a.md": Conflict})
	if err == nil || e.read("elsewhere.md") != "theirs\n" {
		t.Errorf("wrote through a link: %v", err)
	}
}

// TestManagedBlock: agyconf owns only the text between its markers; the
// user's text around them survives every render and the block's removal.
func TestManagedBlock(t *testing.T) {
	e := newEnv(t)
	block := func(s string) *render.Document {
		return &render.Document{Path: "GEMINI.md", Kind: render.ManagedBlock, Mode: render.ModeFile, Text: []byte(s)}
	}
	user := "# My notes\n\nBe brief.\n"
	e.write("GEMINI.md", user)
	got, err := e.run(plan(block("## rule\n\nOne.\n")))
	if err != nil {
		t.Fatal(err)
	}
	wantActions(t, got, map[string]Action{"GEMINI.md": Create})
	want := user + "\n" + blockBegin + "\n## rule\n\nOne.\n" + blockEnd + "\n"
	if s := e.read("GEMINI.md"); s != want {
		t.Fatalf("after create:\n%s\nwant:\n%s", s, want)
	}
	// The user adds text after the block; an update keeps it.
	e.write("GEMINI.md", e.read("GEMINI.md")+"More notes.\n")
	if _, err := e.run(plan(block("## rule\n\nTwo.\n"))); err != nil {
		t.Fatal(err)
	}
	if s := e.read("GEMINI.md"); !strings.HasPrefix(s, user) || !strings.HasSuffix(s, blockEnd+"\nMore notes.\n") || !strings.Contains(s, "Two.") {
		t.Fatalf("after update:\n%s", s)
	}
	// Editing inside the block is a conflict.
	e.write("GEMINI.md", strings.Replace(e.read("GEMINI.md"), "Two.", "Mine.", 1))
	if got, _ := e.run(plan(block("## rule\n\nThree.\n"))); got["GEMINI.md"] != Conflict {
		t.Errorf("edit inside the block: got %v", got)
	}
	e.write("GEMINI.md", strings.Replace(e.read("GEMINI.md"), "Mine.", "Two.", 1))
	// Dropping every global rule removes the block and only the block.
	if _, err := e.run(plan()); err != nil {
		t.Fatal(err)
	}
	if s := e.read("GEMINI.md"); s != user+"More notes.\n" {
		t.Errorf("after prune:\n%q", s)
	}
}

func TestSpliceBlockShapes(t *testing.T) {
	wrapped := blockBegin + "\nB\n" + blockEnd + "\n"
	for _, tc := range []struct{ name, file, want string }{
		{"empty", "", wrapped},
		{"no-newline", "text", "text\n\n" + wrapped},
		{"replace-middle", "a\n" + blockBegin + "\nold\n" + blockEnd + "\nz\n", "a\n" + wrapped + "z\n"},
		{"replace-at-eof-without-newline", "a\n" + blockBegin + "\nold\n" + blockEnd, "a\n" + wrapped},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(html.splice([]byte(tc.file), []byte("B\n"))); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if _, _, err := html.extract([]byte(blockEnd + "\n" + blockBegin + "\n")); err == nil {
		t.Error("markers out of order must be an error")
	}
	if _, _, err := html.extract(bytes.Repeat([]byte(blockBegin+"\n"+blockEnd+"\n"), 2)); err == nil {
		t.Error("two blocks must be an error")
	}
}

// TestBatchLeavesNoTemporaries: a committed batch and a failed one both
// leave no temporary file behind, and the failed one changes no target.
func TestBatchLeavesNoTemporaries(t *testing.T) {
	e := newEnv(t)
	if _, err := e.run(plan(textDoc("a/x.md", "x\n"), textDoc("b/c/y.md", "y\n"))); err != nil {
		t.Fatal(err)
	}
	// A target whose folder is a file cannot be written: the whole batch
	// fails before any rename.
	e.write("blocked", "a file where a folder should be\n")
	_, err := e.run(plan(textDoc("a/x.md", "x2\n"), textDoc("blocked/z.md", "z\n")))
	if err == nil {
		t.Fatal("want an error for a target below a file")
	}
	if e.read("a/x.md") != "x\n" {
		t.Error("a failed batch renamed a file into place")
	}
	err = filepath.WalkDir(e.root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), tempPrefix) {
			t.Errorf("temporary file left behind: %s", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentWriterKept: agy writing its settings between agyconf's
// decision and its write loses nothing, and neither does agyconf.
func TestConcurrentWriterKept(t *testing.T) {
	e := newEnv(t)
	e.write("settings.json", `{"model": "x", "permissions": {"allow": ["read_file"]}}`)
	d := &render.Document{Path: "settings.json", Mode: render.ModeFile, JSON: map[string]any{
		"toolPermission": "strict",
		"permissions":    map[string]any{"allow": []any{"command(git *)"}},
	}, Merge: &render.Merge{Items: [][]string{{"permissions", "allow"}}}}
	st, _ := e.loadState()
	changes, err := Decide(plan(d), st, e.options())
	if err != nil {
		t.Fatal(err)
	}
	// agy, meanwhile: a login token and a grant of its own.
	e.write("settings.json", `{"model": "x", "auth": {"token": "t"}, "permissions": {"allow": ["read_file", "write_file"]}}`)
	if err := Execute(changes, st, e.options()); err != nil {
		t.Fatal(err)
	}
	got := e.read("settings.json")
	for _, want := range []string{`"auth"`, `"write_file"`, `"read_file"`, `"command(git *)"`, `"toolPermission": "strict"`} {
		if !strings.Contains(got, want) {
			t.Errorf("settings.json lacks %s:\n%s", want, got)
		}
	}
}

// TestManagedBlockCRLF: a GEMINI.md an editor converted to CRLF after
// agyconf wrote its block: the block is found, in sync, updated in place
// with CRLF, never written twice, and clean removes it whole.
func TestManagedBlockCRLF(t *testing.T) {
	e := newEnv(t)
	e.write("GEMINI.md", "# Mine\n")
	block := func(s string) *render.Document {
		return &render.Document{Path: "GEMINI.md", Kind: render.ManagedBlock, Mode: render.ModeFile, Text: []byte(s)}
	}
	if _, err := e.run(plan(block("## rule\n\nOne.\n"))); err != nil {
		t.Fatal(err)
	}
	e.write("GEMINI.md", strings.ReplaceAll(e.read("GEMINI.md"), "\n", "\r\n"))
	got, err := e.run(plan(block("## rule\n\nOne.\n")))
	if err != nil {
		t.Fatal(err)
	}
	wantActions(t, got, map[string]Action{"GEMINI.md": Unchanged})
	if _, err := e.run(plan(block("## rule\n\nTwo.\n"))); err != nil {
		t.Fatal(err)
	}
	text := e.read("GEMINI.md")
	if strings.Count(text, blockBegin) != 1 || !strings.Contains(text, "Two.\r\n") || strings.Contains(strings.ReplaceAll(text, "\r\n", ""), "\n") {
		t.Fatalf("after an update: %q", text)
	}
	if _, err := e.run(plan()); err != nil {
		t.Fatal(err)
	}
	if text := e.read("GEMINI.md"); text != "# Mine\r\n" {
		t.Fatalf("after the prune: %q, want the user's text back", text)
	}
}

// TestAgyTogglesStay: `agy mcp disable` sets "disabled" on a server
// agyconf owns; where the config does not set it, that is the user's: not
// an edit, not a conflict, kept through agyconf's updates. Where the config
// sets it, a change is an edit as any other.
func TestAgyTogglesStay(t *testing.T) {
	e := newEnv(t)
	doc := func(cmd string, disabled *bool) *render.Document {
		srv := map[string]any{"command": cmd}
		if disabled != nil {
			srv["disabled"] = *disabled
		}
		return &render.Document{Path: "cfg/mcp_config.json", Mode: render.ModeFile, JSON: map[string]any{"mcpServers": map[string]any{"gh": srv}},
			Merge: &render.Merge{Parent: []string{"mcpServers"}}}
	}
	if _, err := e.run(plan(doc("gh-v1", nil))); err != nil {
		t.Fatal(err)
	}
	// agy mcp disable gh:
	e.write("cfg/mcp_config.json", strings.Replace(e.read("cfg/mcp_config.json"), `"command": "gh-v1"`, `"command": "gh-v1", "disabled": true`, 1))
	got, err := e.run(plan(doc("gh-v1", nil)))
	if err != nil {
		t.Fatalf("agy's toggle is a conflict: %v", err)
	}
	wantActions(t, got, map[string]Action{"cfg/mcp_config.json": Unchanged})
	if _, err := e.run(plan(doc("gh-v2", nil))); err != nil {
		t.Fatalf("an update over agy's toggle: %v", err)
	}
	if text := e.read("cfg/mcp_config.json"); !strings.Contains(text, `"disabled": true`) || !strings.Contains(text, "gh-v2") {
		t.Fatalf("the update lost agy's toggle or the config's change:\n%s", text)
	}
	// The config now sets disabled itself, to false, where agy set true:
	// the field is the config's now, and agy's value a conflict, as any
	// edit of a field the config sets; --force writes the config's.
	f := false
	if _, err := e.run(plan(doc("gh-v2", &f))); err == nil {
		t.Fatal("agy's value of a field the config now sets was not a conflict")
	}
	e.opts.Force = true
	if _, err := e.run(plan(doc("gh-v2", &f))); err != nil {
		t.Fatal(err)
	}
	e.opts.Force = false
	if text := e.read("cfg/mcp_config.json"); !strings.Contains(text, `"disabled": false`) {
		t.Fatalf("the config's own value was not written:\n%s", text)
	}
	e.write("cfg/mcp_config.json", strings.Replace(e.read("cfg/mcp_config.json"), `"disabled": false`, `"disabled": true`, 1))
	if _, err := e.run(plan(doc("gh-v2", &f))); err == nil {
		t.Fatal("a change to a field the config sets was not a conflict")
	}
}

// TestSecretFileModeIsDrift: a shared file that holds inline credentials
// is 0600 whatever its history: a wider mode is drift, and a render puts
// it back.
func TestSecretFileModeIsDrift(t *testing.T) {
	e := newEnv(t)
	if _, err := e.run(plan(mcpDoc(model.Str{{SecretFile: "/run/secrets/t"}}))); err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(e.root, "cfg/mcp_config.json")
	if fi, _ := os.Stat(full); fi.Mode().Perm() != 0o600 {
		t.Fatalf("written %v", fi.Mode())
	}
	if err := os.Chmod(full, 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := e.loadState()
	changes, err := Decide(plan(mcpDoc(model.Str{{SecretFile: "/run/secrets/t"}})), st, e.options())
	if err != nil {
		t.Fatal(err)
	}
	if d := Drift(changes); len(d) != 1 || d[0].Action != Update || !strings.Contains(d[0].Reason, "0600") {
		t.Fatalf("drift %+v, want the mode", d)
	}
	if err := Execute(changes, st, e.options()); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(full); fi.Mode().Perm() != 0o600 {
		t.Fatalf("render left %v", fi.Mode())
	}
}

// agyWritesFS is the real root where agy writes settings.json each time
// agyconf reads it, a given number of times: a writer faster than a
// render's rebuild and write, whose every write must survive the render.
type agyWritesFS struct {
	FS
	e      *env
	writes int
	n      int
}

func (f *agyWritesFS) ReadFile(name string, limit int64) ([]byte, fs.FileInfo, error) {
	data, fi, err := f.FS.ReadFile(name, limit)
	if name == "settings.json" && f.n < f.writes {
		// Just after agyconf's read: agy's next write lands.
		f.n++
		f.e.write("settings.json", fmt.Sprintf(`{"model": "x", "agy": %d, "permissions": {"allow": ["read_file"]}}`, f.n))
	}
	return data, fi, err
}

// TestSettleKeepsEveryWrite: agy writes the shared file after each of
// agyconf's reads, twenty times in a row (more than the eight rounds the
// batch once gave up after): the render merges into the last of them.
func TestSettleKeepsEveryWrite(t *testing.T) {
	e := newEnv(t)
	e.write("settings.json", `{"model": "x", "permissions": {"allow": ["read_file"]}}`)
	d := &render.Document{Path: "settings.json", Mode: render.ModeFile, JSON: map[string]any{
		"toolPermission": "strict",
	}, Merge: &render.Merge{}}
	st, _ := e.loadState()
	changes, err := Decide(plan(d), st, e.options())
	if err != nil {
		t.Fatal(err)
	}
	opts := e.options()
	agy := &agyWritesFS{FS: opts.FS, e: e, writes: 20}
	opts.FS = agy
	if err := Execute(changes, st, opts); err != nil {
		t.Fatal(err)
	}
	got := e.read("settings.json")
	if !strings.Contains(got, `"agy": 20`) || !strings.Contains(got, `"toolPermission": "strict"`) {
		t.Errorf("after %d writes of agy's, settings.json is\n%s", agy.n, got)
	}
}

// tornFS is the real root where settings.json reads empty a few times, as
// a file agy is writing in place reads halfway.
type tornFS struct {
	FS
	left int
}

func (f *tornFS) ReadFile(name string, limit int64) ([]byte, fs.FileInfo, error) {
	data, fi, err := f.FS.ReadFile(name, limit)
	if name == "settings.json" && f.left > 0 && err == nil {
		f.left--
		return data[:len(data)/3], fi, nil
	}
	return data, fi, err
}

// TestTornFileReadAgain: a shared file caught half written is read again
// instead of failing the render; one that stays unreadable is still an
// error with its position.
func TestTornFileReadAgain(t *testing.T) {
	e := newEnv(t)
	e.write("settings.json", `{"model": "x", "permissions": {"allow": ["read_file"]}}`)
	d := &render.Document{Path: "settings.json", Mode: render.ModeFile, JSON: map[string]any{"toolPermission": "strict"}, Merge: &render.Merge{}}
	opts := e.options()
	opts.FS = &tornFS{FS: opts.FS, left: 3}
	st, _ := e.loadState()
	if _, err := Decide(plan(d), st, opts); err != nil {
		t.Fatalf("a file read half written three times: %v", err)
	}
	opts.FS = &tornFS{FS: e.options().FS, left: 100}
	if _, err := Decide(plan(d), st, opts); err == nil || !strings.Contains(err.Error(), "cannot read") {
		t.Fatalf("a file that never reads whole: %v", err)
	}
}
