package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// scene is a root and a folder beside it that nothing may touch.
type scene struct {
	t             *testing.T
	root, outside string
	r             *Root
}

func newScene(t *testing.T) *scene {
	base := t.TempDir()
	s := &scene{t: t, root: filepath.Join(base, "root"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{s.root, s.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Open(s.root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	s.r = r
	return s
}

func (s *scene) mkdir(rel string) {
	if err := os.MkdirAll(filepath.Join(s.root, rel), 0o755); err != nil {
		s.t.Fatal(err)
	}
}

func (s *scene) link(rel, target string) {
	s.t.Helper()
	full := filepath.Join(s.root, rel)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.Symlink(target, full); err != nil {
		s.t.Fatal(err)
	}
}

func (s *scene) outsideEmpty() {
	s.t.Helper()
	es, err := os.ReadDir(s.outside)
	if err != nil || len(es) != 0 {
		s.t.Fatalf("the folder outside holds %v (%v)", es, err)
	}
}

func linkErr(t *testing.T, err error, reason LinkReason, link string) {
	t.Helper()
	var le *LinkError
	if !errors.As(err, &le) || le.Reason != reason || le.Link != link {
		t.Fatalf("got %v, want a link error (reason %d) naming %s", err, reason, link)
	}
}

func TestResolve(t *testing.T) {
	s := newScene(t)
	s.mkdir("dotfiles/gemini/config")
	s.link(".gemini", filepath.Join(s.root, "dotfiles/gemini")) // absolute, inside: os.Root alone refuses it
	s.link("rel", "dotfiles/gemini")                            // relative, inside
	s.link("chain", ".gemini")                                  // a link to a link
	s.link("up/x", "../dotfiles")                               // climbing, still inside
	s.link("out-abs", s.outside)
	s.link("out-rel", "../outside")
	s.link("nix", "/nix/store/abc-home-manager-files")
	s.link("gone", "missing/dir")
	s.link("via", "gone") // a link to the link that leads nowhere
	s.link("loop-a", "loop-b")
	s.link("loop-b", "loop-a")
	for name, want := range map[string]string{
		".gemini/config/mcp_config.json": "dotfiles/gemini/config/mcp_config.json",
		"rel/config":                     "dotfiles/gemini/config",
		"chain/config/x/y":               "dotfiles/gemini/config/x/y",
		"up/x/gemini":                    "dotfiles/gemini",
		"new/folder/file":                "new/folder/file",
		".":                              ".",
	} {
		got, err := s.r.Resolve(name)
		if err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	for name, c := range map[string]struct {
		reason LinkReason
		link   string
	}{
		"out-abs/x":  {LinkOutside, "out-abs"},
		"out-rel/x":  {LinkOutside, "out-rel"},
		"nix/x":      {LinkOutside, "nix"},
		"gone/x":     {LinkDangling, "gone"},
		"via/x":      {LinkDangling, "gone"}, // the innermost link is named
		"loop-a/x":   {LinkLoop, "loop-a"},
		"out-abs":    {LinkOutside, "out-abs"},
		"chain/../x": {LinkOutside, ""}, // not a valid name at all
	} {
		_, err := s.r.Resolve(name)
		if strings.Contains(name, "..") {
			if err == nil {
				t.Errorf("Resolve(%q) accepted a name with ..", name)
			}
			continue
		}
		var le *LinkError
		if !errors.As(err, &le) || le.Reason != c.reason || (c.link != "" && le.Link != c.link) {
			t.Errorf("Resolve(%q) = %v; want reason %d at %s", name, err, c.reason, c.link)
		}
	}
	var le *LinkError
	if _, err := s.r.Resolve("out-abs/x"); errors.As(err, &le) && le.Leads != s.outside {
		t.Errorf("Leads = %q, want %q", le.Leads, s.outside)
	}
	// Writes through an absolute link that stays inside land inside.
	if err := s.r.WriteFile(".gemini/config/a.json", []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(s.root, "dotfiles/gemini/config/a.json")); err != nil || string(b) != "{}\n" {
		t.Fatalf("through the link: %q, %v", b, err)
	}
}

// TestWritesNeverLeave tries every write-side call through links that
// lead out: each fails, and nothing appears outside.
func TestWritesNeverLeave(t *testing.T) {
	s := newScene(t)
	s.link("out", s.outside)
	s.link("out-rel", "../outside")
	for _, dir := range []string{"out", "out-rel"} {
		if _, err := s.r.WriteTemp(dir, ".t-", []byte("x"), 0o644); err == nil {
			t.Errorf("WriteTemp into %s", dir)
		}
		if err := s.r.WriteFile(dir+"/f", []byte("x"), 0o644); err == nil {
			t.Errorf("WriteFile into %s", dir)
		}
		if err := s.r.Mkdir(dir+"/d", 0o755); err == nil {
			t.Errorf("Mkdir into %s", dir)
		}
		if err := s.r.MkdirAll(dir+"/d/e", 0o755); err == nil {
			t.Errorf("MkdirAll into %s", dir)
		}
		if err := s.r.CreateNew(dir+"/n", []byte("x"), 0o644); err == nil {
			t.Errorf("CreateNew into %s", dir)
		}
		if _, err := s.r.OpenLock(dir+"/lock", true); err == nil {
			t.Errorf("OpenLock into %s", dir)
		}
	}
	if err := os.WriteFile(filepath.Join(s.root, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.r.Rename("f", "out/f"); err == nil {
		t.Error("Rename out")
	}
	s.outsideEmpty()
	// The link itself is what Remove and a rename over it replace.
	if err := s.r.WriteFile("out", []byte("a file now\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(s.root, "out")); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the link was not replaced by a file: %v %v", fi, err)
	}
	s.outsideEmpty()
}

func TestStrict(t *testing.T) {
	s := newScene(t)
	s.mkdir("real")
	s.link("state", "real") // inside, but agyconf's own folders follow no link
	s.mkdir("store")
	s.link("store/lock", filepath.Join(s.outside, "victim"))
	st := s.r.Strict()
	_, err := st.Resolve("state/x.json")
	linkErr(t, err, LinkRefused, "state")
	_, err = st.OpenLock("store/lock", true)
	linkErr(t, err, LinkRefused, "store/lock")
	err = st.WriteFile("store/lock", []byte("1\n"), 0o644)
	linkErr(t, err, LinkRefused, "store/lock")
	if _, _, err := st.ReadFile("state/x.json", 10); err == nil {
		t.Fatal("read through a link")
	}
	// The same names work through the plain view (inside the root).
	if err := s.r.WriteFile("state/x.json", []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.outsideEmpty()
}

func TestReadRefusesSpecialFiles(t *testing.T) {
	s := newScene(t)
	if err := syscall.Mkfifo(filepath.Join(s.root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.link("zero", "/dev/zero")
	s.mkdir("dir")
	if err := os.WriteFile(filepath.Join(s.root, "big"), make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		var nr *NotRegularError
		if _, _, err := s.r.ReadFile("fifo", 1<<20); !errors.As(err, &nr) || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("FIFO: %v", err)
		}
		if _, err := ReadFile(filepath.Join(s.root, "fifo"), 1<<20); !errors.As(err, &nr) {
			t.Errorf("FIFO by path: %v", err)
		}
		if _, err := ReadFile("/dev/zero", 1<<20); !errors.As(err, &nr) || !strings.Contains(err.Error(), "character device") {
			t.Errorf("/dev/zero by path: %v", err)
		}
		if _, err := ReadFile(filepath.Join(s.root, "zero"), 1<<20); !errors.As(err, &nr) {
			t.Errorf("a link to /dev/zero by path: %v", err)
		}
		// A file listed as regular and swapped before the open: the
		// open does not block and the open file is refused.
		for _, p := range []string{filepath.Join(s.root, "fifo"), "/dev/zero", filepath.Join(s.root, "zero"), filepath.Join(s.root, "dir")} {
			if _, _, err := ReadListedFile(p, 1<<20); !errors.As(err, &nr) {
				t.Errorf("%s as a listed file: %v", p, err)
			}
		}
		if _, _, err := s.r.ReadFile("dir", 1<<20); !errors.As(err, &nr) {
			t.Errorf("folder: %v", err)
		}
		var tl *TooLargeError
		if _, _, err := s.r.ReadFile("big", 99); !errors.As(err, &tl) || tl.Size != 100 {
			t.Errorf("too large: %v", err)
		}
		if _, err := ReadFile(filepath.Join(s.root, "big"), 99); !errors.As(err, &tl) {
			t.Errorf("too large by path: %v", err)
		}
		if _, _, err := ReadListedFile(filepath.Join(s.root, "big"), 99); !errors.As(err, &tl) || tl.Size != 100 {
			t.Errorf("too large, listed: %v", err)
		}
		// A listed file gone before it is read: ReadFileInfo's error.
		gone := filepath.Join(s.root, "gone")
		_, _, lerr := ReadListedFile(gone, 99)
		_, _, ferr := ReadFileInfo(gone, 99)
		if lerr == nil || ferr == nil || lerr.Error() != ferr.Error() {
			t.Errorf("a listed file gone: %v; ReadFileInfo: %v", lerr, ferr)
		}
		if _, _, err := s.r.ReadFile("zero", 1<<20); err == nil {
			t.Error("read /dev/zero through the root")
		}
		if _, err := s.r.OpenLock("fifo", false); !errors.As(err, &nr) {
			t.Errorf("a FIFO as the lock: %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("a read blocked")
	}
}

func TestWriteTempAndCreateNew(t *testing.T) {
	s := newScene(t)
	s.mkdir("d")
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	name, err := s.r.WriteTemp("d", ".agyconf-tmp-", []byte("x"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(name, "d/.agyconf-tmp-") {
		t.Fatalf("temporary name %q", name)
	}
	if fi, err := os.Stat(filepath.Join(s.root, name)); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, %v; want 0644 whatever the umask", fi.Mode(), err)
	}
	if err := s.r.CreateNew("d/n", []byte("1"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.r.CreateNew("d/n", []byte("2"), 0o600); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("CreateNew over a file: %v", err)
	}
	s.link("d/l", filepath.Join(s.outside, "new"))
	if err := s.r.CreateNew("d/l", []byte("2"), 0o600); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("CreateNew over a dangling link: %v", err)
	}
	s.outsideEmpty()
}

func TestLockFile(t *testing.T) {
	s := newScene(t)
	if _, err := s.r.OpenLock("lock", false); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("opening a missing lock without create: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(s.root, "lock")); !os.IsNotExist(err) {
		t.Fatal("the lock was created")
	}
	a, err := s.r.OpenLock("lock", true)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if ok, err := a.TryLock(true); !ok || err != nil {
		t.Fatalf("first lock: %v %v", ok, err)
	}
	if err := a.SetHolder("1234\n"); err != nil {
		t.Fatal(err)
	}
	b, err := s.r.OpenLock("lock", false)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if ok, _ := b.TryLock(false); ok {
		t.Fatal("a shared lock beside an exclusive one")
	}
	if h := b.Holder(); h != "1234" {
		t.Fatalf("holder %q", h)
	}
	a.Close()
	if ok, err := b.TryLock(false); !ok || err != nil {
		t.Fatalf("after release: %v %v", ok, err)
	}
}

// A lock that is a hard link to another file is refused before anything
// is written into it: the PID would land in that file.
func TestLockHardLinkRefused(t *testing.T) {
	s := newScene(t)
	victim := filepath.Join(s.root, "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(victim, filepath.Join(s.root, "lock")); err != nil {
		t.Fatal(err)
	}
	if l, err := s.r.OpenLock("lock", true); err == nil || !strings.Contains(err.Error(), "hard links") {
		if l != nil {
			l.Close()
		}
		t.Fatalf("a hard-linked lock: %v", err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "precious\n" {
		t.Fatalf("the victim changed: %q", data)
	}
	// Readers write nothing: they may open it.
	l, err := s.r.OpenLock("lock", false)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
}

// MkdirNew's undo removes exactly the folders it made, deepest first, and
// never one that holds something.
func TestMkdirNewUndo(t *testing.T) {
	base := t.TempDir()
	undo, err := MkdirNew(filepath.Join(base, "a", "b", "c"), 0o755)
	if err != nil {
		t.Fatal(err)
	}
	undo()
	if _, err := os.Lstat(filepath.Join(base, "a")); !os.IsNotExist(err) {
		t.Fatalf("undo left a: %v", err)
	}
	if _, err := os.Lstat(base); err != nil {
		t.Fatalf("undo removed a folder it did not make: %v", err)
	}
	undo, err = MkdirNew(filepath.Join(base, "a", "b"), 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "a", "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	undo()
	if _, err := os.Lstat(filepath.Join(base, "a", "keep")); err != nil {
		t.Fatalf("undo removed a folder that holds a file: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(base, "a", "b")); !os.IsNotExist(err) {
		t.Fatalf("undo left the empty b: %v", err)
	}
}

func TestInNixStore(t *testing.T) {
	for p, want := range map[string]bool{"/nix/store/abc-x/agyconf.hcl": true, "/nix/store": true, "/nix/storex/a": false, "/home/me/a": false, "/nix/store/../etc": false} {
		if got := InNixStore(filepath.Clean(p)); got != want {
			t.Errorf("InNixStore(%q) = %v", p, got)
		}
	}
}

// TestCachedResolutionAgrees: a folder resolved through its cached parent
// resolves as a walk from the root does, whatever order folders were
// first asked for in: links relative and absolute, to a sibling, up a
// level, at several depths, and names that do not exist yet.
func TestCachedResolutionAgrees(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"a/b/c", "real/x/y", "other"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"a/link":       "../real",
		"a/b/abs":      filepath.Join(dir, "real/x"),
		"real/x/up":    "..",
		"real/x/y/sib": "../../../other",
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	names := []string{
		"a/b/c/f", "a/link/x/y/f", "a/b/abs/y/f", "a/link/x/up/x/f", "a/b/abs/y/sib/f",
		"a/missing/deeper/f", "a/link/missing/f", "real/x/up/x/up/x/y/sib/f", "other/f",
	}
	want := map[string]string{}
	fresh, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	for _, n := range names {
		got, err := fresh.resolveWith(n, true, false)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		want[n] = got
	}
	for _, order := range [][]string{names, reversed(names)} {
		r, err := Open(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range order {
			if got, err := r.resolveWith(n, true, true); err != nil || got != want[n] {
				t.Errorf("%s through the cache: %q, %v; from the root: %q", n, got, err, want[n])
			}
		}
		r.Close()
	}
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// TestDirHandlesAgree: every read through a kept folder handle gives what
// the same read through the root alone gives — results and errors — for
// plain names, names through links inside the root, missing names, names
// below a file, and links themselves, read in either order, with more
// folders than the handles kept.
func TestDirHandlesAgree(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for i := 0; i < maxDirHandles*2; i++ {
		n := fmt.Sprintf("skills/s%03d/SKILL.md", i)
		write(n, n)
		names = append(names, n, path.Dir(n), fmt.Sprintf("skills/s%03d/missing", i))
	}
	write("real/x/f", "f")
	write("file", "not a folder")
	for link, target := range map[string]string{
		"skills/s000/link": "../s001",
		"real/x/up":        "..",
		"real/abs":         filepath.Join(dir, "real/x"),
		"real/x/dangling":  "nowhere",
		"real/x/out":       "/etc",
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	names = append(names, "skills/s000/link/SKILL.md", "skills/s000/link", "real/x/up/x/f", "real/abs/f",
		"real/abs", "real/x/dangling", "real/x/out", "real/x/out/passwd", "file/x", "file", ".", "real/missing/deeper/f")

	type result struct{ v, err string }
	reads := map[string]func(r *Root, n string) result{
		"Lstat": func(r *Root, n string) result { fi, err := r.Lstat(n); return result{describe(fi), errString(err)} },
		"Stat":  func(r *Root, n string) result { fi, err := r.Stat(n); return result{describe(fi), errString(err)} },
		"Readlink": func(r *Root, n string) result {
			s, err := r.Readlink(n)
			return result{s, errString(err)}
		},
		"ReadFile": func(r *Root, n string) result {
			b, fi, err := r.ReadFile(n, 1<<20)
			return result{string(b) + "|" + describe(fi), errString(err)}
		},
		"ReadDir": func(r *Root, n string) result {
			es, err := r.ReadDir(n)
			var s []string
			for _, e := range es {
				s = append(s, e.Name()+":"+e.Type().String())
			}
			return result{strings.Join(s, ","), errString(err)}
		},
	}
	plain, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if plain.dirs != nil {
		t.Fatal("a Root opened without KeepFolders keeps folders")
	}
	want := map[string]result{}
	for op, read := range reads {
		for _, n := range names {
			want[op+" "+n] = read(plain, n)
		}
	}
	for _, order := range [][]string{names, reversed(names)} {
		r, err := Open(dir, Options{KeepFolders: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range order {
			for op, read := range reads {
				if got := read(r, n); got != want[op+" "+n] {
					t.Errorf("%s %s through handles: %+v; through the root: %+v", op, n, got, want[op+" "+n])
				}
			}
		}
		if len(r.dirs.open) > maxDirHandles {
			t.Errorf("%d folder handles open, the bound is %d", len(r.dirs.open), maxDirHandles)
		}
		r.Close()
	}
}

func describe(fi fs.FileInfo) string {
	if fi == nil {
		return ""
	}
	return fmt.Sprintf("%s %v %d", fi.Name(), fi.Mode(), fi.Size())
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestDirHandlesConcurrent reads from more folders than the handles kept,
// from several goroutines at once, so that handles are evicted while
// others hold them: every read must still succeed with the file's bytes
// (a handle closed under a reader fails it), and closing the root closes
// every handle (the race detector runs this in CI).
func TestDirHandlesConcurrent(t *testing.T) {
	dir := t.TempDir()
	const folders = maxDirHandles * 3
	for i := 0; i < folders; i++ {
		p := filepath.Join(dir, fmt.Sprintf("d%03d", i), "f")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fds := func() int {
		es, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd to count open files")
		}
		return len(es)
	}
	before := fds()
	r, err := Open(dir, Options{KeepFolders: true})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < folders*2; k++ {
				i := (k*7 + g*13) % folders
				name := fmt.Sprintf("d%03d/f", i)
				b, _, err := r.ReadFile(name, 1<<10)
				if err == nil && string(b) != filepath.Join(dir, name) {
					err = fmt.Errorf("%s read %q", name, b)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := fds() - before; n > maxDirHandles+2 {
		t.Errorf("%d more files open while reading, want at most %d handles and the root", n, maxDirHandles)
	}
	r.Close()
	if n := fds() - before; n > 0 {
		t.Errorf("%d more files open after Close", n)
	}
}

// TestDirHandlesFIFO: a FIFO where a folder should be is refused at once
// through kept folders as through the root (os.Root.OpenRoot would block
// on it). The deadline only keeps a regression from hanging the suite.
func TestDirHandlesFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "a", "p"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("p", filepath.Join(dir, "a", "link")); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir, Options{KeepFolders: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	done := make(chan error, 1)
	go func() {
		var errs []error
		for _, n := range []string{"a/p/SKILL.md", "a/link/SKILL.md", "a/p/x/y"} {
			_, err1 := r.Lstat(n)
			_, _, err2 := r.ReadFile(n, 1<<10)
			_, err3 := r.ReadDir(n)
			for _, err := range []error{err1, err2, err3} {
				if !errors.Is(err, syscall.ENOTDIR) {
					errs = append(errs, fmt.Errorf("%s: %v, want ENOTDIR", n, err))
				}
			}
		}
		done <- errors.Join(errs...)
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("a read below a FIFO blocked")
	}
}

// TestWriterRootFollowsNames: a Root that writes keeps no folders, so a
// folder renamed away and replaced by a link out is refused on the next
// read, and a folder made again at the name is the one read.
func TestWriterRootFollowsNames(t *testing.T) {
	base := t.TempDir()
	dir, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a", "b", "f"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if b, _, err := r.ReadFile("a/b/f", 1<<10); err != nil || string(b) != "inside" {
		t.Fatalf("first read: %q, %v", b, err)
	}
	if err := os.Rename(filepath.Join(dir, "a", "b"), outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "a", "b")); err != nil {
		t.Fatal(err)
	}
	// The folder's resolution is cached (link-free then), so the root
	// itself refuses the name now that a link leads out there.
	if b, _, err := r.ReadFile("a/b/f", 1<<10); err == nil {
		t.Fatalf("read %q through a link out after the swap; want a refusal", b)
	}
	if err := os.Remove(filepath.Join(dir, "a", "b")); err != nil {
		t.Fatal(err)
	}
	if err := r.MkdirAll("a/b", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteFile("a/b/f", []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _, err := r.ReadFile("a/b/f", 1<<10); err != nil || string(b) != "new" {
		t.Fatalf("read after the folder was made again: %q, %v; want \"new\"", b, err)
	}
}

// plantFile writes a file holding its own name, with its folders, and
// gives it mode.
func plantFile(t *testing.T, dir, name string, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(name), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// eachView runs f on the root dir opened plain and keeping folders, and
// on the strict view of each: the four views the fast paths must agree
// with the walk in.
func eachView(t *testing.T, dir string, f func(vr *Root)) {
	t.Helper()
	for _, o := range []Options{{}, {KeepFolders: true}} {
		r, err := Open(dir, o)
		if err != nil {
			t.Fatal(err)
		}
		f(r)
		f(r.Strict().(*Root))
		r.Close()
	}
}

// stampOf is what the fast-path tests compare of a FileInfo: all of it
// that is stable, the inode included.
func stampOf(fi fs.FileInfo) string {
	if fi == nil {
		return ""
	}
	st := fi.Sys().(*syscall.Stat_t)
	return fmt.Sprintf("%s %v %d %d %d %v", fi.Name(), fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), st.Ino, fi.IsDir())
}

// TestLstatFastAgrees: Lstat answered by the kernel in one call, for a
// name with no link in it, is what the walk answers, in a plain, a
// strict and a folder-keeping view, for files, folders, FIFOs, setuid and
// sticky modes, links of every kind (at the end, on the way, out, up,
// dangling), names below a file, missing names and names that are not
// valid; and the fast path answers at least the plain ones (the walk
// would answer everything and the test say nothing).
func TestLstatFastAgrees(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, mode os.FileMode) { plantFile(t, dir, name, mode) }
	write("a/b/c.json", 0o644)
	write("a/setuid", 0o4755)
	write("a/secret", 0o600)
	if err := os.Mkdir(filepath.Join(dir, "sticky"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "sticky"), 0o1777); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "a/fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"a/tofile": "b/c.json", "a/todir": "b", "a/up": "..", "a/out": "/etc",
		"a/dangling": "nowhere", "abs": filepath.Join(dir, "a"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	names := []string{"a", "a/b", "a/b/c.json", "a/setuid", "a/secret", "sticky", "a/fifo",
		"a/tofile", "a/todir", "a/todir/c.json", "a/up", "a/up/a/b/c.json", "a/out", "a/out/passwd",
		"a/dangling", "abs", "abs/b/c.json", "a/b/c.json/x", "missing", "a/missing/deeper",
		".", "", "/etc/passwd", "../x", "a/../a/b", "a//b", "a/b/"}
	type result struct{ v, err string }
	fast := 0
	eachView(t, dir, func(vr *Root) {
		for _, n := range names {
			fi, err := vr.Lstat(n)
			got := result{stampOf(fi), errString(err)}
			wfi, werr := vr.lstatWalked(n)
			want := result{stampOf(wfi), errString(werr)}
			if got != want {
				t.Errorf("strict=%v keep=%v Lstat(%q) = %+v; the walk gives %+v", vr.strict, vr.dirs != nil, n, got, want)
			}
			if fi, _, ok := vr.lstatFast(n); ok && fi != nil {
				fast++
			}
		}
	})
	// a, a/b, a/b/c.json, a/setuid, a/secret, sticky, a/fifo: in each
	// of four views.
	if fast != 4*7 {
		t.Errorf("the kernel answered %d lookups, want %d: the fast path is not being taken", fast, 4*7)
	}
}

// TestReadFastAgrees: ReadFile and ReadDir, opened by the kernel in one
// call when no link is in the name (openFast), read what the walk reads,
// and fail as it fails, on every kind of name in plain, strict and
// folder-keeping views; entries' Info is the root's Lstat of each.
func TestReadFastAgrees(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, mode os.FileMode) { plantFile(t, dir, name, mode) }
	write("a/b/c.json", 0o644)
	write("a/b/d/e.md", 0o600)
	write("a/setuid", 0o4755)
	write("a/big", 0o644)
	if err := os.WriteFile(filepath.Join(dir, "a/big"), make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	write("unreadable/x", 0o644)
	if err := syscall.Mkfifo(filepath.Join(dir, "a/fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"a/tofile": "b/c.json", "a/todir": "b", "a/up": "..", "a/out": "/etc",
		"a/dangling": "nowhere", "abs": filepath.Join(dir, "a"), "a/b/loop": "loop",
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	names := []string{".", "a", "a/b", "a/b/d", "a/b/c.json", "a/b/d/e.md", "a/setuid", "a/big", "a/fifo",
		"a/tofile", "a/todir", "a/todir/c.json", "a/up", "a/up/a/b/c.json", "a/out", "a/out/passwd",
		"a/dangling", "abs", "abs/b/c.json", "a/b/loop", "a/b/c.json/x", "missing", "a/missing/deeper",
		"", "/etc/passwd", "../x", "a/../a/b", "a//b", "a/b/", "unreadable", "unreadable/x"}
	if os.Getuid() != 0 {
		// Root reads anything: the permission case only means something
		// to another user.
		if err := os.Chmod(filepath.Join(dir, "unreadable"), 0o000); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(filepath.Join(dir, "unreadable"), 0o755) })
	}
	listing := func(es []fs.DirEntry) string {
		var b strings.Builder
		for _, e := range es {
			fi, err := e.Info()
			fmt.Fprintf(&b, "%s %v %v [%s] %s; ", e.Name(), e.Type(), e.IsDir(), stampOf(fi), errString(err))
		}
		return b.String()
	}
	fast := 0
	eachView(t, dir, func(vr *Root) {
		for _, n := range names {
			data, fi, err := vr.ReadFile(n, 50)
			wdata, wfi, werr := vr.readFileWalked(n, 50)
			if got, want := fmt.Sprintf("%q %s %s", data, stampOf(fi), errString(err)), fmt.Sprintf("%q %s %s", wdata, stampOf(wfi), errString(werr)); got != want {
				t.Errorf("strict=%v keep=%v ReadFile(%q) = %s; the walk gives %s", vr.strict, vr.dirs != nil, n, got, want)
			}
			res, err := vr.Resolve(n)
			wres, werr := vr.resolveWith(n, true, false)
			if got, want := res+" "+errString(err), wres+" "+errString(werr); got != want {
				t.Errorf("strict=%v keep=%v Resolve(%q) = %s; the walk gives %s", vr.strict, vr.dirs != nil, n, got, want)
			}
			es, err := vr.ReadDir(n)
			wes, werr := vr.readDirWalked(n)
			if got, want := listing(es)+errString(err), listing(wes)+errString(werr); got != want {
				t.Errorf("strict=%v keep=%v ReadDir(%q) = %s; the walk gives %s", vr.strict, vr.dirs != nil, n, got, want)
			}
			for _, flags := range []int{syscall.O_RDONLY | syscall.O_NONBLOCK, syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_NONBLOCK} {
				if f, _, ok := vr.openFast("open", n, flags); ok && f != nil {
					f.Close()
					fast++
				}
			}
		}
	})
	// Files: a/b/c.json, a/b/d/e.md, a/setuid, a/big, a/fifo and folders:
	// ., a, a/b, a/b/d, unreadable (and, as root, unreadable/x) opened by
	// the kernel as files; the folders as folders: in each of four views.
	want := 4 * (5 + 4 + 4) // another user cannot open unreadable
	if os.Getuid() == 0 {
		want += 4 * (1 + 1 + 1) // it, as a file and as a folder, and unreadable/x
	}
	if fast != want {
		t.Errorf("the kernel opened %d names, want %d: the fast path is not being taken", fast, want)
	}
}

// TestWriteFastAgrees: every call that changes the tree leaves it as the
// walk leaves it, and fails as the walk fails, whether the kernel did it
// in one call from the root (beneath.go) or not: each call runs on two
// copies of one tree, one with the fast paths and one walking, in plain
// and strict views, and the copies and their errors must stay alike,
// and the folder outside untouched.
func TestWriteFastAgrees(t *testing.T) {
	build := func(base string) (string, string) {
		root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
		for _, d := range []string{"a/b/d", "sticky", "ro", "a/empty"} {
			if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		// A sticky folder, and one nobody may write (root may: the other
		// user's run is TestFastPermissions).
		if err := os.Chmod(filepath.Join(root, "sticky"), 0o1777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(root, "ro"), 0o555); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(outside, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, data := range map[string]string{"a/b/c.json": "{}", "a/f": "f", "a/b/d/e.md": "e"} {
			if err := os.WriteFile(filepath.Join(root, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := syscall.Mkfifo(filepath.Join(root, "a/fifo"), 0o644); err != nil {
			t.Fatal(err)
		}
		for link, target := range map[string]string{
			"a/todir": "b", "a/tofile": "b/c.json", "a/out": outside, "a/dangling": "nowhere", "a/up": "..",
		} {
			if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
				t.Fatal(err)
			}
		}
		return root, outside
	}
	// tree lists everything below dir: name, type, mode, content or
	// target, temporary names masked (they are random).
	tree := func(dir string) string {
		var b strings.Builder
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				fmt.Fprintf(&b, "%v\n", err)
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			rel = maskTemp(rel)
			fi, _ := d.Info()
			switch {
			case d.Type()&fs.ModeSymlink != 0:
				target, _ := os.Readlink(p)
				fmt.Fprintf(&b, "%s -> %s\n", rel, maskTemp(strings.ReplaceAll(target, filepath.Dir(dir), "BASE")))
			case d.Type().IsRegular():
				data, _ := os.ReadFile(p)
				fmt.Fprintf(&b, "%s %v %q\n", rel, fi.Mode(), data)
			default:
				fmt.Fprintf(&b, "%s %v\n", rel, fi.Mode())
			}
			return nil
		})
		return b.String()
	}
	type call struct {
		name string
		do   func(fsys FS) error
	}
	var calls []call
	names := []string{"a", "a/new", "a/b/new", "a/b/d/new", "a/todir/new", "a/out/new", "a/dangling", "a/dangling/new",
		"a/f", "a/f/new", "a/fifo", "a/missing/new", "a/up/new", "a/tofile", ".", "../x", "a/b/",
		"a/empty", "a/b/d", "sticky/new", "ro/new", "ro"}
	for _, n := range names {
		calls = append(calls,
			call{"Mkdir " + n, func(fsys FS) error { return fsys.Mkdir(n, 0o750) }},
			call{"Mkdir sticky " + n, func(fsys FS) error { return fsys.Mkdir(n, 0o755|fs.ModeSticky) }},
			call{"MkdirAll " + n + "/x/y", func(fsys FS) error { return fsys.MkdirAll(n+"/x/y", 0o755) }},
			call{"SyncDir " + n, func(fsys FS) error { return fsys.SyncDir(n) }},
			call{"WriteFile " + n, func(fsys FS) error { return fsys.WriteFile(n, []byte("new"), 0o640) }},
			call{"WriteTemp " + n, func(fsys FS) error {
				name, err := fsys.WriteTemp(n, ".t-", []byte("temp"), 0o600)
				if err == nil && !strings.HasPrefix(name, path.Clean(strings.TrimPrefix(n+"/", "./"))) && path.Dir(name) != path.Clean(n) {
					return fmt.Errorf("WriteTemp(%q) named %q", n, name)
				}
				return err
			}},
			call{"Rename a/f to " + n, func(fsys FS) error { return fsys.Rename("a/f", n) }},
			call{"Rename " + n + " to a/b/moved", func(fsys FS) error { return fsys.Rename(n, "a/b/moved") }},
			call{"Remove " + n, func(fsys FS) error { return fsys.Remove(n) }},
		)
	}
	for _, c := range calls {
		for _, strict := range []bool{false, true} {
			var results [2]string
			for i, walkOnly := range []bool{false, true} {
				base := t.TempDir()
				root, outside := build(base)
				r, err := Open(root, Options{NoSync: false})
				if err != nil {
					t.Fatal(err)
				}
				r.walkOnly = walkOnly
				var fsys FS = r
				if strict {
					fsys = r.Strict()
				}
				err = c.do(fsys)
				r.Close()
				results[i] = strings.ReplaceAll(maskTemp(errString(err))+"\n"+tree(root), base, "BASE")
				if es, _ := os.ReadDir(outside); len(es) != 0 {
					t.Errorf("%s (strict=%v walkOnly=%v) wrote outside the root: %v", c.name, strict, walkOnly, es)
				}
			}
			if results[0] != results[1] {
				t.Errorf("%s (strict=%v): with the fast paths\n%s\nwalking\n%s", c.name, strict, results[0], results[1])
			}
		}
	}
}

// TestWriteFastTaken: the calls TestWriteFastAgrees compares do take the
// fast paths on names with no link in them.
func TestWriteFastTaken(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a/b"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !r.mkdirFast("a/new", 0o755) {
		t.Error("mkdirFast(a/new) walked")
	}
	name, err, ok := r.writeTempFast("a/b", ".t-", []byte("x"), 0o644)
	if !ok || err != nil {
		t.Fatalf("writeTempFast(a/b) = %q, %v, %v", name, err, ok)
	}
	if !r.renameFast(name, "a/new/x") {
		t.Error("renameFast walked")
	}
	if err, ok := r.syncDirFast("a/new"); !ok || err != nil {
		t.Errorf("syncDirFast(a/new) = %v, %v", err, ok)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "a/new/x")); err != nil || string(data) != "x" {
		t.Errorf("a/new/x: %q, %v", data, err)
	}
	if r.Strict().(*Root).mkdirFast("a/new2", 0o755) {
		t.Error("a strict view made a folder by the fast path, which cannot refuse a link at the last segment")
	}
}

// maskTemp hides the random part of temporary names.
func maskTemp(s string) string {
	for _, prefix := range []string{".t-", ".agyconf-tmp-"} {
		for i := strings.Index(s, prefix); i >= 0; {
			end := i + len(prefix)
			for end < len(s) && strings.ContainsRune("0123456789abcdef", rune(s[end])) {
				end++
			}
			s = s[:i+len(prefix)] + "RANDOM" + s[end:]
			next := strings.Index(s[i+len(prefix)+6:], prefix)
			if next < 0 {
				break
			}
			i += len(prefix) + 6 + next
		}
	}
	return s
}

// TestFastPermissions runs, as a user other than root (re-run as nobody
// when the tests run as root), every call that changes the tree on names
// in folders that may be searched but not read (0311), read but not
// searched (0644), and neither written (0555): whatever the fast paths
// answer, a call that fails leaves the tree as it was, none leaves a
// temporary file behind, and a call on a name in a folder that cannot be
// read fails as the walk fails, so that nothing is written where it
// could not be synced.
func TestFastPermissions(t *testing.T) {
	if dir := os.Getenv("AGYCONF_FAST_PERMISSIONS_DIR"); dir != "" {
		fastPermissions(t, dir)
		return
	}
	if os.Getuid() != 0 {
		fastPermissions(t, t.TempDir())
		return
	}
	// Root passes every permission check: run the test again as nobody,
	// from a copy of this binary it may run, in a folder it may write.
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "confine.test")
	if err := os.WriteFile(bin, self, 0o755); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(work, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestFastPermissions$", "-test.v")
	cmd.Env = append(os.Environ(), "AGYCONF_FAST_PERMISSIONS_DIR="+work)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestFastPermissions") {
		t.Fatalf("as nobody, the test did not run:\n%s", out)
	}
}

func fastPermissions(t *testing.T, base string) {
	if os.Getuid() == 0 {
		t.Fatal("running as root, which no permission stops")
	}
	modes := map[string]os.FileMode{"nor": 0o311, "nox": 0o644, "ro": 0o555}
	build := func(root string) {
		for d := range modes {
			if err := os.MkdirAll(filepath.Join(root, d, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, d, "f"), []byte("f"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(filepath.Join(root, "ok"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "ok", "f"), []byte("g"), 0o644); err != nil {
			t.Fatal(err)
		}
		for d, m := range modes {
			if err := os.Chmod(filepath.Join(root, d), m); err != nil {
				t.Fatal(err)
			}
		}
	}
	// list opens the folders to look (they are this user's), lists
	// everything, and closes them again.
	list := func(root string) string {
		for d := range modes {
			os.Chmod(filepath.Join(root, d), 0o755)
		}
		defer func() {
			for d, m := range modes {
				os.Chmod(filepath.Join(root, d), m)
			}
		}()
		var b strings.Builder
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			rel, _ := filepath.Rel(root, p)
			if strings.Contains(rel, ".agyconf-tmp-") || strings.Contains(rel, ".t-") {
				t.Errorf("a temporary file was left behind: %s", rel)
			}
			data := ""
			if d.Type().IsRegular() {
				b, _ := os.ReadFile(p)
				data = string(b)
			}
			fmt.Fprintf(&b, "%s %q\n", maskTemp(rel), data)
			return nil
		})
		return b.String()
	}
	var names []string
	for d := range modes {
		names = append(names, d+"/new", d+"/f", d+"/sub", d+"/sub/new", d+"/sub/f")
	}
	names = append(names, "ok/new")
	sort.Strings(names)
	type call struct {
		name string
		do   func(FS) error
	}
	var calls []call
	for _, n := range names {
		calls = append(calls,
			call{"Mkdir " + n, func(fsys FS) error { return fsys.Mkdir(n, 0o755) }},
			call{"WriteFile " + n, func(fsys FS) error { return fsys.WriteFile(n, []byte("new"), 0o600) }},
			call{"WriteTemp " + path.Dir(n) + ", then Remove it", func(fsys FS) error {
				temp, err := fsys.WriteTemp(path.Dir(n), ".t-", []byte("t"), 0o600)
				if err != nil {
					return err
				}
				return fsys.Remove(temp)
			}},
			call{"Rename ok/f to " + n, func(fsys FS) error { return fsys.Rename("ok/f", n) }},
			call{"Remove " + n, func(fsys FS) error { return fsys.Remove(n) }},
			call{"SyncDir " + path.Dir(n), func(fsys FS) error { return fsys.SyncDir(path.Dir(n)) }},
		)
	}
	for i, c := range calls {
		var results [2]string
		for j, walkOnly := range []bool{false, true} {
			root := filepath.Join(base, fmt.Sprintf("r%d-%d", i, j))
			if err := os.Mkdir(root, 0o755); err != nil {
				t.Fatal(err)
			}
			build(root)
			before := list(root)
			r, err := Open(root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			r.walkOnly = walkOnly
			err = c.do(r)
			r.Close()
			after := list(root)
			if err != nil && after != before {
				t.Errorf("%s (walkOnly=%v) failed (%v) and changed the tree:\nbefore\n%s\nafter\n%s", c.name, walkOnly, err, before, after)
			}
			results[j] = strings.ReplaceAll(maskTemp(errString(err)), root, "ROOT") + "\n" + after
		}
		// A folder that cannot be read is one the write could not sync:
		// the fast paths fail there as the walk does.
		if dir := strings.SplitN(strings.Fields(c.name)[len(strings.Fields(c.name))-1], "/", 2)[0]; (dir == "nor" || dir == "nox") && !strings.Contains(c.name, "/sub") && results[0] != results[1] {
			t.Errorf("%s: with the fast paths\n%s\nwalking\n%s", c.name, results[0], results[1])
		}
	}
}

// TestClosedRootRefuses: once a Root is closed, no call reaches anything,
// even when the descriptor number its fast paths used is given to a
// folder outside it (the fast paths hold the descriptor for each call
// and fail once it is closed).
func TestClosedRootRefuses(t *testing.T) {
	s := newScene(t)
	s.mkdir("a")
	if err := os.Mkdir(filepath.Join(s.outside, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := s.r.Lstat("a"); err != nil { // opens the fast paths' descriptor
		t.Fatal(err)
	}
	s.r.Close()
	// Take the freed numbers with folders outside the root.
	var held []*os.File
	for range 16 {
		f, err := os.Open(s.outside)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, f)
	}
	defer func() {
		for _, f := range held {
			f.Close()
		}
	}()
	calls := map[string]func() error{
		"WriteFile": func() error { return s.r.WriteFile("a/x", []byte("x"), 0o644) },
		"Mkdir":     func() error { return s.r.Mkdir("a/d", 0o755) },
		"WriteTemp": func() error { _, err := s.r.WriteTemp("a", ".t-", []byte("x"), 0o644); return err },
		"Rename":    func() error { return s.r.Rename("a", "b") },
		"Remove":    func() error { return s.r.Remove("a") },
		"SyncDir":   func() error { return s.r.SyncDir("a") },
		"ReadDir":   func() error { _, err := s.r.ReadDir("a"); return err },
		"Lstat":     func() error { _, err := s.r.Lstat("a"); return err },
		"Resolve":   func() error { _, err := s.r.Resolve("a/x"); return err },
	}
	for name, call := range calls {
		if err := call(); err == nil {
			t.Errorf("%s on a closed Root succeeded", name)
		}
	}
	es, err := os.ReadDir(filepath.Join(s.outside, "a"))
	if err != nil || len(es) != 0 {
		t.Errorf("outside/a holds %v (%v)", es, err)
	}
	if _, err := os.Stat(filepath.Join(s.outside, "b")); err == nil {
		t.Error("outside/a was renamed")
	}
}
