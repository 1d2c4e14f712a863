// Package shellquote quotes words for POSIX sh. agy runs every hook
// command through `sh -c`, so a path with a space or a quote in it must be
// quoted where the command line is built, not hoped for.
package shellquote

import "strings"

// Quote returns s as one sh word: unchanged when it holds only characters
// sh never splits or expands, single-quoted otherwise.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, unsafe) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Join quotes each word and joins them with spaces.
func Join(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Quote(w)
	}
	return strings.Join(q, " ")
}

func unsafe(c rune) bool {
	return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/._-+:@%=,", c))
}
