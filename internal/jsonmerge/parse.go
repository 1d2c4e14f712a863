package jsonmerge

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is encoding/json's nesting limit. Using the same one means every
// document Parse accepts is one encoding/json accepts, and json.Indent, which
// Bytes relies on, can never refuse what Bytes hands it.
const maxDepth = 10000

const bom = "\xef\xbb\xbf"

// Pos is a place in the source. Line and Column are 1-based; a column counts
// Unicode code points, so a tab or an "é" is one column. Only "\n" starts a
// line, so a CRLF file reports the same lines as an LF one. Byte is the
// 0-based offset.
type Pos struct {
	Line   int
	Column int
	Byte   int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }

// position is computed only when an error needs it, which keeps parsing a
// plain byte walk.
func position(data []byte, off int) Pos {
	before := data[:off]
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return Pos{
		Line:   bytes.Count(before, []byte{'\n'}) + 1,
		Column: utf8.RuneCount(before[lineStart:]) + 1,
		Byte:   off,
	}
}

// SyntaxError is text that is not strict JSON, or JSON that Parse will not
// represent (a BOM, a root that is not an object, nesting past the limit).
type SyntaxError struct {
	Pos Pos
	Msg string
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

// node is one JSON value. raw is the value exactly as written (nil for a
// container edited since, which is then written from members or items), so
// that anything not edited keeps its spelling, inner order and escapes.
type node struct {
	kind    kind
	raw     []byte
	members []member // kindObject
	items   []*node  // kindArray
	str     string   // kindString: decoded, for comparing with Go strings
}

type member struct {
	name    string // decoded: what callers pass in paths
	rawName []byte // as written, quotes included, so escapes in keys survive
	val     *node
}

type parser struct {
	data     []byte
	off      int
	depth    int
	maxDepth int // deepest nesting seen, so Set can keep documents within maxDepth
}

// parseOne reads exactly one value, with optional whitespace around it. The
// nodes point into data, which the caller must not change afterwards.
func parseOne(data []byte, wantObject bool) (*node, int, error) {
	if bytes.HasPrefix(data, []byte(bom)) {
		return nil, 0, &SyntaxError{position(data, 0), "the text starts with a UTF-8 byte order mark (BOM); JSON must not have one, save the file without it"}
	}
	p := &parser{data: data}
	p.skipSpace()
	start := p.off
	n, err := p.value()
	if err != nil {
		return nil, 0, err
	}
	if wantObject && n.kind != kindObject {
		return nil, 0, p.errAt(start, fmt.Sprintf("the top level is %s; it must be an object", n.kind))
	}
	p.skipSpace()
	if p.off < len(p.data) {
		what, hint := p.describe()
		if hint != "" {
			hint = "; " + hint
		}
		return nil, 0, p.errAt(p.off, "unexpected "+what+" after the top-level value"+hint)
	}
	return n, p.maxDepth, nil
}

func (p *parser) errAt(off int, msg string) error {
	return &SyntaxError{position(p.data, off), msg}
}

func (p *parser) skipSpace() {
	for p.off < len(p.data) {
		switch p.data[p.off] {
		case ' ', '\t', '\n', '\r':
			p.off++
		default:
			return
		}
	}
}

// unexpected reports what is at p.off, and what should have been there, in
// the words of a person editing the file, with a hint instead for the usual
// habits from JSON-with-extensions formats.
func (p *parser) unexpected(want string) error {
	what, hint := p.describe()
	if hint == "" {
		hint = "expected " + want
	}
	return p.errAt(p.off, "unexpected "+what+"; "+hint)
}

func (p *parser) describe() (what, hint string) {
	if p.off >= len(p.data) {
		return "end of the text", ""
	}
	rest := p.data[p.off:]
	c := rest[0]
	switch {
	case bytes.HasPrefix(rest, []byte("//")) || bytes.HasPrefix(rest, []byte("/*")):
		return "comment", "JSON has no comments"
	case c == '\'':
		return "single quote", "JSON strings use double quotes"
	case bytes.HasPrefix(rest, []byte(bom)):
		return "byte order mark", ""
	case c >= utf8.RuneSelf:
		r, size := utf8.DecodeRune(rest)
		if r == utf8.RuneError && size == 1 {
			return fmt.Sprintf("byte 0x%02x, which is not UTF-8", c), ""
		}
		return fmt.Sprintf("%q", r), ""
	case isWordByte(c):
		end := 1
		for end < len(rest) && end < 32 && isWordByte(rest[end]) {
			end++
		}
		return fmt.Sprintf("%q", rest[:end]), ""
	}
	return fmt.Sprintf("%q", rune(c)), ""
}

// isWordByte groups NaN, Infinity, undefined and bare keys into one word in
// messages, rather than reporting their first letter.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$'
}

func (p *parser) value() (*node, error) {
	p.skipSpace()
	if p.off >= len(p.data) {
		return nil, p.unexpected("a value")
	}
	start := p.off
	switch c := p.data[p.off]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		return &node{kind: kindString, raw: p.data[start:p.off], str: s}, nil
	case c == '-' || c >= '0' && c <= '9':
		if err := p.number(); err != nil {
			return nil, err
		}
		return &node{kind: kindNumber, raw: p.data[start:p.off]}, nil
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
	p.off += len(word)
	return &node{kind: k, raw: p.data[start:p.off]}, nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errAt(p.off, fmt.Sprintf("nesting deeper than %d objects and arrays", maxDepth))
	}
	p.maxDepth = max(p.maxDepth, p.depth)
	return nil
}

func (p *parser) object() (*node, error) {
	start := p.off
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.off++
	n := &node{kind: kindObject}
	// Offsets of the names seen, for the duplicate error. Most objects in a
	// config file are small, but a map keeps a hostile file linear.
	seen := map[string]int{}
	p.skipSpace()
	if p.off < len(p.data) && p.data[p.off] == '}' {
		p.off++
		p.depth--
		n.raw = p.data[start:p.off]
		return n, nil
	}
	comma := -1
	for {
		p.skipSpace()
		if p.off < len(p.data) && p.data[p.off] == '}' && comma >= 0 {
			return nil, p.errAt(comma, "trailing comma before '}'; JSON does not allow one")
		}
		if p.off >= len(p.data) || p.data[p.off] != '"' {
			return nil, p.unexpected("a member name in double quotes")
		}
		nameStart := p.off
		name, err := p.string()
		if err != nil {
			return nil, err
		}
		if first, dup := seen[name]; dup {
			return nil, &DuplicateKeyError{Key: name, Pos: position(p.data, nameStart), First: position(p.data, first)}
		}
		seen[name] = nameStart
		rawName := p.data[nameStart:p.off]
		p.skipSpace()
		if p.off >= len(p.data) || p.data[p.off] != ':' {
			return nil, p.unexpected("':' after the member name")
		}
		p.off++
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, member{name: name, rawName: rawName, val: v})
		p.skipSpace()
		if p.off >= len(p.data) {
			return nil, p.unexpected("',' or '}'")
		}
		switch p.data[p.off] {
		case ',':
			comma = p.off
			p.off++
		case '}':
			p.off++
			p.depth--
			n.raw = p.data[start:p.off]
			return n, nil
		default:
			return nil, p.unexpected("',' or '}'")
		}
	}
}

func (p *parser) array() (*node, error) {
	start := p.off
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.off++
	n := &node{kind: kindArray}
	p.skipSpace()
	if p.off < len(p.data) && p.data[p.off] == ']' {
		p.off++
		p.depth--
		n.raw = p.data[start:p.off]
		return n, nil
	}
	comma := -1
	for {
		p.skipSpace()
		if p.off < len(p.data) && p.data[p.off] == ']' && comma >= 0 {
			return nil, p.errAt(comma, "trailing comma before ']'; JSON does not allow one")
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, v)
		p.skipSpace()
		if p.off >= len(p.data) {
			return nil, p.unexpected("',' or ']'")
		}
		switch p.data[p.off] {
		case ',':
			comma = p.off
			p.off++
		case ']':
			p.off++
			p.depth--
			n.raw = p.data[start:p.off]
			return n, nil
		default:
			return nil, p.unexpected("',' or ']'")
		}
	}
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
		return p.errAt(p.off-1, "a number must not start with 0 unless it is 0 itself")
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
	escaped := false
	for {
		if p.off >= len(p.data) {
			return "", p.errAt(start, "string is never closed")
		}
		c := p.data[p.off]
		switch {
		case c == '"':
			p.off++
			body := p.data[start+1 : p.off-1]
			if !escaped {
				return string(body), nil
			}
			return unescape(body), nil
		case c == '\\':
			escaped = true
			if err := p.escape(); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.errAt(p.off, fmt.Sprintf("control character U+%04X in a string; write it as an escape such as \\n", c))
		case c >= utf8.RuneSelf:
			// encoding/json would read invalid UTF-8 as U+FFFD, so two
			// different names could collide and the text agyconf keeps
			// would not be the text it compared. Refusing is simpler.
			r, size := utf8.DecodeRune(p.data[p.off:])
			if r == utf8.RuneError && size == 1 {
				return "", p.errAt(p.off, fmt.Sprintf("invalid UTF-8 byte 0x%02x in a string", c))
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
		return p.errAt(at, "unfinished escape at the end of the text")
	}
	switch p.data[p.off] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		p.off++
		return nil
	case 'u':
		p.off++
		for range 4 {
			if p.off >= len(p.data) || hexVal(p.data[p.off]) < 0 {
				return p.errAt(at, "\\u must be followed by four hexadecimal digits")
			}
			p.off++
		}
		return nil
	}
	r, _ := utf8.DecodeRune(p.data[p.off:])
	return p.errAt(at, fmt.Sprintf("invalid escape \\%c in a string", r))
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
// does, including its treatment of a lone surrogate as U+FFFD, so names match
// what any Go reader of the file sees.
func unescape(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); {
		if b[i] != '\\' {
			j := bytes.IndexByte(b[i:], '\\')
			if j < 0 {
				j = len(b) - i
			}
			sb.Write(b[i : i+j])
			i += j
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
