package render

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// field is one frontmatter key and its value: a string, a bool or a list
// of strings. Frontmatter keeps the order fields are added in, so the most
// important keys (name, description) come first.
type field struct {
	key string
	val any
}

type frontmatter []field

// yaml renders the frontmatter, starting with the generated-file marker;
// the YAML library decides quoting, so a description such as "yes" or
// "1.0" stays a string.
func (fm frontmatter) yaml() []byte {
	root := &yaml.Node{Kind: yaml.MappingNode}
	for _, f := range fm {
		k := &yaml.Node{Kind: yaml.ScalarNode, Value: f.key}
		var v yaml.Node
		if err := v.Encode(f.val); err != nil {
			panic(fmt.Sprintf("render: frontmatter %s: %v", f.key, err))
		}
		switch {
		case v.Kind == yaml.SequenceNode:
			v.Style = yaml.FlowStyle
		case f.key == "globs":
			// The documented form (reference §6) is a double-quoted string.
			v.Style = yaml.DoubleQuotedStyle
		}
		root.Content = append(root.Content, k, &v)
	}
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
	r.plan.add(&Document{Path: p, Mode: ModeFile, Schema: schema, Text: b.Bytes()})
}
