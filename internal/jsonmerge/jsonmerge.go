// Package jsonmerge edits a JSON document that other programs share, changing
// only the members agyconf owns and keeping everything else as it was.
//
// agyconf writes some files — mcp_config.json, hooks.json, settings.json —
// that the user and agy also edit. Decoding them into Go values and encoding
// them again would keep their meaning but reorder keys and respell numbers
// (1.0 becomes 1) and strings (\u00e9 becomes é), so that one changed entry
// would show as a rewrite of the whole file, and a program that cares about
// spelling or order could read it differently. A Doc instead keeps each
// value as the bytes it was written with until agyconf edits it.
//
// # What is preserved
//
// Bytes writes the document as json.Indent(document, "", "  ") plus one
// "\n". So after any edits:
//
//   - Every object keeps its members in document order. Set on an existing
//     member replaces it where it stands; a new member goes at the end of
//     its object; Delete closes the gap without moving the others.
//   - Every value agyconf did not replace keeps its exact text apart from
//     whitespace: member names and strings with their escapes, numbers as
//     spelled (1.0, 1e3, -0), the inner member order of objects and the
//     items of arrays. AddString and RemoveString change only the items
//     they add or remove.
//   - Whitespace is not preserved: indentation becomes two spaces, CRLF
//     becomes LF, and empty objects and arrays print as {} and [].
//
// Equivalently, a Doc nobody edited gives back json.Indent of its source
// with the whitespace around the top-level object trimmed, and Bytes is a
// fixed point: parsing Bytes and calling Bytes again returns the same bytes.
//
// # What is refused
//
// Parse reads strict JSON, as encoding/json does, and additionally refuses
// what it could not write back faithfully: a duplicate member name anywhere
// (readers disagree on which one counts), a byte order mark, invalid UTF-8
// in a string (encoding/json would read it as U+FFFD, so distinct names could
// collide), and a top level other than an object (every file agyconf merges
// into is one).
package jsonmerge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Error is the type of the errors below: constants, so no caller can
// reassign them, and comparable with errors.Is through any wrapping.
type Error string

func (e Error) Error() string { return string(e) }

const (
	// ErrNotObject: a path runs through, or Set's intermediate names, a
	// member that holds something other than an object.
	ErrNotObject Error = "not an object"
	// ErrNotArray: a string-list operation found something else at its path.
	ErrNotArray Error = "not an array"
	// ErrNotString: ArrayStrings found an item it cannot return as a string.
	ErrNotString Error = "not a string"
)

// Doc is a JSON object being edited. The zero Doc is not usable; get one
// from Parse. Like a map, a Doc needs a lock to be edited from more than one
// goroutine.
type Doc struct {
	root *node
}

// Parse reads a document whose top level is an object. A failure is a
// *SyntaxError or a *DuplicateKeyError, both carrying a line:column.
func Parse(data []byte) (*Doc, error) {
	// The nodes keep slices of the source; a private copy means the caller
	// may reuse its buffer.
	root, _, err := parseOne(bytes.Clone(data), true)
	if err != nil {
		return nil, err
	}
	return &Doc{root: root}, nil
}

// Bytes returns the document indented with two spaces and ending in one
// newline; see the package comment for what that keeps.
func (d *Doc) Bytes() []byte {
	var out bytes.Buffer
	// Parse and the editing methods keep the tree valid JSON within
	// encoding/json's depth limit, so Indent cannot fail; if it did, writing
	// a half-indented file would be worse than stopping.
	if err := json.Indent(&out, d.root.appendCompact(nil), "", "  "); err != nil {
		panic(fmt.Sprintf("jsonmerge: the document became invalid JSON: %v", err))
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// Get returns the value at path, a list of member names from the top level
// (none for the whole document). A value not edited since Parse comes back
// exactly as written, whitespace included; an edited object or array comes
// back compact, its unedited parts still exactly as written.
func (d *Doc) Get(path ...string) (json.RawMessage, bool) {
	n := d.find(path)
	if n == nil {
		return nil, false
	}
	return n.appendCompact(nil), true
}

// Keys returns the member names of the object at path in document order: nil
// when path names nothing or something other than an object, an empty slice
// for an empty object.
func (d *Doc) Keys(path ...string) []string {
	n := d.find(path)
	if n == nil || n.kind != kindObject {
		return nil
	}
	keys := make([]string, len(n.members))
	for i, m := range n.members {
		keys[i] = m.name
	}
	return keys
}

// Set puts value, which must be exactly one JSON value (whitespace around it
// is dropped), at path: in place of the member already there, or appended to
// its object. Objects missing along the way are created, each appended to
// its parent. On error the document is unchanged.
func (d *Doc) Set(value json.RawMessage, path ...string) error {
	if len(path) == 0 {
		return errors.New("set: empty path; the top-level object cannot be replaced")
	}
	v, depth, err := parseOne(bytes.Clone(value), false)
	if err != nil {
		return fmt.Errorf("set %s: value: %w", pointer(path), err)
	}
	if len(path)+depth > maxDepth {
		return fmt.Errorf("set %s: the document would nest deeper than %d objects and arrays", pointer(path), maxDepth)
	}
	if err := d.put(path, func(*node) (*node, error) { return v, nil }); err != nil {
		return fmt.Errorf("set %s: %w", pointer(path), err)
	}
	return nil
}

// Delete removes the member at path and reports whether there was one.
func (d *Doc) Delete(path ...string) bool {
	if len(path) == 0 {
		return false
	}
	chain := d.chain(path[:len(path)-1])
	if chain == nil {
		return false
	}
	parent := chain[len(chain)-1]
	i := parent.index(path[len(path)-1])
	if i < 0 {
		return false
	}
	parent.members = slices.Delete(parent.members, i, i+1)
	touch(chain)
	return true
}

// find returns the node at path, or nil.
func (d *Doc) find(path []string) *node {
	chain := d.chain(path)
	if chain == nil {
		return nil
	}
	return chain[len(chain)-1]
}

// chain returns the nodes from the root to the one at path, or nil if path
// names nothing. Edits need the whole chain to mark each ancestor edited.
func (d *Doc) chain(path []string) []*node {
	chain := make([]*node, 0, len(path)+1)
	n := d.root
	chain = append(chain, n)
	for _, name := range path {
		if n.kind != kindObject {
			return nil
		}
		i := n.index(name)
		if i < 0 {
			return nil
		}
		n = n.members[i].val
		chain = append(chain, n)
	}
	return chain
}

// put is the one place that changes a member. It checks the whole path
// before creating anything, so that an error leaves the document as it was.
// update gets the current value (nil when absent) and returns the new one,
// or the current one to leave the document untouched; it must not modify the
// current one, since an unedited document must keep every source byte.
func (d *Doc) put(path []string, update func(old *node) (*node, error)) error {
	for _, name := range path {
		if !utf8.ValidString(name) {
			return fmt.Errorf("member name %q is not valid UTF-8", name)
		}
	}
	n := d.root
	for i, name := range path[:len(path)-1] {
		j := n.index(name)
		if j < 0 {
			break // it and everything under it will be created
		}
		n = n.members[j].val
		if n.kind != kindObject {
			return fmt.Errorf("%s is %s, %w", pointer(path[:i+1]), n.kind, ErrNotObject)
		}
	}
	old := d.find(path)
	v, err := update(old)
	if err != nil {
		return err
	}
	if v == old {
		return nil
	}
	// Only now, with nothing left to fail, create what is missing.
	last := path[len(path)-1]
	n = d.root
	chain := []*node{n}
	for _, name := range path[:len(path)-1] {
		i := n.index(name)
		if i < 0 {
			n.members = append(n.members, member{name: name, rawName: appendString(nil, name), val: &node{kind: kindObject}})
			i = len(n.members) - 1
		}
		n = n.members[i].val
		chain = append(chain, n)
	}
	if i := n.index(last); i >= 0 {
		n.members[i].val = v
	} else {
		n.members = append(n.members, member{name: last, rawName: appendString(nil, last), val: v})
	}
	touch(chain)
	return nil
}

// touch marks the containers on a path edited: their source text no longer
// matches their contents, so they must be written from their parts.
func touch(chain []*node) {
	for _, n := range chain {
		n.raw = nil
	}
}

// index finds a member by decoded name. Parse refused duplicates, so the
// first match is the only one.
func (n *node) index(name string) int {
	return slices.IndexFunc(n.members, func(m member) bool { return m.name == name })
}

// appendCompact writes the node with no whitespace beyond what its unedited
// parts were written with; Bytes indents the result.
func (n *node) appendCompact(b []byte) []byte {
	if n.raw != nil {
		return append(b, n.raw...)
	}
	switch n.kind {
	case kindObject:
		b = append(b, '{')
		for i, m := range n.members {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, m.rawName...)
			b = append(b, ':')
			b = m.val.appendCompact(b)
		}
		return append(b, '}')
	case kindArray:
		b = append(b, '[')
		for i, item := range n.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = item.appendCompact(b)
		}
		return append(b, ']')
	}
	panic(fmt.Sprintf("jsonmerge: %s with no source text", n.kind))
}

// pointer spells a path as a JSON Pointer (RFC 6901) for messages: it is
// unambiguous even when names hold dots or slashes.
func pointer(path []string) string {
	if len(path) == 0 {
		return `""`
	}
	var sb strings.Builder
	r := strings.NewReplacer("~", "~0", "/", "~1")
	for _, name := range path {
		sb.WriteByte('/')
		r.WriteString(&sb, name)
	}
	return sb.String()
}
