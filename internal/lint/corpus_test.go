package lint_test

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/lint"
)

// corpusRoot holds the conformance corpus: for every rule, a failing case
// (fail/, with want.txt) and a passing case (pass/), plus real-world
// examples under real-world/<name>/ with a want.txt each.
const corpusRoot = "../../tests/lint"

// Each case folder may hold:
//   - want.txt: the findings, one "RULE LINE:COL" per line; absent or
//     empty means none;
//   - path.txt: the command names LookPath finds, one a line; without it
//     every command is found;
//   - mode600.txt: files (relative to the case) to chmod 0600; every other
//     file is made 0644, since git does not keep modes;
//   - agy-version.txt: the --agy-version the case is linted with; without
//     it, none;
//   - programs.txt: the only absolute paths that exist, as executable
//     files, for the rules that look at this machine (a hook's program,
//     the ACP server's token file), one a line (empty: none); without it
//     every one does.
var corpusSidecars = map[string]bool{"want.txt": true, "path.txt": true, "mode600.txt": true, "agy-version.txt": true, "programs.txt": true}

func readLines(t *testing.T, path string) ([]string, bool) {
	t.Helper()
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" && !strings.HasPrefix(s, "#") {
			out = append(out, s)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out, true
}

// runCase copies a case into a temp folder, sets its modes, lints it and
// returns the findings as "RULE LINE:COL" lines.
func runCase(t *testing.T, dir string) ([]string, []lint.Finding) {
	t.Helper()
	tmp := t.TempDir()
	if err := os.CopyFS(tmp, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	if err := filepath.WalkDir(tmp, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if corpusSidecars[d.Name()] && filepath.Dir(p) == tmp {
			return os.Remove(p)
		}
		return os.Chmod(p, 0o644)
	}); err != nil {
		t.Fatal(err)
	}
	secret, _ := readLines(t, filepath.Join(dir, "mode600.txt"))
	for _, s := range secret {
		if err := os.Chmod(filepath.Join(tmp, filepath.FromSlash(s)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	look := func(name string) (string, error) { return "/usr/bin/" + name, nil }
	if names, ok := readLines(t, filepath.Join(dir, "path.txt")); ok {
		look = func(name string) (string, error) {
			for _, n := range names {
				if n == name {
					return "/usr/bin/" + name, nil
				}
			}
			return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
		}
	}
	stat := func(string) (fs.FileInfo, error) { return executable{}, nil }
	if progs, ok := readLines(t, filepath.Join(dir, "programs.txt")); ok {
		stat = func(p string) (fs.FileInfo, error) {
			for _, q := range progs {
				if q == p {
					return executable{}, nil
				}
			}
			return nil, &fs.PathError{Op: "stat", Path: p, Err: fs.ErrNotExist}
		}
	}
	var version agy.Version
	if v, ok := readLines(t, filepath.Join(dir, "agy-version.txt")); ok && len(v) == 1 {
		var good bool
		if version, good = agy.ParseVersion(v[0]); !good {
			t.Fatalf("%s: agy-version.txt: %q is not a version", dir, v[0])
		}
	}
	fs, err := lint.Paths([]string{tmp}, lint.Options{LookPath: look, Stat: stat, AgyVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s %d:%d", f.Rule, f.Line, f.Column))
	}
	return got, fs
}

// executable is what the corpus's Stat finds: an executable file.
type executable struct{}

func (executable) Name() string       { return "program" }
func (executable) Size() int64        { return 1 }
func (executable) Mode() fs.FileMode  { return 0o755 }
func (executable) ModTime() time.Time { return time.Time{} }
func (executable) IsDir() bool        { return false }
func (executable) Sys() any           { return nil }

func checkCase(t *testing.T, dir string) []string {
	t.Helper()
	want, _ := readLines(t, filepath.Join(dir, "want.txt"))
	got, fs := runCase(t, dir)
	if os.Getenv("LINT_CORPUS_UPDATE") == "1" && filepath.Base(dir) != "pass" {
		// Regenerate the sidecar; review the diff before committing.
		if err := os.WriteFile(filepath.Join(dir, "want.txt"), []byte(strings.Join(append(got, ""), "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		return got
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		var b strings.Builder
		for _, f := range fs {
			fmt.Fprintf(&b, "\n\t%s %d:%d %s: %s", f.Rule, f.Line, f.Column, f.File, f.Message)
		}
		t.Errorf("%s:\ngot:\n\t%s\nwant:\n\t%s\nfindings:%s", dir, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"), b.String())
	}
	return got
}

// TestCorpus runs every rule's failing and passing case and every
// real-world example, and checks that every rule has both cases.
func TestCorpus(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range lint.Rules() {
		ids[r.ID] = true
		r := r
		t.Run(r.ID, func(t *testing.T) {
			dir := filepath.Join(corpusRoot, filepath.FromSlash(r.ID))
			for _, c := range []string{"fail", "pass"} {
				if _, err := os.Stat(filepath.Join(dir, c)); err != nil {
					t.Fatalf("rule %s has no %s case: %v", r.ID, c, err)
				}
			}
			got := checkCase(t, filepath.Join(dir, "fail"))
			hit := false
			for _, g := range got {
				hit = hit || strings.HasPrefix(g, r.ID+" ")
			}
			if !hit {
				t.Errorf("the failing case of %s does not break it", r.ID)
			}
			if _, err := os.Stat(filepath.Join(dir, "pass", "want.txt")); err == nil {
				t.Errorf("a passing case has no want.txt")
			}
			checkCase(t, filepath.Join(dir, "pass"))
		})
	}
	real, err := os.ReadDir(filepath.Join(corpusRoot, "real-world"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range real {
		dir := filepath.Join(corpusRoot, "real-world", e.Name())
		t.Run("real-world/"+e.Name(), func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(dir, "want.txt")); err != nil {
				t.Fatalf("no want.txt: %v", err)
			}
			checkCase(t, dir)
		})
	}
	// Every folder in the corpus belongs to a rule or is a real-world case.
	var stray []string
	err = filepath.WalkDir(corpusRoot, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() || (d.Name() != "fail" && d.Name() != "pass") {
			return err
		}
		rel, _ := filepath.Rel(corpusRoot, filepath.Dir(p))
		if !ids[filepath.ToSlash(rel)] {
			stray = append(stray, filepath.ToSlash(rel))
		}
		return filepath.SkipDir
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(stray)
	if len(stray) > 0 {
		t.Errorf("corpus cases for rules that do not exist: %v", stray)
	}
}
