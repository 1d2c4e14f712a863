package jsonmerge

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
)

// RedactStrings replaces, in data as it is, each string value at one of
// ptrs (RFC 6901 pointers) by repl (a JSON string, quotes included),
// changing no other byte: how a diff shows a file that holds secrets
// exactly as it is on disk. A pointer to something other than a string,
// or to nothing, is left alone; data that is not valid JSON comes back as
// it is, with ok false.
func RedactStrings(data []byte, ptrs []string, repl string) (out []byte, ok bool) {
	want := map[string]bool{}
	for _, p := range ptrs {
		want[p] = true
	}
	if len(want) == 0 {
		return data, true
	}
	if !json.Valid(data) {
		return data, false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object bool
		index  int    // arrays: the next item's index
		key    string // objects: the member being read
		inKey  bool   // objects: the next string is a key
		prefix string
	}
	var stack []*frame
	var spans [][2]int
	path := func() string {
		if len(stack) == 0 {
			return ""
		}
		f := stack[len(stack)-1]
		if f.object {
			return f.prefix + "/" + escapeSegment(f.key)
		}
		return f.prefix + "/" + strconv.Itoa(f.index)
	}
	// value is called after a value ends, to advance its container.
	advance := func() {
		if len(stack) == 0 {
			return
		}
		f := stack[len(stack)-1]
		if f.object {
			f.inKey = true
		} else {
			f.index++
		}
	}
	for {
		start := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return data, false
		}
		for start < len(data) && strings.IndexByte(" \t\r\n:,", data[start]) >= 0 {
			start++
		}
		end := int(dec.InputOffset())
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				stack = append(stack, &frame{object: t == '{', inKey: t == '{', prefix: path()})
			case '}', ']':
				stack = stack[:len(stack)-1]
				advance()
			}
		case string:
			if top := len(stack) - 1; top >= 0 && stack[top].object && stack[top].inKey {
				stack[top].key, stack[top].inKey = t, false
				continue
			}
			if want[path()] {
				spans = append(spans, [2]int{start, end})
			}
			advance()
		default:
			advance()
		}
	}
	if len(spans) == 0 {
		return data, true
	}
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

func escapeSegment(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}
