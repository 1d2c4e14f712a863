package agy

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The syntax of .antigravityignore is undocumented: the changelog names
// the file once (1.1.16) for what @ file path completion leaves out. It is
// read here as a .gitignore is, one pattern or "#" comment per line, which
// is the reading under which agyconf is safe whatever agy does: it writes
// each line as given and interprets none. Nothing shows the file keeps a
// file from the agent's tools, so it is no way to hide secrets.

// IgnoreLineProblem says why a line cannot be one of the lines agyconf
// writes into .antigravityignore's managed block, or "" when it can: one
// line of UTF-8 text without NUL, and not one of agyconf's marker lines,
// which would end or repeat the block.
func IgnoreLineProblem(line string) string {
	begin, end := BlockHashComment.Markers()
	switch {
	case strings.ContainsAny(line, "\n\r"):
		return "holds a line break; write one pattern per list element"
	case strings.ContainsRune(line, 0):
		return "holds a NUL byte"
	case !utf8.ValidString(line):
		return "is not valid UTF-8"
	case strings.TrimSpace(line) == "":
		return "is blank; a blank line matches nothing, leave it out"
	case line == begin || line == end:
		return fmt.Sprintf("is one of agyconf's marker lines (%q, %q), which would break its block", begin, end)
	}
	return ""
}
