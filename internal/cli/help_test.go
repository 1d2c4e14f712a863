package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/layout"
)

// TestEveryCommandHasExamples runs --help of every command the app
// defines and checks that it has an EXAMPLES: section with at least one
// line running that command.
func TestEveryCommandHasExamples(t *testing.T) {
	for _, d := range definedCommands() {
		t.Run(d.path, func(t *testing.T) {
			help := runMain(t, append(strings.Fields(d.path), "--help")...)
			_, examples, ok := strings.Cut(help, "EXAMPLES:\n")
			if !ok {
				t.Fatalf("agyconf %s --help has no EXAMPLES: section:\n%s", d.path, help)
			}
			re := regexp.MustCompile(`(?m)^\s+agyconf ` + regexp.QuoteMeta(d.path) + `( |$)`)
			if !re.MatchString(examples) {
				t.Errorf("agyconf %s --help: no example runs agyconf %s:\n%s", d.path, d.path, examples)
			}
		})
	}
}

// TestManPage keeps docs/agyconf.1 what agyconf man prints; run with
// AGYCONF_UPDATE_MAN=1 to rewrite it.
func TestManPage(t *testing.T) {
	const golden = "../../docs/agyconf.1"
	got := runMain(t, "man")
	for _, d := range definedCommands() {
		if !strings.Contains(got, `.SS "agyconf `+roffEscape(d.path)+`"`) {
			t.Errorf("the man page has no section for agyconf %s", d.path)
		}
		for _, f := range d.cmd.Flags {
			if n := f.Names()[0]; !strings.Contains(got, `\fB\-\-`+roffEscape(n)+`\fR`) {
				t.Errorf("the man page does not document --%s of agyconf %s", n, d.path)
			}
		}
	}
	if os.Getenv("AGYCONF_UPDATE_MAN") != "" {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run AGYCONF_UPDATE_MAN=1 go test ./internal/cli -run TestManPage)", err)
	}
	if string(want) != got {
		t.Errorf("docs/agyconf.1 is out of date: run AGYCONF_UPDATE_MAN=1 go test ./internal/cli -run TestManPage")
	}
}

// TestHelpPathsAreReal lists every path below a render root that a --help
// names (the files agy reads and agyconf's own folders) and checks each
// against the layout: a default place of some kind of document, or a
// place agy reads it from that agyconf only reads, in or below one of its
// folders, or agyconf's state folder. Placeholders in
// capitals (NAME, INSTANCE) stand for any segment. The list must not be
// empty, or the test would pass by finding nothing.
func TestHelpPathsAreReal(t *testing.T) {
	pathRe := regexp.MustCompile(`(?:\.gemini|\.agents|\.agyconf|\.local/state/agyconf|\.antigravity)(?:/[A-Za-z0-9_.*<>{}-]+)*/?`)
	var places []string
	for _, k := range agy.Kinds() {
		for _, s := range agy.Scopes() {
			for _, p := range agy.Products() {
				places = append(places, k.PathsFor(s, p)...)
			}
		}
		// The places agy reads that agyconf only reads (import takes
		// what is there).
		for _, r := range k.Reads {
			places = append(places, r.Path)
		}
	}
	for _, s := range agy.Scopes() {
		places = append(places, layout.StateDir(s))
	}
	real := func(p string) bool {
		p = strings.TrimSuffix(p, "/")
		segs := strings.Split(p, "/")
		for _, q := range places {
			qs := strings.Split(q, "/")
			n := min(len(segs), len(qs))
			ok := true
			for i := 0; i < n; i++ {
				if segs[i] != qs[i] && !placeholder(segs[i]) {
					ok = false
					break
				}
			}
			// A prefix of a place (a folder that holds one), the place, or
			// something inside it.
			if ok {
				return true
			}
		}
		return false
	}
	var found []string
	for _, d := range definedCommands() {
		help := runMain(t, append(strings.Fields(d.path), "--help")...)
		for _, p := range pathRe.FindAllString(help, -1) {
			found = append(found, p)
			if !real(p) {
				t.Errorf("agyconf %s --help names %s, which is no place of the layout (internal/agy) nor agyconf's state folder", d.path, p)
			}
		}
	}
	if len(found) == 0 {
		t.Fatal("no --help names a path: the test would prove nothing")
	}
}

// placeholder reports whether a path segment of a help text stands for
// any name: capitals (NAME, INSTANCE.json), <name> or a glob.
func placeholder(seg string) bool {
	base := strings.TrimSuffix(seg, filepath.Ext(seg))
	return base != "" && (strings.ToUpper(base) == base && strings.ToLower(base) != base || strings.ContainsAny(seg, "<*{"))
}
