package diagfmt

import (
	"strconv"
	"strings"
)

// PointerAt returns the JSON pointer (RFC 6901) of the innermost value or
// object member of a JSON document whose text holds the byte at offset: a
// member's span runs from its key to the end of its value, so a
// diagnostic about a key ("no argument is named …") and one about its value
// both land on the member. ok is false when src is not JSON or offset lies
// outside every value. A generator that knows where each pointer came from
// (the Home Manager module knows the Nix option of each) can then name a
// diagnostic in its own terms, whatever the formatting.
func PointerAt(src []byte, offset int) (ptr string, ok bool) {
	s := scanner{src: src, want: offset, best: -1}
	end, valid := s.value(s.skip(0), nil)
	if !valid || s.skip(end) != len(src) || s.best < 0 {
		return "", false
	}
	return s.bestPtr, true
}

// scanner walks JSON text once, remembering the innermost span that holds
// want. It only checks structure (strings, brackets, separators), which is
// all a position needs; the document was parsed for real before.
type scanner struct {
	src     []byte
	want    int
	best    int // length of the innermost span holding want so far
	bestPtr string
}

func (s *scanner) note(start, end int, path []string) {
	if start <= s.want && s.want < end && (s.best < 0 || end-start <= s.best) {
		s.best, s.bestPtr = end-start, pointer(path)
	}
}

func (s *scanner) skip(i int) int {
	for i < len(s.src) && strings.IndexByte(" \t\r\n", s.src[i]) >= 0 {
		i++
	}
	return i
}

// value scans the value at i (no leading space) and returns where it ends.
func (s *scanner) value(i int, path []string) (int, bool) {
	if i >= len(s.src) {
		return i, false
	}
	start := i
	var end int
	var ok bool
	switch s.src[i] {
	case '{':
		end, ok = s.object(i, path)
	case '[':
		end, ok = s.array(i, path)
	case '"':
		end, ok = s.str(i)
	default:
		end = i
		for end < len(s.src) && strings.IndexByte(",]} \t\r\n", s.src[end]) < 0 {
			end++
		}
		ok = end > i
	}
	if ok {
		s.note(start, end, path)
	}
	return end, ok
}

func (s *scanner) str(i int) (int, bool) {
	for j := i + 1; j < len(s.src); j++ {
		switch s.src[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return len(s.src), false
}

func (s *scanner) object(i int, path []string) (int, bool) {
	i = s.skip(i + 1)
	if i < len(s.src) && s.src[i] == '}' {
		return i + 1, true
	}
	for i < len(s.src) {
		keyStart := i
		keyEnd, ok := s.str(i)
		if !ok {
			return keyEnd, false
		}
		key, err := strconv.Unquote(string(s.src[keyStart:keyEnd]))
		if err != nil {
			return keyEnd, false
		}
		i = s.skip(keyEnd)
		if i >= len(s.src) || s.src[i] != ':' {
			return i, false
		}
		member := append(append([]string(nil), path...), key)
		end, ok := s.value(s.skip(i+1), member)
		if !ok {
			return end, false
		}
		s.note(keyStart, end, member)
		i = s.skip(end)
		if i < len(s.src) && s.src[i] == ',' {
			i = s.skip(i + 1)
			continue
		}
		if i < len(s.src) && s.src[i] == '}' {
			return i + 1, true
		}
		return i, false
	}
	return i, false
}

func (s *scanner) array(i int, path []string) (int, bool) {
	i = s.skip(i + 1)
	if i < len(s.src) && s.src[i] == ']' {
		return i + 1, true
	}
	for n := 0; i < len(s.src); n++ {
		end, ok := s.value(i, append(append([]string(nil), path...), strconv.Itoa(n)))
		if !ok {
			return end, false
		}
		i = s.skip(end)
		if i < len(s.src) && s.src[i] == ',' {
			i = s.skip(i + 1)
			continue
		}
		if i < len(s.src) && s.src[i] == ']' {
			return i + 1, true
		}
		return i, false
	}
	return i, false
}

func pointer(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return b.String()
}
