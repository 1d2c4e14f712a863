package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agyconf/agyconf/internal/codec"
)

// field is one frontmatter key and its value: a string, a bool, a list
// of strings, or a nested frontmatter (a mapping). Frontmatter keeps the
// order fields are added in, so the most important keys (name,
// description) come first.
type field struct {
	key string
	val any
}

type frontmatter []field

// fromMembers is the frontmatter of a codec table's members, nested ones
// as mappings.
func fromMembers(ms []codec.Member) frontmatter {
	fm := frontmatter{}
	for _, m := range ms {
		v := m.Value
		if sub, ok := v.([]codec.Member); ok {
			v = fromMembers(sub)
		}
		fm = append(fm, field{m.Key, v})
	}
	return fm
}

// withExtra appends an extra = { … }'s keys, sorted, after the fields
// agyconf writes; a key already set is never overridden (the decoder
// refuses one anyway).
func (fm frontmatter) withExtra(extra map[string]json.RawMessage) frontmatter {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.ContainsFunc(fm, func(f field) bool { return f.key == k }) {
			fm = append(fm, field{k, extra[k]})
		}
	}
	return fm
}

// jsonNode is a JSON value as YAML: objects with their keys sorted,
// numbers as written, strings as strNode writes them.
func jsonNode(raw json.RawMessage, inFlow bool) (*yaml.Node, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return valueNode(v, inFlow), nil
}

func valueNode(v any, inFlow bool) *yaml.Node {
	switch x := v.(type) {
	case string:
		return strNode(x, inFlow)
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(x)}
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: x.String()}
		}
		// A fraction, an exponent, or an integer past int64, which YAML
		// readers do not take as an int: written as the float a JSON
		// reader would make of it, spelt so that YAML reads a float.
		f, _ := x.Float64()
		s := strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEnN") {
			s += ".0"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: s}
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, e := range x {
			n.Content = append(n.Content, valueNode(e, true))
		}
		return n
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		if inFlow {
			n.Style = yaml.FlowStyle
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, valueNode(x[k], inFlow))
		}
		return n
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

// strNode is a string scalar. Double quotes, whose escapes can say
// anything, are chosen for what a block or plain scalar would mangle or
// cannot hold: control characters other than a newline, whitespace at
// either end or opening a line, and any newline inside a flow list.
func strNode(s string, inFlow bool) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	quote := strings.TrimSpace(s) != s || (inFlow && strings.Contains(s, "\n"))
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimLeft(line, " \t") != line {
			quote = true
		}
	}
	for _, c := range s {
		if c != '\n' && (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029 || c == 0xfeff) {
			quote = true
		}
	}
	if quote {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// set puts val at a nested key path, creating the mappings on the way in
// the order first set.
func (fm frontmatter) set(keys []string, val any) frontmatter {
	if len(keys) == 1 {
		return append(fm, field{keys[0], val})
	}
	for i, f := range fm {
		if sub, ok := f.val.(frontmatter); ok && f.key == keys[0] {
			fm[i].val = sub.set(keys[1:], val)
			return fm
		}
	}
	return append(fm, field{keys[0], frontmatter{}.set(keys[1:], val)})
}

// node is the YAML node of a frontmatter value.
func node(key string, val any) *yaml.Node {
	var v *yaml.Node
	switch x := val.(type) {
	case string:
		v = strNode(x, false)
	case bool:
		v = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(x)}
	case []string:
		v = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, e := range x {
			v.Content = append(v.Content, strNode(e, true))
		}
	case frontmatter:
		v = x.mapping()
	case json.RawMessage:
		n, err := jsonNode(x, false)
		if err != nil {
			panic(fmt.Sprintf("render: frontmatter %s: %v", key, err))
		}
		v = n
	default:
		panic(fmt.Sprintf("render: frontmatter %s: unsupported %T", key, val))
	}
	if key == "globs" {
		// The documented form (rulesync) is a double-quoted string.
		v.Style = yaml.DoubleQuotedStyle
	}
	return v
}

// mapping is the frontmatter as a YAML mapping node.
func (fm frontmatter) mapping() *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for _, f := range fm {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f.key}, node(f.key, f.val))
	}
	return m
}

// yaml renders the frontmatter, starting with the generated-file marker.
// The nodes are built here rather than by the YAML library's Node.Encode,
// which re-parses what it emits and fails on some strings (a tab opening
// a multi-line value); the emitter still decides plain against quoted, so
// a description such as "yes" or "1.0" stays a string.
func (fm frontmatter) yaml() []byte {
	root := fm.mapping()
	var b bytes.Buffer
	b.WriteString(GeneratedMarkerLine + "\n")
	if len(fm) == 0 {
		return b.Bytes()
	}
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		panic(fmt.Sprintf("render: frontmatter: %v", err))
	}
	if err := enc.Close(); err != nil {
		panic(fmt.Sprintf("render: frontmatter: %v", err))
	}
	return b.Bytes()
}

// markdown adds a markdown document: frontmatter, a blank line, the body
// with exactly one trailing newline.
func (r *renderer) markdown(p, schema string, fm frontmatter, body string) {
	var b bytes.Buffer
	err := r.tmpl.ExecuteTemplate(&b, "markdown.md.tmpl", map[string]any{
		"Frontmatter": string(fm.yaml()),
		"Body":        strings.TrimRight(body, "\n"),
	})
	if err != nil {
		panic(fmt.Sprintf("render: markdown template: %v", err))
	}
	r.add(&Document{Path: p, Mode: ModeFile, Schema: schema, Text: b.Bytes()})
}
