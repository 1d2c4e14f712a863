package jsonmerge

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is encoding/json's nesting limit. Using the same one means every
// document Parse accepts is one encoding/json accepts (comments and
// trailing commas aside, where the syntax allows them).
const maxDepth = 10000

const bom = "\xef\xbb\xbf"

// Syntax says which extensions of strict JSON (RFC 8259) a reader accepts.
// The zero Syntax is strict JSON. Which one a file may use is a fact about
// the program that reads it (internal/agy), not about the file.
type Syntax struct {
	// BOM: a UTF-8 byte order mark before the value.
	BOM bool
	// Comments: // to the end of the line and /* … */, wherever
	// whitespace may be.
	Comments bool
	// TrailingCommas: one comma after the last member of an object or
	// the last item of an array.
	TrailingCommas bool
}

// JSONC is the syntax of VS Code's "JSON with comments", which agy reads
// in mcp_config.json: comments, trailing commas and a byte order mark.
var JSONC = Syntax{BOM: true, Comments: true, TrailingCommas: true}

// Pos is a place in the source. Line and Column are 1-based; a column counts
// Unicode code points, so a tab or an "é" is one column (an invalid UTF-8
// byte is one too, and a byte order mark none). Only "\n" starts a line, so
// a CRLF file reports the same lines as an LF one. Byte is the 0-based
// offset.
type Pos struct {
	Line   int
	Column int
	Byte   int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }

// Position returns the place of the byte at off in data: the one
// position-aware reading of JSON text in agyconf, for the few places no
// parsed value holds (a syntax error). It scans data up to off; a reader
// locating many values uses the positions the parse recorded instead.
func Position(data []byte, off int) Pos {
	off = max(0, min(off, len(data)))
	before := data[:off]
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	if lineStart == 0 && bytes.HasPrefix(data, []byte(bom)) && off >= len(bom) {
		lineStart = len(bom) // editors do not show a byte order mark
	}
	return Pos{
		Line:   bytes.Count(before, []byte{'\n'}) + 1,
		Column: utf8.RuneCount(before[lineStart:]) + 1,
		Byte:   off,
	}
}

// Problem classifies a SyntaxError, so that callers can name the rule it
// breaks without matching message text.
type Problem uint8

const (
	ProblemOther         Problem = iota
	ProblemEOF                   // the text ends inside a value, or holds none
	ProblemAfter                 // something follows the top-level value
	ProblemComment               // a comment the syntax does not allow
	ProblemTrailingComma         // a trailing comma the syntax does not allow
	ProblemBOM                   // a byte order mark the syntax does not allow
	ProblemNotNumber             // NaN or Infinity
	ProblemSingleQuote           // a single-quoted string
	ProblemNotObject             // the top level is not an object
	ProblemTooDeep               // nesting past maxDepth
)

// SyntaxError is text that is not JSON in the syntax asked for, or JSON that
// Parse will not represent (a root that is not an object, nesting past the
// limit).
type SyntaxError struct {
	Pos     Pos
	Msg     string
	Problem Problem
}

func (e *SyntaxError) Error() string { return e.Pos.String() + ": " + e.Msg }

// DuplicateKeyError is an object naming one member twice. JSON readers
// disagree on which one wins, so a file holding one has no single meaning to
// preserve, and agyconf refuses to rewrite it.
type DuplicateKeyError struct {
	Key   string // decoded, as encoding/json would see it
	Pos   Pos    // the second occurrence
	First Pos
}

func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("%s: duplicate key %q (first at %s)", e.Pos, e.Key, e.First)
}

type kind uint8

const (
	kindObject kind = iota + 1
	kindArray
	kindString
	kindNumber
	kindBool
	kindNull
)

// String reads as the object of "is": "/a is an array, not an object".
func (k kind) String() string {
	switch k {
	case kindObject:
		return "an object"
	case kindArray:
		return "an array"
	case kindString:
		return "a string"
	case kindNumber:
		return "a number"
	case kindBool:
		return "a boolean"
	case kindNull:
		return "null"
	}
	return "an unknown value"
}

// node is one JSON value. raw is the value exactly as written, comments
// inside it included (nil for a container edited since, which is then
// written from its entries and the text around them), so that anything not
// edited keeps its spelling, inner order, escapes and layout.
type node struct {
	kind kind
	raw  []byte
	str  string // kindString: decoded, for comparing with Go strings
	// clean: raw holds no comment and no trailing comma, so it is also
	// strict JSON as it stands.
	clean bool
	at    pos32 // where the value starts (zero for a value agyconf added)
	off   int   // the offset it starts at in the text it was read from

	// Containers. The text of an object is
	//   '{' head  entry…  tail '}'
	// where each entry is lead name mid value post [','] trail (items have
	// no name and no mid): the text between tokens belongs to the entry
	// or bracket it stands next to, so a deleted entry takes its own
	// comments with it and every other byte stays.
	entries []*entry
	head    []byte // after the opening bracket, up to the end of its line
	tail    []byte // after the last entry, before the closing bracket
	// emptyText is what stood between the brackets of a container that
	// was empty when the first entry went in (newEntry lays out head and
	// tail for it): written again if it is emptied, so that adding and
	// then removing an entry gives back the bytes it found.
	emptyText []byte
	// trailingComma: the last entry was followed by a comma.
	trailingComma bool
	// indent is the whitespace that starts the line the value starts on:
	// what inserted entries are indented from when none show the way.
	indent []byte
	// index finds a member by name in a large object: built on first
	// use, dropped when entries are removed. It maps to the last
	// occurrence, which is the one encoding/json decodes.
	index map[string]int
}

type entry struct {
	name    string // decoded: what callers pass in paths (objects only)
	rawName []byte // as written, quotes included, so escapes in keys survive
	keyAt   pos32
	lead    []byte // before the name (or the item): indentation, comments
	mid     []byte // from the name to the value: the colon and what is around it
	val     *node
	post    []byte // between the value and its comma
	trail   []byte // after the comma (or the value), to the end of its line
	added   bool   // inserted by an edit: never carries the trailing comma
}

// pos32 is a line and column in 32 bits each, saturating: a position is
// stored for every value.
type pos32 struct{ line, col int32 }

func (p pos32) lineCol() (int, int) { return int(p.line), int(p.col) }

// parser reads one value. Besides the tree it records, for Read, where the
// syntax's extensions and the duplicate keys it tolerated are.
type parser struct {
	data     []byte
	off      int
	depth    int
	maxDepth int // deepest nesting seen, so Set can keep documents within maxDepth
	syntax   Syntax
	// tolerant: duplicate keys and invalid UTF-8 in strings are recorded
	// in notes instead of refused, and strings are decoded as
	// encoding/json decodes them.
	tolerant bool
	notes    *Notes
	// path leads to the value being read, in a tolerant read: a
	// duplicate's path is copied from it when one is found, not carried
	// down to every value.
	path []PathStep

	// The cursor that positions values: data[curOff] is on curLine at
	// curCol. Values are visited in document order, so it only moves
	// forward and positioning every value is one pass over the bytes.
	curOff, curLine, curCol int
	// lineStart is where the line of p.off starts; indentEnd memoizes the
	// end of that line's indentation (-1: not yet measured).
	lineStart, indentEnd int
	crlf                 bool // the first line break seen was "\r\n"
	sawNewline           bool

	// comments counts the comments read so far: one read inside a
	// container makes it unclean.
	comments int
	// nodes and entries are allocated from here, a block at a time: a
	// 1,000-server mcp_config.json is 30,000 of them (newNode, newEntry).
	nodes   slab[node]
	entries slab[entry]
}

func (p *parser) newNode(n node) *node    { return p.nodes.new(n) }
func (p *parser) newEntry(e entry) *entry { return p.entries.new(e) }

// slabMax is the most values a slab allocates at once: blocks start
// small, for the many small documents, and double up to it.
const slabMax = 256

// slab hands out values of T a block at a time.
type slab[T any] struct {
	free []T
	size int // the size of the last block
}

func (s *slab[T]) new(v T) *T {
	if len(s.free) == 0 {
		s.size = min(slabMax, max(8, 2*s.size))
		s.free = make([]T, s.size)
	}
	out := &s.free[0]
	s.free = s.free[1:]
	*out = v
	return out
}

// Notes are what a tolerant read accepted that strict JSON would not.
type Notes struct {
	// BOM: the text starts with a byte order mark.
	BOM bool
	// Comments and TrailingCommas count each construct; the First fields
	// are the offsets of the first one (-1 for none).
	Comments, TrailingCommas          int
	FirstComment, FirstTrailingComma  int
	FirstCommentPos, FirstTrailingPos Pos
	// InvalidUTF8 is the offset of the first byte of a string that is not
	// valid UTF-8, or -1.
	InvalidUTF8 int
	// Duplicates lists the member names objects repeat, in document order:
	// the first MaxDuplicates of them; MoreDuplicates counts the others.
	Duplicates     []Duplicate
	MoreDuplicates int
}

// MaxDuplicates bounds the duplicates a read records with their paths: each
// path is as long as the duplicate is deep, so a hostile file repeating
// names deep down could otherwise fill memory with them.
const MaxDuplicates = 1000

// Duplicate is a member name an object repeats: encoding/json keeps the
// last value, and so does a tolerant read.
type Duplicate struct {
	Key   string
	Pos   Pos // this occurrence
	First Pos // the occurrence before it
	// Path leads from the root to the object holding the name.
	Path []PathStep
}

// PathStep is one step of a path: a member name, or an array index when
// Index is not -1.
type PathStep struct {
	Name  string
	Index int
}

// parseOne reads exactly one value, with optional whitespace (and, as the
// syntax allows, comments) around it, and returns it with the deepest
// nesting. The nodes point into data, which the caller must not change
// afterwards.
func parseOne(data []byte, wantObject bool, syn Syntax) (*node, int, error) {
	p := &parser{data: data, syntax: syn, curLine: 1, curCol: 1, indentEnd: -1}
	root, _, _, err := p.document(wantObject)
	return root, p.maxDepth, err
}

// document reads the whole text as one value and returns it with the text
// before it (a byte order mark, whitespace, comments) and after it.
func (p *parser) document(wantObject bool) (root *node, before, after []byte, err error) {
	data := p.data
	if p.notes != nil {
		p.notes.FirstComment, p.notes.FirstTrailingComma, p.notes.InvalidUTF8 = -1, -1, -1
	}
	if bytes.HasPrefix(data, []byte(bom)) {
		if !p.syntax.BOM {
			return nil, nil, nil, &SyntaxError{Position(data, 0), "the text starts with a UTF-8 byte order mark (BOM); JSON must not have one, save the file without it", ProblemBOM}
		}
		if p.notes != nil {
			p.notes.BOM = true
		}
		p.off, p.curOff, p.lineStart = len(bom), len(bom), len(bom)
	}
	if _, err := p.trivia(); err != nil {
		return nil, nil, nil, err
	}
	start := p.off
	n, err := p.value()
	if err != nil {
		return nil, nil, nil, err
	}
	if wantObject && n.kind != kindObject {
		return nil, nil, nil, p.errAt(start, fmt.Sprintf("the top level is %s; it must be an object", n.kind), ProblemNotObject)
	}
	end := p.off
	if _, err := p.trivia(); err != nil {
		return nil, nil, nil, err
	}
	if p.off < len(p.data) {
		what, hint, problem := p.describe()
		if hint != "" {
			hint = "; " + hint
		}
		if problem == ProblemOther {
			problem = ProblemAfter
		}
		return nil, nil, nil, p.errAt(p.off, "unexpected "+what+" after the top-level value"+hint, problem)
	}
	return n, data[:start], data[end:], nil
}

func (p *parser) errAt(off int, msg string, problem Problem) error {
	return &SyntaxError{Position(p.data, off), msg, problem}
}

// trivia skips whitespace and, where the syntax allows them, comments, and
// returns what it skipped. A comment the syntax does not allow is left for
// the caller to report as unexpected.
func (p *parser) trivia() ([]byte, error) {
	start := p.off
	for p.off < len(p.data) {
		switch c := p.data[p.off]; c {
		case '\n':
			if !p.sawNewline {
				p.sawNewline, p.crlf = true, p.off > 0 && p.data[p.off-1] == '\r'
			}
			p.off++
			p.lineStart, p.indentEnd = p.off, -1
		case ' ', '\t', '\r':
			p.off++
		case '/':
			if !p.syntax.Comments || p.off+1 >= len(p.data) || (p.data[p.off+1] != '/' && p.data[p.off+1] != '*') {
				return p.data[start:p.off], nil
			}
			if err := p.comment(); err != nil {
				return nil, err
			}
		default:
			return p.data[start:p.off], nil
		}
	}
	return p.data[start:p.off], nil
}

// comment skips one comment at p.off. A line comment ends before its
// newline, which trivia then reads as whitespace.
func (p *parser) comment() error {
	at := p.off
	p.comments++
	if p.notes != nil {
		if p.notes.Comments == 0 {
			p.notes.FirstComment = at
		}
		p.notes.Comments++
	}
	if p.data[p.off+1] == '/' {
		if i := bytes.IndexByte(p.data[p.off:], '\n'); i >= 0 {
			p.off += i
		} else {
			p.off = len(p.data)
		}
		return p.commentUTF8(at)
	}
	end := bytes.Index(p.data[p.off+2:], []byte("*/"))
	if end < 0 {
		return p.errAt(at, "comment is never closed", ProblemEOF)
	}
	body := p.data[p.off : p.off+2+end+2]
	p.off += len(body)
	if i := bytes.LastIndexByte(body, '\n'); i >= 0 {
		if !p.sawNewline {
			j := bytes.IndexByte(body, '\n')
			p.sawNewline, p.crlf = true, j > 0 && body[j-1] == '\r'
		}
		p.lineStart, p.indentEnd = at+i+1, -1
	}
	return p.commentUTF8(at)
}

// commentUTF8 refuses, or notes, invalid UTF-8 in the comment from at to
// p.off: a comment is kept byte for byte, and text agyconf keeps must be
// text.
func (p *parser) commentUTF8(at int) error {
	off := invalidUTF8(p.data[at:p.off])
	if off < 0 {
		return nil
	}
	if p.tolerant {
		if p.notes.InvalidUTF8 < 0 {
			p.notes.InvalidUTF8 = at + off
		}
		return nil
	}
	return p.errAt(at+off, fmt.Sprintf("invalid UTF-8 byte 0x%02x in a comment", p.data[at+off]), ProblemOther)
}

// invalidUTF8 returns the offset of the first byte of b that is not valid
// UTF-8, or -1.
func invalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// at positions the value or name starting at off, moving the cursor there.
// off starts a token, an ASCII byte, which no UTF-8 sequence spans:
// counting runes from the cursor counts what counting from the line's
// start would.
func (p *parser) at(off int) pos32 {
	seg := p.data[p.curOff:off]
	if i := bytes.LastIndexByte(seg, '\n'); i >= 0 {
		p.curLine, p.curCol = p.curLine+bytes.Count(seg, []byte("\n")), 1
		seg = seg[i+1:]
	}
	p.curCol += utf8.RuneCount(seg)
	p.curOff = off
	return pos32{line: int32(min(p.curLine, math.MaxInt32)), col: int32(min(p.curCol, math.MaxInt32))}
}

// lineIndent is the whitespace starting the line p.off is on.
func (p *parser) lineIndent() []byte {
	if p.indentEnd < 0 {
		end := p.lineStart
		for end < len(p.data) && (p.data[end] == ' ' || p.data[end] == '\t') {
			end++
		}
		p.indentEnd = end
	}
	return p.data[p.lineStart:p.indentEnd]
}

// unexpected reports what is at p.off, and what should have been there, in
// the words of a person editing the file, with a hint instead for the usual
// habits from JSON-with-extensions formats.
func (p *parser) unexpected(want string) error {
	what, hint, problem := p.describe()
	if hint == "" {
		hint = "expected " + want
	}
	return p.errAt(p.off, "unexpected "+what+"; "+hint, problem)
}

func (p *parser) describe() (what, hint string, problem Problem) {
	if p.off >= len(p.data) {
		return "end of the text", "", ProblemEOF
	}
	rest := p.data[p.off:]
	c := rest[0]
	switch {
	case bytes.HasPrefix(rest, []byte("//")) || bytes.HasPrefix(rest, []byte("/*")):
		return "comment", "JSON has no comments", ProblemComment
	case c == '\'':
		return "single quote", "JSON strings use double quotes", ProblemSingleQuote
	case bytes.HasPrefix(rest, []byte(bom)):
		return "byte order mark", "", ProblemOther
	case bytes.HasPrefix(rest, []byte("NaN")), bytes.HasPrefix(rest, []byte("Infinity")):
		return fmt.Sprintf("%q", wordAt(rest)), "", ProblemNotNumber
	case c >= utf8.RuneSelf:
		r, size := utf8.DecodeRune(rest)
		if r == utf8.RuneError && size == 1 {
			return fmt.Sprintf("byte 0x%02x, which is not UTF-8", c), "", ProblemOther
		}
		return fmt.Sprintf("%q", r), "", ProblemOther
	case isWordByte(c):
		return fmt.Sprintf("%q", wordAt(rest)), "", ProblemOther
	}
	return fmt.Sprintf("%q", rune(c)), "", ProblemOther
}

func wordAt(rest []byte) []byte {
	end := 1
	for end < len(rest) && end < 32 && isWordByte(rest[end]) {
		end++
	}
	return rest[:end]
}

// isWordByte groups NaN, Infinity, undefined and bare keys into one word in
// messages, rather than reporting their first letter.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$'
}

// value reads the value at p.off (trivia before it already skipped).
func (p *parser) value() (*node, error) {
	if p.off >= len(p.data) {
		return nil, p.unexpected("a value")
	}
	start := p.off
	switch c := p.data[p.off]; {
	case c == '{' || c == '[':
		return p.container()
	case c == '"':
		at := p.at(start)
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		return p.newNode(node{kind: kindString, raw: p.data[start:p.off], str: s, clean: true, at: at, off: start}), nil
	case c == '-' || c >= '0' && c <= '9':
		at := p.at(start)
		if err := p.number(); err != nil {
			return nil, err
		}
		return p.newNode(node{kind: kindNumber, raw: p.data[start:p.off], clean: true, at: at, off: start}), nil
	case c == 't':
		return p.literal("true", kindBool)
	case c == 'f':
		return p.literal("false", kindBool)
	case c == 'n':
		return p.literal("null", kindNull)
	}
	return nil, p.unexpected("a value")
}

func (p *parser) literal(word string, k kind) (*node, error) {
	if !bytes.HasPrefix(p.data[p.off:], []byte(word)) {
		return nil, p.unexpected("a value")
	}
	start := p.off
	at := p.at(start)
	p.off += len(word)
	return p.newNode(node{kind: k, raw: p.data[start:p.off], clean: true, at: at, off: start}), nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errAt(p.off, fmt.Sprintf("nesting deeper than %d objects and arrays", maxDepth), ProblemTooDeep)
	}
	p.maxDepth = max(p.maxDepth, p.depth)
	return nil
}

// splitTrail splits the text after a comma (or after an entry's value)
// into the part on the same line, which belongs to the entry before it,
// and the rest. The first part ends with the first line break outside a
// comment; with none, everything is the rest.
func splitTrail(t []byte) (trail, rest []byte) {
	for i := 0; i < len(t); {
		switch t[i] {
		case '\n':
			return t[:i+1], t[i+1:]
		case '/':
			if i+1 < len(t) && t[i+1] == '/' {
				j := bytes.IndexByte(t[i:], '\n')
				if j < 0 {
					return t, nil
				}
				return t[:i+j+1], t[i+j+1:]
			}
			if i+1 < len(t) && t[i+1] == '*' {
				j := bytes.Index(t[i+2:], []byte("*/"))
				i += 2 + j + 2
				continue
			}
		}
		i++
	}
	return nil, t
}

// container reads an object or an array.
func (p *parser) container() (*node, error) {
	start := p.off
	k, closer := kindObject, byte('}')
	if p.data[p.off] == '[' {
		k, closer = kindArray, ']'
	}
	n := p.newNode(node{kind: k, at: p.at(start), off: start, indent: p.lineIndent(), clean: true})
	// A comment read before the closing bracket makes the container
	// unclean: in its own trivia, or in a value's, which is then unclean
	// and makes it so too.
	comments := p.comments
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.off++
	// Offsets of the names seen, for the duplicate error: an object's
	// entries are searched while it is small (most in a config file are),
	// and a map keeps a large or hostile one linear.
	var seen map[string]int
	expectSep := "',' or '}'"
	if k == kindArray {
		expectSep = "',' or ']'"
	}
	t, err := p.trivia()
	if err != nil {
		return nil, err
	}
	n.head, t = splitTrail(t)
	comma := -1 // the comma after the last entry read, if there was one
	for {
		if p.off < len(p.data) && p.data[p.off] == closer {
			if comma >= 0 {
				if !p.syntax.TrailingCommas {
					return nil, p.errAt(comma, fmt.Sprintf("trailing comma before '%c'; JSON does not allow one", closer), ProblemTrailingComma)
				}
				n.trailingComma = true
				if p.notes != nil {
					if p.notes.TrailingCommas == 0 {
						p.notes.FirstTrailingComma = comma
					}
					p.notes.TrailingCommas++
				}
			}
			n.tail = t
			return p.close(n, start, p.comments > comments), nil
		}
		e := p.newEntry(entry{lead: t})
		if k == kindObject {
			if p.off >= len(p.data) || p.data[p.off] != '"' {
				return nil, p.unexpected("a member name in double quotes")
			}
			nameStart := p.off
			e.keyAt = p.at(nameStart)
			name, err := p.string()
			if err != nil {
				return nil, err
			}
			if first, dup := previous(n.entries, &seen, p.data, name); dup {
				if !p.tolerant {
					return nil, &DuplicateKeyError{Key: name, Pos: Position(p.data, nameStart), First: Position(p.data, first)}
				}
				if len(p.notes.Duplicates) < MaxDuplicates {
					p.notes.Duplicates = append(p.notes.Duplicates, Duplicate{Key: name, Pos: Position(p.data, nameStart), First: Position(p.data, first), Path: slices.Clone(p.path)})
				} else {
					p.notes.MoreDuplicates++
				}
			}
			if seen != nil {
				seen[name] = nameStart
			}
			e.name, e.rawName = name, p.data[nameStart:p.off]
			midStart := p.off
			if _, err := p.trivia(); err != nil {
				return nil, err
			}
			if p.off >= len(p.data) || p.data[p.off] != ':' {
				return nil, p.unexpected("':' after the member name")
			}
			p.off++
			if _, err := p.trivia(); err != nil {
				return nil, err
			}
			e.mid = p.data[midStart:p.off]
		}
		if p.tolerant {
			step := PathStep{Name: e.name, Index: -1}
			if k == kindArray {
				step = PathStep{Index: len(n.entries)}
			}
			p.path = append(p.path, step)
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		if p.tolerant {
			p.path = p.path[:len(p.path)-1]
		}
		e.val = v
		n.entries = append(n.entries, e)
		after, err := p.trivia()
		if err != nil {
			return nil, err
		}
		switch {
		case p.off < len(p.data) && p.data[p.off] == ',':
			e.post = after
			comma = p.off
			p.off++
			if t, err = p.trivia(); err != nil {
				return nil, err
			}
			e.trail, t = splitTrail(t)
		case p.off < len(p.data) && p.data[p.off] == closer:
			e.trail, t = splitTrail(after)
			comma = -1
		default:
			return nil, p.unexpected(expectSep)
		}
	}
}

// previous finds the offset of the last member of entries, an object's
// so far, named name: by a search of entries while they are few, then in
// *seen, which it builds. A name's offset in data is where its rawName,
// a slice of data, starts.
func previous(entries []*entry, seen *map[string]int, data []byte, name string) (int, bool) {
	if *seen == nil && len(entries) >= searchUpTo {
		*seen = make(map[string]int, 2*len(entries))
		for _, e := range entries {
			(*seen)[e.name] = cap(data) - cap(e.rawName)
		}
	}
	if *seen != nil {
		off, ok := (*seen)[name]
		return off, ok
	}
	for i := len(entries) - 1; i >= 0; i-- {
		if e := entries[i]; e.name == name {
			return cap(data) - cap(e.rawName), true
		}
	}
	return 0, false
}

// searchUpTo is the size of object past which previous keeps a map.
const searchUpTo = 16

// close finishes a container at its closing bracket; comments says a
// comment was read inside it.
func (p *parser) close(n *node, start int, comments bool) *node {
	p.off++
	p.depth--
	n.raw = p.data[start:p.off]
	if n.trailingComma || comments {
		n.clean = false
	}
	for _, e := range n.entries {
		if !e.val.clean {
			n.clean = false
			break
		}
	}
	if n.kind == kindObject && len(n.entries) > indexFrom {
		n.buildIndex()
	}
	return n
}

// number follows RFC 8259's grammar, which is encoding/json's: no leading
// zeros, no leading '+', no bare '.', at least one digit after '.' and 'e'.
func (p *parser) number() error {
	if p.data[p.off] == '-' {
		p.off++
	}
	if !p.intDigits() {
		return p.unexpected("a digit")
	}
	if p.off < len(p.data) && p.data[p.off] >= '0' && p.data[p.off] <= '9' {
		return p.errAt(p.off-1, "a number must not start with 0 unless it is 0 itself", ProblemOther)
	}
	if p.off < len(p.data) && p.data[p.off] == '.' {
		p.off++
		if !p.digits() {
			return p.unexpected("a digit after the decimal point")
		}
	}
	if p.off < len(p.data) && (p.data[p.off] == 'e' || p.data[p.off] == 'E') {
		p.off++
		if p.off < len(p.data) && (p.data[p.off] == '+' || p.data[p.off] == '-') {
			p.off++
		}
		if !p.digits() {
			return p.unexpected("a digit in the exponent")
		}
	}
	return nil
}

// intDigits reads an integer part, where a leading 0 must stand alone.
func (p *parser) intDigits() bool {
	if p.off < len(p.data) && p.data[p.off] == '0' {
		p.off++
		return true
	}
	return p.digits()
}

// digits consumes a run of digits, reporting whether there was one.
func (p *parser) digits() bool {
	start := p.off
	for p.off < len(p.data) && p.data[p.off] >= '0' && p.data[p.off] <= '9' {
		p.off++
	}
	return p.off > start
}

// string reads a string token and returns it decoded.
func (p *parser) string() (string, error) {
	start := p.off
	p.off++
	escaped, invalid := false, false
	for {
		if p.off >= len(p.data) {
			return "", p.errAt(start, "string is never closed", ProblemEOF)
		}
		c := p.data[p.off]
		switch {
		case c == '"':
			p.off++
			body := p.data[start+1 : p.off-1]
			if !escaped && !invalid {
				return string(body), nil
			}
			return unescape(body), nil
		case c == '\\':
			escaped = true
			if err := p.escape(); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.errAt(p.off, fmt.Sprintf("control character U+%04X in a string; write it as an escape such as \\n", c), ProblemOther)
		case c >= utf8.RuneSelf:
			// encoding/json would read invalid UTF-8 as U+FFFD, so two
			// different names could collide and the text agyconf keeps
			// would not be the text it compared. Refusing is simpler; a
			// tolerant read decodes it as encoding/json does and notes it.
			r, size := utf8.DecodeRune(p.data[p.off:])
			if r == utf8.RuneError && size == 1 {
				if !p.tolerant {
					return "", p.errAt(p.off, fmt.Sprintf("invalid UTF-8 byte 0x%02x in a string", c), ProblemOther)
				}
				if p.notes.InvalidUTF8 < 0 {
					p.notes.InvalidUTF8 = p.off
				}
				invalid = true
			}
			p.off += size
		default:
			p.off++
		}
	}
}

func (p *parser) escape() error {
	at := p.off
	p.off++
	if p.off >= len(p.data) {
		return p.errAt(at, "unfinished escape at the end of the text", ProblemEOF)
	}
	switch p.data[p.off] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		p.off++
		return nil
	case 'u':
		p.off++
		for range 4 {
			if p.off >= len(p.data) || hexVal(p.data[p.off]) < 0 {
				return p.errAt(at, "\\u must be followed by four hexadecimal digits", ProblemOther)
			}
			p.off++
		}
		return nil
	}
	r, _ := utf8.DecodeRune(p.data[p.off:])
	return p.errAt(at, fmt.Sprintf("invalid escape \\%c in a string", r), ProblemOther)
}

func hexVal(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}

// u4 reads the \uXXXX at the start of b, or returns -1.
func u4(b []byte) rune {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range b[2:6] {
		r = r<<4 | hexVal(c)
	}
	return r
}

// unescape decodes an already validated string body exactly as encoding/json
// does, including its treatment of a lone surrogate and of each byte that is
// not UTF-8 as U+FFFD, so names match what any Go reader of the file sees.
func unescape(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); {
		if b[i] != '\\' {
			if b[i] >= utf8.RuneSelf {
				r, size := utf8.DecodeRune(b[i:])
				sb.WriteRune(r) // U+FFFD for an invalid byte, as encoding/json
				i += size
				continue
			}
			sb.WriteByte(b[i])
			i++
			continue
		}
		switch c := b[i+1]; c {
		case 'u':
			r := u4(b[i:])
			i += 6
			if utf16.IsSurrogate(r) {
				if dec := utf16.DecodeRune(r, u4(b[i:])); dec != utf8.RuneError {
					sb.WriteRune(dec)
					i += 6
					continue
				}
				r = utf8.RuneError
			}
			sb.WriteRune(r)
			continue
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		default: // '"', '\\', '/'
			sb.WriteByte(c)
		}
		i += 2
	}
	return sb.String()
}

// appendString writes s with the fewest escapes JSON needs. Used for names
// and items agyconf adds and for Canonical; s must be valid UTF-8.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
