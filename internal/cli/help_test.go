package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

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
			// Every flag, the hidden ones too, but agyconf's own
			// plumbing, which has no usage (status's defer-secrets).
			if df, ok := f.(cli.DocGenerationFlag); ok && df.GetUsage() == "" {
				continue
			}
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

// hidden reports whether a flag is left out of help.
func hidden(f cli.Flag) bool {
	v, ok := f.(cli.VisibleFlag)
	return ok && !v.IsVisible()
}

// TestHiddenFlagsDocumented: the flags help leaves out are the Home
// Manager module's plumbing — --after-hm-link, --option-paths,
// --take-over, --defer-secrets and nothing else — still accepted, and each
// documented in docs/nix.md; the rest is in help.
func TestHiddenFlagsDocumented(t *testing.T) {
	nix, err := os.ReadFile("../../docs/nix.md")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, d := range definedCommands() {
		help := runMain(t, append(strings.Fields(d.path), "--help")...)
		_, options, _ := strings.Cut(help, "OPTIONS:\n")
		for _, f := range d.cmd.Flags {
			n := f.Names()[0]
			if !hidden(f) {
				continue
			}
			found[n] = true
			if !strings.Contains(string(nix), "--"+n+" ") && !strings.Contains(string(nix), "--"+n+"`") {
				t.Errorf("--%s of agyconf %s is hidden from help and not documented in docs/nix.md", n, d.path)
			}
			if strings.Contains(options, "--"+n+" ") {
				t.Errorf("agyconf %s --help lists the hidden --%s", d.path, n)
			}
		}
	}
	want := map[string]bool{"after-hm-link": true, "option-paths": true, "take-over": true, "defer-secrets": true}
	if !reflect.DeepEqual(found, want) {
		t.Errorf("hidden flags %v, want the Home Manager module's %v", found, want)
	}
	// Still accepted: a hidden flag is parsed as ever.
	var out, errOut bytes.Buffer
	if code := Main([]string{"agyconf", "render", "--after-hm-link", "relative", "--dry-run"}, &out, &errOut); code != ExitBadInput || !strings.Contains(errOut.String(), "--after-hm-link: \"relative\" is not an absolute path") {
		t.Errorf("--after-hm-link not parsed: %d %s", code, &errOut)
	}
}

// TestRenderHelpFitsAScreen: agyconf help render, the page a new user
// reads first, fits one screen (48 lines).
func TestRenderHelpFitsAScreen(t *testing.T) {
	help := runMain(t, "help", "render")
	if n := strings.Count(help, "\n"); n > 48 {
		t.Errorf("agyconf help render is %d lines:\n%s", n, help)
	}
}
