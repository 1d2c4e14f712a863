package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"
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
