package apply

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agyconf/agyconf/internal/render"
)

// The fault table: the faults a render meets on a real machine — a full
// disk, a read-only filesystem, a state file that cannot be written —
// injected through the FS interface (CI runs as root, where permissions
// prove nothing), each failing the way the OS would, with its errno and
// its path. fault_test.go's faultFS proves the old-or-new guarantee at
// every step with a generic error; this table proves, per real fault, the
// message and exactly which of the guarantees holds, and that the next
// healthy render converges with no foreign entry lost.

// errnoFS is the real root failing one kind of call with an errno, as the
// OS reports it: on its nth call (1-based) or, with nth 0, on every call,
// the way a full disk or a read-only mount fails them all.
type errnoFS struct {
	op    string // "mkdir", "temp", "rename", "remove", "syncdir", "state"
	nth   int64
	errno syscall.Errno
	calls atomic.Int64
	hit   atomic.Int64
}

// on is the root e renders into, failing as f says.
func (f *errnoFS) on(e *env) FS {
	return &hookFS{FS: e.fs, before: func(op, name string) error {
		if op != f.op {
			return nil
		}
		n := f.calls.Add(1)
		if f.nth != 0 && n != f.nth {
			return nil
		}
		f.hit.Add(1)
		what := map[string]string{"mkdir": "mkdir", "temp": "create", "rename": "rename", "remove": "remove", "syncdir": "fsync", "state": "create"}[op]
		if op == "temp" {
			name += "/" + tempPrefix // the temporary file it would have made
		}
		return &fs.PathError{Op: what, Path: e.fs.Full(name), Err: f.errno}
	}}
}

// Outcomes of a fault: what the targets hold after it.
const (
	allOld  = "old"     // every target byte-identical to before the render
	allNew  = "new"     // every target as the config wants it
	oldOrNw = "partial" // each target old or new; the state's pending hashes carry the rest
)

// faultScene is the tree the table renders into: a file updated, a file
// pruned, a file created in new folders, and a shared file with the user's
// entries and agyconf's, one changed, one added, one dropped.
type faultScene struct {
	e       *env
	targets []string
	old     map[string][]byte // nil: absent
	want    map[string]string // "": absent
}

const (
	userMCP = `{"zeta": [1.0, "\u00e9"], "mcpServers": {"mine": {"command": "mine", "args": ["1.0"]}}}`
)

func faultPlanA() *render.Plan {
	return plan(
		textDoc("a.md", "a v1\n"), textDoc("c.md", "c only in A\n"),
		mcpPlanDoc(map[string]any{"gh": map[string]any{"command": "gh-v1"}, "gone": map[string]any{"command": "g"}}),
	)
}

func faultPlanB() *render.Plan {
	return plan(
		textDoc("a.md", "a v2\n"), textDoc("new/deep/b.md", "b\n"),
		mcpPlanDoc(map[string]any{"gh": map[string]any{"command": "gh-v2"}, "added": map[string]any{"command": "x"}}),
	)
}

func newFaultScene(t *testing.T) *faultScene {
	e := newEnv(t)
	e.write("cfg/mcp_config.json", userMCP)
	if _, err := e.run(faultPlanA()); err != nil {
		t.Fatal(err)
	}
	s := &faultScene{e: e, targets: []string{"a.md", "c.md", "new/deep/b.md", "cfg/mcp_config.json"}, old: map[string][]byte{}}
	for _, p := range s.targets {
		if b, err := os.ReadFile(filepath.Join(e.root, p)); err == nil {
			s.old[p] = b
		}
	}
	s.want = map[string]string{"a.md": "a v2\n", "c.md": "", "new/deep/b.md": "b\n"}
	return s
}

func (s *faultScene) read(p string) ([]byte, bool) {
	b, err := os.ReadFile(filepath.Join(s.e.root, p))
	return b, err == nil
}

// isOld and isNew tell the state of one target.
func (s *faultScene) isOld(t *testing.T, p string) bool {
	b, ok := s.read(p)
	old, had := s.old[p]
	return ok == had && bytes.Equal(b, old)
}

func (s *faultScene) isNew(t *testing.T, p string) bool {
	b, ok := s.read(p)
	if p == "cfg/mcp_config.json" {
		return ok && mcpIsB(t, b)
	}
	want := s.want[p]
	return ok == (want != "") && string(b) == want
}

// mcpIsB: the shared file holds B's servers and exactly the user's
// entries, their text as written.
func mcpIsB(t *testing.T, b []byte) bool {
	var v struct {
		Zeta       json.RawMessage            `json:"zeta"`
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("mcp_config.json is torn: %v\n%s", err, b)
	}
	_, gone := v.MCPServers["gone"]
	return !gone && compact(v.MCPServers["gh"]) == `{"command":"gh-v2"}` && compact(v.MCPServers["added"]) == `{"command":"x"}`
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return ""
	}
	return b.String()
}

// checkForeign: the user's entries are there, byte for byte apart from
// indentation (1.0 stays 1.0, \u00e9 stays escaped).
func (s *faultScene) checkForeign(t *testing.T, when string) {
	t.Helper()
	b, _ := s.read("cfg/mcp_config.json")
	var v struct {
		Zeta       json.RawMessage            `json:"zeta"`
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: mcp_config.json is torn: %v\n%s", when, err, b)
	}
	if compact(v.Zeta) != `[1.0,"\u00e9"]` || compact(v.MCPServers["mine"]) != `{"command":"mine","args":["1.0"]}` {
		t.Fatalf("%s: the user's entries were lost or respelled:\n%s", when, b)
	}
}

func (s *faultScene) tempFiles(t *testing.T) []string {
	var out []string
	filepath.WalkDir(s.e.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), tempPrefix) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestFaultTable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		op    string
		nth   int64
		errno syscall.Errno
		// what the targets hold after the fault
		outcome string
		// the error names this (relative to the root; "state" for the
		// state file) and the errno's text
		names string
		// the state file on disk after the fault records pending hashes
		pending bool
	}{
		{name: "disk full creating a folder", op: "mkdir", errno: syscall.ENOSPC, outcome: allOld, names: "new", pending: true},
		{name: "disk full writing temporary files", op: "temp", errno: syscall.ENOSPC, outcome: allOld, names: "a.md", pending: true},
		{name: "disk full writing the state before the batch", op: "state", nth: 1, errno: syscall.ENOSPC, outcome: allOld, names: "state"},
		{name: "disk full writing the state after the batch", op: "state", nth: 2, errno: syscall.ENOSPC, outcome: allNew, names: "state", pending: true},
		{name: "read-only file system writing temporary files", op: "temp", errno: syscall.EROFS, outcome: allOld, names: "a.md", pending: true},
		{name: "read-only file system renaming into place", op: "rename", errno: syscall.EROFS, outcome: allOld, names: "a.md", pending: true},
		{name: "read-only file system after the first rename", op: "rename", nth: 2, errno: syscall.EROFS, outcome: oldOrNw, names: "cfg/mcp_config.json", pending: true},
		{name: "read-only file system removing a pruned file", op: "remove", errno: syscall.EROFS, outcome: oldOrNw, names: "c.md", pending: true},
		{name: "I/O error syncing folders", op: "syncdir", errno: syscall.EIO, outcome: allNew, names: "syncing folders", pending: true},
		{name: "read-only state folder", op: "state", errno: syscall.EROFS, outcome: allOld, names: "state"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newFaultScene(t)
			e := s.e
			stateBefore, _ := os.ReadFile(e.statePath())
			f := &errnoFS{op: tc.op, nth: tc.nth, errno: tc.errno}
			e.opts.FS = f.on(e)
			_, err := e.run(faultPlanB())
			if f.hit.Load() == 0 {
				t.Fatalf("the fault was never hit (err %v)", err)
			}
			if err == nil {
				t.Fatal("the render succeeded through the fault")
			}
			// The message: the path, the cause.
			msg := err.Error()
			name := tc.names
			switch name {
			case "state":
				name = e.statePath()
			case "syncing folders":
			default:
				name = filepath.Join(e.root, name)
			}
			if !strings.Contains(msg, name) || !strings.Contains(msg, tc.errno.Error()) || !errors.Is(err, tc.errno) {
				t.Errorf("message %q does not name %s and %q", msg, name, tc.errno.Error())
			}
			if tc.op == "state" {
				// What a user most needs to know: were the files written?
				want := "nothing was written"
				if tc.outcome == allNew {
					want = "the next render records them"
				}
				if !strings.Contains(msg, want) {
					t.Errorf("message %q does not say %q", msg, want)
				}
			}
			t.Logf("message: %s", msg)

			// The targets.
			for _, p := range s.targets {
				old, isNew := s.isOld(t, p), s.isNew(t, p)
				switch {
				case tc.outcome == allOld && !old:
					t.Errorf("%s changed", p)
				case tc.outcome == allNew && !isNew:
					t.Errorf("%s is not the new content", p)
				case tc.outcome == oldOrNw && !old && !isNew:
					t.Errorf("%s is neither old nor new", p)
				}
			}
			if tc.outcome == oldOrNw {
				var olds, news int
				for _, p := range s.targets {
					if s.isOld(t, p) {
						olds++
					}
					if s.isNew(t, p) {
						news++
					}
				}
				if news == 0 {
					t.Errorf("a partial fault left nothing new: not the case this row is about")
				}
			}
			s.checkForeign(t, "after the fault")
			if tmp := s.tempFiles(t); len(tmp) > 0 {
				t.Errorf("temporary files left behind: %q", tmp)
			}
			// The state: loadable, and pending exactly when it was saved
			// before the batch.
			st, lerr := e.loadState()
			if lerr != nil {
				t.Fatalf("the state no longer loads: %v", lerr)
			}
			pending := 0
			for _, fs := range st.Files {
				if len(fs.Pending) > 0 {
					pending++
				}
			}
			if tc.pending != (pending > 0) {
				t.Errorf("pending hashes in the state: %d, want some: %v", pending, tc.pending)
			}
			if !tc.pending {
				if now, _ := os.ReadFile(e.statePath()); !bytes.Equal(now, stateBefore) {
					t.Errorf("the state changed although its write failed")
				}
			}

			// The next render, healthy, converges: no conflict, then
			// nothing to do, B's content, the user's entries, no pending.
			e.opts.FS = nil
			if _, err := e.run(faultPlanB()); err != nil {
				t.Fatalf("the render after the fault: %v", err)
			}
			got, err := e.run(faultPlanB())
			if err != nil {
				t.Fatal(err)
			}
			for p, a := range got {
				if a != Unchanged {
					t.Errorf("%s is %s after converging, want unchanged", p, a)
				}
			}
			for _, p := range s.targets {
				if !s.isNew(t, p) {
					b, _ := s.read(p)
					t.Errorf("%s after converging: %q", p, b)
				}
			}
			s.checkForeign(t, "after converging")
			st, _ = e.loadState()
			for k, fs := range st.Files {
				if len(fs.Pending) > 0 {
					t.Errorf("%s still pending after converging", k)
				}
				if strings.Contains(k, "gone") || k == "c.md" {
					t.Errorf("the state still records %s", k)
				}
			}
		})
	}
}

// TestFaultStateWriteThenEdit: the state write fails after the files were
// written, and the user edits one of them before the next render. The
// pending hash makes the written content agyconf's, so the edit is seen as
// an edit (a conflict), not silently overwritten and not adopted.
func TestFaultStateWriteThenEdit(t *testing.T) {
	s := newFaultScene(t)
	e := s.e
	e.opts.FS = (&errnoFS{op: "state", nth: 2, errno: syscall.ENOSPC}).on(e)
	if _, err := e.run(faultPlanB()); err == nil {
		t.Fatal("no error")
	}
	e.opts.FS = nil
	e.write("a.md", "edited after the failed render\n")
	got, err := e.run(faultPlanB())
	var ce *ConflictError
	if !errors.As(err, &ce) || got["a.md"] != Conflict {
		t.Fatalf("got %v, %v; want a.md in conflict", got, err)
	}
	if e.read("a.md") != "edited after the failed render\n" {
		t.Fatal("the edit was overwritten")
	}
	// Without the edit, the pending state would have said "agyconf's": a
	// later config change updates the file without a conflict.
	e.write("a.md", "a v2\n")
	if _, err := e.run(plan(textDoc("a.md", "a v3\n"), textDoc("new/deep/b.md", "b\n"),
		mcpPlanDoc(map[string]any{"gh": map[string]any{"command": "gh-v2"}, "added": map[string]any{"command": "x"}}))); err != nil {
		t.Fatalf("updating what the failed render wrote: %v", err)
	}
	if e.read("a.md") != "a v3\n" {
		t.Fatal("not updated")
	}
	s.checkForeign(t, "after the update")
}

// lockHolderEnv makes the test binary a lock holder: TestLockHolderProcess
// takes the lock at the path it names, says so on stdout and sleeps.
const lockHolderEnv = "AGYCONF_TEST_LOCK_HOLDER"

func TestLockHolderProcess(t *testing.T) {
	path := os.Getenv(lockHolderEnv)
	if path == "" {
		t.Skip("only run as a child of the lock tests")
	}
	if _, err := acquireLock(path, time.Second, func(string) {}); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	time.Sleep(time.Minute) // until killed
	os.Exit(0)
}

// startLockHolder starts a child process holding the lock at path.
func startLockHolder(t *testing.T, path string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestLockHolderProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), lockHolderEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		r := bufio.NewReader(out)
		l, _ := r.ReadString('\n')
		line <- strings.TrimSpace(l)
	}()
	select {
	case l := <-line:
		if l != "locked" {
			t.Fatalf("the lock holder said %q", l)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the lock holder never took the lock")
	}
	return cmd
}

// TestLockHeldByLiveProcess: another process holds the lock; a render
// waiting a short time gives up within the bound, naming the holder's PID
// and the lock file.
func TestLockHeldByLiveProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "lock")
	child := startLockHolder(t, path)
	pid := strconv.Itoa(child.Process.Pid)

	const wait = 300 * time.Millisecond
	var told string
	start := time.Now()
	l, err := acquireLock(path, wait, func(h string) { told = h })
	took := time.Since(start)
	if err == nil {
		l()
		t.Fatal("took a lock a live process holds")
	}
	if took < wait { // it waited its time before giving up
		t.Errorf("gave up after %s, want at least %s", took, wait)
	}
	if want := "agyconf (pid " + pid + ")"; told != want || !strings.Contains(err.Error(), want) {
		t.Errorf("told %q, error %q; want both to name %q", told, err, want)
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not name the lock file %s", err, path)
	}
	// The holder's PID is still in the file: a waiter did not overwrite it.
	if b, _ := os.ReadFile(path); strings.TrimSpace(string(b)) != pid {
		t.Errorf("the lock file says %q, want the holder's pid %s", b, pid)
	}
}

// TestLockHeldByKilledProcess: the holder is killed (SIGKILL, no cleanup);
// the kernel dropped its flock, so the next render takes the lock at once
// without waiting, though the file still names the dead PID.
func TestLockHeldByKilledProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "lock")
	child := startLockHolder(t, path)
	dead := strconv.Itoa(child.Process.Pid)
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	if b, _ := os.ReadFile(path); strings.TrimSpace(string(b)) != dead {
		t.Fatalf("the lock file says %q, want the dead holder's pid %s", b, dead)
	}
	start := time.Now()
	l, err := acquireLock(path, time.Minute, func(h string) { t.Errorf("waited for %s, which is dead", h) })
	if err != nil {
		t.Fatalf("a dead holder's lock: %v", err)
	}
	defer l()
	if took := time.Since(start); took > time.Second {
		t.Errorf("took %s to take a dead holder's lock", took)
	}
	if b, _ := os.ReadFile(path); strings.TrimSpace(string(b)) != strconv.Itoa(os.Getpid()) {
		t.Errorf("the lock file says %q, want this pid", b)
	}
}
