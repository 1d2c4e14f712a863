package apply

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/render"
)

// containScene is a root beside a folder outside it.
type containScene struct {
	env     *env
	outside string
}

func newContainScene(t *testing.T) *containScene {
	base := t.TempDir()
	root := filepath.Join(base, "home")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e := newEnv(t)
	e.setRoot(root)
	return &containScene{env: e, outside: outside}
}

func (s *containScene) link(rel, target string) {
	s.env.t.Helper()
	full := filepath.Join(s.env.root, rel)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		s.env.t.Fatal(err)
	}
	if err := os.Symlink(target, full); err != nil {
		s.env.t.Fatal(err)
	}
}

// outsideEntries lists what the outside folder holds, recursively.
func (s *containScene) outsideEntries() []string {
	var out []string
	filepath.WalkDir(s.outside, func(p string, _ fs.DirEntry, err error) error {
		if err == nil && p != s.outside {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func (s *containScene) decide(p *render.Plan) []Change {
	s.env.t.Helper()
	st, err := s.env.loadState()
	if err != nil {
		s.env.t.Fatal(err)
	}
	cs, err := Decide(p, st, s.env.options())
	if err != nil {
		s.env.t.Fatal(err)
	}
	return cs
}

func conflictReason(t *testing.T, cs []Change, path string) string {
	t.Helper()
	for _, c := range cs {
		if c.Path == path && c.Action == Conflict {
			return c.Reason
		}
	}
	t.Fatalf("no conflict for %s in %+v", path, cs)
	return ""
}

func TestContainLinkOutsideRefused(t *testing.T) {
	s := newContainScene(t)
	s.link(".gemini", s.outside)
	cs := s.decide(plan(textDoc(".gemini/GEMINI.md", "hi\n")))
	r := conflictReason(t, cs, ".gemini/GEMINI.md")
	for _, want := range []string{"through .gemini", "outside the render root", "--root"} {
		if !strings.Contains(r, want) {
			t.Errorf("reason %q lacks %q", r, want)
		}
	}
	st, _ := s.env.loadState()
	var ce *ConflictError
	if err := Execute(cs, st, s.env.options()); !errors.As(err, &ce) {
		t.Fatalf("Execute: %v, want a conflict", err)
	}
	if got := s.outsideEntries(); len(got) != 0 {
		t.Fatalf("written outside the root: %v", got)
	}
}

func TestContainLinkInsideWorks(t *testing.T) {
	s := newContainScene(t)
	if err := os.MkdirAll(filepath.Join(s.env.root, "dotfiles/gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	s.link(".gemini", "dotfiles/gemini") // relative, as stow makes them
	got, err := s.env.run(plan(textDoc(".gemini/config/agents/a.md", "a\n")))
	if err != nil {
		t.Fatal(err)
	}
	wantActions(t, got, map[string]Action{".gemini/config/agents/a.md": Create})
	if b, err := os.ReadFile(filepath.Join(s.env.root, "dotfiles/gemini/config/agents/a.md")); err != nil || string(b) != "a\n" {
		t.Fatalf("through the link: %q, %v", b, err)
	}
	// Pruning removes the file and the folders it emptied, never the link.
	if _, err := s.env.run(plan()); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(s.env.root, ".gemini")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf(".gemini is no longer the link: %v %v", fi, err)
	}
}

func TestContainRootItselfALink(t *testing.T) {
	s := newContainScene(t)
	real := s.env.root
	alias := filepath.Join(filepath.Dir(real), "alias")
	if err := os.Symlink(real, alias); err != nil {
		t.Fatal(err)
	}
	s.env.setRoot(alias)
	if err := os.MkdirAll(filepath.Join(real, "dotfiles"), 0o755); err != nil {
		t.Fatal(err)
	}
	s.link(".gemini", filepath.Join(real, "dotfiles")) // absolute, through the real path
	cs := s.decide(plan(textDoc(".gemini/GEMINI.md", "hi\n")))
	if len(cs) != 1 || cs[0].Action != Create {
		t.Fatalf("got %+v, want a create", cs)
	}
}

func TestContainStoreLink(t *testing.T) {
	s := newContainScene(t)
	s.env.opts.nixStore = filepath.Join(s.outside, "nix", "store") + "/"
	gen := filepath.Join(s.outside, "nix", "store", "abc-gemini-config")
	if err := os.MkdirAll(gen, 0o755); err != nil {
		t.Fatal(err)
	}
	s.link(".gemini/config", gen)
	cs := s.decide(plan(textDoc(".gemini/config/hooks.json", "{}\n")))
	r := conflictReason(t, cs, ".gemini/config/hooks.json")
	for _, want := range []string{"Nix store", `home.file.".gemini/config"`, "xdg.configFile", "programs.antigravity-cli", "drop the option"} {
		if !strings.Contains(r, want) {
			t.Errorf("reason %q lacks %q", r, want)
		}
	}
	// --adopt takes over a link at the target, never a folder link into
	// the store.
	s.env.opts.Adopt = true
	cs = s.decide(plan(textDoc(".gemini/config/hooks.json", "{}\n")))
	conflictReason(t, cs, ".gemini/config/hooks.json")
}

func TestContainStoreMessage(t *testing.T) {
	r := storeReason(".gemini", "/nix/store/x-home-manager-files/.gemini")
	if !strings.Contains(r, `home.file.".gemini"`) || !strings.Contains(r, "home-manager switch") {
		t.Fatal(r)
	}
	if c := newContainer(nil, ""); !c.storeLink("/nix/store/abc") || !c.storeLink("../../x-home-manager-files/y") || c.storeLink("/home/u/dotfiles") {
		t.Fatal("storeLink")
	}
}

func TestContainDangling(t *testing.T) {
	s := newContainScene(t)
	s.link(".gemini", filepath.Join(s.outside, "missing"))
	cs := s.decide(plan(textDoc(".gemini/GEMINI.md", "hi\n")))
	if r := conflictReason(t, cs, ".gemini/GEMINI.md"); !strings.Contains(r, "outside the render root") {
		t.Fatal(r)
	}
}

func TestContainLexical(t *testing.T) {
	root, err := confine.Open(t.TempDir(), confine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	c := newContainer(root, "")
	for rel, want := range map[string]string{
		"../x":                          "not a path below the render root",
		"/etc/passwd":                   "not a path below the render root",
		"a/../../b":                     "not a path below the render root",
		"a/b\u2215c":                    "DIVISION SLASH",
		"a/b\x01":                       "control character",
		"a/\u202egnp.exe":               "invisible formatting character",
		"a/" + strings.Repeat("x", 300): "file systems allow 255",
	} {
		if got := c.problem(rel); !strings.Contains(got, want) {
			t.Errorf("%q: got %q, want %q", rel, got, want)
		}
	}
	if got := c.problem(".gemini/config/mcp_config.json"); got != "" {
		t.Errorf("a plain path: %q", got)
	}
}

// A stale path recorded in a tampered state is refused like a planned one.
func TestContainTamperedState(t *testing.T) {
	s := newContainScene(t)
	st, _ := s.env.loadState()
	st.Files["../outside/victim"] = &FileState{SHA256: "x"}
	cs, err := Decide(plan(), st, s.env.options())
	if err != nil {
		t.Fatal(err)
	}
	conflictReason(t, cs, "../outside/victim")
}

// A folder swapped for a link out of the root between the decision and the
// write: the batch checks again and writes nothing outside.
func TestContainSwapBetweenDecideAndWrite(t *testing.T) {
	s := newContainScene(t)
	if err := os.MkdirAll(filepath.Join(s.env.root, ".gemini/config"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := plan(textDoc(".gemini/config/agents/a.md", "a\n"), textDoc(".gemini/GEMINI.md", "g\n"))
	cs := s.decide(p)
	// The swap.
	if err := os.RemoveAll(filepath.Join(s.env.root, ".gemini/config")); err != nil {
		t.Fatal(err)
	}
	s.link(".gemini/config", s.outside)
	st, _ := s.env.loadState()
	err := Execute(cs, st, s.env.options())
	var ee *EscapeError
	if !errors.As(err, &ee) || !strings.Contains(err.Error(), "outside the render root") {
		t.Fatalf("Execute: %v, want an escape", err)
	}
	if got := s.outsideEntries(); len(got) != 0 {
		t.Fatalf("written outside the root: %v", got)
	}
}

// TestContainSwapDuringBatch swaps a folder for a link out of the root
// right after the first temporary file is written, before the renames:
// the rename then goes through the root, which refuses the link in the
// kernel, and nothing lands outside.
func TestContainSwapDuringBatch(t *testing.T) {
	s := newContainScene(t)
	dir := filepath.Join(s.env.root, ".gemini/config/agents")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cs := s.decide(plan(textDoc(".gemini/config/agents/a.md", "a\n"), textDoc(".gemini/config/agents/b.md", "b\n")))
	swapped := false
	s.env.opts.FS = &hookFS{FS: s.env.fs, before: func(op, name string) error {
		if op == "rename" && !swapped {
			swapped = true
			if err := os.Rename(dir, filepath.Join(s.env.root, "moved")); err != nil {
				t.Error(err)
			}
			if err := os.Symlink(s.outside, dir); err != nil {
				t.Error(err)
			}
		}
		return nil
	}}
	st, _ := s.env.loadState()
	var ee *EscapeError
	if err := Execute(cs, st, s.env.options()); !errors.As(err, &ee) {
		t.Fatalf("Execute: %v, want an escape", err)
	}
	if !swapped {
		t.Fatal("the swap never happened")
	}
	if got := s.outsideEntries(); len(got) != 0 {
		t.Fatalf("written outside the root: %v", got)
	}
}

func TestLiveFileTooBig(t *testing.T) {
	e := newEnv(t)
	e.write(".gemini/config/hooks.json", `{"x":"`+strings.Repeat("a", MaxLiveFileSize)+`"}`)
	_, err := e.run(plan(textDoc(".gemini/config/hooks.json", "{}\n")))
	if err == nil || !strings.Contains(err.Error(), "at most 16777216 bytes") || !strings.Contains(err.Error(), "hooks.json") {
		t.Fatalf("got %v", err)
	}
}

func TestCaseCollision(t *testing.T) {
	e := newEnv(t)
	_, err := e.run(plan(textDoc(".agents/rules/Foo.md", "a"), textDoc(".agents/rules/foo.md", "b")))
	if err == nil || !strings.Contains(err.Error(), "differ only in case") {
		t.Fatalf("got %v", err)
	}
}

// Other instances' states are bounded together, like one state: a
// repository carrying hundreds of states, or states that are large
// together, is refused with a message before they are read.
func TestOtherStatesBounded(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(dir string)
		want  string
	}{
		{"many", func(dir string) {
			for i := 0; i <= MaxInstances; i++ {
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("i%03d.json", i)), []byte(`{"version":2,"files":{}}`), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}, fmt.Sprintf("more than %d states", MaxInstances)},
		{"large", func(dir string) {
			for i := 0; i < 5; i++ {
				// Sparse: the size is what counts, not yet the content.
				p := filepath.Join(dir, fmt.Sprintf("big%d.json", i))
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(p, MaxStateSize/4); err != nil {
					t.Fatal(err)
				}
			}
		}, "MiB together"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			dir := filepath.Join(e.root, filepath.FromSlash(stateDir))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			tc.plant(dir)
			_, err := NewStore(e.fs, stateDir).LoadOthers("state")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}
