package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/message"
)

// This file is agyconf's JSON Schema evaluator. It replaces jsonschema/v6
// in the binary, whose package init compiled the five draft metaschemas
// on every start of every command: 9–10 ms of an `agyconf version` that
// took 18 (docs/benchmarks.md, seventh pass). The library stays the
// oracle of the tests.
//
// The evaluator implements the keywords agyconf's own schemas use, in
// draft 2020-12 as jsonschema/v6 v6.0.3 implements them, and builds the
// tree of failures the library's validator builds, with the library's
// error kinds (its kind package, which has no init of its own): findings
// are made from that tree (document.go), so they are the library's
// findings. passes is the same evaluation asked only for a verdict, as
// the library's boolResult: it builds nothing, and is all a valid
// document costs. TestEvaluateAgrees holds both to the library on every
// schema's corpus, on mutations of it and on generated documents, and
// FuzzEvaluateAgrees on what the fuzzer finds. A schema using a keyword
// outside that set does not compile (compileNodes, TestEvaluatorRefuses),
// and TestCompileAll compiles every embedded schema.
//
// Two differences are deliberate. The library stores a propertyNames
// failure's instance location without copying it, so a later sibling
// overwrites it (upstream pull request 269); the evaluator keeps the
// object's own location. And where a bound applies to a number big.Rat
// cannot read (1e99999999), the library dereferences nil; the evaluator
// reports it.

// node is one compiled subschema.
type node struct {
	// loc is the subschema's absolute location as the library spells it
	// (the schema's URL, "#", the JSON pointer with each token
	// path-escaped): failures name it, and findings quote the
	// description found there.
	loc string
	// boolean is a boolean schema's value; nil for an object schema.
	boolean *bool

	types      []string // in the library's order (typeOrder); nil: any
	hasConst   bool
	constValue any
	enum       []any
	enumTypes  map[string]bool // the JSON types of enum's values
	format     *namedFormat
	ref        *node

	// Objects.
	props             map[string]*node
	required          []string
	additionalFalse   bool  // additionalProperties: false
	additional        *node // additionalProperties as a schema
	propertyNames     *node
	minProps          int // -1: none
	maxProps          int
	dependentSchemas  map[string]*node
	dependentRequired map[string][]string
	// The names of both, sorted once: the order failures are listed in.
	dependentSchemaNames, dependentRequiredNames []string

	// Arrays.
	items       *node
	contains    *node
	minItems    int
	maxItems    int
	uniqueItems bool

	// Strings.
	minLength int
	maxLength int
	pattern   *regexp.Regexp

	// Numbers.
	minimum, maximum, exclusiveMinimum, exclusiveMaximum *big.Rat

	// Applicators.
	not                 *node
	allOf, anyOf, oneOf []*node
	ifThen, then, els   *node
}

type namedFormat struct {
	name     string
	validate func(any) error
}

// formatNamed is the format of that name that agyconf's schemas assert,
// or nil.
func formatNamed(name string) *namedFormat {
	switch name {
	case "int32":
		return &namedFormat{name: name, validate: validateInt32}
	}
	return nil
}

// typeOrder is the JSON types in the order the library lists a schema's
// types in.
func typeOrder() [7]string {
	return [...]string{"null", "boolean", "number", "integer", "string", "array", "object"}
}

// compileNodes compiles the schema document doc, published at base, into
// the node at its root. It refuses a keyword the evaluator does not
// implement, a $ref outside the document, and a $ref cycle that does not
// go into the value.
func compileNodes(base string, doc any) (*node, error) {
	b := &nodeBuilder{base: base, root: doc, built: map[string]*node{}}
	n := b.at("", doc, true)
	if b.err != nil {
		return nil, b.err
	}
	if err := checkCycles(n); err != nil {
		return nil, err
	}
	return n, nil
}

type nodeBuilder struct {
	base  string
	root  any
	built map[string]*node // by JSON pointer from the root
	// err is the first thing wrong found (fail), errMsg at errPtr.
	err            error
	errPtr, errMsg string
}

// fail records what is wrong at ptr. Of several, the first in pointer
// then message order is kept, whatever order the keywords were read in.
func (b *nodeBuilder) fail(ptr, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if b.err == nil || ptr < b.errPtr || ptr == b.errPtr && msg < b.errMsg {
		b.errPtr, b.errMsg = ptr, msg
		b.err = fmt.Errorf("schema %s at %q: %s", b.base, "#"+ptr, msg)
	}
}

// location spells the location of the subschema at ptr as the library
// does.
func (b *nodeBuilder) location(ptr string) string {
	if !strings.ContainsFunc(ptr, pathEscapes) {
		return b.base + "#" + ptr
	}
	var sb strings.Builder
	sb.WriteString(b.base)
	sb.WriteByte('#')
	for i, tok := range strings.Split(ptr, "/") {
		if i > 0 {
			sb.WriteByte('/')
		}
		sb.WriteString(url.PathEscape(tok))
	}
	return sb.String()
}

// pathEscapes reports whether url.PathEscape changes r (the separator
// '/' aside): all but letters, digits and -_.~$&+=:@.
func pathEscapes(r rune) bool {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '/':
		return false
	}
	return !strings.ContainsRune("-_.~$&+=:@", r)
}

func (b *nodeBuilder) at(ptr string, s any, root bool) *node {
	if n, ok := b.built[ptr]; ok {
		return n
	}
	n := &node{loc: b.location(ptr), minProps: -1, maxProps: -1, minItems: -1, maxItems: -1, minLength: -1, maxLength: -1}
	b.built[ptr] = n // before its children: a $ref may come back to it
	switch s := s.(type) {
	case bool:
		n.boolean = &s
	case map[string]any:
		if len(s) == 0 {
			// The library compiles {} as true: it passes even a value
			// it calls invalid (a NaN from YAML), which every schema
			// with a keyword refuses.
			t := true
			n.boolean = &t
		}
		for k, v := range s {
			b.keyword(n, ptr, k, v, root)
		}
	default:
		b.fail(ptr, "a schema is an object or a boolean, not %T", s)
	}
	return n
}

func (b *nodeBuilder) keyword(n *node, ptr, k string, v any, root bool) {
	sub := func(v any, segs ...string) *node {
		p := ptr + "/" + escapePointer(k)
		for _, s := range segs {
			p += "/" + escapePointer(s)
		}
		return b.at(p, v, false)
	}
	list := func(v any) []*node {
		xs, ok := v.([]any)
		if !ok || len(xs) == 0 {
			b.fail(ptr, "%s takes a non-empty list of schemas", k)
			return nil
		}
		out := make([]*node, len(xs))
		for i, x := range xs {
			out[i] = sub(x, strconv.Itoa(i))
		}
		return out
	}
	members := func(v any) map[string]*node {
		m, ok := v.(map[string]any)
		if !ok {
			b.fail(ptr, "%s takes an object of schemas", k)
			return nil
		}
		out := make(map[string]*node, len(m))
		for name, s := range m {
			out[name] = sub(s, name)
		}
		return out
	}
	names := func(v any) []string {
		out, ok := stringList(v)
		if !ok {
			b.fail(ptr, "%s takes a list of strings", k)
		}
		return out
	}
	counted := func(v any) int {
		c, ok := count(v)
		if !ok {
			b.fail(ptr, "%s takes a non-negative integer", k)
		}
		return c
	}
	bound := func(v any) *big.Rat {
		r, ok := rat(v)
		if !ok {
			b.fail(ptr, "%s takes a number", k)
		}
		return r
	}
	switch k {
	case "$id":
		if !root {
			b.fail(ptr, "a nested $id is not implemented")
		}
	case "$schema":
		if !root || v != draft2020 {
			b.fail(ptr, "only %s is implemented, at the root", draft2020)
		}
	case "type":
		listed, ok := typeNames(v)
		if !ok {
			b.fail(ptr, "type takes JSON type names")
		}
		for _, t := range typeOrder() {
			if slices.Contains(listed, t) {
				n.types = append(n.types, t)
			}
		}
	case "enum":
		xs, ok := v.([]any)
		if !ok {
			b.fail(ptr, "enum takes a list")
		}
		n.enum = xs
		n.enumTypes = map[string]bool{}
		for _, x := range xs {
			n.enumTypes[typeOf(x)] = true
		}
		if n.enum == nil {
			n.enum = []any{}
		}
	case "const":
		n.hasConst, n.constValue = true, v
	case "format":
		name, _ := v.(string)
		if n.format = formatNamed(name); n.format == nil {
			b.fail(ptr, "format %v is not implemented", v)
		}
	case "properties":
		n.props = members(v)
	case "required":
		n.required = names(v)
	case "additionalProperties":
		if f, ok := v.(bool); ok && !f {
			n.additionalFalse = true
		} else {
			n.additional = sub(v)
		}
	case "propertyNames":
		n.propertyNames = sub(v)
	case "dependentSchemas":
		n.dependentSchemas = members(v)
		n.dependentSchemaNames = slices.Sorted(maps.Keys(n.dependentSchemas))
	case "dependentRequired":
		m, ok := v.(map[string]any)
		if !ok {
			b.fail(ptr, "dependentRequired takes an object of lists")
			return
		}
		n.dependentRequired = make(map[string][]string, len(m))
		for name, r := range m {
			n.dependentRequired[name] = names(r)
		}
		n.dependentRequiredNames = slices.Sorted(maps.Keys(n.dependentRequired))
	case "items":
		n.items = sub(v)
	case "contains":
		n.contains = sub(v)
	case "uniqueItems":
		u, ok := v.(bool)
		if !ok {
			b.fail(ptr, "uniqueItems takes a boolean")
		}
		n.uniqueItems = u
	case "minProperties":
		n.minProps = counted(v)
	case "maxProperties":
		n.maxProps = counted(v)
	case "minItems":
		n.minItems = counted(v)
	case "maxItems":
		n.maxItems = counted(v)
	case "minLength":
		n.minLength = counted(v)
	case "maxLength":
		n.maxLength = counted(v)
	case "pattern":
		p, _ := v.(string)
		re, err := regexp.Compile(p) // the library's default engine
		if err != nil {
			b.fail(ptr, "pattern: %v", err)
		}
		n.pattern = re
	case "minimum":
		n.minimum = bound(v)
	case "maximum":
		n.maximum = bound(v)
	case "exclusiveMinimum":
		n.exclusiveMinimum = bound(v)
	case "exclusiveMaximum":
		n.exclusiveMaximum = bound(v)
	case "$ref":
		ref, _ := v.(string)
		frag, ok := strings.CutPrefix(ref, "#")
		if !ok || strings.Contains(frag, "%") || (frag != "" && frag[0] != '/') {
			b.fail(ptr, "$ref %q: only a JSON pointer into the same document is implemented", ref)
			return
		}
		target, ok := b.resolve(frag)
		if !ok {
			b.fail(ptr, "$ref %q leads nowhere", ref)
			return
		}
		n.ref = target
	case "not":
		n.not = sub(v)
	case "allOf":
		n.allOf = list(v)
	case "anyOf":
		n.anyOf = list(v)
	case "oneOf":
		n.oneOf = list(v)
	case "if":
		n.ifThen = sub(v)
	case "then":
		n.then = sub(v)
	case "else":
		n.els = sub(v)
	default:
		if !annotation(k) {
			b.fail(ptr, "keyword %q is not implemented by agyconf's evaluator (schema/evaluate.go)", k)
		}
	}
}

// resolve finds the subschema at the JSON pointer frag.
func (b *nodeBuilder) resolve(frag string) (*node, bool) {
	v := b.root
	if frag != "" {
		for _, tok := range strings.Split(frag[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[tok]; !ok {
				return nil, false
			}
		}
	}
	return b.at(frag, v, frag == ""), true
}

// checkCycles refuses a schema in which a subschema applies to the value
// it is applied to again without going into a member or item: the
// library reports such a cycle when a value reaches it, and the evaluator
// would not end.
func checkCycles(root *node) error {
	const (
		unseen = iota
		open
		done
	)
	state := map[*node]int{}
	var visit func(n *node) error
	visit = func(n *node) error {
		switch state[n] {
		case open:
			return fmt.Errorf("schema at %s applies to a value again through $ref without going into it", n.loc)
		case done:
			return nil
		}
		state[n] = open
		for _, c := range n.sameValue() {
			if err := visit(c); err != nil {
				return err
			}
		}
		state[n] = done
		return nil
	}
	// Every node is reached through the tree of keywords; the nodes only
	// a $ref reaches are visited from it.
	var all func(n *node, seen map[*node]bool) error
	all = func(n *node, seen map[*node]bool) error {
		if seen[n] {
			return nil
		}
		seen[n] = true
		if err := visit(n); err != nil {
			return err
		}
		for _, c := range n.children() {
			if err := all(c, seen); err != nil {
				return err
			}
		}
		return nil
	}
	return all(root, map[*node]bool{})
}

// sameValue lists the subschemas applied to the very value n is applied
// to.
func (n *node) sameValue() []*node {
	out := []*node{}
	add := func(c *node) {
		if c != nil {
			out = append(out, c)
		}
	}
	add(n.ref)
	add(n.not)
	add(n.ifThen)
	add(n.then)
	add(n.els)
	out = append(out, n.allOf...)
	out = append(out, n.anyOf...)
	out = append(out, n.oneOf...)
	for _, k := range n.dependentSchemaNames {
		add(n.dependentSchemas[k])
	}
	return out
}

// children lists every subschema of n.
func (n *node) children() []*node {
	out := n.sameValue()
	for _, c := range []*node{n.additional, n.propertyNames, n.items, n.contains} {
		if c != nil {
			out = append(out, c)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(n.props)) {
		out = append(out, n.props[k])
	}
	return out
}

// failure is a node of the tree of what failed, shaped as jsonschema/v6's
// ValidationError: where in the value, which subschema, what, and the
// failures it is made of.
type failure struct {
	schemaURL string
	loc       []string // the value's location; never changed once made
	kind      errorKind
	causes    []*failure
}

// errorKind is what the library's error kinds (package kind) all are.
type errorKind interface {
	LocalizedString(*message.Printer) string
}

// evaluate applies the schema at n to v, and returns nil when v is valid,
// else the tree of failures under the library's root failure (kind.Schema).
func (n *node) evaluate(v any) *failure {
	e := evaluation{v: v, n: n}
	f := e.run()
	if f == nil {
		return nil
	}
	causes := []*failure{f}
	if _, ok := f.kind.(*kind.Group); ok {
		causes = f.causes
	}
	return &failure{schemaURL: n.loc, kind: &kind.Schema{Location: n.loc}, causes: causes}
}

// passes reports whether v is valid, without building what failed: the
// check of nearly every document, which agyconf or agy wrote.
func (n *node) passes(v any) bool {
	e := evaluation{v: v, n: n, quick: true}
	return e.run() == nil
}

// evaluation applies one subschema to one value, as the library's
// validator struct does. It is passed by value, and what failed is
// returned: a valid value costs no allocation.
type evaluation struct {
	v    any
	vloc []string
	n    *node
	// quick asks only whether the value passes, as the library's
	// boolResult does (for not, if, and a oneOf's branches after one
	// passed): the first failure ends the evaluation, and failures are
	// empty.
	quick bool
}

func (e evaluation) fail(k errorKind) *failure {
	if e.quick {
		return &failure{}
	}
	return &failure{schemaURL: e.n.loc, loc: slices.Clip(slices.Clone(e.vloc)), kind: k}
}

// done reports whether a quick evaluation has its answer.
func (e evaluation) done(errs []*failure) bool { return e.quick && len(errs) > 0 }

func (e evaluation) add(errs []*failure, k errorKind) []*failure { return append(errs, e.fail(k)) }

func addFailure(errs []*failure, f *failure) []*failure {
	if f != nil {
		errs = append(errs, f)
	}
	return errs
}

func (e evaluation) addCauses(errs, causes []*failure, k errorKind) []*failure {
	f := e.fail(k)
	if !e.quick {
		f.causes = causes
	}
	return append(errs, f)
}

// self applies sub to the same value.
func (e evaluation) self(sub *node) *failure {
	s := evaluation{v: e.v, vloc: e.vloc, n: sub, quick: e.quick}
	return s.run()
}

// selfPasses reports whether the value passes sub.
func (e evaluation) selfPasses(sub *node) bool {
	s := evaluation{v: e.v, n: sub, quick: true}
	return s.run() == nil
}

// member applies sub to v, at tok under the value.
func (e evaluation) member(sub *node, v any, tok string) *failure {
	s := evaluation{v: v, n: sub, quick: e.quick}
	if !e.quick {
		s.vloc = make([]string, len(e.vloc)+1)
		copy(s.vloc, e.vloc)
		s.vloc[len(e.vloc)] = tok
	}
	return s.run()
}

func (e evaluation) run() *failure {
	n, v := e.n, e.v
	if n.boolean != nil {
		if *n.boolean {
			return nil
		}
		return e.fail(&kind.FalseSchema{})
	}
	t := typeOf(v)
	if t == "" {
		return e.fail(&kind.InvalidJsonValue{Value: v})
	}
	if n.types != nil {
		matched := slices.Contains(n.types, t) || (slices.Contains(n.types, "integer") && t == "number" && isInteger(v))
		if !matched {
			return e.fail(&kind.Type{Got: t, Want: n.types})
		}
	}
	if n.hasConst {
		ok, k := equals(v, n.constValue)
		if k != nil {
			return e.fail(k)
		} else if !ok {
			return e.fail(&kind.Const{Got: v, Want: n.constValue})
		}
	}
	if n.enum != nil {
		matched := n.enumTypes[t]
		if matched {
			matched = false
			for _, item := range n.enum {
				ok, k := equals(v, item)
				if k != nil {
					return e.fail(k)
				} else if ok {
					matched = true
					break
				}
			}
		}
		if !matched {
			return e.fail(&kind.Enum{Got: v, Want: n.enum})
		}
	}
	if n.format != nil {
		if err := n.format.validate(v); err != nil {
			return e.fail(&kind.Format{Got: v, Want: n.format.name, Err: err})
		}
	}
	var errs []*failure
	if n.ref != nil {
		if f := e.self(n.ref); f != nil {
			r := e.fail(&kind.Reference{Keyword: "$ref", URL: n.ref.loc})
			if e.quick {
				// Nothing to say.
			} else if _, ok := f.kind.(*kind.Group); ok {
				r.causes = f.causes
			} else {
				r.causes = []*failure{f}
			}
			errs = addFailure(errs, r)
		}
	}
	if !e.done(errs) {
		switch x := v.(type) {
		case map[string]any:
			errs = e.object(errs, x)
		case []any:
			errs = e.array(errs, x)
		case string:
			errs = e.string(errs, x)
		default:
			if t == "number" {
				errs = e.number(errs, v)
			}
		}
	}
	if !e.done(errs) {
		errs = e.applicators(errs)
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	g := e.fail(&kind.Group{})
	g.causes = errs
	return g
}

// object is the library's objValidate. Members are visited in sorted
// order, one of the orders the library's map iteration may take.
func (e evaluation) object(errs []*failure, obj map[string]any) []*failure {
	n := e.n
	if n.minProps >= 0 && len(obj) < n.minProps {
		errs = e.add(errs, &kind.MinProperties{Got: len(obj), Want: n.minProps})
	}
	if n.maxProps >= 0 && len(obj) > n.maxProps {
		errs = e.add(errs, &kind.MaxProperties{Got: len(obj), Want: n.maxProps})
	}
	if missing := findMissing(obj, n.required); missing != nil {
		errs = e.add(errs, &kind.Required{Missing: missing})
	}
	if e.done(errs) {
		return errs
	}
	var names []string
	if e.quick {
		// Any order will do: only whether one fails counts.
		for name, x := range obj {
			if sub, ok := n.props[name]; ok {
				errs = addFailure(errs, e.member(sub, x, name))
			} else if n.additionalFalse {
				errs = e.add(errs, &kind.AdditionalProperties{Properties: []string{name}})
			} else if n.additional != nil {
				errs = addFailure(errs, e.member(n.additional, x, name))
			}
			if n.propertyNames != nil && !n.propertyNames.passes(name) {
				errs = e.add(errs, &kind.PropertyNames{Property: name})
			}
			if e.done(errs) {
				return errs
			}
		}
	} else {
		names = slices.Sorted(maps.Keys(obj))
		var additional []string
		for _, name := range names {
			if sub, ok := n.props[name]; ok {
				errs = addFailure(errs, e.member(sub, obj[name], name))
				continue
			}
			switch {
			case n.additionalFalse:
				additional = append(additional, name)
			case n.additional != nil:
				errs = addFailure(errs, e.member(n.additional, obj[name], name))
			}
		}
		if len(additional) > 0 {
			errs = e.add(errs, &kind.AdditionalProperties{Properties: additional})
		}
		if n.propertyNames != nil {
			for _, name := range names {
				f := n.propertyNames.evaluate(name)
				if f == nil {
					continue
				}
				f.loc = slices.Clip(slices.Clone(e.vloc))
				f.schemaURL = n.propertyNames.loc
				f.kind = &kind.PropertyNames{Property: name}
				errs = addFailure(errs, f)
			}
		}
	}
	for _, name := range n.dependentSchemaNames {
		if _, ok := obj[name]; ok {
			errs = addFailure(errs, e.self(n.dependentSchemas[name]))
		}
	}
	for _, name := range n.dependentRequiredNames {
		if _, ok := obj[name]; ok {
			if missing := findMissing(obj, n.dependentRequired[name]); missing != nil {
				errs = e.add(errs, &kind.DependentRequired{Prop: name, Missing: missing})
			}
		}
	}
	return errs
}

func findMissing(obj map[string]any, required []string) []string {
	var missing []string
	for _, name := range required {
		if _, ok := obj[name]; !ok {
			missing = append(missing, name)
		}
	}
	return missing
}

// array is the library's arrValidate (draft 2020-12, without
// prefixItems, minContains and maxContains, which no schema uses).
func (e evaluation) array(errs []*failure, arr []any) []*failure {
	n := e.n
	if n.minItems >= 0 && len(arr) < n.minItems {
		errs = e.add(errs, &kind.MinItems{Got: len(arr), Want: n.minItems})
	}
	if n.maxItems >= 0 && len(arr) > n.maxItems {
		errs = e.add(errs, &kind.MaxItems{Got: len(arr), Want: n.maxItems})
	}
	if n.uniqueItems && len(arr) > 1 {
		if i, j, k := duplicates(arr); k != nil {
			errs = e.add(errs, k)
		} else if i != -1 {
			errs = e.add(errs, &kind.UniqueItems{Duplicates: [2]int{i, j}})
		}
	}
	if n.items != nil {
		for i, item := range arr {
			if e.done(errs) {
				return errs
			}
			errs = addFailure(errs, e.member(n.items, item, strconv.Itoa(i)))
		}
	}
	if n.contains != nil && !e.done(errs) {
		var causes []*failure
		matched := false
		for i, item := range arr {
			if f := e.member(n.contains, item, strconv.Itoa(i)); f != nil {
				causes = append(causes, f)
			} else if matched = true; e.quick {
				break
			}
		}
		if !matched {
			errs = e.addCauses(errs, causes, &kind.Contains{})
		}
	}
	return errs
}

func (e evaluation) string(errs []*failure, s string) []*failure {
	n := e.n
	if n.minLength >= 0 || n.maxLength >= 0 {
		l := utf8.RuneCountInString(s)
		if n.minLength >= 0 && l < n.minLength {
			errs = e.add(errs, &kind.MinLength{Got: l, Want: n.minLength})
		}
		if n.maxLength >= 0 && l > n.maxLength {
			errs = e.add(errs, &kind.MaxLength{Got: l, Want: n.maxLength})
		}
	}
	if n.pattern != nil && !e.done(errs) && !n.pattern.MatchString(s) {
		errs = e.add(errs, &kind.Pattern{Got: s, Want: n.pattern.String()})
	}
	return errs
}

func (e evaluation) number(errs []*failure, v any) []*failure {
	n := e.n
	if n.minimum == nil && n.maximum == nil && n.exclusiveMinimum == nil && n.exclusiveMaximum == nil {
		return errs
	}
	num, ok := new(big.Rat).SetString(fmt.Sprintf("%v", v))
	if !ok {
		// A literal such as 1e99999999, past what big.Rat reads: the
		// library dereferences nil here. Every bounded number in
		// agyconf's schemas is an integer, whose type check refuses it
		// first; a bound on another number refuses it here.
		errs = e.add(errs, &kind.Format{Got: v, Want: "number", Err: errors.New("too large to compare with a bound")})
		return errs
	}
	if n.minimum != nil && num.Cmp(n.minimum) < 0 {
		errs = e.add(errs, &kind.Minimum{Got: num, Want: n.minimum})
	}
	if n.maximum != nil && num.Cmp(n.maximum) > 0 {
		errs = e.add(errs, &kind.Maximum{Got: num, Want: n.maximum})
	}
	if n.exclusiveMinimum != nil && num.Cmp(n.exclusiveMinimum) <= 0 {
		errs = e.add(errs, &kind.ExclusiveMinimum{Got: num, Want: n.exclusiveMinimum})
	}
	if n.exclusiveMaximum != nil && num.Cmp(n.exclusiveMaximum) >= 0 {
		errs = e.add(errs, &kind.ExclusiveMaximum{Got: num, Want: n.exclusiveMaximum})
	}
	return errs
}

// applicators is the library's condValidate.
func (e evaluation) applicators(errs []*failure) []*failure {
	n := e.n
	if n.not != nil && e.selfPasses(n.not) {
		errs = e.add(errs, &kind.Not{})
	}
	if len(n.allOf) > 0 && !e.done(errs) {
		var causes []*failure
		for _, s := range n.allOf {
			if f := e.self(s); f != nil {
				causes = append(causes, f)
				if e.quick {
					break
				}
			}
		}
		if len(causes) != 0 {
			errs = e.addCauses(errs, causes, &kind.AllOf{})
		}
	}
	if len(n.anyOf) > 0 && !e.done(errs) {
		var causes []*failure
		matched := false
		for _, s := range n.anyOf {
			f := e.self(s)
			if f == nil {
				matched = true
				break
			}
			causes = append(causes, f)
		}
		if !matched {
			errs = e.addCauses(errs, causes, &kind.AnyOf{})
		}
	}
	if len(n.oneOf) > 0 && !e.done(errs) {
		matched := -1
		var causes []*failure
		for i, s := range n.oneOf {
			if matched != -1 {
				if e.selfPasses(s) {
					errs = e.add(errs, &kind.OneOf{Subschemas: []int{matched, i}})
					break
				}
				continue
			}
			if f := e.self(s); f != nil {
				causes = append(causes, f)
			} else {
				matched = i
			}
		}
		if matched == -1 {
			errs = e.addCauses(errs, causes, &kind.OneOf{Subschemas: nil})
		}
	}
	if n.ifThen != nil && !e.done(errs) {
		if e.selfPasses(n.ifThen) {
			if n.then != nil {
				errs = addFailure(errs, e.self(n.then))
			}
		} else if n.els != nil {
			errs = addFailure(errs, e.self(n.els))
		}
	}
	return errs
}

// typeOf names v's JSON type as the library does ("number" for every
// number), or "" for a value the library calls invalid.
func typeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return ""
		}
		return "number"
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return ""
		}
		return "number"
	case json.Number, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return ""
}

func isInteger(num any) bool {
	r, ok := new(big.Rat).SetString(fmt.Sprint(num))
	return ok && r.IsInt()
}

// equals compares two values as the library does: numbers by value.
func equals(v1, v2 any) (bool, errorKind) {
	switch x := v1.(type) {
	case map[string]any:
		y, ok := v2.(map[string]any)
		if !ok || len(x) != len(y) {
			return false, nil
		}
		for k, a := range x {
			b, ok := y[k]
			if !ok {
				return false, nil
			}
			if ok, k := equals(a, b); !ok || k != nil {
				return ok, k
			}
		}
		return true, nil
	case []any:
		y, ok := v2.([]any)
		if !ok || len(x) != len(y) {
			return false, nil
		}
		for i := range x {
			if ok, k := equals(x[i], y[i]); !ok || k != nil {
				return ok, k
			}
		}
		return true, nil
	case nil:
		return v2 == nil, nil
	case bool:
		y, ok := v2.(bool)
		return ok && x == y, nil
	case string:
		y, ok := v2.(string)
		return ok && x == y, nil
	case json.Number, float32, float64, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		if typeOf(v2) != "number" {
			return false, nil
		}
		a, ok1 := new(big.Rat).SetString(fmt.Sprint(v1))
		b, ok2 := new(big.Rat).SetString(fmt.Sprint(v2))
		return ok1 && ok2 && a.Cmp(b) == 0, nil
	}
	return false, &kind.InvalidJsonValue{Value: v1}
}

// duplicates finds the first item equal to an earlier one (the earlier
// one's index, then its own), as the library does, or -1, -1. Up to 20
// items it compares them pair by pair as the library does, which reports
// a Go value of no JSON type only where it compares one first. A longer
// list is grouped by a canonical key first, so it is not compared pair by
// pair; there the library hashes the items and dereferences nil on a NaN,
// which the evaluator keys as a number equal to nothing.
func duplicates(arr []any) (int, int, errorKind) {
	if len(arr) <= 20 {
		for i := 1; i < len(arr); i++ {
			for j := 0; j < i; j++ {
				if ok, k := equals(arr[i], arr[j]); ok || k != nil {
					return j, i, k
				}
			}
		}
		return -1, -1, nil
	}
	seen := map[string][]int{}
	for i, item := range arr {
		key := canonicalKey(item)
		for _, j := range seen[key] {
			if ok, k := equals(item, arr[j]); ok || k != nil {
				return j, i, k
			}
		}
		seen[key] = append(seen[key], i)
	}
	return -1, -1, nil
}

// canonicalKey is a key equal for values equals may call equal: numbers
// are keyed by their exact value, and a number big.Rat cannot read (NaN,
// 1e99999999), or a Go value of no JSON type, by its type and spelling.
func canonicalKey(v any) string {
	var sb strings.Builder
	var write func(v any)
	write = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			sb.WriteByte('{')
			for _, k := range slices.Sorted(maps.Keys(x)) {
				sb.WriteString(strconv.Quote(k))
				write(x[k])
			}
			sb.WriteByte('}')
		case []any:
			sb.WriteByte('[')
			for _, e := range x {
				write(e)
				sb.WriteByte(',')
			}
			sb.WriteByte(']')
		case nil:
			sb.WriteString("n")
		case bool:
			sb.WriteString(strconv.FormatBool(x))
		case string:
			sb.WriteString(strconv.Quote(x))
		default:
			if r, ok := new(big.Rat).SetString(fmt.Sprint(x)); ok && typeOf(x) == "number" {
				sb.WriteByte('#')
				sb.WriteString(r.RatString())
			} else {
				fmt.Fprintf(&sb, "?%T:%v", x, x)
			}
		}
	}
	write(v)
	return sb.String()
}

// annotation reports whether k is a keyword that never fails a value.
func annotation(k string) bool {
	switch k {
	case "$comment", "$defs", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly":
		return true
	}
	return false
}

// draft2020 is the one $schema the evaluator reads (another draft gives
// keywords other meanings: $ref beside other keywords, items as a list);
// a schema without one is read as 2020-12 too.
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

func typeNames(v any) ([]string, bool) {
	if s, ok := v.(string); ok {
		v = []any{s}
	}
	names, ok := stringList(v)
	if !ok {
		return nil, false
	}
	for _, n := range names {
		if order := typeOrder(); !slices.Contains(order[:], n) {
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
