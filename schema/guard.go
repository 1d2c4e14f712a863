package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// This file keeps two defects of jsonschema/v6 v6.0.3, the newest release,
// out of agyconf's findings.
//
//   - Where a bound (minimum, maximum, their exclusive forms, multipleOf)
//     applies to a number big.Rat cannot read, such as 1e99999999, the
//     validator dereferences nil (validator.go, numValidate), and so does
//     uniqueItems on an array of more than 20 items holding one
//     (util.go, writeHash). unjudgeable refuses such numbers before the
//     library sees the document.
//   - The validator stores a propertyNames failure's instance location
//     without copying it (validator.go: verr.InstanceLocation = vd.vloc;
//     upstream pull request 269), so validating a later sibling overwrites
//     it, and Go's map order decided which object a finding named.
//     repairPropertyNames gives each failure its own object's location.
//
// tests/hostile holds the hostile numbers, and TestFindingsDeterministic
// and TestPropertyNamesLocated the locations.

// unjudgeable adds a finding for every number in v that big.Rat cannot read
// and so no bound can judge: a literal whose decimal exponent, less its
// fraction's digits, is beyond ±1,000,000 (math/big's limit). It reads
// every number as the library does (fmt's %v, then big.Rat), so that what
// it passes the library can read. Numbers of other Go types (YAML's ints
// and floats) are read by the library without a nil: a NaN or an infinity
// is no JSON value to it, which it reports.
func unjudgeable(v any, c *collector) {
	if holdsUnjudgeable(v) { // nearly never: nothing is sorted or built
		refuseUnjudgeable(v, nil, c)
	}
}

// refuseUnjudgeable is unjudgeable's walk, members in sorted order so that
// the findings kept under maxCollected are always the same.
func refuseUnjudgeable(v any, path []string, c *collector) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			refuseUnjudgeable(x[k], append(path, k), c)
		}
	case []any:
		for i, e := range x {
			refuseUnjudgeable(e, append(path, strconv.Itoa(i)), c)
		}
	case json.Number:
		if plainInteger(string(x)) {
			return
		}
		if _, ok := new(big.Rat).SetString(fmt.Sprintf("%v", x)); ok {
			return
		}
		c.add(rawFinding{path: slices.Clone(path), msg: fmt.Sprintf(
			"the number %s has a decimal exponent (or fraction) past ±1,000,000, which no schema bound can judge; Go's encoding/json, which agy reads with, refuses it as out of range when large and reads 0 when tiny", short(string(x)))})
	}
}

// holdsUnjudgeable reports whether v holds a number unjudgeable would
// refuse, in whatever order its members come.
func holdsUnjudgeable(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if holdsUnjudgeable(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if holdsUnjudgeable(e) {
				return true
			}
		}
	case json.Number:
		if !plainInteger(string(x)) {
			_, ok := new(big.Rat).SetString(fmt.Sprintf("%v", x))
			return !ok
		}
	}
	return false
}

// plainInteger reports whether a JSON number literal is an integer written
// without a fraction or an exponent, which big.Rat always reads.
func plainInteger(lit string) bool {
	lit = strings.TrimPrefix(lit, "-")
	if lit == "" {
		return false
	}
	for i := 0; i < len(lit); i++ {
		if lit[i] < '0' || lit[i] > '9' {
			return false
		}
	}
	return true
}

// repairPropertyNames gives each propertyNames failure in the tree under
// root the location of the object whose member name failed. Of the
// library's location only the length survives. Every other failure's
// location is a copy made when it was found, so the nearest such ancestor
// holds the start of the object's path: all of it when a $ref, an
// applicator or a second failure of the same object wraps the failure, as
// most often. The rest of the path is found in the document: the objects at
// that depth below the ancestor that hold the name, and whose path the
// keywords leading to the propertyNames (properties, additionalProperties,
// items) can take. A name fails the same schema in every object that holds
// it, so each such object has one failure; if more objects than failures
// remain, the first in sorted order take them, so that the findings are
// still a function of the document.
func (ds *docSchema) repairPropertyNames(root *jsonschema.ValidationError, value any) {
	// The failures to place, by the ancestor's location, the depth and
	// the propertyNames schema, then by name.
	type group struct {
		anc   []string
		depth int
		url   string
		names map[string][]*jsonschema.ValidationError
	}
	var groups []*group
	byKey := map[string]*group{}
	var walk func(e *jsonschema.ValidationError, anc []string)
	walk = func(e *jsonschema.ValidationError, anc []string) {
		pn, ok := e.ErrorKind.(*kind.PropertyNames)
		if !ok {
			for _, c := range e.Causes {
				walk(c, e.InstanceLocation)
			}
			return
		}
		// Its causes are about the name, a string of its own.
		if len(e.InstanceLocation) == len(anc) {
			e.InstanceLocation = slices.Clone(anc)
			return
		}
		key := strings.Join(append(slices.Clip(anc), strconv.Itoa(len(e.InstanceLocation)), e.SchemaURL), "\x00")
		g := byKey[key]
		if g == nil {
			g = &group{anc: anc, depth: len(e.InstanceLocation), url: e.SchemaURL, names: map[string][]*jsonschema.ValidationError{}}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.names[pn.Property] = append(g.names[pn.Property], e)
	}
	walk(root, nil)
	for _, g := range groups {
		steps := ds.stepsTo(strings.TrimSuffix(g.url, "/propertyNames"))
		objects := map[string][][]string{} // by name, in sorted order
		objectsAt(valueAt(value, g.anc), slices.Clone(g.anc), g.depth-len(g.anc), func(path []string, obj map[string]any) {
			if !steps.fit(path[len(g.anc):]) {
				return
			}
			// Over the smaller side: an object of many members, or many
			// names failing in many objects, costs their number once.
			if len(obj) < len(g.names) {
				for k := range obj {
					if _, ok := g.names[k]; ok {
						objects[k] = append(objects[k], path)
					}
				}
				return
			}
			for k := range g.names {
				if _, ok := obj[k]; ok {
					objects[k] = append(objects[k], path)
				}
			}
		})
		for name, fs := range g.names {
			found := objects[name]
			for i, f := range fs {
				switch {
				case i < len(found):
					f.InstanceLocation = found[i]
				case len(found) > 0:
					f.InstanceLocation = found[len(found)-1] // a repeat, merged as one
				default:
					f.InstanceLocation = slices.Clone(g.anc) // cannot be: the object holds the name
				}
			}
		}
	}
}

// objectsAt calls found with the path and value of every object depth
// levels below v, members in sorted order, items in order.
func objectsAt(v any, path []string, depth int, found func([]string, map[string]any)) {
	if depth == 0 {
		if obj, ok := v.(map[string]any); ok {
			found(slices.Clone(path), obj)
		}
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			objectsAt(x[k], append(path, k), depth-1, found)
		}
	case []any:
		for i, e := range x {
			objectsAt(e, append(path, strconv.Itoa(i)), depth-1, found)
		}
	}
}

func valueAt(v any, path []string) any {
	for _, s := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[s]
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// valueStep is what one keyword on the way to a subschema says of the
// value that subschema applies to, a step down from the value before.
type valueStep struct {
	kind stepKind
	name string         // stepMember: the member's name or the item's index
	not  map[string]any // stepOther: the members properties names instead
}

type stepKind int

const (
	stepMember stepKind = iota // properties, prefixItems: this member or item
	stepOther                  // additionalProperties: a member not in not
	stepAny                    // patternProperties: some member
	stepItem                   // items, contains: an item
)

type valueSteps []valueStep

// stepsTo reads the keywords on the way from the schema's root to the
// subschema at schemaURL, and keeps the value steps after the last $defs:
// a definition is reached by a $ref from anywhere, and what led there is
// not in the pointer. Applicators (allOf, then, not, …) apply to the same
// value and take no step.
func (ds *docSchema) stepsTo(schemaURL string) valueSteps {
	base, frag, _ := strings.Cut(schemaURL, "#")
	if base != URL(ds.name) || frag == "" {
		return nil
	}
	var toks []string
	for _, t := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if u, err := url.PathUnescape(t); err == nil {
			t = u
		}
		toks = append(toks, strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~"))
	}
	var steps valueSteps
	s := ds.source
	for i := 0; i < len(toks); i++ {
		obj, _ := s.(map[string]any)
		kw, arg, takesArg := toks[i], "", false
		switch kw {
		case "properties", "patternProperties", "$defs", "dependentSchemas", "allOf", "anyOf", "oneOf", "prefixItems":
			takesArg = true
			if i+1 < len(toks) {
				i++
				arg = toks[i]
			}
		}
		switch kw {
		case "properties", "prefixItems":
			steps = append(steps, valueStep{kind: stepMember, name: arg})
		case "additionalProperties":
			props, _ := obj["properties"].(map[string]any)
			if _, ok := obj["patternProperties"]; ok {
				steps = append(steps, valueStep{kind: stepAny})
			} else {
				steps = append(steps, valueStep{kind: stepOther, not: props})
			}
		case "patternProperties":
			steps = append(steps, valueStep{kind: stepAny})
		case "items", "contains":
			steps = append(steps, valueStep{kind: stepItem})
		case "$defs":
			steps = nil
		}
		s = obj[kw]
		if takesArg {
			switch x := s.(type) {
			case map[string]any:
				s = x[arg]
			case []any:
				n, err := strconv.Atoi(arg)
				s = nil
				if err == nil && n >= 0 && n < len(x) {
					s = x[n]
				}
			default:
				s = nil
			}
		}
	}
	return steps
}

// fit reports whether the value path rel, which ends at the object, can be
// what the steps took, compared from the end as far as both go.
func (steps valueSteps) fit(rel []string) bool {
	for i, j := len(steps)-1, len(rel)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		st, seg := steps[i], rel[j]
		switch st.kind {
		case stepMember:
			if seg != st.name {
				return false
			}
		case stepOther:
			if _, named := st.not[seg]; named {
				return false
			}
		case stepItem:
			if _, ok := arrayIndex(seg); !ok {
				return false
			}
		}
	}
	return true
}
