package shellquote

import (
	"os/exec"
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":                  "''",
		"/usr/bin/agyhook":  "/usr/bin/agyhook",
		"a b":               "'a b'",
		"it's":              `'it'\''s'`,
		"$HOME":             "'$HOME'",
		"--state-dir=/x,y":  "--state-dir=/x,y",
		"semi;colon":        "'semi;colon'",
		"back`tick`":        "'back`tick`'",
		"new\nline":         "'new\nline'",
		"glob*":             "'glob*'",
		"tilde~":            "'tilde~'",
		"wing_my.project-1": "wing_my.project-1",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestJoinRoundTrip: sh splits a joined line back into the same words,
// whatever they hold.
func TestJoinRoundTrip(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	words := []string{"", "a b", "it's", "$HOME", "`x`", "new\nline", "*", "-n", `back\slash`, "é"}
	out, err := exec.Command("sh", "-c", `for w in `+Join(words...)+`; do printf '%s\0' "$w"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if strings.Join(got, "|") != strings.Join(words, "|") {
		t.Fatalf("sh split %q into %q", Join(words...), got)
	}
}
