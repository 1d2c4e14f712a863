package testhome

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestIsolate checks that every home variable points into the scratch
// home, none at what it was, that the go command's folders stay where they
// were, and that Written sees a file a test leaves there and nothing else.
func TestIsolate(t *testing.T) {
	before := map[string]string{}
	for _, v := range append(homeVars(), [2]string{"GOCACHE"}, [2]string{"GOMODCACHE"}, [2]string{"GOPATH"}, [2]string{"GOENV"}) {
		before[v[0]] = os.Getenv(v[0])
		t.Setenv(v[0], before[v[0]]) // restored after the test
	}
	h, err := Isolate()
	if err != nil {
		t.Fatal(err)
	}
	defer h.Remove()
	for _, v := range homeVars() {
		got := os.Getenv(v[0])
		if got != filepath.Join(h.Dir, v[1]) {
			t.Errorf("%s = %q, want %q", v[0], got, filepath.Join(h.Dir, v[1]))
		}
		if before[v[0]] != "" && got == before[v[0]] {
			t.Errorf("%s still %q", v[0], got)
		}
	}
	if home, err := os.UserHomeDir(); err != nil || home != h.Dir {
		t.Errorf("os.UserHomeDir() = %q, %v; want %q", home, err, h.Dir)
	}
	for _, v := range goVars() {
		if got := os.Getenv(v); before[v] != "" && got != before[v] {
			t.Errorf("%s moved from %q to %q", v, before[v], got)
		}
		if got := os.Getenv(v); strings.HasPrefix(got, h.Dir) {
			t.Errorf("%s = %q, inside the scratch home", v, got)
		}
	}
	if got := h.Written(); len(got) != 0 {
		t.Errorf("a fresh home lists %q", got)
	}
	for _, p := range []string{".cache/nix/x", ".config/go/telemetry/x", "run/agenix/token"} {
		if err := os.MkdirAll(filepath.Join(h.Dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(h.Dir, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := h.Written(); len(got) != 0 {
		t.Errorf("tools' caches and the runtime folder are listed: %q", got)
	}
	state := filepath.Join(h.Dir, ".local", "state", "agyconf")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(state, "default.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []string{".local", ".local/state", ".local/state/agyconf", ".local/state/agyconf/default.json"}
	if got := h.Written(); !reflect.DeepEqual(got, want) {
		t.Errorf("Written() = %q, want %q", got, want)
	}
	h.Remove()
	if _, err := os.Stat(h.Dir); !os.IsNotExist(err) {
		t.Errorf("the home is still there after Remove: %v", err)
	}
}

type fakeM struct {
	run func() int
}

func (f fakeM) Run() int { return f.run() }

// TestRunFailsOnAWrite checks that tests that pass but write into the
// home fail, and that the home is gone afterwards.
func TestRunFailsOnAWrite(t *testing.T) {
	for _, v := range append(homeVars(), [2]string{"GOCACHE"}, [2]string{"GOMODCACHE"}, [2]string{"GOPATH"}, [2]string{"GOENV"}) {
		t.Setenv(v[0], os.Getenv(v[0]))
	}
	var home string
	code := Run(fakeM{func() int {
		home = os.Getenv("HOME")
		if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil {
			t.Error(err)
		}
		return 0
	}})
	if code != 1 {
		t.Errorf("Run = %d, want 1 for tests that wrote .gemini into the home", code)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Errorf("the home %s is still there: %v", home, err)
	}
	if code := Run(fakeM{func() int { return 0 }}); code != 0 {
		t.Errorf("Run = %d for tests that wrote nothing", code)
	}
	if code := Run(fakeM{func() int { return 3 }}); code != 3 {
		t.Errorf("Run = %d, want the tests' own 3", code)
	}
}

// TestEveryPackageIsolated keeps the rule as packages come: a package
// whose tests run agyconf (they import internal/cli, internal/clitest or
// internal/engine) or whose own code reads the home (os.UserHomeDir,
// $HOME, an XDG folder) has a TestMain that isolates it (testhome.Main,
// testhome.Run or clitest.Main). The list it finds must not be empty.
func TestEveryPackageIsolated(t *testing.T) {
	root := filepath.Join("..", "..")
	tests := map[string][]string{}   // folder -> test file texts
	sources := map[string][]string{} // folder -> source file texts
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dir := filepath.Dir(p)
		if strings.HasSuffix(p, "_test.go") {
			tests[dir] = append(tests[dir], string(data))
		} else {
			sources[dir] = append(sources[dir], string(data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	const mod = `"github.com/agyconf/agyconf/internal/`
	var needs []string
	for dir, texts := range tests {
		if filepath.Base(dir) == "testhome" {
			continue
		}
		need, isolated := false, false
		for _, s := range texts {
			if strings.Contains(s, mod+`cli"`) || strings.Contains(s, mod+`clitest"`) || strings.Contains(s, mod+`engine"`) {
				need = true
			}
			if strings.Contains(s, "testhome.Main(") || strings.Contains(s, "testhome.Run(") || strings.Contains(s, "clitest.Main(") {
				isolated = true
			}
		}
		for _, s := range sources[dir] {
			if strings.Contains(s, "os.UserHomeDir()") || strings.Contains(s, `Getenv("HOME")`) || strings.Contains(s, `Getenv("XDG_`) {
				need = true
			}
		}
		if !need {
			continue
		}
		needs = append(needs, dir)
		if !isolated {
			t.Errorf("%s: its tests run agyconf or read the home, and no TestMain isolates them: add one calling testhome.Main(m) (or clitest.Main(m) for testscript)", dir)
		}
	}
	if len(needs) < 5 {
		t.Errorf("found only %q needing isolation: the search is broken", needs)
	}
}
