// Package frontmatter splits a markdown document into its YAML frontmatter
// and body, the shape of every skill, rule, subagent and workflow file.
package frontmatter

import (
	"bytes"
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// ErrNone is returned for a document without frontmatter.
var ErrNone = errors.New("no frontmatter: the file does not start with a --- line")

// Split returns the frontmatter text (without its --- lines), the body, and
// the 1-based line on which the frontmatter text starts.
func Split(doc []byte) (fm, body []byte, line int, err error) {
	rest, ok := cutLine(doc, "---")
	if !ok {
		return nil, doc, 0, ErrNone
	}
	start := len(doc) - len(rest)
	for off := start; off <= len(doc); {
		end := bytes.IndexByte(doc[off:], '\n')
		var ln []byte
		if end < 0 {
			ln = doc[off:]
		} else {
			ln = doc[off : off+end]
		}
		if string(bytes.TrimRight(ln, "\r")) == "---" {
			bodyStart := len(doc)
			if end >= 0 {
				bodyStart = off + end + 1
			}
			return doc[start:off], doc[bodyStart:], 2, nil
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	return nil, doc, 0, fmt.Errorf("the frontmatter that starts on line 1 is never closed with a --- line")
}

func cutLine(doc []byte, want string) ([]byte, bool) {
	end := bytes.IndexByte(doc, '\n')
	if end < 0 {
		return nil, false
	}
	if string(bytes.TrimRight(doc[:end], "\r")) != want {
		return nil, false
	}
	return doc[end+1:], true
}

// Parse decodes frontmatter text into a JSON-compatible value: a map with
// string keys, or an empty map for frontmatter holding only comments.
func Parse(fm []byte) (map[string]any, error) {
	m, _, err := ParseNode(fm)
	return m, err
}

// ParseNode is Parse, also returning the top node of the frontmatter's
// YAML (nil when there is none), which knows where each key and value
// is: parsed once, for the value and the positions. yaml.Unmarshal is a
// parse to this node and a decode of it, so the value and the errors are
// what decoding the text gives. The nodes carry no comments: the common
// form is read without yaml.v3 (parseSimple), which keeps none.
func ParseNode(fm []byte) (map[string]any, *yaml.Node, error) {
	if m, top, ok := parseSimple(fm); ok {
		return m, top, nil
	}
	return parseYAML(fm)
}

// parseYAML is ParseNode by yaml.v3, whatever the frontmatter.
func parseYAML(fm []byte) (map[string]any, *yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(fm, &doc); err != nil {
		return nil, nil, err
	}
	var v any
	if doc.Kind != 0 {
		if err := doc.Decode(&v); err != nil {
			return nil, nil, err
		}
	}
	var top *yaml.Node
	if len(doc.Content) > 0 {
		top = doc.Content[0]
		dropComments(top)
	}
	if v == nil {
		return map[string]any{}, top, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("frontmatter is %T, not a mapping of keys to values", v)
	}
	return m, top, nil
}

// dropComments clears the comments of n and the nodes below it. An alias's
// anchor is reached where it is written, so Alias is not followed.
func dropComments(n *yaml.Node) {
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	for _, c := range n.Content {
		dropComments(c)
	}
}
