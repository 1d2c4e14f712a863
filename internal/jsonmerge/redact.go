package jsonmerge

import (
	"bytes"
	"slices"
)

// RedactStrings replaces, in data as it is, each string value at one of
// ptrs (RFC 6901 pointers) by repl (a JSON string, quotes included),
// changing no other byte: how a diff shows a file that holds secrets
// exactly as it is on disk. A pointer to something other than a string,
// or to nothing, is left alone. data is read in the syntax given (comments
// stay as they are); data it cannot read comes back as it is, with ok
// false.
func RedactStrings(data []byte, ptrs []string, repl string, syn Syntax) (out []byte, ok bool) {
	if len(ptrs) == 0 {
		return data, true
	}
	t, err := Read(data, syn)
	if err != nil {
		return data, false
	}
	var spans [][2]int
	for _, p := range ptrs {
		if start, end, k, ok := t.span(PointerSegments(p)); ok && k == kindString {
			spans = append(spans, [2]int{start, end})
		}
	}
	if len(spans) == 0 {
		return data, true
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	spans = slices.Compact(spans)
	var b bytes.Buffer
	last := 0
	for _, s := range spans {
		b.Write(data[last:s[0]])
		b.WriteString(repl)
		last = s[1]
	}
	b.Write(data[last:])
	return b.Bytes(), true
}
