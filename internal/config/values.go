package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/lazyre"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/rulebook"
)

// decoder holds what one Decode call needs while it walks the blocks. It
// collects diagnostics instead of returning early, so that one run reports
// every problem of the input.
type decoder struct {
	scope      model.Scope
	agyVersion agy.Version
	ctxs       map[string]*hcl.EvalContext // by file name
	diags      hcl.Diagnostics
	rec        *recorder // nil when nobody asks what decoding read
	secretMode string    // the agyconf block's default for local servers
	secrets    []model.SecretRef
	// mcpRefs are the permission entries naming an MCP server, judged
	// once every plugin is decoded (pluginServerRefs).
	mcpRefs []mcpRef
	// typos are the names reading a body suggested for members it does
	// not know ("Did you mean "command"?"), by the body's
	// MissingItemRange: a required member among them is missing because
	// it is misspelt, which has been said once (misspelt).
	typos map[hcl.Range][]string
}

func (d *decoder) errorf(rng hcl.Range, summary, format string, args ...any) {
	r := rng
	d.diags = append(d.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  &r,
	})
}

// warnf records a warning of a rule (rulebook): the input is accepted.
// The summary is one line saying what is wrong and, after " — ", the
// fix (the rule's when it does not say its own); the detail is the long
// form --explain prints.
func (d *decoder) warnf(rng hcl.Range, rule, summary, format string, args ...any) {
	r := rng
	d.diags = append(d.diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  rulebook.Line(rule, summary),
		Detail:   fmt.Sprintf(format, args...),
		Subject:  &r,
		Extra:    rulebook.Tag{Rule: rule},
	})
}

func (d *decoder) add(diags hcl.Diagnostics) { d.diags = append(d.diags, diags...) }

func (d *decoder) content(body hcl.Body, schema *hcl.BodySchema) *hcl.BodyContent {
	c, diags := body.Content(schema)
	d.add(diags)
	for _, x := range diags {
		if m := didYouMeanRe().FindStringSubmatch(x.Detail); m != nil && x.Severity == hcl.DiagError {
			if d.typos == nil {
				d.typos = map[hcl.Range][]string{}
			}
			k := body.MissingItemRange()
			d.typos[k] = append(d.typos[k], m[1])
		}
	}
	return c
}

// didYouMeanRe finds the name HCL suggests for an unknown block or
// argument (both syntaxes say it so).
var didYouMeanRe = lazyre.New(`Did you mean "([^"]+)"\?`)

// misspelt reports whether reading the body whose MissingItemRange is
// body suggested one of names for a member it did not know: the member
// is not missing, it is misspelt, and one typo gets one error.
func (d *decoder) misspelt(body hcl.Range, names ...string) bool {
	for _, t := range d.typos[body] {
		if slices.Contains(names, t) {
			return true
		}
	}
	return false
}

// elem is one evaluated value and the range to blame for it.
type elem struct {
	val cty.Value
	rng hcl.Range
}

// eval evaluates an expression in the context of the file it came from.
// Null is refused: an argument that should not be set is left out.
func (d *decoder) eval(expr hcl.Expression) (cty.Value, bool) {
	v, diags := expr.Value(d.ctxs[expr.Range().Filename])
	d.add(diags)
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	if !v.IsWhollyKnown() {
		// Only an expression left broken by a syntax error, which the
		// parser has reported already, evaluates to an unknown value.
		return cty.NilVal, false
	}
	if v.IsNull() {
		d.errorf(expr.Range(), "Invalid value", "The value must not be null; leave the argument out instead.")
		return cty.NilVal, false
	}
	if hugeNumber(v) {
		d.errorf(expr.Range(), "Number out of range", "%s", errHugeNumber)
		return cty.NilVal, false
	}
	return v, true
}

// maxExponent bounds the binary exponent of any number in a config: past a
// float64's range (2^1024) no reader of agy's could take the value, and
// printing or converting a literal such as 1e600000000 would take minutes
// and gigabytes.
const maxExponent = 1100

const errHugeNumber = "The number is beyond what a 64-bit float can hold; no Antigravity file can carry it."

// hugeNumber reports whether v holds a number beyond maxExponent.
func hugeNumber(v cty.Value) bool {
	huge := false
	v, _ = v.UnmarkDeep() // Walk cannot step into marked collections
	_ = cty.Walk(v, func(_ cty.Path, e cty.Value) (bool, error) {
		if e.IsKnown() && !e.IsNull() && e.Type() == cty.Number {
			if x := e.AsBigFloat().MantExp(nil); x > maxExponent || x < -maxExponent {
				huge = true
			}
		}
		return !huge, nil
	})
	return huge
}

// typeName says what a value is in the words of the input language.
func typeName(t cty.Type) string {
	switch {
	case t == cty.String:
		return "a string"
	case t == cty.Number:
		return "a number"
	case t == cty.Bool:
		return "a bool"
	case t.IsObjectType() || t.IsMapType():
		return "an object"
	case t.IsTupleType() || t.IsListType() || t.IsSetType():
		return "a list"
	}
	return t.FriendlyName()
}

// strVal turns a primitive value into text. Numbers and bools become their
// usual spelling (args = ["--port", 8080] means what it says). A secret is
// accepted only where allowSecret is true; the literal text of a secret
// reference without its mark is refused, so it cannot be forged.
func (d *decoder) strVal(v cty.Value, rng hcl.Range, allowSecret bool) (model.Str, bool) {
	marked := v.ContainsMarked()
	if marked && !allowSecret {
		d.errorf(rng, "Secret not allowed here", "secret_file() may only be used in an mcp_server's args, env, headers and oauth values, which agyconf writes to files of mode 0600. Anywhere else the secret would land in a world-readable file.")
		return nil, false
	}
	v, marks := v.UnmarkDeep()
	if !v.Type().IsPrimitiveType() {
		d.errorf(rng, "Wrong type", "Expected a string, got %s.", typeName(v.Type()))
		return nil, false
	}
	sv, err := convert.Convert(v, cty.String)
	if err != nil {
		d.errorf(rng, "Wrong type", "Expected a string: %s.", err)
		return nil, false
	}
	s := sv.AsString()
	str := splitSecrets(s)
	// Every secret reference must come from a secret_file() call, whose
	// mark names its path: a token typed by hand has no mark, even inside
	// a string that also holds a real one.
	forged := !marked && strings.Contains(s, secretTokenPrefix)
	for _, part := range str {
		if part.SecretFile != "" && !hasMark(marks, secretMark{path: part.SecretFile}) {
			forged = true
		}
	}
	if forged || strings.Contains(str.Redacted(""), secretTokenPrefix) {
		d.errorf(rng, "Reserved text", "%q is reserved for agyconf's secret references; call secret_file() instead.", secretTokenPrefix)
		return nil, false
	}
	for _, part := range str {
		if part.SecretFile != "" {
			d.secrets = append(d.secrets, model.SecretRef{Path: part.SecretFile, Range: rng})
		}
	}
	return str, true
}

func (d *decoder) plainStr(v cty.Value, rng hcl.Range) (string, bool) {
	s, ok := d.strVal(v, rng, false)
	if !ok {
		return "", false
	}
	lit, _ := s.Literal()
	return lit, true
}

// str decodes a string argument that may not carry secrets.
func (d *decoder) str(attr *hcl.Attribute) (string, bool) {
	v, ok := d.eval(attr.Expr)
	if !ok {
		return "", false
	}
	return d.plainStr(v, attr.Expr.Range())
}

// nonEmptyStr is str that also refuses "" and whitespace.
func (d *decoder) nonEmptyStr(attr *hcl.Attribute) (string, bool) {
	s, ok := d.str(attr)
	if ok && strings.TrimSpace(s) == "" {
		d.errorf(attr.Expr.Range(), "Empty value", "%q must not be empty.", attr.Name)
		return "", false
	}
	return s, ok
}

// secretStr decodes a string argument that may embed secret_file().
func (d *decoder) secretStr(attr *hcl.Attribute) (model.Str, bool) {
	v, ok := d.eval(attr.Expr)
	if !ok {
		return nil, false
	}
	return d.strVal(v, attr.Expr.Range(), true)
}

// boolean decodes a bool argument strictly: "true" is a string, and a
// string where a bool belongs is the kind of mistake agy punishes by
// silently dropping an entry.
func (d *decoder) boolean(attr *hcl.Attribute) (bool, bool) {
	v, ok := d.eval(attr.Expr)
	if !ok {
		return false, false
	}
	if v.ContainsMarked() {
		d.strVal(v, attr.Expr.Range(), false)
		return false, false
	}
	if v.Type() != cty.Bool {
		d.errorf(attr.Expr.Range(), "Wrong type", "%q must be true or false, not %s.", attr.Name, typeName(v.Type()))
		return false, false
	}
	return v.True(), true
}

// integer decodes a whole number within [lo, hi], strictly: a string or a
// fraction is an error, not a conversion.
func (d *decoder) integer(attr *hcl.Attribute, lo, hi int64) (int, bool) {
	v, ok := d.eval(attr.Expr)
	if !ok {
		return 0, false
	}
	if v.ContainsMarked() {
		d.strVal(v, attr.Expr.Range(), false)
		return 0, false
	}
	if v.Type() != cty.Number {
		d.errorf(attr.Expr.Range(), "Wrong type", "%q must be a whole number, not %s.", attr.Name, typeName(v.Type()))
		return 0, false
	}
	bf := v.AsBigFloat()
	if !bf.IsInt() {
		d.errorf(attr.Expr.Range(), "Not a whole number", "%q must be a whole number, got %s.", attr.Name, bf.Text('g', 10))
		return 0, false
	}
	// The exponent bounds the size before any conversion: eval refuses
	// numbers past 2^1100, and a whole number past 2^62 is out of every
	// range here anyway.
	if bf.MantExp(nil) > 62 {
		d.errorf(attr.Expr.Range(), "Out of range", "%q must be between %d and %d, got %s.", attr.Name, lo, hi, bf.Text('g', 10))
		return 0, false
	}
	n, _ := bf.Int64()
	if n < lo || n > hi {
		d.errorf(attr.Expr.Range(), "Out of range", "%q must be between %d and %d, got %d.", attr.Name, lo, hi, n)
		return 0, false
	}
	return int(n), true
}

// elems evaluates a list argument element by element, so that an error
// points at the element rather than the whole list.
func (d *decoder) elems(attr *hcl.Attribute) ([]elem, bool) {
	if exprs, diags := hcl.ExprList(attr.Expr); !diags.HasErrors() {
		out := make([]elem, 0, len(exprs))
		ok := true
		for _, e := range exprs {
			v, vok := d.eval(e)
			if !vok {
				ok = false
				continue
			}
			out = append(out, elem{v, e.Range()})
		}
		return out, ok
	}
	v, ok := d.eval(attr.Expr)
	if !ok {
		return nil, false
	}
	marked := v.ContainsMarked()
	uv, pvm := v.UnmarkDeepWithPaths()
	t := uv.Type()
	if !(t.IsTupleType() || t.IsListType() || t.IsSetType()) {
		d.errorf(attr.Expr.Range(), "Wrong type", "%q must be a list, not %s.", attr.Name, typeName(t))
		return nil, false
	}
	var out []elem
	for it := uv.ElementIterator(); it.Next(); {
		_, ev := it.Element()
		if marked {
			ev = ev.WithMarks(pathMarks(pvm, len(out))...)
		}
		out = append(out, elem{ev, attr.Expr.Range()})
	}
	return out, true
}

// pathMarks returns the marks recorded for element i of a list.
func pathMarks(pvm []cty.PathValueMarks, i int) []cty.ValueMarks {
	var out []cty.ValueMarks
	for _, pm := range pvm {
		if len(pm.Path) == 0 {
			out = append(out, pm.Marks)
			continue
		}
		if ix, ok := pm.Path[0].(cty.IndexStep); ok && ix.Key.Type() == cty.Number {
			if n, _ := ix.Key.AsBigFloat().Int64(); int(n) == i {
				out = append(out, pm.Marks)
			}
		}
	}
	return out
}

func (d *decoder) strList(attr *hcl.Attribute) ([]string, bool) {
	es, ok := d.elems(attr)
	out := make([]string, 0, len(es))
	for _, e := range es {
		s, sok := d.plainStr(e.val, e.rng)
		ok = ok && sok
		out = append(out, s)
	}
	return out, ok
}

func (d *decoder) secretStrList(attr *hcl.Attribute) ([]model.Str, bool) {
	es, ok := d.elems(attr)
	out := make([]model.Str, 0, len(es))
	for _, e := range es {
		s, sok := d.strVal(e.val, e.rng, true)
		ok = ok && sok
		out = append(out, s)
	}
	return out, ok
}

// kv is one evaluated key and value of an object argument.
type kv struct {
	key    string
	keyRng hcl.Range
	val    cty.Value
	valRng hcl.Range
}

// pairs evaluates an object argument pair by pair, refusing duplicate keys
// (a JSON decoder would keep the last one silently).
func (d *decoder) pairs(attr *hcl.Attribute) ([]kv, bool) {
	var out []kv
	seen := map[string]hcl.Range{}
	items, diags := hcl.ExprMap(attr.Expr)
	if diags.HasErrors() {
		v, ok := d.eval(attr.Expr)
		if !ok {
			return nil, false
		}
		if v.ContainsMarked() {
			d.errorf(attr.Expr.Range(), "Wrong type", "%q must be written as an object of key = value pairs.", attr.Name)
			return nil, false
		}
		t := v.Type()
		if !(t.IsObjectType() || t.IsMapType()) {
			d.errorf(attr.Expr.Range(), "Wrong type", "%q must be an object, not %s.", attr.Name, typeName(t))
			return nil, false
		}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			out = append(out, kv{k.AsString(), attr.Expr.Range(), ev, attr.Expr.Range()})
		}
		return out, true
	}
	ok := true
	for _, item := range items {
		kval, kdiags := item.Key.Value(nil)
		if kdiags.HasErrors() {
			// A key that needs evaluation (such as a function call).
			kval, kdiags = item.Key.Value(d.ctxs[item.Key.Range().Filename])
		}
		d.add(kdiags)
		if kdiags.HasErrors() || !kval.IsWhollyKnown() {
			ok = false
			continue
		}
		key, kok := d.plainStr(kval, item.Key.Range())
		if !kok {
			ok = false
			continue
		}
		if first, dup := seen[key]; dup {
			d.errorf(item.Key.Range(), "Duplicate key", "The key %q is already set at %s.", key, rangeString(first))
			ok = false
			continue
		}
		seen[key] = item.Key.Range()
		v, vok := d.eval(item.Value)
		if !vok {
			ok = false
			continue
		}
		out = append(out, kv{key, item.Key.Range(), v, item.Value.Range()})
	}
	return out, ok
}

// rangeString is a short "file:line,col" for messages about another place.
func rangeString(r hcl.Range) string {
	return fmt.Sprintf("%s:%d,%d", r.Filename, r.Start.Line, r.Start.Column)
}

func (d *decoder) secretStrMap(attr *hcl.Attribute, validKey func(string) string) (map[string]model.Str, bool) {
	ps, ok := d.pairs(attr)
	out := make(map[string]model.Str, len(ps))
	for _, p := range ps {
		if msg := validKey(p.key); msg != "" {
			d.errorf(p.keyRng, "Invalid key", "%s", msg)
			ok = false
			continue
		}
		s, sok := d.strVal(p.val, p.valRng, true)
		if !sok {
			ok = false
			continue
		}
		out[p.key] = s
	}
	return out, ok
}

// attrs returns the attributes of a body that takes only arguments with
// arbitrary names (tools, settings).
func (d *decoder) attrs(body hcl.Body) hcl.Attributes {
	as, diags := body.JustAttributes()
	d.add(diags)
	return as
}

func hasMark(marks cty.ValueMarks, m any) bool {
	_, ok := marks[m]
	return ok
}
