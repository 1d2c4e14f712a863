package schema

import (
	"encoding/json"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A decider tells from a schema's source, without jsonschema/v6, that a
// value is valid: the library's compile and validation were a third of
// `validate PATH`'s CPU and more on a render, and a document agyconf or
// agy wrote is nearly always valid. The library stays the judge of every
// document the decider does not call valid, and the source of every
// finding; the decider only saves asking it about documents it would
// pass.
//
// A decider answers valid, invalid or unknown. It decides a keyword only
// where its meaning in draft 2020-12, as jsonschema/v6 implements it, is
// exact to reproduce here (type, properties, required, items, enum and
// const of scalars, pattern, lengths and counts, minimum and maximum, the
// applicators, if/then/else, a $ref inside the document, format int32);
// any other keyword makes its subschema unknown for every value, and so
// does a value of a type the library does not read the same way. Unknown
// is never turned into valid: not of unknown is unknown, anyOf needs one
// branch known valid, oneOf needs every branch known. TestDecideAgrees and
// FuzzDecideAgrees hold it to the library: whatever it calls valid the
// library passes, and whatever it calls invalid the library refuses.
type decider struct {
	// opaque: a keyword this does not decide; every value is unknown.
	opaque bool
	// always is a boolean schema's verdict (true, false); 0 otherwise.
	always verdict

	types      []string
	enum       []any // scalars only (see scalar)
	hasConst   bool
	constValue any
	format     func(any) error

	// Objects.
	props             map[string]*decider
	required          []string
	additional        *decider // nil: none
	propertyNames     *decider
	minProps          int // -1: none
	maxProps          int
	dependentSchemas  map[string]*decider
	dependentRequired map[string][]string

	// Arrays.
	items    *decider
	minItems int
	maxItems int

	// Strings.
	minLength int
	maxLength int
	pattern   *regexp.Regexp

	// Numbers.
	minimum, maximum, exclusiveMinimum, exclusiveMaximum *big.Rat

	// Applicators.
	ref                 *decider
	not                 *decider
	allOf, anyOf, oneOf []*decider
	ifThen, then, els   *decider
}

type verdict uint8

const (
	unknown verdict = iota
	valid
	invalid
)

// maxDecideDepth bounds how deep a decision recurses, counting $ref and
// the applicators as well as the value's nesting: a schema whose $refs go
// round without descending into the value is left to the library, which
// reports the cycle.
const maxDecideDepth = 256

// annotation reports whether k is a keyword that never fails a value.
func annotation(k string) bool {
	switch k {
	case "$comment", "$defs", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly":
		return true
	}
	return false
}

// newDecider builds the decider of a schema document (as encoding/json
// with UseNumber reads it), for the schema at its root.
func newDecider(doc any) *decider {
	b := &deciderBuilder{root: doc, built: map[string]*decider{}}
	return b.at("", doc, true)
}

// draft2020 is the one $schema the decider reads (another draft gives
// keywords other meanings: $ref beside other keywords, items as a list);
// a schema without one is read as 2020-12 too, newCompiler's default.
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

type deciderBuilder struct {
	root  any
	built map[string]*decider // by JSON pointer from the root, for $ref
}

// at builds the decider of the subschema s found at pointer ptr.
func (b *deciderBuilder) at(ptr string, s any, root bool) *decider {
	if d, ok := b.built[ptr]; ok {
		return d
	}
	d := &decider{minProps: -1, maxProps: -1, minItems: -1, maxItems: -1, minLength: -1, maxLength: -1}
	b.built[ptr] = d // before its children: a $ref may come back to it
	switch s := s.(type) {
	case bool:
		d.always = invalid
		if s {
			d.always = valid
		}
		return d
	case map[string]any:
		for k, v := range s {
			if !b.keyword(d, ptr, k, v, root) {
				*d = decider{opaque: true}
				return d
			}
		}
		return d
	}
	d.opaque = true
	return d
}

// keyword adds one keyword of the subschema at ptr to d, reporting
// whether the decider decides it.
func (b *deciderBuilder) keyword(d *decider, ptr, k string, v any, root bool) bool {
	// sub builds the subschema v at ptr's keyword k (and, under
	// properties and the like, its member name or item index), keyed by
	// the JSON pointer a $ref spells it with.
	sub := func(v any, segs ...string) *decider {
		p := ptr + "/" + escapePointer(k)
		for _, s := range segs {
			p += "/" + escapePointer(s)
		}
		return b.at(p, v, false)
	}
	list := func(v any) ([]*decider, bool) {
		xs, ok := v.([]any)
		if !ok || len(xs) == 0 {
			return nil, false
		}
		out := make([]*decider, len(xs))
		for i, x := range xs {
			out[i] = sub(x, strconv.Itoa(i))
		}
		return out, true
	}
	// members builds the subschemas of an object of them, by name
	// (properties, dependentSchemas).
	members := func(v any) (map[string]*decider, bool) {
		m, isMap := v.(map[string]any)
		if !isMap {
			return nil, false
		}
		out := make(map[string]*decider, len(m))
		for name, s := range m {
			out[name] = sub(s, name)
		}
		return out, true
	}
	var ok bool
	switch k {
	case "$id":
		return root // another base URI changes what a $ref under it means
	case "$schema":
		return root && v == draft2020
	case "type":
		d.types, ok = typeNames(v)
		return ok
	case "enum":
		xs, isList := v.([]any)
		if !isList {
			return false
		}
		for _, x := range xs {
			if !scalar(x) {
				return false
			}
		}
		d.enum = xs
		return true
	case "const":
		d.hasConst, d.constValue = true, v
		return scalar(v)
	case "format":
		if v != "int32" {
			return false
		}
		d.format = validateInt32
		return true
	case "properties":
		d.props, ok = members(v)
		return ok
	case "required":
		d.required, ok = stringList(v)
		return ok
	case "additionalProperties":
		d.additional = sub(v)
		return true
	case "propertyNames":
		d.propertyNames = sub(v)
		return true
	case "dependentSchemas":
		d.dependentSchemas, ok = members(v)
		return ok
	case "dependentRequired":
		m, isMap := v.(map[string]any)
		if !isMap {
			return false
		}
		d.dependentRequired = make(map[string][]string, len(m))
		for name, r := range m {
			if d.dependentRequired[name], ok = stringList(r); !ok {
				return false
			}
		}
		return true
	case "items":
		d.items = sub(v)
		return true
	case "minProperties":
		d.minProps, ok = count(v)
		return ok
	case "maxProperties":
		d.maxProps, ok = count(v)
		return ok
	case "minItems":
		d.minItems, ok = count(v)
		return ok
	case "maxItems":
		d.maxItems, ok = count(v)
		return ok
	case "minLength":
		d.minLength, ok = count(v)
		return ok
	case "maxLength":
		d.maxLength, ok = count(v)
		return ok
	case "pattern":
		p, isString := v.(string)
		if !isString {
			return false
		}
		re, err := regexp.Compile(p) // the library's default engine
		d.pattern = re
		return err == nil
	case "minimum":
		d.minimum, ok = rat(v)
		return ok
	case "maximum":
		d.maximum, ok = rat(v)
		return ok
	case "exclusiveMinimum":
		d.exclusiveMinimum, ok = rat(v)
		return ok
	case "exclusiveMaximum":
		d.exclusiveMaximum, ok = rat(v)
		return ok
	case "$ref":
		ref, isString := v.(string)
		target, found := b.resolve(ref)
		if !isString || !found {
			return false
		}
		d.ref = target
		return true
	case "not":
		d.not = sub(v)
		return true
	case "allOf":
		d.allOf, ok = list(v)
		return ok
	case "anyOf":
		d.anyOf, ok = list(v)
		return ok
	case "oneOf":
		d.oneOf, ok = list(v)
		return ok
	case "if":
		d.ifThen = sub(v)
		return true
	case "then":
		d.then = sub(v)
		return true
	case "else":
		d.els = sub(v)
		return true
	}
	return annotation(k)
}

// resolve finds the subschema a $ref names, when it is a JSON pointer into
// this document ("#" or "#/…" without percent-escapes).
func (b *deciderBuilder) resolve(ref string) (*decider, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok || strings.Contains(frag, "%") || (frag != "" && frag[0] != '/') {
		return nil, false
	}
	v := b.root
	if frag != "" {
		for i, tok := range strings.Split(frag[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			m, isMap := v.(map[string]any)
			if !isMap {
				return nil, false
			}
			if _, id := m["$id"]; id && i > 0 {
				// Below another base URI, the $refs of the target
				// mean something else than from the root.
				return nil, false
			}
			if v, ok = m[tok]; !ok {
				return nil, false
			}
		}
	}
	return b.at(frag, v, frag == ""), true
}

func typeNames(v any) ([]string, bool) {
	if s, ok := v.(string); ok {
		v = []any{s}
	}
	names, ok := stringList(v)
	if !ok {
		return nil, false
	}
	for _, n := range names {
		switch n {
		case "null", "boolean", "object", "array", "number", "integer", "string":
		default:
			return nil, false
		}
	}
	return names, true
}

func stringList(v any) ([]string, bool) {
	xs, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		if out[i], ok = x.(string); !ok {
			return nil, false
		}
	}
	return out, true
}

// scalar: an enum or const value this compares with an instance as the
// library does: a string, a boolean, null, or a number written without
// an exponent (compared by value, as the library compares numbers).
func scalar(v any) bool {
	switch x := v.(type) {
	case string, bool, nil:
		return true
	case json.Number:
		return number(x) != nil
	}
	return false
}

// equal compares e, an enum or const value (scalar), with v, of JSON
// type t.
func equal(e, v any, t string) verdict {
	if n, ok := e.(json.Number); ok {
		if t != "number" {
			return invalid
		}
		got := number(v)
		if got == nil {
			return unknown
		}
		return boolVerdict(got.Cmp(number(n)) == 0)
	}
	switch t {
	case "string", "boolean", "null":
		return boolVerdict(e == v)
	}
	return invalid
}

func count(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(string(n))
	return i, err == nil && i >= 0
}

func rat(v any) (*big.Rat, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(string(n))
}

// decide judges v, a value as encoding/json with UseNumber decodes it
// (map[string]any, []any, string, json.Number, bool, nil; int, int64 and
// uint64 from YAML).
func (d *decider) decide(v any) verdict { return d.judge(v, 0, &run{steps: maxDecideSteps}) }

// run is one decision's budget of steps.
type run struct{ steps int }

// maxDecideSteps bounds the subschemas one decision visits: $refs that
// go round without descending into the value, through two branches or
// more, would double the work at every turn; the library reports such a
// cycle at once. A document within MaxFileSize takes far fewer.
const maxDecideSteps = 1 << 22

func (d *decider) judge(v any, depth int, r *run) verdict {
	r.steps--
	if d.opaque || depth > maxDecideDepth || r.steps < 0 {
		return unknown
	}
	if d.always != unknown {
		return d.always
	}
	t := jsonTypeOf(v)
	if t == "" {
		return unknown
	}
	acc := valid
	depth++
	if d.types != nil && !fold(&acc, d.typeVerdict(t, v)) {
		return acc
	}
	if d.enum != nil {
		x := invalid
		for _, e := range d.enum {
			switch equal(e, v, t) {
			case valid:
				x = valid
			case unknown:
				x = unknown
			}
			if x == valid {
				break
			}
		}
		if !fold(&acc, x) {
			return acc
		}
	}
	if d.hasConst && !fold(&acc, equal(d.constValue, v, t)) {
		return acc
	}
	if d.format != nil && !fold(&acc, boolVerdict(d.format(v) == nil)) {
		return acc
	}
	switch t {
	case "object":
		if !d.object(v.(map[string]any), depth, r, &acc) {
			return acc
		}
	case "array":
		xs := v.([]any)
		if !fold(&acc, boolVerdict((d.minItems < 0 || len(xs) >= d.minItems) && (d.maxItems < 0 || len(xs) <= d.maxItems))) {
			return acc
		}
		if d.items != nil {
			for _, x := range xs {
				if !fold(&acc, d.items.judge(x, depth, r)) {
					return acc
				}
			}
		}
	case "string":
		s := v.(string)
		if d.minLength >= 0 || d.maxLength >= 0 {
			n := utf8.RuneCountInString(s)
			if !fold(&acc, boolVerdict((d.minLength < 0 || n >= d.minLength) && (d.maxLength < 0 || n <= d.maxLength))) {
				return acc
			}
		}
		if d.pattern != nil && !fold(&acc, boolVerdict(d.pattern.MatchString(s))) {
			return acc
		}
	case "number":
		if !fold(&acc, d.bounds(v)) {
			return acc
		}
	}
	if d.ref != nil && !fold(&acc, d.ref.judge(v, depth, r)) {
		return acc
	}
	if d.not != nil && !fold(&acc, negate(d.not.judge(v, depth, r))) {
		return acc
	}
	for _, s := range d.allOf {
		if !fold(&acc, s.judge(v, depth, r)) {
			return acc
		}
	}
	if d.anyOf != nil && !fold(&acc, anyOf(d.anyOf, v, depth, r)) {
		return acc
	}
	if d.oneOf != nil && !fold(&acc, oneOf(d.oneOf, v, depth, r)) {
		return acc
	}
	if d.ifThen != nil && (d.then != nil || d.els != nil) {
		var x verdict
		switch d.ifThen.judge(v, depth, r) {
		case valid:
			x = valid
			if d.then != nil {
				x = d.then.judge(v, depth, r)
			}
		case invalid:
			x = valid
			if d.els != nil {
				x = d.els.judge(v, depth, r)
			}
		}
		fold(&acc, x)
	}
	return acc
}

// fold adds one keyword's verdict to acc, the verdict of the keywords
// before it: all must pass. It reports false once acc is invalid, which
// no later keyword changes.
func fold(acc *verdict, x verdict) bool {
	switch x {
	case invalid:
		*acc = invalid
		return false
	case unknown:
		*acc = unknown
	}
	return true
}

// anyOf passes when one branch is known to pass, fails when every branch
// is known to fail.
func anyOf(branches []*decider, v any, depth int, r *run) verdict {
	x := invalid
	for _, s := range branches {
		switch s.judge(v, depth, r) {
		case valid:
			return valid
		case unknown:
			x = unknown
		}
	}
	return x
}

// oneOf passes when exactly one branch passes, which takes knowing every
// branch; two known to pass fail it whatever the others do.
func oneOf(branches []*decider, v any, depth int, r *run) verdict {
	passed, unsure := 0, false
	for _, s := range branches {
		switch s.judge(v, depth, r) {
		case valid:
			passed++
		case unknown:
			unsure = true
		}
	}
	switch {
	case passed > 1:
		return invalid
	case unsure:
		return unknown
	}
	return boolVerdict(passed == 1)
}

// object judges the keywords about an object's members into acc; false
// once one fails.
func (d *decider) object(m map[string]any, depth int, r *run, acc *verdict) bool {
	if !fold(acc, boolVerdict((d.minProps < 0 || len(m) >= d.minProps) && (d.maxProps < 0 || len(m) <= d.maxProps))) {
		return false
	}
	for _, r := range d.required {
		if _, ok := m[r]; !ok {
			return fold(acc, invalid)
		}
	}
	for name, r := range d.dependentRequired {
		if _, ok := m[name]; !ok {
			continue
		}
		for _, other := range r {
			if _, ok := m[other]; !ok {
				return fold(acc, invalid)
			}
		}
	}
	for name, x := range m {
		if d.propertyNames != nil && !fold(acc, d.propertyNames.judge(name, depth, r)) {
			return false
		}
		if s, ok := d.props[name]; ok {
			if !fold(acc, s.judge(x, depth, r)) {
				return false
			}
		} else if d.additional != nil && !fold(acc, d.additional.judge(x, depth, r)) {
			return false
		}
		if s, ok := d.dependentSchemas[name]; ok && !fold(acc, s.judge(m, depth, r)) {
			return false
		}
	}
	return true
}

func (d *decider) typeVerdict(t string, v any) verdict {
	for _, want := range d.types {
		switch {
		case want == t:
			return valid
		case want == "integer" && t == "number":
			n := number(v)
			if n == nil {
				return unknown
			}
			if n.IsInt() {
				return valid
			}
		}
	}
	return invalid
}

func (d *decider) bounds(v any) verdict {
	if d.minimum == nil && d.maximum == nil && d.exclusiveMinimum == nil && d.exclusiveMaximum == nil {
		return valid
	}
	n := number(v)
	if n == nil {
		return unknown
	}
	return boolVerdict((d.minimum == nil || n.Cmp(d.minimum) >= 0) &&
		(d.maximum == nil || n.Cmp(d.maximum) <= 0) &&
		(d.exclusiveMinimum == nil || n.Cmp(d.exclusiveMinimum) > 0) &&
		(d.exclusiveMaximum == nil || n.Cmp(d.exclusiveMaximum) < 0))
}

// jsonTypeOf names v's JSON type ("integer" is judged as a "number"), or
// "" for a Go type the decider leaves to the library.
func jsonTypeOf(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case nil:
		return "null"
	case json.Number, int, int64, uint64:
		return "number"
	}
	return ""
}

// number is a number's exact value, or nil where reading it is left to
// the library: a literal with an exponent (1e999999999 is a number of a
// billion digits to build) or one that is not a number.
func number(v any) *big.Rat {
	switch x := v.(type) {
	case json.Number:
		if strings.ContainsAny(string(x), "eE") {
			return nil
		}
		r, ok := new(big.Rat).SetString(string(x))
		if !ok {
			return nil
		}
		return r
	case int:
		return new(big.Rat).SetInt64(int64(x))
	case int64:
		return new(big.Rat).SetInt64(x)
	case uint64:
		return new(big.Rat).SetUint64(x)
	}
	return nil
}

func boolVerdict(ok bool) verdict {
	if ok {
		return valid
	}
	return invalid
}

func negate(x verdict) verdict {
	switch x {
	case valid:
		return invalid
	case invalid:
		return valid
	}
	return unknown
}
