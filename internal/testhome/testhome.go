// Package testhome keeps tests away from the user's home. agyconf reads a
// default config from $XDG_CONFIG_HOME/agyconf (~/.config/agyconf),
// renders into $HOME by default and keeps its state under
// ~/.local/state/agyconf: a test that runs the CLI on the machine of
// anyone who has used agyconf would otherwise read (and could write) their
// files, and pass or fail by what they hold. Every package whose tests
// run agyconf, or read what agyconf reads from a home, calls Main (or
// clitest.Main, which uses it) from its TestMain. Only tests import it.
package testhome

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// homeVars are the variables Isolate points into the scratch home, each
// with its place there ("" for the home itself).
func homeVars() [][2]string {
	return [][2]string{
		{"HOME", ""},
		{"XDG_CONFIG_HOME", ".config"},
		{"XDG_STATE_HOME", ".local/state"},
		{"XDG_DATA_HOME", ".local/share"},
		{"XDG_CACHE_HOME", ".cache"},
		{"XDG_RUNTIME_DIR", "run"},
	}
}

// goVars are where the go command keeps its settings, build cache and
// modules: they default to folders under HOME and the XDG folders, so they
// are pinned to what they are before those move, or a test that runs
// `go build` would rebuild everything and download every module again.
func goVars() []string { return []string{"GOENV", "GOCACHE", "GOMODCACHE", "GOPATH"} }

// Home is a scratch home the environment points at.
type Home struct {
	Dir string
}

// Isolate points HOME and every XDG base folder of this process at a new,
// empty scratch home (the runtime folder exists, mode 0700, as
// systemd-logind makes it; the others do not, as for a new user), after
// pinning the go command's own folders. Tests that need a home of their
// own still set it (t.Setenv) or pass one to the command they run.
func Isolate() (*Home, error) {
	if err := pinGo(); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "agyconf-test-home-")
	if err != nil {
		return nil, err
	}
	// The real path: a test comparing paths must not trip on a linked
	// temporary folder (macOS's /var).
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	h := &Home{Dir: dir}
	for _, v := range homeVars() {
		if err := os.Setenv(v[0], filepath.Join(dir, v[1])); err != nil {
			h.Remove()
			return nil, err
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "run"), 0o700); err != nil {
		h.Remove()
		return nil, err
	}
	return h, nil
}

// pinGo sets the go command's folders that are not set, to the values the
// go command reports now (its settings file may name them).
func pinGo() error {
	var unset []string
	for _, v := range goVars() {
		if os.Getenv(v) == "" {
			unset = append(unset, v)
		}
	}
	if len(unset) == 0 {
		return nil
	}
	if _, err := exec.LookPath("go"); err != nil {
		return nil // no go command to protect
	}
	out, err := exec.Command("go", append([]string{"env", "-json"}, unset...)...).Output()
	if err != nil {
		return fmt.Errorf("go env: %w", err)
	}
	var vals map[string]string
	if err := json.Unmarshal(out, &vals); err != nil {
		return fmt.Errorf("go env: %w", err)
	}
	for _, v := range unset {
		if vals[v] != "" {
			if err := os.Setenv(v, vals[v]); err != nil {
				return err
			}
		}
	}
	return nil
}

// Written lists, relative to the home, every file and folder the tests
// left in it besides the runtime folder and what the tools some tests run
// keep there (the cache folder: nix's evaluation cache; .config/go: the go
// command's telemetry counters, which have no override), none of which
// agyconf reads or writes: a test that writes into the home it was given
// by accident (a render without --root) would have written into the
// user's.
func (h *Home) Written() []string {
	var left []string
	_ = filepath.WalkDir(h.Dir, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(h.Dir, p)
		switch {
		case rel == ".", rel == ".config" && err == nil && d.IsDir():
			return nil
		case (rel == "run" || rel == ".cache" || rel == filepath.Join(".config", "go")) && err == nil && d.IsDir():
			return filepath.SkipDir
		}
		left = append(left, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(left)
	return left
}

// Remove deletes the scratch home.
func (h *Home) Remove() {
	// Tests may leave read-only folders behind; make them writable first.
	_ = filepath.WalkDir(h.Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	_ = os.RemoveAll(h.Dir)
}

// Runner is what Run runs: a *testing.M.
type Runner interface{ Run() int }

// Run runs m with the environment isolated and returns its exit code: 1
// if it cannot isolate, and 1 if the tests passed but wrote into the
// scratch home.
func Run(m Runner) int {
	h, err := Isolate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testhome:", err)
		return 1
	}
	defer h.Remove()
	code := m.Run()
	if left := h.Written(); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "testhome: the tests wrote into the home they were given (%s), which would have been the user's:\n  %s\n", h.Dir, strings.Join(left, "\n  "))
		if code == 0 {
			code = 1
		}
	}
	return code
}

// Main is the TestMain of a package whose tests read or may write what
// agyconf keeps in a home: it runs them with the environment isolated and
// exits.
func Main(m Runner) { os.Exit(Run(m)) }

// Wrap returns m with its Run isolated, for a runner that calls Run only
// in the process `go test` started (testscript.Main, which also runs the
// test binary as the scripts' commands, where the script's own HOME
// counts).
func Wrap(m Runner) Runner { return isolated{m} }

type isolated struct{ m Runner }

func (i isolated) Run() int { return Run(i.m) }
