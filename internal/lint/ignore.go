package lint

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/apply"
)

// ignoreFindings lints a .antigravityignore. Its syntax is undocumented
// (internal/agy/ignore.go), so nothing about what a pattern means is
// judged: only bytes no line-oriented reader can be sure of, and agyconf's
// own managed block, which a render must be able to find.
func ignoreFindings(path string, data []byte) []Finding {
	var out []Finding
	add := func(rule string, line int, msg string) {
		col := 0
		if line > 0 {
			col = 1
		}
		out = append(out, Finding{Rule: rule, Severity: severityOf(rule), File: path, Line: line, Column: col, Message: msg})
	}
	line := 1
	for rest := data; len(rest) > 0; line++ {
		ln := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			ln, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		switch {
		case bytes.IndexByte(ln, 0) >= 0:
			add("ignore/encoding", line, "the line holds a NUL byte, so its pattern matches no file name")
		case !utf8.Valid(ln):
			add("ignore/encoding", line, "the line is not valid UTF-8, so its pattern may match nothing")
		}
	}
	if _, _, _, err := apply.ManagedBlock(agy.BlockHashComment, data); err != nil {
		add("ignore/managed-block", 0, fmt.Sprintf("%v, so agyconf render refuses to write this file", err))
	}
	return out
}
