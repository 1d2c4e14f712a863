// Package jsonmerge reads JSON text with the position of every value, and
// edits a JSON document that other programs share, changing only the
// members agyconf owns and keeping every other byte as it was.
//
// agyconf writes some files — mcp_config.json, hooks.json, settings.json —
// that the user and agy also edit. Decoding them into Go values and encoding
// them again would keep their meaning but reorder keys, respell numbers
// (1.0 becomes 1) and strings (\u00e9 becomes é), drop comments and
// re-indent everything, so that one changed entry would show as a rewrite
// of the whole file. A Doc instead keeps the text as it was written and
// splices edits into it.
//
// # Reading
//
// One reader serves every JSON file agyconf looks at: Parse and ParseWith
// for files it edits, Read for files it only checks or imports (which
// tolerates duplicate keys and invalid UTF-8, reporting them, and locates
// every value by JSON pointer), Canonical for hashing. What it accepts
// beyond strict JSON is a Syntax: comments, trailing commas, a byte order
// mark — a fact about the program that reads the file, which callers take
// from internal/agy.
//
// # What is preserved
//
// Bytes of a Doc nobody edited is its source, byte for byte. After edits:
//
//   - Every byte outside the entries agyconf edited stays: comments,
//     indentation, spacing, line endings, the text before and after the
//     top-level object, a byte order mark.
//   - Set on an existing member merges the new value into the old one:
//     members of an object present in both keep their place and the text
//     around them (comments included), recursively; members only in the
//     old value are deleted with the comments that belong to them; members
//     only in the new one are appended. A scalar replaced keeps the text
//     around it. Items of an array equal at its start and end stay as
//     written; when as many items changed as were there, each is merged
//     with the one at its place; otherwise the changed run is rewritten.
//     A value of another kind replaces the old one whole.
//   - A comment belongs to the entry on whose lines it stands: the lines
//     above a member up to the previous one's line, and the rest of the
//     member's last line. It goes when that entry is deleted, and only
//     then (or when the value holding it is replaced whole).
//   - New text — members, items, values — follows the file: the
//     indentation of the entries beside it (or of the file, two spaces when
//     it shows none), its line ending, one-line objects stay on one line.
//     It is never a comment and never a trailing comma; a trailing comma
//     the file had stays after the last of its original entries.
//   - Values agyconf did not replace keep their exact text: member names and
//     strings with their escapes, numbers as spelled (1.0, 1e3, -0), inner
//     member order, array items.
//
// Bytes is a fixed point: parsing Bytes and calling Bytes again returns the
// same bytes, and the same document with the same edits gives the same
// bytes.
//
// # What is refused
//
// Parse reads strict JSON, as encoding/json does, ParseWith the Syntax it
// is given, and both additionally refuse what could not be written back
// faithfully: a duplicate member name anywhere (readers disagree on which
// one counts), invalid UTF-8 in a string or comment (encoding/json would
// read it as U+FFFD, so distinct names could collide), and a top level
// other than an object (every file agyconf merges into is one).
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

// indexFrom is the number of members above which an object finds members
// through a map rather than by scanning: agyconf looks a server up about
// three times, so scanning made 10,000 servers quadratic.
const indexFrom = 8

// Doc is a JSON object being edited. The zero Doc is not usable; get one
// from Parse. Like a map, a Doc needs a lock to be edited from more than one
// goroutine.
type Doc struct {
	root          *node
	before, after []byte // the text around the top-level object
	style
}

// style is how the file lays out its text, for what agyconf adds.
type style struct {
	nl        string // "\n", or "\r\n" where the file's first line break is one
	unit      []byte // one level of indentation
	multiline bool   // the top-level object spans lines
}

// Parse reads a strict JSON document whose top level is an object. A failure
// is a *SyntaxError or a *DuplicateKeyError, both carrying a line:column.
func Parse(data []byte) (*Doc, error) { return ParseWith(data, Syntax{}) }

// ParseWith reads a document in the given syntax whose top level is an
// object, as Parse does.
func ParseWith(data []byte, syn Syntax) (*Doc, error) {
	// The nodes keep slices of the source; a private copy means the caller
	// may reuse its buffer.
	data = bytes.Clone(data)
	p := &parser{data: data, syntax: syn, curLine: 1, curCol: 1, indentEnd: -1}
	root, before, after, err := p.document(true)
	if err != nil {
		return nil, err
	}
	d := &Doc{root: root, before: before, after: after}
	d.nl = "\n"
	if p.crlf {
		d.nl = "\r\n"
	}
	// An empty object shows no layout; it gets json.Indent's.
	d.multiline = root.multiline() || len(root.entries) == 0
	d.unit = indentUnit(root)
	return d, nil
}

// Bytes returns the document: its source with the edits spliced in; see the
// package comment for what that keeps.
func (d *Doc) Bytes() []byte {
	b := append([]byte(nil), d.before...)
	b = d.root.appendText(b)
	return append(b, d.after...)
}

// Get returns the value at path, a list of member names from the top level
// (none for the whole document), as strict JSON: a value that holds no
// comment and no trailing comma, and was not edited since Parse, comes back
// exactly as written, whitespace included; any other comes back compact,
// its clean unedited parts still as written.
func (d *Doc) Get(path ...string) (json.RawMessage, bool) {
	n := d.find(path)
	if n == nil {
		return nil, false
	}
	return n.appendStrict(nil), true
}

// Keys returns the member names of the object at path in document order: nil
// when path names nothing or something other than an object, an empty slice
// for an empty object.
func (d *Doc) Keys(path ...string) []string {
	n := d.find(path)
	if n == nil || n.kind != kindObject {
		return nil
	}
	keys := make([]string, len(n.entries))
	for i, e := range n.entries {
		keys[i] = e.name
	}
	return keys
}

// Set puts value, which must be exactly one strict JSON value (whitespace
// around it is dropped), at path: merged into the member already there (see
// the package comment), or appended to its object. Objects missing along
// the way are created, each appended to its parent. On error the document
// is unchanged.
func (d *Doc) Set(value json.RawMessage, path ...string) error {
	if len(path) == 0 {
		return errors.New("set: empty path; the top-level object cannot be replaced")
	}
	v, depth, err := parseOne(bytes.Clone(value), false, Syntax{})
	if err != nil {
		return fmt.Errorf("set %s: value: %w", pointer(path), err)
	}
	if len(path)+depth > maxDepth {
		return fmt.Errorf("set %s: the document would nest deeper than %d objects and arrays", pointer(path), maxDepth)
	}
	if err := d.put(path, v); err != nil {
		return fmt.Errorf("set %s: %w", pointer(path), err)
	}
	return nil
}

// Replace puts value at path as its text is, whitespace inside it
// included, in place of the member there, or appended like Set when
// there is none: giving back an entry exactly as it was written, where
// Set would merge it into what is there (keeping the order and layout of
// the value it replaces). On error the document is unchanged.
func (d *Doc) Replace(value json.RawMessage, path ...string) error {
	if len(path) == 0 {
		return errors.New("replace: empty path; the top-level object cannot be replaced")
	}
	v, depth, err := parseOne(bytes.Clone(bytes.TrimSpace(value)), false, Syntax{})
	if err != nil {
		return fmt.Errorf("replace %s: value: %w", pointer(path), err)
	}
	if len(path)+depth > maxDepth {
		return fmt.Errorf("replace %s: the document would nest deeper than %d objects and arrays", pointer(path), maxDepth)
	}
	chain := d.chain(path[:len(path)-1])
	if chain != nil {
		parent := chain[len(chain)-1]
		if parent.kind == kindObject {
			if i := parent.lookup(path[len(path)-1]); i >= 0 {
				parent.entries[i].val = v
				touch(chain)
				return nil
			}
		}
	}
	if err := d.put(path, v); err != nil {
		return fmt.Errorf("replace %s: %w", pointer(path), err)
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
	if parent.kind != kindObject {
		return false
	}
	i := parent.lookup(path[len(path)-1])
	if i < 0 {
		return false
	}
	parent.remove(i)
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
		i := n.lookup(name)
		if i < 0 {
			return nil
		}
		n = n.entries[i].val
		chain = append(chain, n)
	}
	return chain
}

// put merges v into the member at path, creating it and the objects missing
// on the way. It checks the whole path before changing anything, so that an
// error leaves the document as it was.
func (d *Doc) put(path []string, v *node) error {
	for _, name := range path {
		if !utf8.ValidString(name) {
			return fmt.Errorf("member name %q is not valid UTF-8", name)
		}
	}
	chain := []*node{d.root}
	n := d.root
	for i, name := range path[:len(path)-1] {
		j := n.lookup(name)
		if j < 0 {
			// Everything from here on is created: one member holding
			// the rest of the path, written as one value.
			var text []byte
			for _, rest := range path[i+1:] {
				text = append(appendString(append(text, '{'), rest), ':')
			}
			text = v.appendStrict(text)
			text = append(text, bytes.Repeat([]byte{'}'}, len(path)-i-1)...)
			nv, _, err := parseOne(text, false, Syntax{})
			if err != nil {
				panic(fmt.Sprintf("jsonmerge: a value agyconf built does not parse: %v", err))
			}
			d.insert(n, name, nv)
			touch(chain)
			return nil
		}
		n = n.entries[j].val
		if n.kind != kindObject {
			return fmt.Errorf("%s is %s, %w", pointer(path[:i+1]), n.kind, ErrNotObject)
		}
		chain = append(chain, n)
	}
	last := path[len(path)-1]
	if j := n.lookup(last); j >= 0 {
		e := n.entries[j]
		merged, changed := d.merge(e.val, v, indentOf(e.lead, n), n.multiline())
		if changed {
			e.val = merged
			touch(chain)
		}
		return nil
	}
	d.insert(n, last, v)
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

// lookup finds a member by decoded name: the last one, which is the one
// encoding/json decodes (Parse refused duplicates; Read keeps them).
func (n *node) lookup(name string) int {
	if n.index == nil && len(n.entries) > indexFrom {
		n.buildIndex()
	}
	if n.index != nil {
		if i, ok := n.index[name]; ok {
			return i
		}
		return -1
	}
	for i := len(n.entries) - 1; i >= 0; i-- {
		if n.entries[i].name == name {
			return i
		}
	}
	return -1
}

func (n *node) buildIndex() {
	n.index = make(map[string]int, len(n.entries))
	for i, e := range n.entries {
		n.index[e.name] = i
	}
}

// remove deletes entry i with the text that belongs to it.
func (n *node) remove(i int) {
	gone := n.entries[i]
	if i == 0 && len(n.entries) > 1 && onlySpace(gone.lead) && onlySpace(n.entries[1].lead) {
		// The next entry takes the first one's place, and its
		// indentation (a one-line object has none before its first).
		n.entries[1].lead = gone.lead
	}
	n.entries = slices.Delete(n.entries, i, i+1)
	n.index = nil
	if len(n.entries) == 0 && n.emptyText == nil && onlySpace(n.head) && onlySpace(n.tail) {
		// Emptied of entries it was read with, it is written {}
		// (appendText): what an entry added and removed again gives back
		// too. (One that was empty when read keeps its own text.)
		n.emptyText = []byte{}
	}
}

// insert appends member name holding v to object n, laid out like its
// siblings.
func (d *Doc) insert(n *node, name string, v *node) {
	e := d.newEntry(n)
	e.name, e.rawName = name, appendString(nil, name)
	e.mid = []byte(":")
	if d.spacious(n) {
		e.mid = []byte(": ")
	}
	e.val = d.place(v, indentOf(e.lead, n), n.multiline() || len(n.entries) == 0 && d.multiline)
	n.entries = append(n.entries, e)
	if n.index != nil {
		n.index[name] = len(n.entries) - 1
	}
}

// spacious reports whether members of n put a space after the colon, as
// most files and json.Indent do; a compact file puts none.
func (d *Doc) spacious(n *node) bool {
	if n.kind == kindObject && len(n.entries) > 0 {
		mid := n.entries[0].mid
		return bytes.HasSuffix(mid, []byte(" ")) || bytes.ContainsAny(mid, "\t\n")
	}
	if len(d.root.entries) > 0 {
		mid := d.root.entries[0].mid
		return d.multiline || bytes.HasSuffix(mid, []byte(" "))
	}
	return true
}

// separator is what stands before an entry after the first in a one-line
// container: what its entries show, else one space unless the file is
// compact.
func (d *Doc) separator(n *node) []byte {
	if len(n.entries) > 1 {
		return lineIndentOf(n.entries[len(n.entries)-1].lead)
	}
	if d.spacious(n) {
		return []byte(" ")
	}
	return nil
}

// newEntry is an entry to append to container n, its lead and trail
// following n's last entry (or, in an empty container, the file), and
// prepares n's surrounding text for it.
func (d *Doc) newEntry(n *node) *entry {
	e := &entry{added: true}
	if len(n.entries) == 0 {
		if !d.multiline && !n.multiline() {
			return e
		}
		// The first entry of an empty container goes on its own line,
		// one level in, and the closing bracket on the next.
		if n.emptyText == nil {
			n.emptyText = append(append([]byte{}, n.head...), n.tail...)
		}
		if !bytes.HasSuffix(n.head, []byte("\n")) {
			n.head = append(slices.Clip(n.head), d.nl...)
		}
		e.lead = append(slices.Clip(n.indent), d.unit...)
		e.trail = []byte(d.nl)
		if onlySpace(n.tail) {
			n.tail = n.indent
		}
		return e
	}
	last := n.entries[len(n.entries)-1]
	if !n.multiline() {
		e.lead = d.separator(n)
		return e
	}
	ind := lineIndentOf(last.lead)
	if bytes.HasSuffix(last.trail, []byte("\n")) {
		e.lead, e.trail = ind, []byte(d.nl)
		return e
	}
	e.lead = append([]byte(d.nl), ind...)
	return e
}

// place lays out a value going into a container: a scalar as it is, an
// object or array indented from indent in the file's own unit when the
// container spans lines, compact otherwise.
func (d *Doc) place(v *node, indent []byte, multiline bool) *node {
	if v.kind != kindObject && v.kind != kindArray {
		return v
	}
	strict := v.appendStrict(nil)
	var text bytes.Buffer
	text.Write(indent)
	if multiline {
		if err := json.Indent(&text, strict, string(indent), string(d.unit)); err != nil {
			panic(fmt.Sprintf("jsonmerge: a value agyconf built is not JSON: %v", err))
		}
	} else if err := json.Compact(&text, strict); err != nil {
		panic(fmt.Sprintf("jsonmerge: a value agyconf built is not JSON: %v", err))
	}
	src := text.Bytes()
	if d.nl != "\n" {
		src = bytes.ReplaceAll(src, []byte("\n"), []byte(d.nl))
	}
	// Parsed with the indentation before it, so that its containers know
	// the line they start on.
	p := &parser{data: src, curLine: 1, curCol: 1, indentEnd: -1}
	n, _, _, err := p.document(false)
	if err != nil {
		panic(fmt.Sprintf("jsonmerge: a value agyconf laid out does not parse: %v", err))
	}
	n.at = pos32{}
	return n
}

// merge makes old what v says, keeping what of old's text it can: see the
// package comment. It returns the node to keep and whether anything
// changed; old is edited in place.
func (d *Doc) merge(old, v *node, indent []byte, multiline bool) (*node, bool) {
	if old.kind != v.kind {
		return d.place(v, indent, multiline), true
	}
	switch old.kind {
	case kindObject:
		changed := false
		for i := 0; i < len(old.entries); {
			e := old.entries[i]
			j := v.lookup(e.name)
			if j < 0 {
				old.remove(i)
				changed = true
				continue
			}
			if m, ch := d.merge(e.val, v.entries[j].val, indentOf(e.lead, old), old.multiline()); ch {
				e.val, changed = m, true
			}
			i++
		}
		for _, ve := range v.entries {
			if old.lookup(ve.name) < 0 {
				d.insert(old, ve.name, ve.val)
				changed = true
			}
		}
		if changed {
			old.raw = nil
		}
		return old, changed
	case kindArray:
		return d.mergeArray(old, v)
	case kindString:
		if old.str == v.str {
			return old, false
		}
	default:
		if bytes.Equal(old.raw, v.raw) {
			return old, false
		}
	}
	return v, true
}

// mergeArray keeps the items equal at both ends of the array; between
// them, items are merged one by one when as many changed as were there,
// and replaced otherwise.
func (d *Doc) mergeArray(old, v *node) (*node, bool) {
	pre := 0
	for pre < len(old.entries) && pre < len(v.entries) && equal(old.entries[pre].val, v.entries[pre].val) {
		pre++
	}
	suf := 0
	for suf < len(old.entries)-pre && suf < len(v.entries)-pre &&
		equal(old.entries[len(old.entries)-1-suf].val, v.entries[len(v.entries)-1-suf].val) {
		suf++
	}
	oldMid, newMid := old.entries[pre:len(old.entries)-suf], v.entries[pre:len(v.entries)-suf]
	if len(oldMid) == 0 && len(newMid) == 0 {
		return old, false
	}
	if len(oldMid) == len(newMid) {
		for i, e := range oldMid {
			e.val, _ = d.merge(e.val, newMid[i].val, indentOf(e.lead, old), old.multiline())
		}
		old.raw = nil
		return old, true
	}
	// Replace the run: its old entries go, the new ones are laid out as
	// appended ones would be, then moved into place.
	tail := slices.Clone(old.entries[len(old.entries)-suf:])
	for range len(oldMid) + suf {
		old.remove(pre)
	}
	for _, ne := range newMid {
		e := d.newEntry(old)
		e.val = d.place(ne.val, indentOf(e.lead, old), old.multiline() || len(old.entries) == 0 && d.multiline)
		old.entries = append(old.entries, e)
	}
	old.entries = append(old.entries, tail...)
	old.raw = nil
	return old, true
}

// equal reports whether two values mean the same to a JSON reader, as
// Canonical compares them.
func equal(a, b *node) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case kindObject:
		if len(a.entries) != len(b.entries) {
			return false
		}
		for _, e := range a.entries {
			j := b.lookup(e.name)
			if j < 0 || !equal(e.val, b.entries[j].val) {
				return false
			}
		}
		return true
	case kindArray:
		if len(a.entries) != len(b.entries) {
			return false
		}
		for i, e := range a.entries {
			if !equal(e.val, b.entries[i].val) {
				return false
			}
		}
		return true
	case kindString:
		return a.str == b.str
	}
	return bytes.Equal(a.raw, b.raw)
}

// multiline reports whether a container's entries stand on lines of their
// own.
func (n *node) multiline() bool {
	if bytes.IndexByte(n.head, '\n') >= 0 || bytes.IndexByte(n.tail, '\n') >= 0 {
		return true
	}
	for _, e := range n.entries {
		if bytes.IndexByte(e.lead, '\n') >= 0 || bytes.IndexByte(e.trail, '\n') >= 0 {
			return true
		}
	}
	return false
}

// indentUnit is one level of the file's indentation: what the first entry
// standing on its own line is indented by from its container's line. Two
// spaces when no entry shows it.
func indentUnit(root *node) []byte {
	queue := []*node{root}
	for len(queue) > 0 && len(queue) < 1<<16 {
		n := queue[0]
		queue = queue[1:]
		if n.kind != kindObject && n.kind != kindArray {
			continue
		}
		if len(n.entries) > 0 && bytes.HasSuffix(n.head, []byte("\n")) {
			ind := lineIndentOf(n.entries[0].lead)
			if len(ind) > len(n.indent) && bytes.HasPrefix(ind, n.indent) {
				return ind[len(n.indent):]
			}
		}
		for _, e := range n.entries {
			queue = append(queue, e.val)
		}
	}
	return []byte("  ")
}

// lineIndentOf is the indentation of the line an entry's lead ends on: the
// spaces and tabs after its last line break (a comment after them, before
// the name, is not part of it).
func lineIndentOf(lead []byte) []byte {
	s := lead[bytes.LastIndexByte(lead, '\n')+1:]
	end := 0
	for end < len(s) && (s[end] == ' ' || s[end] == '\t') {
		end++
	}
	return s[:end]
}

// indentOf is the indentation of the line a new entry of n starts on.
func indentOf(lead []byte, n *node) []byte {
	if bytes.IndexByte(lead, '\n') >= 0 || n.multiline() {
		return lineIndentOf(lead)
	}
	return n.indent
}

func onlySpace(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// appendText writes the node as the document holds it: its source where it
// was not edited, its parts and the text between them where it was.
func (n *node) appendText(b []byte) []byte {
	if n.raw != nil {
		return append(b, n.raw...)
	}
	open, closer := byte('{'), byte('}')
	if n.kind == kindArray {
		open, closer = '[', ']'
	} else if n.kind != kindObject {
		panic(fmt.Sprintf("jsonmerge: %s with no source text", n.kind))
	}
	b = append(b, open)
	if len(n.entries) == 0 {
		if n.emptyText != nil {
			return append(append(b, n.emptyText...), closer)
		}
		if onlySpace(n.head) && onlySpace(n.tail) {
			return append(b, closer) // emptied: {} as json.Indent writes it
		}
		return append(append(append(b, n.head...), n.tail...), closer)
	}
	b = append(b, n.head...)
	last := len(n.entries) - 1
	for i, e := range n.entries {
		b = append(b, e.lead...)
		if n.kind == kindObject {
			b = append(append(b, e.rawName...), e.mid...)
		}
		b = e.val.appendText(b)
		b = append(b, e.post...)
		if i < last || n.trailingComma && !e.added {
			b = append(b, ',')
		}
		b = append(b, e.trail...)
	}
	b = append(b, n.tail...)
	return append(b, closer)
}

// appendStrict writes the node as strict JSON: as written where that is
// already strict and unedited, compact from its parts otherwise.
func (n *node) appendStrict(b []byte) []byte {
	if n.raw != nil && n.clean {
		return append(b, n.raw...)
	}
	switch n.kind {
	case kindObject:
		b = append(b, '{')
		for i, e := range n.entries {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(append(b, e.rawName...), ':')
			b = e.val.appendStrict(b)
		}
		return append(b, '}')
	case kindArray:
		b = append(b, '[')
		for i, e := range n.entries {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.val.appendStrict(b)
		}
		return append(b, ']')
	}
	return append(b, n.raw...)
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
