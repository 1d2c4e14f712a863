package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
	loc := newJSONLocator(data)
	var out []Finding
	add := func(off int, ptr, msg string) {
		line, col := loc.lineCol(off)
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
	w := &jsonWalker{dec: json.NewDecoder(bytes.NewReader(body)), data: data, base: start, end: start, loc: loc}
	w.dec.UseNumber()
	value, err := w.value("", -1)
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
		line, col := newJSONLocator(doc).lineCol(off)
		out = append(out, Finding{Line: line, Column: col, Message: "invalid UTF-8"})
		return docError(name, out)
	}
	fm, _, first, err := frontmatter.Split(doc)
	switch {
	case errors.Is(err, frontmatter.ErrNone):
		out = append(out, ds.validate(map[string]any{}, yamlLocator{root: position{line: 1, col: 1}})...)
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
	loc := yamlLocator{root: position{line: first, col: 1}, index: map[string]span2{}}
	var node yaml.Node
	if yaml.Unmarshal(fm, &node) == nil && len(node.Content) > 0 {
		loc.indexNode(node.Content[0], "", first-1, 0)
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

// jsonLocator maps byte offsets to lines and columns.
type jsonLocator struct {
	data  []byte
	lines []int // offset of each line's first byte
	index map[string]span
}

// span is where a value sits: its member name (-1 for array elements and
// the root) and the value itself.
type span struct{ key, value int }

func newJSONLocator(data []byte) *jsonLocator {
	l := &jsonLocator{data: data, lines: []int{0}, index: map[string]span{}}
	for i, c := range data {
		if c == '\n' {
			l.lines = append(l.lines, i+1)
		}
	}
	return l
}

func (l *jsonLocator) lineCol(off int) (int, int) {
	if off > len(l.data) {
		off = len(l.data)
	}
	i := sort.Search(len(l.lines), func(i int) bool { return l.lines[i] > off }) - 1
	col := 1
	p := l.lines[i]
	if i == 0 && bytes.HasPrefix(l.data, []byte(utf8BOM)) && off >= len(utf8BOM) {
		p = len(utf8BOM) // editors do not show a byte order mark
	}
	for p < off {
		_, size := utf8.DecodeRune(l.data[p:off])
		p += size
		col++
	}
	return i + 1, col
}

func (l *jsonLocator) locate(ptr string, atKey bool) (int, int) {
	for {
		if s, ok := l.index[ptr]; ok {
			if atKey && s.key >= 0 {
				return l.lineCol(s.key)
			}
			return l.lineCol(s.value)
		}
		if ptr == "" {
			return 1, 1
		}
		ptr = ptr[:strings.LastIndexByte(ptr, '/')]
		atKey = false
	}
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

func (w *jsonWalker) value(ptr string, keyOff int) (any, error) {
	tok, start, err := w.token()
	if err != nil {
		return nil, err
	}
	w.loc.index[ptr] = span{key: keyOff, value: start}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	if d == '[' {
		arr := []any{}
		for i := 0; w.dec.More(); i++ {
			e, err := w.value(ptr+"/"+strconv.Itoa(i), -1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, e)
		}
		_, _, err := w.token()
		return arr, err
	}
	obj := map[string]any{}
	seen := map[string]int{}
	for w.dec.More() {
		ktok, koff, err := w.token()
		if err != nil {
			return nil, err
		}
		k, _ := ktok.(string)
		child := ptr + "/" + escapePointer(k)
		if first, dup := seen[k]; dup {
			fl, fc := w.loc.lineCol(first)
			line, col := w.loc.lineCol(koff)
			w.findings = append(w.findings, Finding{Pointer: child, Line: line, Column: col, Message: fmt.Sprintf(
				"duplicate key %q (first at %d:%d): Go's encoding/json keeps the last value and silently drops the first; agy keeps the last in hooks.json and mcp_config.json and does not load a plugin.json with a duplicate key at all (reference §2.1, §3, §4)", k, fl, fc)})
		}
		seen[k] = koff
		e, err := w.value(child, koff)
		if err != nil {
			return nil, err
		}
		obj[k] = e
	}
	_, _, err = w.token()
	return obj, err
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// yamlLocator maps pointers into frontmatter to document lines.
type yamlLocator struct {
	root  position
	index map[string]span2
}

type position struct{ line, col int }

type span2 struct {
	key    position // zero for sequence items
	value  position
	hasKey bool
}

func (l yamlLocator) locate(ptr string, atKey bool) (int, int) {
	for {
		if s, ok := l.index[ptr]; ok {
			if atKey && s.hasKey {
				return s.key.line, s.key.col
			}
			return s.value.line, s.value.col
		}
		if ptr == "" {
			return l.root.line, l.root.col
		}
		ptr = ptr[:strings.LastIndexByte(ptr, '/')]
		atKey = false
	}
}

// indexNode records where every value of the frontmatter starts; lineShift
// turns frontmatter lines into document lines.
func (l yamlLocator) indexNode(n *yaml.Node, ptr string, lineShift, depth int) {
	if depth > 100 {
		return
	}
	pos := func(n *yaml.Node) position { return position{line: n.Line + lineShift, col: n.Column} }
	if _, ok := l.index[ptr]; !ok {
		l.index[ptr] = span2{value: pos(n)}
	}
	target := n
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		target = n.Alias
	}
	switch target.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(target.Content); i += 2 {
			k, v := target.Content[i], target.Content[i+1]
			child := ptr + "/" + escapePointer(k.Value)
			l.index[child] = span2{key: pos(k), value: pos(v), hasKey: true}
			l.indexNode(v, child, lineShift, depth+1)
		}
	case yaml.SequenceNode:
		for i, c := range target.Content {
			l.indexNode(c, ptr+"/"+strconv.Itoa(i), lineShift, depth+1)
		}
	}
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
