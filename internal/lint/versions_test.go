package lint_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/lint"
)

// versionsRoot holds the version conformance corpus: for every behaviour
// of agy's table that changed between builds a folder of live files using
// it (named after the feature, "/" written "-"), and rule.txt naming the
// rule that judges it. An event newer than some builds needs none: its
// case is one hooks.json naming it (eventCase), built from the table, so
// that adding an event stays a row and its two contracts.
const versionsRoot = "../../tests/lint/versions"

// TestVersionConformance: each case passes at the version that introduced
// its construct, is the rule's finding one release below — an error
// where that build refuses, drops or misreads it, a warning where it only
// ignores it (agy's severity policy) — naming both builds, and passes
// with no version given, which judges for the newest agy (agy.Newest).
func TestVersionConformance(t *testing.T) {
	want := map[string]agy.Version{}
	for _, b := range agy.Behaviours() {
		want[strings.ReplaceAll(string(b.Feature), "/", "-")] = b.Since
	}
	for _, e := range agy.Events() {
		if e.Since.Known() {
			want["event-"+string(e.Name)] = e.Since
		}
	}
	entries, err := os.ReadDir(versionsRoot)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range entries {
		have[e.Name()] = true
		if _, ok := want[e.Name()]; !ok || strings.HasPrefix(e.Name(), "event-") {
			t.Errorf("%s/%s: no behaviour of agy's table has that name (an event's case is built from the table)", versionsRoot, e.Name())
		}
	}
	for name, since := range want {
		event, isEvent := strings.CutPrefix(name, "event-")
		if !have[name] && !isEvent {
			t.Errorf("%s: no conformance case for %s (since %s)", versionsRoot, name, since)
			continue
		}
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			rule := "hooks/newer-agy"
			if isEvent {
				eventCase(t, tmp, event)
			} else {
				dir := filepath.Join(versionsRoot, name)
				rb, err := os.ReadFile(filepath.Join(dir, "rule.txt"))
				if err != nil {
					t.Fatal(err)
				}
				rule = strings.TrimSpace(string(rb))
				if err := os.CopyFS(tmp, os.DirFS(dir)); err != nil {
					t.Fatal(err)
				}
				if err := os.Remove(filepath.Join(tmp, "rule.txt")); err != nil {
					t.Fatal(err)
				}
			}
			at := func(v agy.Version) []lint.Finding {
				fs, err := lint.Paths([]string{tmp}, lint.Options{LookPath: func(n string) (string, error) { return "/usr/bin/" + n, nil }, AgyVersion: v})
				if err != nil {
					t.Fatal(err)
				}
				var out []lint.Finding
				for _, f := range fs {
					if f.Rule == rule {
						out = append(out, f)
					}
				}
				return out
			}
			if fs := at(agy.Version{}); len(fs) != 0 {
				t.Errorf("no version (the newest, %s): %v, want nothing", agy.Newest().Version, fs)
			}
			below := agy.V(since.Major, since.Minor, since.Patch-1)
			if since.Patch == 0 {
				below = agy.V(since.Major, since.Minor-1, 999)
			}
			sev := lint.Error
			for _, r := range lint.Rules() {
				if r.ID == rule {
					sev = r.Severity()
				}
			}
			if fs := at(below); len(fs) == 0 || fs[0].Severity != sev || !strings.Contains(fs[0].Message, since.String()) || !strings.Contains(fs[0].Message, below.String()) {
				t.Errorf("at %s: %v, want a %s naming %s and %s", below, fs, sev, since, below)
			}
			if fs := at(since); len(fs) != 0 {
				t.Errorf("at %s: %v, want nothing", since, fs)
			}
		})
	}
}

// eventCase writes, under dir, a workspace hooks.json with one hook on the
// named event, in the shape the table gives it (matcher groups or flat
// handlers): what hooks/newer-agy judges by the event's Since.
func eventCase(t *testing.T, dir, name string) {
	t.Helper()
	e, ok := agy.EventNamed(name)
	if !ok {
		t.Fatalf("no event %s", name)
	}
	handler := map[string]any{"type": "command", "command": "/usr/local/bin/on-event", "timeout": 5}
	var entries []any
	if e.Grouped {
		entries = []any{map[string]any{"matcher": "run_command", "hooks": []any{handler}}}
	} else {
		entries = []any{handler}
	}
	data, err := json.MarshalIndent(map[string]any{"on-event": map[string]any{"enabled": true, name: entries}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".agents", "hooks.json"), append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
