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
	var v any
	if err := yaml.Unmarshal(fm, &v); err != nil {
		return nil, err
	}
	if v == nil {
		return map[string]any{}, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("frontmatter is %T, not a mapping of keys to values", v)
	}
	return m, nil
}
