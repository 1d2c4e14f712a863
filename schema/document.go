package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/agyconf/agyconf/internal/frontmatter"
)

// Finding is one problem in a document: where it is and what is wrong.
type Finding struct {
	// Pointer is the JSON pointer (RFC 6901) of the value the finding is
	// about; "" for the whole document and for problems in its bytes (a
	// byte order mark, a syntax error) that no value holds.
	Pointer string `json:"pointer"`
	// Line and Column are 1-based; Column counts characters (code points;
	// an invalid UTF-8 byte counts as one, a byte order mark as none).
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

func (f Finding) String() string {
	if f.Pointer == "" {
		return fmt.Sprintf("%d:%d: %s", f.Line, f.Column, f.Message)
	}
	return fmt.Sprintf("%d:%d: %s: %s", f.Line, f.Column, f.Pointer, f.Message)
}

// DocumentError lists every finding in one document, in document order.
type DocumentError struct {
	// Schema names the schema the document was checked against.
	Schema   string
	Findings []Finding
}

func (e *DocumentError) Error() string {
	var b strings.Builder
	n := len(e.Findings)
	if n == 1 {
		fmt.Fprintf(&b, "not a valid %s document: %s", e.Schema, e.Findings[0])
		return b.String()
	}
	fmt.Fprintf(&b, "not a valid %s document: %d problems", e.Schema, n)
	for _, f := range e.Findings {
		b.WriteString("\n\t")
		b.WriteString(f.String())
	}
	return b.String()
}

// Validator holds compiled schemas. Build one with NewValidator and reuse
// it: compiling is the expensive part. A Validator is safe for concurrent
// use.
type Validator struct {
	schemas map[string]*docSchema
}

type docSchema struct {
	name     string
	compiled *jsonschema.Schema
	// source is the schema document, for the descriptions findings quote.
	source  any
	printer *message.Printer
}

// NewValidator compiles the named schemas, or every embedded schema when
// no name is given.
func NewValidator(names ...string) (*Validator, error) {
	if len(names) == 0 {
		names = Names()
	}
	v := &Validator{schemas: map[string]*docSchema{}}
	for _, name := range names {
		if _, ok := v.schemas[name]; ok {
			continue
		}
		ds, err := compileDocument(name)
		if err != nil {
			return nil, err
		}
		v.schemas[name] = ds
	}
	return v, nil
}

// ValidateJSON checks a JSON document against the named schema with a
// Validator compiled for this call. Reuse a Validator to check many.
func ValidateJSON(name string, data []byte) error {
	v, err := NewValidator(name)
	if err != nil {
		return err
	}
	return v.ValidateJSON(name, data)
}

// ValidateMarkdown checks a markdown document's frontmatter against the
// named schema with a Validator compiled for this call.
func ValidateMarkdown(name string, doc []byte) error {
	v, err := NewValidator(name)
	if err != nil {
		return err
	}
	return v.ValidateMarkdown(name, doc)
}

func (v *Validator) schema(name string) (*docSchema, error) {
	ds, ok := v.schemas[name]
	if !ok {
		if _, err := Source(name); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("schema %s was not compiled into this validator", name)
	}
	return ds, nil
}

// ValidateJSON checks data the way agy's strict Go encoding/json loaders
// read it, and then against the named schema. It reports what a decoder
// would hide or refuse with a generic error — a UTF-8 byte order mark,
// invalid UTF-8, comments, trailing commas, NaN and Infinity, duplicate
// object keys (encoding/json keeps the last silently), data after the
// value — and every schema failure at the position of the value it is
// about. The error is a *DocumentError when the document has findings.
func (v *Validator) ValidateJSON(name string, data []byte) error {
	ds, err := v.schema(name)
	if err != nil {
		return err
	}
	var out []Finding
	add := func(off int, ptr, msg string) {
		line, col := lineCol(data, off)
		out = append(out, Finding{Pointer: ptr, Line: line, Column: col, Message: msg})
	}
	start := 0
	if bytes.HasPrefix(data, []byte(utf8BOM)) {
		add(0, "", "the file starts with a UTF-8 byte order mark: Go's encoding/json refuses it, and agy does not load a plugin.json that has one (reference §4); save the file without a BOM")
		start = len(utf8BOM)
	}
	body := data[start:]
	if off := invalidUTF8(body); off >= 0 {
		add(start+off, "", "invalid UTF-8: Go's encoding/json silently replaces it with U+FFFD, so agy would read other text than the file holds")
	}
	var probe any
	if err := json.Unmarshal(body, &probe); err != nil {
		var se *json.SyntaxError
		if !errors.As(err, &se) {
			add(start, "", "not JSON: "+err.Error())
			return docError(name, out)
		}
		off, msg := explainSyntax(body, se)
		add(start+off, "", msg)
		return docError(name, out)
	}
	loc := newJSONLocator(data)
	w := &jsonWalker{dec: json.NewDecoder(bytes.NewReader(body)), data: data, base: start, end: start, loc: loc}
	w.dec.UseNumber()
	value, err := w.value(position{})
	if err != nil {
		// Unmarshal accepted the bytes, so the decoder cannot fail.
		return fmt.Errorf("schema: walking %s document: %w", name, err)
	}
	out = append(out, w.findings...)
	out = append(out, ds.validate(value, loc)...)
	return docError(name, out)
}

// ValidateMarkdown checks a markdown document's YAML frontmatter against
// the named schema. A document without frontmatter is checked as an empty
// mapping, so a schema that requires keys reports them missing. Lines and
// columns are the document's. The error is a *DocumentError when the
// document has findings.
func (v *Validator) ValidateMarkdown(name string, doc []byte) error {
	ds, err := v.schema(name)
	if err != nil {
		return err
	}
	var out []Finding
	if bytes.HasPrefix(doc, []byte(utf8BOM)) {
		out = append(out, Finding{Line: 1, Column: 1, Message: "the file starts with a UTF-8 byte order mark, before the frontmatter's --- line; save the file without a BOM"})
		doc = doc[len(utf8BOM):]
	}
	if off := invalidUTF8(doc); off >= 0 {
		line, col := lineCol(doc, off)
		out = append(out, Finding{Line: line, Column: col, Message: "invalid UTF-8"})
		return docError(name, out)
	}
	fm, _, first, err := frontmatter.Split(doc)
	switch {
	case errors.Is(err, frontmatter.ErrNone):
		out = append(out, ds.validate(map[string]any{}, &yamlLocator{root: newPosition(1, 1)})...)
		return docError(name, out)
	case err != nil:
		out = append(out, Finding{Line: 1, Column: 1, Message: err.Error()})
		return docError(name, out)
	}
	value, err := frontmatter.Parse(fm)
	if err != nil {
		out = append(out, yamlFinding(err, first))
		return docError(name, out)
	}
	loc := &yamlLocator{root: newPosition(first, 1), lineShift: first - 1, keys: map[*yaml.Node]map[string]int{}}
	var node yaml.Node
	if yaml.Unmarshal(fm, &node) == nil && len(node.Content) > 0 {
		loc.doc = node.Content[0]
	}
	out = append(out, ds.validate(jsonValue(value), loc)...)
	return docError(name, out)
}

// utf8BOM is the UTF-8 byte order mark.
const utf8BOM = "\xEF\xBB\xBF"

func docError(name string, fs []Finding) error {
	if len(fs) == 0 {
		return nil
	}
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Line != fs[j].Line {
			return fs[i].Line < fs[j].Line
		}
		return fs[i].Column < fs[j].Column
	})
	return &DocumentError{Schema: name, Findings: fs}
}

// invalidUTF8 returns the offset of the first byte that is not valid
// UTF-8, or -1.
func invalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// explainSyntax turns encoding/json's syntax error into the offset of the
// culprit and a message naming the JSON extension agy's loader refuses.
func explainSyntax(b []byte, se *json.SyntaxError) (int, string) {
	off := int(se.Offset) - 1
	if off < 0 {
		off = 0
	}
	const fatal = "; agy refuses the file (a hooks.json is dropped whole, reference §0.10, §2.1; an mcp_config.json is fatal at startup, §3)"
	if off >= len(b) || strings.Contains(se.Error(), "unexpected end") {
		return len(b), "the JSON ends early (an unclosed object, array or string, or an empty file)" + fatal
	}
	c := b[off]
	switch {
	case c == '/' && off+1 < len(b) && (b[off+1] == '/' || b[off+1] == '*'):
		return off, "a comment: JSON has none, and agy's strict Go encoding/json loader refuses it" + fatal
	case strings.Contains(se.Error(), "after top-level value"):
		return off, "data after the JSON value: a file holds exactly one value" + fatal
	case c == '}' || c == ']':
		if p := prevNonSpace(b, off); p >= 0 && b[p] == ',' {
			return p, "a trailing comma: JSON allows none before " + string(c) + fatal
		}
	case c == 'N' && bytes.HasPrefix(b[off:], []byte("NaN")):
		return off, "NaN is not a JSON number" + fatal
	case c == 'I' && bytes.HasPrefix(b[off:], []byte("Infinity")):
		if off > 0 && b[off-1] == '-' {
			off--
		}
		return off, "Infinity is not a JSON number" + fatal
	case c == '\'':
		return off, "a single-quoted string: JSON strings use double quotes" + fatal
	}
	msg := strings.TrimPrefix(se.Error(), "invalid character ")
	return off, "JSON syntax error: unexpected character " + msg + fatal
}

func prevNonSpace(b []byte, off int) int {
	for i := off - 1; i >= 0; i-- {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return i
	}
	return -1
}

// position is a 1-based line and character column in a document. One is
// stored for every value and member name, so in 32 bits each: only a
// document of 2 GiB or more could hold a larger one, which saturates.
type position struct{ line, col int32 }

func newPosition(line, col int) position {
	return position{line: int32(min(line, math.MaxInt32)), col: int32(min(col, math.MaxInt32))}
}

func (p position) lineCol() (int, int) { return int(p.line), int(p.col) }

// span is where a value sits: its member name (line 0 for an array
// element and the root, which have none) and the value itself.
type span struct{ key, value position }

// lineCol returns the line and character column of the byte at off:
// columns count code points (an invalid UTF-8 byte counts as one), and a
// byte order mark counts as none. It scans the document, so it is for the
// few offsets no value holds (a byte order mark, invalid UTF-8, a syntax
// error); the walk locates values as it passes them.
func lineCol(data []byte, off int) (int, int) {
	off = min(off, len(data))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	if start == 0 && bytes.HasPrefix(data, []byte(utf8BOM)) && off >= len(utf8BOM) {
		start = len(utf8BOM) // editors do not show a byte order mark
	}
	return bytes.Count(data[:off], []byte("\n")) + 1, utf8.RuneCount(data[start:off]) + 1
}

// jsonLocator knows where every value of a JSON document starts. Values
// are numbered nodes, and a pointer is followed one segment at a time
// through the edges from each node to its members and elements. It holds
// no pointer strings: a pointer is as long as a value's depth times its
// keys, so indexing every value by its pointer took memory quadratic in a
// deeply nested document's size (4,000 levels of 1,000-character keys, a
// 4 MB file, ran out of memory). This index grows with the number of
// values, and each member name is the string the decoded value holds.
type jsonLocator struct {
	data  []byte
	spans []span         // by node: 0 is the root, then document order
	kids  map[edge]int32 // the node of each member and element
	// The walk visits values in document order, so a cursor that only
	// moves forward locates them all in one pass over the bytes, however
	// long the lines: data[off] is on line, at col.
	off, line, col int
}

// edge names a child of node parent: a member by name (index -1) or an
// array element by index. Nodes are numbered in 32 bits: a document holds
// fewer than 2³¹ values unless it is over 4 GiB.
type edge struct {
	parent, index int32
	name          string
}

func newJSONLocator(data []byte) *jsonLocator {
	l := &jsonLocator{data: data, kids: map[edge]int32{}, line: 1, col: 1}
	if bytes.HasPrefix(data, []byte(utf8BOM)) {
		l.off = len(utf8BOM) // editors do not show a byte order mark
	}
	return l
}

// advance moves the cursor forward to off and returns its position. off
// starts a token, an ASCII byte, which no UTF-8 sequence spans: counting
// runes from the cursor counts what counting from the line's start would.
func (l *jsonLocator) advance(off int) position {
	seg := l.data[l.off:off]
	if i := bytes.LastIndexByte(seg, '\n'); i >= 0 {
		l.line, l.col = l.line+bytes.Count(seg, []byte("\n")), 1
		seg = seg[i+1:]
	}
	l.col += utf8.RuneCount(seg)
	l.off = off
	return newPosition(l.line, l.col)
}

// locate returns where the value at ptr starts, or its member name's
// position when atKey is set; for a pointer into no value, the start of
// its deepest ancestor that is one.
func (l *jsonLocator) locate(ptr string, atKey bool) (int, int) {
	if len(l.spans) == 0 {
		return 1, 1
	}
	node := int32(0)
	for ptr != "" {
		seg, rest, ok := nextSegment(ptr)
		child, found := l.kids[edge{parent: node, index: -1, name: seg}]
		if i, isIndex := arrayIndex(seg); ok && !found && isIndex {
			child, found = l.kids[edge{parent: node, index: i}]
		}
		if !ok || !found {
			atKey = false
			break
		}
		node, ptr = child, rest
	}
	s := l.spans[node]
	if atKey && s.key.line > 0 {
		return s.key.lineCol()
	}
	return s.value.lineCol()
}

// nextSegment splits the first reference token off a JSON pointer and
// unescapes it: "/a~1b/c" gives "a/b" and "/c".
func nextSegment(ptr string) (seg, rest string, ok bool) {
	if !strings.HasPrefix(ptr, "/") {
		return "", "", false
	}
	end := len(ptr)
	if i := strings.IndexByte(ptr[1:], '/'); i >= 0 {
		end = i + 1
	}
	// Replacing allocates only in a segment that holds a "~".
	return strings.ReplaceAll(strings.ReplaceAll(ptr[1:end], "~1", "/"), "~0", "~"), ptr[end:], true
}

// arrayIndex reads a pointer segment as an array index, written the way
// strconv.Itoa writes one: "0", or digits without a leading zero.
func arrayIndex(seg string) (int32, bool) {
	if seg == "" || seg[0] == '0' && len(seg) > 1 {
		return 0, false
	}
	for i := 0; i < len(seg); i++ {
		if seg[i] < '0' || seg[i] > '9' {
			return 0, false
		}
	}
	i, err := strconv.ParseInt(seg, 10, 32)
	return int32(i), err == nil
}

// jsonWalker decodes a document that encoding/json accepted, token by
// token, into the value encoding/json would see (the last duplicate key
// wins), indexing where every value starts and reporting duplicate keys.
type jsonWalker struct {
	dec      *json.Decoder
	data     []byte
	base     int // offset of the decoder's input in data
	end      int // end of the last token, in data
	loc      *jsonLocator
	findings []Finding
	// path leads from the root to the value being walked: the pointer a
	// duplicate key's finding names is built from it when one is found,
	// not carried down to every value.
	path []step
}

// step is one segment of path: a member name, or an element's index
// (name unused) when index is not -1.
type step struct {
	name  string
	index int
}

func (w *jsonWalker) token() (json.Token, int, error) {
	start := w.end
	for start < len(w.data) {
		switch w.data[start] {
		case ' ', '\t', '\n', '\r', ',', ':':
			start++
			continue
		}
		break
	}
	tok, err := w.dec.Token()
	if err != nil {
		return nil, 0, err
	}
	w.end = w.base + int(w.dec.InputOffset())
	return tok, start, nil
}

// value walks the value that comes next, whose member name is at key
// (line 0 for none).
func (w *jsonWalker) value(key position) (any, error) {
	tok, start, err := w.token()
	if err != nil {
		return nil, err
	}
	node := int32(len(w.loc.spans))
	w.loc.spans = append(w.loc.spans, span{key: key, value: w.loc.advance(start)})
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	if d == '[' {
		arr := []any{}
		for i := 0; w.dec.More(); i++ {
			w.loc.kids[edge{parent: node, index: int32(i)}] = int32(len(w.loc.spans))
			w.path = append(w.path, step{index: i})
			e, err := w.value(position{})
			w.path = w.path[:len(w.path)-1]
			if err != nil {
				return nil, err
			}
			arr = append(arr, e)
		}
		_, _, err := w.token()
		return arr, err
	}
	obj := map[string]any{}
	for w.dec.More() {
		ktok, koff, err := w.token()
		if err != nil {
			return nil, err
		}
		k, _ := ktok.(string)
		at := w.loc.advance(koff)
		member := edge{parent: node, index: -1, name: k}
		if prev, dup := w.loc.kids[member]; dup {
			// prev is the key's last occurrence before this one.
			first := w.loc.spans[prev].key
			w.findings = append(w.findings, Finding{Pointer: w.pointer(k), Line: int(at.line), Column: int(at.col), Message: fmt.Sprintf(
				"duplicate key %q (first at %d:%d): Go's encoding/json keeps the last value and silently drops the first; agy keeps the last in hooks.json and mcp_config.json and does not load a plugin.json with a duplicate key at all (reference §2.1, §3, §4)", k, first.line, first.col)})
		}
		w.loc.kids[member] = int32(len(w.loc.spans)) // the last occurrence is the one decoded
		w.path = append(w.path, step{name: k, index: -1})
		e, err := w.value(at)
		w.path = w.path[:len(w.path)-1]
		if err != nil {
			return nil, err
		}
		obj[k] = e
	}
	_, _, err = w.token()
	return obj, err
}

// pointer is the JSON pointer of member name of the value being walked.
func (w *jsonWalker) pointer(name string) string {
	var b strings.Builder
	for _, s := range w.path {
		b.WriteByte('/')
		if s.index >= 0 {
			b.WriteString(strconv.Itoa(s.index))
		} else {
			b.WriteString(escapePointer(s.name))
		}
	}
	b.WriteByte('/')
	b.WriteString(escapePointer(name))
	return b.String()
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// yamlLocator maps pointers into frontmatter to document lines. It follows
// each pointer a finding names through the parsed nodes instead of
// indexing every value by its pointer up front, which took memory growing
// with depth times key length, and with every alias: each alias indexed
// its anchor's whole subtree again under its own pointers. Following a
// pointer is a loop, one step a segment, so it needs no depth cap.
type yamlLocator struct {
	root      position   // where findings go when there is no node
	doc       *yaml.Node // the frontmatter's top node, or nil
	lineShift int        // turns frontmatter lines into document lines
	// keys memoizes, for each mapping a pointer went through, the index in
	// Content of each key's last occurrence, so that many findings in one
	// big mapping do not each scan it.
	keys map[*yaml.Node]map[string]int
}

func (l *yamlLocator) pos(n *yaml.Node) position {
	return newPosition(n.Line+l.lineShift, n.Column)
}

// locate returns where the value at ptr starts, or its key's position
// when atKey is set; for a pointer into no value, the start of its
// deepest ancestor that is one. An alias leads into its anchor's value;
// the alias itself is where the value is written.
func (l *yamlLocator) locate(ptr string, atKey bool) (int, int) {
	if l.doc == nil {
		return l.root.lineCol()
	}
	n := l.doc
	s := span{value: l.pos(n)}
	for ptr != "" {
		seg, rest, ok := nextSegment(ptr)
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		found := false
		switch {
		case !ok:
		case n.Kind == yaml.MappingNode:
			if i, has := l.member(n, seg); has {
				k, v := n.Content[i], n.Content[i+1]
				s, n, found = span{key: l.pos(k), value: l.pos(v)}, v, true
			}
		case n.Kind == yaml.SequenceNode:
			if i, isIndex := arrayIndex(seg); isIndex && int(i) < len(n.Content) {
				n = n.Content[i]
				s, found = span{value: l.pos(n)}, true
			}
		}
		if !found {
			atKey = false
			break
		}
		ptr = rest
	}
	if atKey && s.key.line > 0 {
		return s.key.lineCol()
	}
	return s.value.lineCol()
}

func (l *yamlLocator) member(m *yaml.Node, name string) (int, bool) {
	keys, ok := l.keys[m]
	if !ok {
		keys = make(map[string]int, len(m.Content)/2)
		for i := 0; i+1 < len(m.Content); i += 2 {
			keys[m.Content[i].Value] = i
		}
		l.keys[m] = keys
	}
	i, ok := keys[name]
	return i, ok
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// yamlFinding places a YAML error on its document line: the first line
// the message names, with every line it names counted in the document.
func yamlFinding(err error, first int) Finding {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.Join(strings.Fields(strings.TrimPrefix(msg, "unmarshal errors:")), " ")
	line := first
	if m := yamlLine.FindStringSubmatchIndex(msg); m != nil {
		n, _ := strconv.Atoi(msg[m[2]:m[3]])
		line = first + n - 1
		msg = msg[:m[0]] + strings.TrimPrefix(msg[m[1]:], ": ")
	}
	msg = yamlLine.ReplaceAllStringFunc(msg, func(s string) string {
		n, _ := strconv.Atoi(strings.TrimPrefix(s, "line "))
		return "line " + strconv.Itoa(first+n-1)
	})
	return Finding{Line: line, Column: 1, Message: "frontmatter is not valid YAML: " + msg}
}

// jsonValue converts a decoded YAML value to the JSON data model the
// schema validator takes.
func jsonValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonValue(e)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = jsonValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	case nil, bool, string, int, int64, uint64, float64:
		return x
	}
	return fmt.Sprint(v)
}

// ---- schemas

func compileDocument(name string) (*docSchema, error) {
	s, doc, err := compile(name)
	if err != nil {
		return nil, err
	}
	return &docSchema{name: name, compiled: s, source: doc, printer: message.NewPrinter(language.English)}, nil
}

// validateInt32 is format "int32": a number written as a JSON integer
// literal that fits in an int32, which is what Go's encoding/json decodes
// into an int32 field. A JSON Schema validator calls 5.0 an integer;
// encoding/json refuses it. Numbers that are not whole are left to the
// type keyword.
func validateInt32(v any) error {
	var lit string
	switch x := v.(type) {
	case json.Number:
		lit = string(x)
	case int, int64, uint64, float64:
		lit = fmt.Sprint(x)
	default:
		return nil
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok || !r.IsInt() {
		return nil
	}
	if strings.ContainsAny(lit, ".eE") {
		return fmt.Errorf("agy's Go encoding/json reads an int32 and refuses a number written with a fraction or an exponent (a load error, reference §2.2); write %s", r.Num())
	}
	if _, err := strconv.ParseInt(lit, 10, 32); err != nil {
		return errors.New("out of the int32 range agy reads (reference §2.2)")
	}
	return nil
}

type locator interface {
	locate(ptr string, atKey bool) (line, col int)
}

// rawFinding is a schema failure before it is placed in the text.
type rawFinding struct {
	ptr   string
	atKey bool
	msg   string
	// names marks a finding about a key's name, which supersedes every
	// other finding at or under that key.
	names bool
}

func (ds *docSchema) validate(value any, loc locator) []Finding {
	err := ds.compiled.Validate(value)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		line, col := loc.locate("", false)
		return []Finding{{Line: line, Column: col, Message: err.Error()}}
	}
	raws := ds.collect(ve)
	var superseding []string
	for _, r := range raws {
		if r.names {
			superseding = append(superseding, r.ptr)
		}
	}
	seen := map[string]bool{}
	var out []Finding
	for _, r := range raws {
		if !r.names && covered(r.ptr, superseding) {
			continue
		}
		if key := r.ptr + "\x00" + r.msg; seen[key] {
			continue
		} else {
			seen[key] = true
		}
		line, col := loc.locate(r.ptr, r.atKey)
		out = append(out, Finding{Pointer: r.ptr, Line: line, Column: col, Message: r.msg})
	}
	return out
}

func covered(ptr string, by []string) bool {
	for _, p := range by {
		if ptr == p || strings.HasPrefix(ptr, p+"/") {
			return true
		}
	}
	return false
}

func pointer(loc []string) string {
	var b strings.Builder
	for _, t := range loc {
		b.WriteByte('/')
		b.WriteString(escapePointer(t))
	}
	return b.String()
}

// collect flattens a validation error into findings: leaves with their
// own messages; for a failed oneOf or anyOf only the alternative that came
// closest, so a handler missing one key is not also told it is not a
// prompt handler.
func (ds *docSchema) collect(e *jsonschema.ValidationError) []rawFinding {
	ptr := pointer(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.PropertyNames:
		var msgs []string
		for _, c := range e.Causes {
			msgs = append(msgs, ds.nameMessages(c)...)
		}
		if len(msgs) == 0 {
			if d := ds.description(e.SchemaURL); d != "" {
				msgs = []string{d}
			} else {
				msgs = []string{"not allowed"}
			}
		}
		return []rawFinding{{ptr: ptr + "/" + escapePointer(k.Property), atKey: true, names: true,
			msg: fmt.Sprintf("key %q is not allowed here: %s", k.Property, strings.Join(msgs, "; "))}}
	case *kind.AdditionalProperties:
		out := make([]rawFinding, 0, len(k.Properties))
		for _, p := range k.Properties {
			out = append(out, rawFinding{ptr: ptr + "/" + escapePointer(p), atKey: true, msg: fmt.Sprintf("key %q is not allowed here", p)})
		}
		return out
	case *kind.Not, *kind.FalseSchema:
		msg := ds.description(e.SchemaURL)
		if msg == "" {
			msg = "not allowed here"
		}
		return []rawFinding{{ptr: ptr, atKey: true, msg: msg}}
	case *kind.OneOf, *kind.AnyOf:
		if len(e.Causes) > 0 {
			return ds.closest(e)
		}
	}
	if len(e.Causes) == 0 {
		return []rawFinding{{ptr: ptr, msg: e.ErrorKind.LocalizedString(ds.printer)}}
	}
	var out []rawFinding
	for _, c := range e.Causes {
		out = append(out, ds.collect(c)...)
	}
	return out
}

// nameMessages says why a key's name failed its propertyNames schema. A
// name outside a list also gets the list's description: why the list is
// what it is.
func (ds *docSchema) nameMessages(e *jsonschema.ValidationError) []string {
	switch e.ErrorKind.(type) {
	case *kind.Enum, *kind.Const:
		msg := e.ErrorKind.LocalizedString(ds.printer)
		if d := ds.description(e.SchemaURL); d != "" {
			msg = strings.TrimSuffix(d, ".") + "; " + msg
		}
		return []string{msg}
	case *kind.AllOf, *kind.Group, *kind.Schema, *kind.Reference:
		var out []string
		for _, c := range e.Causes {
			out = append(out, ds.nameMessages(c)...)
		}
		return out
	}
	var out []string
	for _, r := range ds.collect(e) {
		out = append(out, strings.TrimSuffix(r.msg, "."))
	}
	return out
}

// closest picks the alternative of a failed oneOf or anyOf to report: one
// whose discriminating value (a const or enum on a direct property, such
// as a handler's type) matched, then the one with the fewest findings,
// then the first. When every alternative only misses a required key, the
// finding says which keys would do.
func (ds *docSchema) closest(e *jsonschema.ValidationError) []rawFinding {
	depth := len(e.InstanceLocation)
	var missing []string
	allRequired := true
	best, bestScore := []rawFinding(nil), [2]int{-1, -1}
	for _, c := range e.Causes {
		if m, ok := onlyRequired(c, depth); ok {
			missing = append(missing, m...)
		} else {
			allRequired = false
		}
		rs := ds.collect(c)
		score := [2]int{0, len(rs)}
		if discriminatorMiss(c, depth) {
			score[0] = 1
		}
		if bestScore[0] < 0 || score[0] < bestScore[0] || score[0] == bestScore[0] && score[1] < bestScore[1] {
			best, bestScore = rs, score
		}
	}
	if allRequired && len(missing) > 1 {
		quoted := make([]string, len(missing))
		for i, m := range missing {
			quoted[i] = strconv.Quote(m)
		}
		msg := "missing one of " + strings.Join(quoted, ", ")
		if d := ds.description(e.SchemaURL); d != "" {
			msg += ". " + d
		}
		return []rawFinding{{ptr: pointer(e.InstanceLocation), msg: msg}}
	}
	return best
}

// onlyRequired reports whether an alternative failed only for missing
// keys of the object at depth, and which.
func onlyRequired(e *jsonschema.ValidationError, depth int) ([]string, bool) {
	if r, ok := e.ErrorKind.(*kind.Required); ok && len(e.InstanceLocation) == depth {
		return r.Missing, true
	}
	if len(e.Causes) == 0 {
		return nil, false
	}
	var all []string
	for _, c := range e.Causes {
		m, ok := onlyRequired(c, depth)
		if !ok {
			return nil, false
		}
		all = append(all, m...)
	}
	return all, true
}

func discriminatorMiss(e *jsonschema.ValidationError, depth int) bool {
	switch e.ErrorKind.(type) {
	case *kind.Const, *kind.Enum:
		if len(e.InstanceLocation) == depth+1 {
			return true
		}
	}
	for _, c := range e.Causes {
		if discriminatorMiss(c, depth) {
			return true
		}
	}
	return false
}

// description returns the description of the schema at an absolute
// schema location of this document, or "".
func (ds *docSchema) description(schemaURL string) string {
	base, frag, _ := strings.Cut(schemaURL, "#")
	if base != URL(ds.name) {
		return ""
	}
	v := ds.source
	if frag != "" {
		for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch x := v.(type) {
			case map[string]any:
				v = x[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(x) {
					return ""
				}
				v = x[i]
			default:
				return ""
			}
		}
	}
	obj, _ := v.(map[string]any)
	d, _ := obj["description"].(string)
	return d
}
