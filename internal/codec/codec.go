// Package codec maps each kind of entry agy reads — an MCP server, a
// named hook and its handlers, a plugin.json, the frontmatter of a skill,
// rule, workflow or subagent, the CLI's settings — between the model and
// the JSON or YAML value that stands in a file, in both directions, from
// one table per kind. Render encodes with it and import decodes with it,
// so a member one direction knows cannot be missing from the other (as
// chezmoi keeps an encoding's encoder and decoder side by side); a member
// no row knows is kept in the entry's extra, as it stands.
//
// The codec is the field mapping, and the agyhook wrappings of a server
// whose secrets agyhook reads (exec-env, agyhook-bridge: wrap.go), which
// import reads back as the server they start. What render adds otherwise
// (tool paths, which values need the wrapping) and what import judges
// (credentials, the harnesses, what agy would drop) stay in those
// packages, before and after it.
package codec

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
)

// Field is one member of an entry: its key in the document, the input
// language's argument that sets it, and the two directions.
type Field[T any] struct {
	Key string
	// Arg is the input language's way to set the member, for messages
	// (extra may not set a member a row writes).
	Arg string
	// Get returns the member's value for x, as render writes it, and
	// false when x leaves the member out.
	Get func(x *T) (any, bool)
	// Set sets x from the member's value as read (string, bool,
	// json.Number or a Go number, []any, map[string]any); an error says
	// why the model cannot hold it.
	Set func(x *T, v any) error
	// Drops: agy drops the whole entry when the value has another type
	// (a server with a number in args); otherwise only the member is
	// lost.
	Drops bool
}

// Refused is a member agyconf neither writes nor keeps in extra, because
// agy reads it under another name, or does not read it and the input
// language says what to write instead.
type Refused struct {
	Key string
	// Arg is what to write instead.
	Arg string
}

// Entry is the table of one kind of entry.
type Entry[T any] struct {
	// Fields are the members agyconf writes, in the order render writes
	// frontmatter keys (JSON objects are written with sorted keys).
	Fields []Field[T]
	// Refused are members extra may not set either.
	Refused []Refused
	// Extra is where the members no row knows are kept, as JSON; nil for
	// a kind without extra.
	Extra func(x *T) *map[string]json.RawMessage
}

// Problem is a member that cannot be held: it is left out, or, when Drops,
// agy would drop the whole entry for it.
type Problem struct {
	Key    string
	Reason string
	Drops  bool
}

func (p Problem) String() string { return p.Key + ": " + p.Reason }

// Problems are the problems of members nested in a member (a handler in an
// event's list, a tool of a server): a Set that returns them has set what
// could be held, and each is reported below the member's key.
type Problems []Problem

func (ps Problems) Error() string {
	if len(ps) == 0 {
		return "no problem"
	}
	return ps[0].String()
}

// at puts the problems below key; index keys ("[2]") join without a dot.
func (ps Problems) at(key string) []Problem {
	out := make([]Problem, len(ps))
	for i, p := range ps {
		sep := "."
		if len(p.Key) > 0 && p.Key[0] == '[' {
			sep = ""
		}
		p.Key = key + sep + p.Key
		out[i] = p
	}
	return out
}

// Encode returns x as the object render writes: every member a row
// writes, then every extra member no row writes (extra never overrides).
func (e Entry[T]) Encode(x *T) map[string]any {
	m := map[string]any{}
	for _, f := range e.Fields {
		if v, ok := f.Get(x); ok {
			if ms, nested := v.([]Member); nested {
				// An ordered mapping (frontmatter's metadata) as an object.
				o := map[string]any{}
				for _, n := range ms {
					o[n.Key] = n.Value
				}
				v = o
			}
			m[f.Key] = v
		}
	}
	if e.Extra != nil {
		for k, v := range *e.Extra(x) {
			if _, set := m[k]; !set {
				m[k] = v
			}
		}
	}
	return m
}

// Decode sets x from the object m as read: each member through its row,
// every other one into extra. It returns the members that could not be
// held, in key order.
func (e Entry[T]) Decode(m map[string]any, x *T) []Problem {
	var out []Problem
	for _, k := range sortedKeys(m) {
		v := m[k]
		f, ok := e.field(k)
		if ok {
			err := f.Set(x, v)
			if nested, isNested := err.(Problems); isNested {
				out = append(out, nested.at(k)...)
			} else if err != nil {
				out = append(out, Problem{Key: k, Reason: err.Error(), Drops: f.Drops})
			}
			continue
		}
		if r, refused := e.refused(k); refused {
			out = append(out, Problem{Key: k, Reason: "agyconf writes it as " + r.Arg})
			continue
		}
		if e.Extra == nil {
			out = append(out, Problem{Key: k, Reason: "a key the input language does not know here; it is not written"})
			continue
		}
		if v == nil {
			out = append(out, Problem{Key: k, Reason: "null, which extra = { … } cannot hold"})
			continue
		}
		raw, err := Raw(v)
		if err != nil {
			out = append(out, Problem{Key: k, Reason: err.Error()})
			continue
		}
		p := e.Extra(x)
		if *p == nil {
			*p = map[string]json.RawMessage{}
		}
		(*p)[k] = raw
	}
	return out
}

// Own lists the members of the kind agyconf writes itself or refuses,
// with the input that sets them: what extra may never set.
func (e Entry[T]) Own() []Refused {
	var out []Refused
	for _, f := range e.Fields {
		out = append(out, Refused{f.Key, f.Arg})
	}
	return append(out, e.Refused...)
}

func (e Entry[T]) field(k string) (Field[T], bool) {
	for _, f := range e.Fields {
		if f.Key == k {
			return f, true
		}
	}
	return Field[T]{}, false
}

func (e Entry[T]) refused(k string) (Refused, bool) {
	for _, r := range e.Refused {
		if r.Key == k {
			return r, true
		}
	}
	return Refused{}, false
}

// Raw is v as JSON, numbers as written: what extra keeps.
func Raw(v any) (json.RawMessage, error) {
	b, err := json.Marshal(normal(v))
	if err != nil {
		return nil, fmt.Errorf("cannot be written as JSON: %v", err)
	}
	return b, nil
}

// normal turns what a YAML reader gives (map[any]any, int) into what
// encoding/json writes.
func normal(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normal(e)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = normal(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normal(e)
		}
		return out
	}
	return v
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// The conversions of a value as read into the model's types. Each error
// says what the value is not.

func asString(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("is not a string")
	}
	return s, nil
}

func asNonEmpty(v any) (string, error) {
	s, err := asString(v)
	if err == nil && s == "" {
		err = fmt.Errorf("is empty")
	}
	return s, err
}

func asBool(v any) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("is not a boolean")
	}
	return b, nil
}

func asStrings(v any) ([]string, error) {
	xs, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("is not a list of strings")
	}
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("is not a list of strings")
		}
		out = append(out, s)
	}
	return out, nil
}

func asStringMap(v any) (map[string]string, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("is not an object of strings")
	}
	out := make(map[string]string, len(m))
	for k, x := range m {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("is not an object of strings")
		}
		out[k] = s
	}
	return out, nil
}

// asInt reads a whole number in [lo, hi].
func asInt(v any, lo, hi int64) (int, error) {
	var n int64
	switch x := v.(type) {
	case json.Number:
		i, err := strconv.ParseInt(x.String(), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s is not a whole number", x)
		}
		n = i
	case int:
		n = int64(x)
	case int64:
		n = x
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
			return 0, fmt.Errorf("%v is not a whole number", x)
		}
		n = int64(x)
	default:
		return 0, fmt.Errorf("is not a number")
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%d is out of range", n)
	}
	return int(n), nil
}

func strings2any(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
