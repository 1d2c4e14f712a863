package jsonmerge

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Tree is a document read to be checked rather than edited: the value
// encoding/json would decode, where each of its values and member names
// stands, and what the text holds beyond strict JSON. A Tree is safe for
// concurrent use: nothing in it changes once Read returns it.
type Tree struct {
	root  *node
	Notes Notes
}

// Read reads one JSON value in the given syntax. Unlike Parse it tolerates
// what a checker reports rather than refuses: duplicate member names (the
// last one counts, as in encoding/json) and invalid UTF-8 in strings and
// comments (read as U+FFFD, as encoding/json reads it), both recorded in
// Notes, with the syntax's extensions it met. Any kind of value may be at
// the top. A failure is a *SyntaxError. The tree points into data, which
// must not change while it is used.
//
// Memory grows with the number of values and the length of member names,
// never with depth times name length: no value's path is stored.
func Read(data []byte, syn Syntax) (*Tree, error) {
	t := &Tree{}
	p := &parser{data: data, syntax: syn, tolerant: true, notes: &t.Notes, curLine: 1, curCol: 1, indentEnd: -1}
	root, _, _, err := p.document(false)
	if err != nil {
		return nil, err
	}
	t.root = root
	// The member indexes a lookup would build on first use are built now,
	// so that lookups only read.
	root.indexAll()
	if t.Notes.FirstComment >= 0 {
		t.Notes.FirstCommentPos = Position(data, t.Notes.FirstComment)
	}
	if t.Notes.FirstTrailingComma >= 0 {
		t.Notes.FirstTrailingPos = Position(data, t.Notes.FirstTrailingComma)
	}
	return t, nil
}

// indexAll builds the member index of every object below n, n included,
// that lookup finds members of through one.
func (n *node) indexAll() {
	if n.kind == kindObject && n.index == nil && len(n.entries) > indexFrom {
		n.buildIndex()
	}
	for _, e := range n.entries {
		n := e.val
		if n.kind == kindObject || n.kind == kindArray {
			n.indexAll()
		}
	}
}

// Value is the document as encoding/json with UseNumber decodes it into an
// any: map[string]any, []any, string, json.Number, bool, nil.
func (t *Tree) Value() any { return t.root.value() }

func (n *node) value() any {
	switch n.kind {
	case kindObject:
		m := make(map[string]any, len(n.entries))
		for _, e := range n.entries {
			m[e.name] = e.val.value() // a later duplicate replaces an earlier one
		}
		return m
	case kindArray:
		a := make([]any, len(n.entries))
		for i, e := range n.entries {
			a[i] = e.val.value()
		}
		return a
	case kindString:
		return n.str
	case kindNumber:
		return json.Number(n.raw)
	case kindBool:
		return n.raw[0] == 't'
	}
	return nil
}

// Locate returns the line and column where the value at path starts, or its
// member name when atKey is set (a value with no name — the root, an array
// item — gives its own start). For a path into no value it gives the start
// of the deepest ancestor that is one, and found is false. A segment names
// an object's member, or an array's item by its index written as
// strconv.Itoa writes it.
func (t *Tree) Locate(path []string, atKey bool) (line, col int, found bool) {
	n, key, ok := t.walk(path)
	if atKey && ok && key.line > 0 {
		line, col = key.lineCol()
		return line, col, true
	}
	line, col = n.at.lineCol()
	return line, col, ok
}

// LocatePointer is Locate for a JSON pointer (RFC 6901).
func (t *Tree) LocatePointer(ptr string, atKey bool) (line, col int, found bool) {
	return t.Locate(PointerSegments(ptr), atKey)
}

// walk follows path, returning the deepest node reached, the position of
// its member name (zero for none), and whether the whole path was followed.
func (t *Tree) walk(path []string) (*node, pos32, bool) {
	n, key := t.root, pos32{}
	for _, seg := range path {
		var next *entry
		switch n.kind {
		case kindObject:
			if i := n.lookup(seg); i >= 0 {
				next = n.entries[i]
			}
		case kindArray:
			if i, ok := arrayIndex(seg); ok && i < len(n.entries) {
				next = n.entries[i]
			}
		}
		if next == nil {
			return n, key, false
		}
		n, key = next.val, next.keyAt
	}
	return n, key, true
}

// span returns the offsets of the text of the value at path.
func (t *Tree) span(path []string) (start, end int, k kind, ok bool) {
	n, _, ok := t.walk(path)
	if !ok {
		return 0, 0, 0, false
	}
	return n.off, n.off + len(n.raw), n.kind, true
}

// arrayIndex reads a pointer segment as an array index, written the way
// strconv.Itoa writes one: "0", or digits without a leading zero.
func arrayIndex(seg string) (int, bool) {
	if seg == "" || seg[0] == '0' && len(seg) > 1 {
		return 0, false
	}
	for i := 0; i < len(seg); i++ {
		if seg[i] < '0' || seg[i] > '9' {
			return 0, false
		}
	}
	i, err := strconv.Atoi(seg)
	return i, err == nil
}

// PointerSegments splits a JSON pointer (RFC 6901) into unescaped
// segments: "/a~1b/c" gives "a/b" and "c"; "" gives none.
func PointerSegments(p string) []string {
	if p == "" {
		return nil
	}
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range segs {
		if strings.IndexByte(s, '~') >= 0 {
			segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
		}
	}
	return segs
}

// Member is one member of an object read by Read: its name and where its
// value starts.
type Member struct {
	Name      string
	Line, Col int
}

// Members lists the members of the object at path in document order, each
// name once, where the value that counts (the last of duplicates) stands;
// nil when path names no object. One walk, so a checker visiting every
// member of a large object does no work per member that grows with the
// path's length.
func (t *Tree) Members(path []string) []Member {
	n, _, ok := t.walk(path)
	if !ok || n.kind != kindObject {
		return nil
	}
	out := make([]Member, 0, len(n.entries))
	for i, e := range n.entries {
		if n.lookup(e.name) != i {
			continue // a later duplicate counts
		}
		line, col := e.val.at.lineCol()
		out = append(out, Member{Name: e.name, Line: line, Col: col})
	}
	return out
}
