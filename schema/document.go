package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/frontmatter"
	"github.com/agyconf/agyconf/internal/jsonmerge"
	"github.com/agyconf/agyconf/internal/lazyre"
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

// Validator holds schemas, each read once and compiled by jsonschema/v6
// the first time a document needs it. Build one with NewValidator and
// reuse it. A Validator is safe for concurrent use.
type Validator struct {
	schemas map[string]*docSchema
}

type docSchema struct {
	name string
	// The library's schema, compiled the first time a document of this
	// schema is checked.
	compileOnce sync.Once
	compiled    *jsonschema.Schema
	compileErr  error
	// source is the schema document, for the descriptions findings quote
	// and the keywords repairPropertyNames reads.
	source  any
	printer *message.Printer
}

// NewValidator reads the named schemas, or every embedded schema when no
// name is given.
func NewValidator(names ...string) (*Validator, error) {
	if len(names) == 0 {
		names = Names()
	}
	v := &Validator{schemas: map[string]*docSchema{}}
	for _, name := range names {
		if _, ok := v.schemas[name]; ok {
			continue
		}
		ds, err := newDocSchema(name)
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

// ValidateJSON checks data the way agy's loaders read it, and then against
// the named schema. It reports what a decoder would hide or refuse with a
// generic error — a UTF-8 byte order mark, invalid UTF-8, comments,
// trailing commas, NaN and Infinity, duplicate object keys (encoding/json
// keeps the last silently), data after the value — and every schema failure
// at the position of the value it is about. Comments, trailing commas and
// a byte order mark do not stop the check: where agy accepts them from some
// build (internal/agy's table), the finding says only what the construct is,
// for lint to judge against an agy version. The error is a *DocumentError
// when the document has findings.
func (v *Validator) ValidateJSON(name string, data []byte) error {
	_, err := v.CheckJSON(name, data)
	return err
}

// CheckJSON is ValidateJSON that also returns the document as read, for
// checks of its own that need its values and their positions; the tree is
// nil when the text is not JSON.
func (v *Validator) CheckJSON(name string, data []byte) (*jsonmerge.Tree, error) {
	return v.CheckJSONWhile(name, data, nil)
}

// CheckJSONWhile is CheckJSON that also hands the document as read, its
// tree and its value, to also before the schema check runs, and calls the
// function also returns once the check is done: also may start work to run
// alongside the check, and return what waits for it. also must only read
// what it is given, which the schema check reads too. It is not called
// when the text is not JSON.
func (v *Validator) CheckJSONWhile(name string, data []byte, also func(*jsonmerge.Tree, any) (wait func())) (*jsonmerge.Tree, error) {
	ds, err := v.schema(name)
	if err != nil {
		return nil, err
	}
	var out []Finding
	add := func(p jsonmerge.Pos, ptr, msg string) {
		out = append(out, Finding{Pointer: ptr, Line: p.Line, Column: p.Column, Message: msg})
	}
	// Every extension is read, and reported below; what agy makes of it
	// is lint's to judge, by kind and version.
	tree, rerr := jsonmerge.Read(data, jsonmerge.JSONC)
	if rerr != nil {
		var se *jsonmerge.SyntaxError
		if !errors.As(rerr, &se) {
			add(jsonmerge.Position(data, 0), "", "not JSON: "+rerr.Error())
			return nil, docError(name, out)
		}
		if bytes.HasPrefix(data, []byte(utf8BOM)) {
			add(jsonmerge.Position(data, 0), "", bomMessage(name))
		}
		if off := invalidUTF8(data); off >= 0 && off != se.Pos.Byte {
			add(jsonmerge.Position(data, off), "", invalidUTF8Message)
		}
		off, msg := explainSyntax(data, se)
		add(jsonmerge.Position(data, off), "", msg)
		return nil, docError(name, out)
	}
	n := tree.Notes
	if n.BOM {
		add(jsonmerge.Position(data, 0), "", bomMessage(name))
	}
	if n.InvalidUTF8 >= 0 {
		add(jsonmerge.Position(data, n.InvalidUTF8), "", invalidUTF8Message)
	}
	if n.Comments > 0 {
		add(n.FirstCommentPos, "", extensionMessage(name, agy.Comments, "a comment", "a comment: JSON has none, and agy's strict Go encoding/json loader refuses it", n.Comments))
	}
	if n.TrailingCommas > 0 {
		closer := closerAfter(data, n.FirstTrailingComma)
		add(n.FirstTrailingPos, "", extensionMessage(name, agy.TrailingCommas, "a trailing comma before "+closer, "a trailing comma: JSON allows none before "+closer, n.TrailingCommas))
	}
	for _, d := range n.Duplicates {
		add(d.Pos, shortPointer(stepSegments(d.Path, d.Key)), fmt.Sprintf(
			"duplicate key %q (first at %d:%d): agy keeps the last value in hooks.json and mcp_config.json, and does not load a plugin.json with one at all", short(d.Key), d.First.Line, d.First.Column))
	}
	if n.MoreDuplicates > 0 {
		add(jsonmerge.Position(data, 0), "", fmt.Sprintf("and %d more duplicate keys", n.MoreDuplicates))
	}
	value := tree.Value()
	wait := func() {}
	if also != nil {
		wait = also(tree, value)
	}
	out = append(out, ds.validate(value, treeLocator{tree})...)
	wait()
	return tree, docError(name, out)
}

// ValidateValue checks a JSON document agyconf holds as a value, without
// its text, against the named schema: value is what encoding/json with
// UseNumber decodes the document into (map[string]any, []any, string,
// json.Number, bool, nil), its members taken in sorted order, the order
// agyconf writes them in. The findings are those ValidateJSON reports on
// that text, without positions (line and column 0). What only text can
// hold (a comment, a duplicate key, invalid UTF-8) is not judged. The
// error is a *DocumentError when the document has findings.
func (v *Validator) ValidateValue(name string, value any) error {
	ds, err := v.schema(name)
	if err != nil {
		return err
	}
	return docError(name, ds.validate(value, valueLocator{}))
}

// valueLocator locates in a document held as a value: no positions.
type valueLocator struct{}

func (valueLocator) locate([]string, bool) (int, int) { return 0, 0 }

const invalidUTF8Message = "invalid UTF-8: Go's encoding/json silently replaces it with U+FFFD, so agy would read other text than the file holds"

// fatal ends the message of a syntax error agy refuses in every build.
const fatal = ", so agy refuses the file (a hooks.json is dropped whole; an mcp_config.json is fatal at startup)"

// bomMessage says what a byte order mark is to agy in a document of the
// named schema: only what it is where some build accepts one (lint names
// the build), a load error otherwise.
func bomMessage(name string) string {
	if _, ok := agy.JSONAccepts(name, agy.BOM); ok {
		return "the file starts with a UTF-8 byte order mark"
	}
	return "the file starts with a UTF-8 byte order mark, which Go's encoding/json refuses, so agy does not load the file — save it without a BOM"
}

// extensionMessage is the finding about a construct beyond strict JSON:
// what it is where some build of agy accepts it in this document (lint
// names the build), and that agy refuses the file where none does.
func extensionMessage(name string, ext agy.JSONExtension, what, refused string, count int) string {
	more := ""
	if count > 1 {
		more = fmt.Sprintf(" (the first of %d)", count)
	}
	if _, ok := agy.JSONAccepts(name, ext); ok {
		return what + more
	}
	return refused + more + fatal
}

// closerAfter names the bracket a trailing comma at off stands before.
func closerAfter(data []byte, off int) string {
	for i := off + 1; i < len(data); i++ {
		switch c := data[i]; c {
		case '}', ']':
			return string(c)
		case '/':
			if i+1 < len(data) && data[i+1] == '*' {
				if j := bytes.Index(data[i+2:], []byte("*/")); j >= 0 {
					i += j + 3
				}
			} else if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
				i += j
			}
		}
	}
	return "}"
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
		p := jsonmerge.Position(doc, off)
		out = append(out, Finding{Line: p.Line, Column: p.Column, Message: "invalid UTF-8"})
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
	value, top, err := frontmatter.ParseNode(fm)
	if err != nil {
		out = append(out, yamlFinding(err, first))
		return docError(name, out)
	}
	loc := &yamlLocator{root: newPosition(first, 1), lineShift: first - 1, keys: map[*yaml.Node]map[string]int{}, doc: top}
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

// explainSyntax turns the reader's syntax error into the offset of the
// culprit and a message naming the JSON extension agy's loader refuses.
func explainSyntax(b []byte, se *jsonmerge.SyntaxError) (int, string) {
	off := se.Pos.Byte
	switch se.Problem {
	case jsonmerge.ProblemEOF:
		return len(b), "the JSON ends early (an unclosed object, array, string or comment, or an empty file): " + se.Msg + fatal
	case jsonmerge.ProblemAfter:
		return off, "data after the JSON value: a file holds exactly one value" + fatal
	case jsonmerge.ProblemNotNumber:
		word := "NaN"
		if bytes.HasPrefix(b[off:], []byte("Infinity")) {
			word = "Infinity"
			if off > 0 && b[off-1] == '-' {
				off--
			}
		}
		return off, word + " is not a JSON number" + fatal
	case jsonmerge.ProblemSingleQuote:
		return off, "a single-quoted string: JSON strings use double quotes" + fatal
	}
	return off, "JSON syntax error: " + se.Msg + fatal
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
func (l *yamlLocator) locate(path []string, atKey bool) (int, int) {
	if l.doc == nil {
		return l.root.lineCol()
	}
	n := l.doc
	s := span{value: l.pos(n)}
	for len(path) > 0 {
		seg, rest, ok := path[0], path[1:], true
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
		path = rest
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

var yamlLine = lazyre.New(`line (\d+)`)

// yamlFinding places a YAML error on its document line: the first line
// the message names, with every line it names counted in the document.
func yamlFinding(err error, first int) Finding {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.Join(strings.Fields(strings.TrimPrefix(msg, "unmarshal errors:")), " ")
	line := first
	if m := yamlLine().FindStringSubmatchIndex(msg); m != nil {
		n, _ := strconv.Atoi(msg[m[2]:m[3]])
		line = first + n - 1
		msg = msg[:m[0]] + strings.TrimPrefix(msg[m[1]:], ": ")
	}
	msg = yamlLine().ReplaceAllStringFunc(msg, func(s string) string {
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

// MaxPointerBytes bounds the pointer a finding names. A longer one is
// shortened: each segment past 64 bytes to its first 60 and "…", and if the
// whole is still too long, the middle segments to one "…". Findings are
// still located by the whole path; only what they print is shortened, so
// that a 100 KB key does not make every finding under it 100 KB.
const MaxPointerBytes = 1024

// shortPointer spells path as a JSON pointer of at most about
// MaxPointerBytes bytes.
func shortPointer(path []string) string {
	n := 0
	for _, s := range path {
		n += 1 + len(s)
	}
	if n <= MaxPointerBytes {
		return pointer(path)
	}
	segs := make([]string, len(path))
	for i, s := range path {
		segs[i] = short(s)
	}
	total := 0
	for _, s := range segs {
		total += 1 + len(escapePointer(s))
	}
	if total > MaxPointerBytes && len(segs) > 8 {
		segs = append(append(slices.Clip(segs[:4]), "…"), segs[len(segs)-4:]...)
	}
	return pointer(segs)
}

// ShortPointer is a JSON pointer (RFC 6901) shortened as findings print
// one: at most about MaxPointerBytes bytes (see MaxPointerBytes).
func ShortPointer(ptr string) string {
	if len(ptr) <= MaxPointerBytes {
		return ptr
	}
	return shortPointer(jsonmerge.PointerSegments(ptr))
}

// short cuts a name to at most 64 bytes for a message, on a character
// boundary.
func short(s string) string {
	const limit, keep = 64, 60
	if len(s) <= limit {
		return s
	}
	cut := keep
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// stepSegments is the path of member name of the object at steps.
func stepSegments(steps []jsonmerge.PathStep, name string) []string {
	out := make([]string, 0, len(steps)+1)
	for _, s := range steps {
		if s.Index >= 0 {
			out = append(out, strconv.Itoa(s.Index))
		} else {
			out = append(out, s.Name)
		}
	}
	return append(out, name)
}

// ---- schemas

func newDocSchema(name string) (*docSchema, error) {
	doc, err := parse(name)
	if err != nil {
		return nil, err
	}
	return &docSchema{name: name, source: doc, printer: message.NewPrinter(language.English)}, nil
}

// schema is the library's compiled schema, compiled the first time a
// document needs it.
func (ds *docSchema) schema() (*jsonschema.Schema, error) {
	ds.compileOnce.Do(func() { ds.compiled, ds.compileErr = compileParsed(ds.name, ds.source) })
	return ds.compiled, ds.compileErr
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
	// The range first: 1e999999 is a whole number of a million digits,
	// which a message must not spell.
	if !r.Num().IsInt64() || r.Num().Int64() < math.MinInt32 || r.Num().Int64() > math.MaxInt32 {
		return errors.New("out of the int32 range agy reads")
	}
	if strings.ContainsAny(lit, ".eE") {
		return fmt.Errorf("agy reads an int32 and refuses a number written with a fraction or an exponent (a load error) — write %s", r.Num())
	}
	return nil
}

type locator interface {
	// locate returns where the value at path starts, or its member
	// name's position when atKey is set; for a path into no value, the
	// start of its deepest ancestor that is one.
	locate(path []string, atKey bool) (line, col int)
}

// treeLocator locates in a JSON document through the one reader.
type treeLocator struct{ t *jsonmerge.Tree }

func (l treeLocator) locate(path []string, atKey bool) (int, int) {
	line, col, _ := l.t.Locate(path, atKey)
	return line, col
}

// MaxFindings bounds the schema findings listed for one document; one more
// finding then says how many were not listed. A file with a hundred
// thousand unknown keys is one mistake repeated, and listing each held
// memory in proportion to their count times their pointers' length.
const MaxFindings = 200

// maxCollected bounds the failures gathered from the validator's error
// tree before duplicates are merged and the first MaxFindings kept.
const maxCollected = 10 * MaxFindings

// rawFinding is a schema failure before it is placed in the text.
type rawFinding struct {
	path  []string // segments of the value's pointer; shared, never changed
	atKey bool
	msg   string
	// names marks a finding about a key's name, which supersedes every
	// other finding at or under that key.
	names bool
}

// collector gathers raw findings up to maxCollected and counts the rest.
type collector struct {
	ds      *docSchema
	out     []rawFinding
	dropped int
}

func (c *collector) add(r rawFinding) {
	if len(c.out) >= maxCollected {
		c.dropped++
		return
	}
	c.out = append(c.out, r)
}

func (ds *docSchema) validate(value any, loc locator) []Finding {
	c := &collector{ds: ds}
	// A number no bound can judge is refused before the library sees the
	// document: it would dereference nil (unjudgeable).
	unjudgeable(value, c)
	if len(c.out) == 0 {
		compiled, err := ds.schema()
		if err == nil {
			err = compiled.Validate(value)
		}
		if err == nil {
			return nil
		}
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			line, col := loc.locate(nil, false)
			return []Finding{{Line: line, Column: col, Message: err.Error()}}
		}
		ds.repairPropertyNames(ve, value)
		c.collect(ve)
	}
	raws := c.out
	sup := &trie{}
	for _, r := range raws {
		if r.names {
			sup.insert(r.path)
		}
	}
	type located struct {
		rawFinding
		line, col int
	}
	seen := &trie{}
	var kept []located
	for _, r := range raws {
		if !r.names && sup.covers(r.path) {
			continue
		}
		if !seen.insertMsg(r.path, r.msg) {
			continue // the same message about the same value
		}
		line, col := loc.locate(r.path, r.atKey)
		kept = append(kept, located{r, line, col})
	}
	// Document order, then pointer and message: the same document gives
	// the same findings in the same order, whatever order the validator
	// found them in.
	sort.Slice(kept, func(i, j int) bool {
		a, b := kept[i], kept[j]
		if a.line != b.line {
			return a.line < b.line
		}
		if a.col != b.col {
			return a.col < b.col
		}
		if c := comparePaths(a.path, b.path); c != 0 {
			return c < 0
		}
		return a.msg < b.msg
	})
	more := c.dropped
	if len(kept) > MaxFindings {
		more += len(kept) - MaxFindings
		kept = kept[:MaxFindings]
	}
	out := make([]Finding, 0, len(kept)+1)
	for _, k := range kept {
		out = append(out, Finding{Pointer: shortPointer(k.path), Line: k.line, Column: k.col, Message: k.msg})
	}
	if more > 0 {
		line, col := loc.locate(nil, false)
		if len(kept) > 0 {
			line, col = kept[len(kept)-1].line, kept[len(kept)-1].col
		}
		out = append(out, Finding{Line: line, Column: col, Message: fmt.Sprintf("and %d more schema findings, not listed: agyconf lists at most %d a document (counted before repeats are merged)", more, MaxFindings)})
	}
	return out
}

// trie holds the paths of findings about key names, to find the findings
// they supersede in time linear in each one's depth.
type trie struct {
	end  bool
	kids map[string]*trie
	msgs map[string]bool // insertMsg's messages at this path
}

func (t *trie) insert(path []string) { t.node(path).end = true }

// insertMsg records msg at path and reports whether it is new there: the
// findings are merged without joining their paths into keys, which for a
// 100 KB name cost 100 KB a finding.
func (t *trie) insertMsg(path []string, msg string) bool {
	n := t.node(path)
	if n.msgs[msg] {
		return false
	}
	if n.msgs == nil {
		n.msgs = map[string]bool{}
	}
	n.msgs[msg] = true
	return true
}

func (t *trie) node(path []string) *trie {
	for _, s := range path {
		if t.kids == nil {
			t.kids = map[string]*trie{}
		}
		k := t.kids[s]
		if k == nil {
			k = &trie{}
			t.kids[s] = k
		}
		t = k
	}
	return t
}

// covers reports whether path is one of the paths inserted or under one.
func (t *trie) covers(path []string) bool {
	for _, s := range path {
		if t.end {
			return true
		}
		if t = t.kids[s]; t == nil {
			return false
		}
	}
	return t.end
}

// comparePaths orders paths segment by segment. Equal segments are most
// often one string shared, which == compares without reading it.
func comparePaths(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		return strings.Compare(a[i], b[i])
	}
	return len(a) - len(b)
}

// sortedCauses orders a failure's causes by where and what they are:
// closest and nameMessages take the first of equals, and the library lists
// an object's members in Go's map order.
func sortedCauses(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	cs := slices.Clone(e.Causes)
	key := func(c *jsonschema.ValidationError) []string {
		if pn, ok := c.ErrorKind.(*kind.PropertyNames); ok {
			// First, by name: the order these findings have always
			// been listed in.
			return []string{"\x00propertyNames", pn.Property, c.SchemaURL}
		}
		return append(slices.Clip(c.InstanceLocation), "\x00", c.SchemaURL, fmt.Sprintf("%T", c.ErrorKind))
	}
	sort.SliceStable(cs, func(i, j int) bool { return comparePaths(key(cs[i]), key(cs[j])) < 0 })
	return cs
}

// collect flattens a validation error into findings: leaves with their
// own messages; for a failed oneOf or anyOf only the alternative that came
// closest, so a handler missing one key is not also told it is not a
// prompt handler.
func (c *collector) collect(e *jsonschema.ValidationError) {
	ds := c.ds
	loc := slices.Clip(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.PropertyNames:
		var msgs []string
		for _, cause := range sortedCauses(e) {
			msgs = append(msgs, ds.nameMessages(cause)...)
		}
		if len(msgs) == 0 {
			if d := ds.description(e.SchemaURL); d != "" {
				msgs = []string{d}
			} else {
				msgs = []string{"not allowed"}
			}
		}
		c.add(rawFinding{path: append(loc, k.Property), atKey: true, names: true,
			msg: fmt.Sprintf("key %q is not allowed here: %s", short(k.Property), strings.Join(msgs, "; "))})
		return
	case *kind.AdditionalProperties:
		props := slices.Sorted(slices.Values(k.Properties))
		for _, p := range props {
			if len(c.out) >= maxCollected {
				c.dropped += len(props) - (slices.Index(props, p))
				return
			}
			c.add(rawFinding{path: append(loc, p), atKey: true, msg: fmt.Sprintf("key %q is not allowed here", short(p))})
		}
		return
	case *kind.Not, *kind.FalseSchema:
		msg := ds.description(e.SchemaURL)
		if msg == "" {
			msg = "not allowed here"
		}
		c.add(rawFinding{path: loc, atKey: true, msg: msg})
		return
	case *kind.OneOf, *kind.AnyOf:
		if len(e.Causes) > 0 {
			for _, r := range ds.closest(e) {
				c.add(r)
			}
			return
		}
	}
	if len(e.Causes) == 0 {
		c.add(rawFinding{path: loc, msg: e.ErrorKind.LocalizedString(ds.printer)})
		return
	}
	for _, cause := range sortedCauses(e) {
		c.collect(cause)
	}
}

// collectAll is collect of one error tree into a list of its own, for the
// comparisons of closest and nameMessages.
func (ds *docSchema) collectAll(e *jsonschema.ValidationError) []rawFinding {
	c := &collector{ds: ds}
	c.collect(e)
	return c.out
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
		for _, c := range sortedCauses(e) {
			out = append(out, ds.nameMessages(c)...)
		}
		return out
	}
	var out []string
	for _, r := range ds.collectAll(e) {
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
	for _, c := range sortedCauses(e) {
		if m, ok := onlyRequired(c, depth); ok {
			missing = append(missing, m...)
		} else {
			allRequired = false
		}
		rs := ds.collectAll(c)
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
		// The keys are the finding; why the schema asks for one of them
		// is the rule's explanation (agyconf explain), not the line's.
		msg := "missing one of " + strings.Join(quoted, ", ")
		return []rawFinding{{path: slices.Clip(e.InstanceLocation), msg: msg}}
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

func pointer(loc []string) string {
	var b strings.Builder
	for _, t := range loc {
		b.WriteByte('/')
		b.WriteString(escapePointer(t))
	}
	return b.String()
}
