package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/lint"
)

// TestZeroWordSeverity: an allow entry with no command word is an error
// when the files must load on a build before 1.1.11, where it matched
// every command; otherwise a warning that it matches nothing.
func TestZeroWordSeverity(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".gemini", "antigravity-cli", "settings.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"permissions": {"allow": ["command(time)"], "deny": ["command(())"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		version     agy.Version
		allow, deny lint.Severity
	}{
		{agy.Version{}, lint.Warning, lint.Warning},
		{agy.V(1, 1, 10), lint.Error, lint.Warning},
		{agy.V(1, 1, 11), lint.Warning, lint.Warning},
	} {
		fs, err := lint.Paths([]string{dir}, lint.Options{AgyVersion: c.version})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]lint.Severity{}
		for _, f := range fs {
			if f.Rule == "settings/zero-word-entry" {
				got[strings.Split(f.Pointer, "/")[2]] = f.Severity
				if !strings.Contains(f.Message, "1.1.11") {
					t.Errorf("%s: the message names no version: %s", c.version, f.Message)
				}
			}
		}
		if got["allow"] != c.allow || got["deny"] != c.deny {
			t.Errorf("at %s: allow %s, deny %s; want %s, %s", c.version, got["allow"], got["deny"], c.allow, c.deny)
		}
	}
}

// TestLiteralPatternVersion: a command rule that reads like a pattern
// never matches from 1.0.13, where command rules became literal; the
// files judged for an older build (--agy-version), where every rule was
// a pattern, get no such finding, which would be false there.
func TestLiteralPatternVersion(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".gemini", "antigravity-cli", "settings.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"permissions": {"allow": ["command(git .*)", "command(git:*)"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		version agy.Version
		want    int
	}{
		{agy.Version{}, 2},
		{agy.V(1, 0, 13), 2},
		{agy.V(1, 0, 12), 0},
	} {
		fs, err := lint.Paths([]string{dir}, lint.Options{AgyVersion: c.version})
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for _, f := range fs {
			if f.Rule == "settings/literal-pattern" {
				got++
			}
		}
		if got != c.want {
			t.Errorf("at %q: %d settings/literal-pattern findings, want %d: %v", c.version, got, c.want, fs)
		}
	}
}
