package agyhook

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fixture is a home with ~/.mempalace and fake processes: nothing a test
// runs in-process starts a real child.
type fixture struct {
	t     testing.TB
	home  string
	state string
	vars  map[string]string
	now   time.Time

	mu       sync.Mutex
	spawns   []SpawnRequest
	wakes    [][]string
	wakeOut  string
	wakeErr  error
	wakeHook func(ctx context.Context)
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, ".mempalace"), 0o700); err != nil {
		t.Fatal(err)
	}
	return &fixture{
		t:       t,
		home:    home,
		state:   filepath.Join(home, ".mempalace", "hook_state"),
		vars:    map[string]string{},
		now:     time.Now(),
		wakeOut: "You remember: the palace.\n",
	}
}

func (f *fixture) env() Env {
	return Env{
		Getenv:     func(k string) string { return f.vars[k] },
		Home:       f.home,
		Now:        func() time.Time { return f.now },
		Executable: func() (string, error) { return "/nonexistent/agyhook", nil },
		LookPath: func(name string) (string, error) {
			if name == "mempalace" {
				return "/fake/bin/mempalace", nil
			}
			return "", errors.New("not found")
		},
		Spawn: func(r SpawnRequest) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.spawns = append(f.spawns, r)
			return nil
		},
		RunWake: func(ctx context.Context, argv []string) ([]byte, error) {
			f.mu.Lock()
			f.wakes = append(f.wakes, argv)
			out, err, hook := f.wakeOut, f.wakeErr, f.wakeHook
			f.mu.Unlock()
			if hook != nil {
				hook(ctx)
			}
			return []byte(out), err
		},
		Watchdog: 10 * time.Second,
		Version:  "test",
	}
}

func (f *fixture) run(stdin string, args ...string) (string, string, int) {
	return f.runEnv(f.env(), stdin, args...)
}

func (f *fixture) runEnv(env Env, stdin string, args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(stdin), &out, &errb, env)
	return out.String(), errb.String(), code
}

func (f *fixture) nSpawns() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.spawns)
}

func (f *fixture) nWakes() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.wakes)
}

// transcript creates a transcript file and returns its path.
func (f *fixture) transcript() string {
	f.t.Helper()
	dir := filepath.Join(f.home, "brain", "conv1", ".system_generated", "logs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		f.t.Fatal(err)
	}
	p := filepath.Join(dir, "transcript_full.jsonl")
	if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fixture) readLog() string {
	b, _ := os.ReadFile(filepath.Join(f.state, logName))
	return string(b)
}

// lockedBuffer is written by a hook's worker after Main returned.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// readCount returns the count stored at path; missing or garbled is 0.
func readCount(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return parseCount(data)
}
