package docgen

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoRoot is the repository, from this package's folder.
const repoRoot = "../.."

// mdName is the name of a markdown file.
var mdName = regexp.MustCompile(`[A-Za-z0-9_./-]+\.md`)

// citedDoc is the markdown file named last before a § (text is what
// precedes it), within a few words and the same parenthesis and line, or
// "".
func citedDoc(text string) string {
	all := mdName.FindAllStringIndex(text, -1)
	if len(all) == 0 {
		return ""
	}
	last := all[len(all)-1]
	if gap := text[last[1]:]; len(gap) > 40 || strings.ContainsAny(gap, "()\n") {
		return ""
	}
	return text[last[0]:last[1]]
}

// TestNoCitationsOfFilesUsersLack: nothing agyconf ships — Go sources
// (messages, schema and rule texts), schemas, docs, the man page,
// templates, examples, golden outputs — cites the survey agyconf started
// from ("reference §2.2"), which is not in the repository, nor any § that
// does not follow the name of a markdown file the repository has. A fact's
// public source is named instead (docs/agy-facts.md lists where each is).
func TestNoCitationsOfFilesUsersLack(t *testing.T) {
	checked := walkShippedText(t, "citations_test.go", func(p, text string) {
		for i := strings.Index(text, "§"); i >= 0; {
			line := 1 + strings.Count(text[:i], "\n")
			before := text[max(0, i-80):i]
			switch {
			case strings.HasSuffix(strings.TrimSpace(before), "reference"):
				t.Errorf("%s:%d cites the survey (\"reference §…\"), which users do not have: name the fact's public source", p, line)
			default:
				if doc := citedDoc(before); doc == "" || !exists(doc) {
					t.Errorf("%s:%d has a § of no markdown file the repository has", p, line)
				}
			}
			next := strings.Index(text[i+len("§"):], "§")
			if next < 0 {
				break
			}
			i += len("§") + next
		}
	})
	if checked < 500 {
		t.Fatalf("only %d files checked: the walk is broken", checked)
	}
}

// exists reports whether a markdown file named in a citation is in the
// repository, by its path from the root or from docs/.
func exists(name string) bool {
	for _, p := range []string{filepath.Join(repoRoot, name), filepath.Join(repoRoot, "docs", name)} {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}
