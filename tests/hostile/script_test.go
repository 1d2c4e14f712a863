package hostile_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agyconf/agyconf/internal/cli"
	"github.com/agyconf/agyconf/internal/clitest"
)

var update = flag.Bool("u", false, "update testscript files with the actual output")

// TestMain lets the scripts exec agyconf and agyhook (the test binary runs
// them when called by those names) and keeps the tests out of the user's
// home (clitest.Main): a workspace render reads agy's record of trusted
// folders under $HOME, never the user's.
func TestMain(m *testing.M) {
	clitest.Main(m)
}

// SwapRendersEnv sizes the swap race of the scripts (swaprace): how many
// renders run while a link is being swapped under them. The default keeps
// `go test ./...` quick (a few seconds); CI sets it higher (hundreds to
// thousands; about 60 ms a render, several times that under -race) to give
// a window between a check and a use more chances to show.
const SwapRendersEnv = "AGYCONF_SWAP_RENDERS"

const defaultSwapRenders = "30"

// scriptDeadline is the AGYCONF_TEST_DEADLINE of every script, in
// seconds: an agyconf that runs longer exits 99 ("hung"), which no script
// expects, so every script also asserts that nothing hangs. It is far
// above what any run takes (well under a second alone; 20 s was seen
// while three test suites shared two cores), so a slow or loaded machine
// does not fail it, and it asserts no timing: a hang on a FIFO or a
// device never ends at all.
const scriptDeadline = "120"

// TestScripts runs the hostile-filesystem scripts in testdata/script: one
// attack per script, each agyconf run as a user would, each ending in an
// error or the documented refusal with nothing written outside the render
// root (and, for a refusal, nothing inside it either).
//
// Besides testscript's built-in commands the scripts have these:
//
//	exitcode N
//
// asserts that the last `exec agyconf …` exited with exactly N (see
// clitest.ExitCode);
//
//	mkfifo PATH
//
// makes a named pipe: what blocks a careless reader forever;
//
//	snapshot NAME DIR
//	unchanged NAME DIR
//
// record the tree at DIR (every entry's path, type, mode, link target and
// content hash; a missing DIR is recorded as missing, a DIR that is a link
// as that link) under NAME, and later fail with a readable diff if it is
// not exactly so any more. A refusal snapshots $WORK as a whole: the root,
// the config, the folders outside and TMPDIR ($WORK/.tmp). That works
// because exitcode deletes the record the agyconf command leaves in
// $WORK/.tmp, so `unchanged` on $WORK comes after an exitcode;
//
//	droplock LOCK
//
// removes the lock file LOCK, and the folders it was made in while they
// are empty: a render refused over what it found on disk has taken the
// lock first (renders into a root are serialized by it), and the lock,
// holding the PID of that run, is the one file it leaves; after droplock,
// unchanged shows that nothing else was left (see cmdDropLock);
//
//	gen KIND FILE N
//
// writes a generated input too big or too repetitive for a txtar (see
// generators);
//
//	swaprace N LINK A B -- ARGS...
//
// runs `agyconf ARGS...` N times in this process while a goroutine keeps
// swapping the symbolic link LINK between the targets A and B (see
// cmdSwapRace).
func TestScripts(t *testing.T) {
	renders := os.Getenv(SwapRendersEnv)
	if renders == "" {
		renders = defaultSwapRenders
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			env.Setenv(clitest.DeadlineEnv, scriptDeadline)
			env.Setenv(SwapRendersEnv, renders)
			env.Values[snapshotsKey{}] = &snapshots{trees: map[string]tree{}}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":  clitest.ExitCode,
			"mkfifo":    cmdMkfifo,
			"snapshot":  cmdSnapshot,
			"unchanged": cmdUnchanged,
			"gen":       cmdGen,
			"droplock":  cmdDropLock,
			"swaprace":  cmdSwapRace,
		},
	})
}

// cmdMkfifo is `mkfifo PATH`.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo PATH")
	}
	ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o644))
}

// snapshotsKey is the script value holding its snapshots: Setup makes one
// for each script (scripts run in parallel), and a script's commands run
// one at a time.
type snapshotsKey struct{}

type snapshots struct {
	trees map[string]tree
}

// tree is a recorded folder: one line per entry, by slash path below it
// ("." is the folder itself). A missing folder is the one entry ". missing".
type tree map[string]string

// record walks dir without following any link, the top one included: a
// link is recorded as a link (its target), never as what it leads to, so a
// link replaced by a folder, or retargeted, shows. FIFOs and devices are
// recorded by type and never opened.
func record(dir string) (tree, error) {
	t := tree{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == dir {
			t["."] = "missing"
			return nil
		}
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		t[filepath.ToSlash(rel)], err = describe(p, fi)
		return err
	})
	return t, err
}

// describe is one entry of a tree: its type and mode, and its link target
// or content hash.
func describe(p string, fi fs.FileInfo) (string, error) {
	m := fi.Mode()
	switch {
	case m&fs.ModeSymlink != 0:
		target, err := os.Readlink(p)
		return fmt.Sprintf("link %v -> %s", m, target), err
	case m.IsRegular():
		data, err := os.ReadFile(p)
		sum := sha256.Sum256(data)
		return fmt.Sprintf("file %v %d bytes sha256:%s", m, len(data), hex.EncodeToString(sum[:8])), err
	case m.IsDir():
		return fmt.Sprintf("dir %v", m), nil
	case m&fs.ModeNamedPipe != 0:
		return fmt.Sprintf("fifo %v", m), nil
	}
	return fmt.Sprintf("other %v", m), nil
}

// cmdSnapshot is `snapshot NAME DIR`.
func cmdSnapshot(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: snapshot NAME DIR")
	}
	t, err := record(ts.MkAbs(args[1]))
	ts.Check(err)
	s := ts.Value(snapshotsKey{}).(*snapshots)
	if _, ok := s.trees[args[0]]; ok {
		ts.Fatalf("snapshot %s taken twice", args[0])
	}
	s.trees[args[0]] = t
	ts.Logf("snapshot %s: %d entries", args[0], len(t))
}

// cmdUnchanged is `unchanged NAME DIR`: DIR must be exactly as snapshot
// NAME recorded it. The diff lists every entry removed (-), added (+) or
// changed (before => after), by path.
func cmdUnchanged(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: unchanged NAME DIR")
	}
	before, ok := ts.Value(snapshotsKey{}).(*snapshots).trees[args[0]]
	if !ok {
		ts.Fatalf("no snapshot named %s", args[0])
	}
	after, err := record(ts.MkAbs(args[1]))
	ts.Check(err)
	if d := treeDiff(before, after); d != "" {
		ts.Fatalf("%s changed since snapshot %s:\n%s", args[1], args[0], d)
	}
}

func treeDiff(before, after tree) string {
	var paths []string
	for p := range before {
		paths = append(paths, p)
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	var b strings.Builder
	for _, p := range paths {
		was, wasOK := before[p]
		is, isOK := after[p]
		switch {
		case !isOK:
			fmt.Fprintf(&b, "- %s: %s\n", p, was)
		case !wasOK:
			fmt.Fprintf(&b, "+ %s: %s\n", p, is)
		case was != is:
			fmt.Fprintf(&b, "~ %s: %s => %s\n", p, was, is)
		}
	}
	return b.String()
}

// cmdDropLock is `droplock LOCK`. The lock must be a regular file, or
// missing (a refusal found before the lock was taken leaves none: whether
// it was taken is not what a script asserts); its folders are removed up
// to the first one that is not empty, never $WORK itself. A folder that
// was already there and empty goes too, which unchanged then reports: a
// loud failure, never a silent pass.
func cmdDropLock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: droplock LOCK")
	}
	lock := ts.MkAbs(args[0])
	fi, err := os.Lstat(lock)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	ts.Check(err)
	if !fi.Mode().IsRegular() {
		ts.Fatalf("droplock: %s is not a regular file: %v", args[0], fi.Mode())
	}
	ts.Check(os.Remove(lock))
	work := filepath.Clean(ts.Getenv("WORK"))
	for dir := filepath.Dir(lock); dir != work && strings.HasPrefix(dir, work+string(filepath.Separator)); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			return // not empty: it was there before, or holds more
		}
	}
}

// generators are the kinds of `gen KIND FILE N`: inputs whose size is the
// attack, written at run time rather than stored in a txtar.
var generators = map[string]func(n int) []byte{
	// An HCL config whose one expression is N parentheses deep: a
	// recursive-descent parser without a depth bound overflows the stack.
	"hcl-parens": func(n int) []byte {
		return []byte("agyconf {\n  scope = \"global\"\n}\nmcp_server \"x\" {\n  command = " +
			strings.Repeat("(", n) + `"x"` + strings.Repeat(")", n) + "\n}\n")
	},
	// A JSON config nesting N arrays, where a server's args belong.
	"json-arrays": func(n int) []byte {
		return []byte(`{"agyconf": {"scope": "global"}, "mcp_server": {"x": {"command": "x", "args": ` +
			strings.Repeat("[", n) + strings.Repeat("]", n) + "}}}\n")
	},
	// A JSON config whose string is a template N parentheses deep: in
	// HCL's JSON syntax every string is parsed as a template.
	"json-template": func(n int) []byte {
		return []byte(`{"agyconf": {"scope": "global"}, "mcp_server": {"x": {"command": "${` +
			strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "}\"}}}\n")
	},
	// A file of N bytes: N-1 letters and a newline.
	"big": func(n int) []byte {
		if n < 1 {
			return nil
		}
		return append(bytes.Repeat([]byte("x"), n-1), '\n')
	},
	// A global config of N skills, skill-1 to skill-N: many files in one
	// folder, so that a render spends long enough in it for a swapped link
	// to land mid-render.
	"skills": func(n int) []byte {
		var b strings.Builder
		b.WriteString("agyconf {\n  scope = \"global\"\n}\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "skill \"skill-%d\" {\n  description = \"Skill %d\"\n  body        = \"Do %d.\"\n}\n", i, i, i)
		}
		return []byte(b.String())
	},
}

// cmdGen is `gen KIND FILE N`; FILE's folders are made as needed.
func cmdGen(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: gen KIND FILE N")
	}
	g, ok := generators[args[0]]
	if !ok {
		var kinds []string
		for k := range generators {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		ts.Fatalf("gen: unknown kind %q; the kinds are %s", args[0], strings.Join(kinds, ", "))
	}
	n, err := strconv.Atoi(args[2])
	if err != nil || n < 0 {
		ts.Fatalf("gen: N must be a whole number, got %q", args[2])
	}
	file := ts.MkAbs(args[1])
	ts.Check(os.MkdirAll(filepath.Dir(file), 0o755))
	ts.Check(os.WriteFile(file, g(n), 0o644))
}

// cmdSwapRace is
//
//	swaprace N LINK A B -- ARGS...
//
// It runs `agyconf ARGS...` N times, one after another, in this process
// (internal/cli.Main), while a goroutine keeps replacing the symbolic link
// LINK so that it points alternately at A and B: a new link made beside it,
// then renamed over it, so LINK always exists and is always one of the two
// — the attack on every check of a folder made before its use. The targets
// are written as given (a relative one is relative to LINK's folder).
// After the loop the goroutine is stopped and LINK points at A.
//
// Every run must end, within the script's AGYCONF_TEST_DEADLINE, with exit
// 0, 2 or 3 (done, refused, conflict): a panic, any other code or a hang
// fails the command. What each run did is decided by the race, so nothing
// else is asserted here, and nothing about time: the script checks the
// trees afterwards. stdout gets one line per exit code seen, with how
// many runs ended so.
//
// In this process agyconf sees the test's HOME and working directory, not
// the script's: ARGS must therefore name --config and --root, both
// absolute ($WORK/...).
func cmdSwapRace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 5 || args[4] != "--" {
		ts.Fatalf("usage: swaprace N LINK A B -- ARGS...")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 {
		ts.Fatalf("swaprace: N must be a positive number, got %q", args[0])
	}
	link, targets, agyArgs := ts.MkAbs(args[1]), [2]string{args[2], args[3]}, args[5:]
	for _, f := range []string{"--config", "--root"} {
		i := indexOf(agyArgs, f)
		if i < 0 || i+1 >= len(agyArgs) || !filepath.IsAbs(agyArgs[i+1]) {
			ts.Fatalf("swaprace: ARGS must have %s with an absolute path: agyconf runs in the test process, with its HOME and working directory", f)
		}
	}
	deadline := 120 * time.Second
	if s := ts.Getenv(clitest.DeadlineEnv); s != "" {
		secs, err := strconv.Atoi(s)
		ts.Check(err)
		deadline = time.Duration(secs) * time.Second
	}

	var stop atomic.Bool
	var swaps atomic.Int64
	swapErr := make(chan error, 1)
	go func() {
		swapErr <- swapLoop(link, targets, &stop, &swaps)
	}()
	codes := map[int]int{}
	var fatal string
	for i := 0; i < n && fatal == ""; i++ {
		code, out, problem := runAgyconf(append([]string{"agyconf"}, agyArgs...), deadline)
		switch {
		case problem != "":
			fatal = fmt.Sprintf("run %d %s:\n%s", i+1, problem, out)
		case code != cli.ExitOK && code != cli.ExitBadInput && code != cli.ExitConflict:
			fatal = fmt.Sprintf("run %d exited with %d, not 0, 2 or 3:\n%s", i+1, code, out)
		}
		if codes[code] == 0 {
			ts.Logf("first run to exit %d:\n%s", code, clip(out))
		}
		codes[code]++
	}
	stop.Store(true)
	ts.Check(<-swapErr)
	ts.Check(setLink(link, targets[0]))
	if fatal != "" {
		ts.Fatalf("swaprace: %s", fatal)
	}
	var keys []int
	for c := range codes {
		keys = append(keys, c)
	}
	sort.Ints(keys)
	for _, c := range keys {
		fmt.Fprintf(ts.Stdout(), "exit %d: %d\n", c, codes[c])
	}
	ts.Logf("%d renders, %d swaps", n, swaps.Load())
}

// runAgyconf runs agyconf in this process. A run that panics or outlives
// the deadline is a problem (the hung run is left behind: it cannot be
// stopped, and the script fails anyway).
func runAgyconf(args []string, deadline time.Duration) (code int, out string, problem string) {
	type result struct {
		code  int
		panic any
	}
	var buf syncBuffer
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panic: p}
			}
		}()
		done <- result{code: cli.Main(args, &buf, &buf)}
	}()
	select {
	case r := <-done:
		if r.panic != nil {
			return 0, buf.String(), fmt.Sprintf("panicked: %v", r.panic)
		}
		return r.code, buf.String(), ""
	case <-time.After(deadline):
		return 0, buf.String(), fmt.Sprintf("still running after %s: hung", deadline)
	}
}

// swapLoop keeps pointing link at one target, then the other, as fast as
// it can, until stop: each time a new link beside it, renamed over it
// (atomic: LINK never goes missing).
func swapLoop(link string, targets [2]string, stop *atomic.Bool, swaps *atomic.Int64) error {
	for i := 0; !stop.Load(); i++ {
		if err := setLink(link, targets[i%2]); err != nil {
			return err
		}
		swaps.Add(1)
	}
	return nil
}

// setLink points link at target atomically: a new link beside it, renamed
// over it.
func setLink(link, target string) error {
	tmp := link + ".swap"
	_ = os.Remove(tmp) // left by nothing but an interrupted run
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, link)
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// syncBuffer is a buffer the run writes and, when it hangs, the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
