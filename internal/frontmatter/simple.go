package frontmatter

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// parseSimple reads the commonest frontmatter, the form agyconf writes
// (a comment, then "name: …" and "description: …"), without yaml.v3:
// lines of "key: value" at the start of the line, comments and empty
// lines, all printable ASCII. It reports ok false for anything else, and
// ParseNode then asks yaml.v3. yaml.v3 sets up a parser of about 13 KB for
// each document: for the 400 skills of a 1,000-server tree that was a
// tenth of validate's time (the fifth pass in docs/benchmarks.md's history).
//
// What it accepts, yaml.v3 reads as a mapping of strings to strings, and
// parseSimple gives the same value and the same nodes (FuzzSimpleAgrees,
// TestSimpleAgrees): a key is at most 256 bytes, a letter or '_' followed by letters, digits,
// '_' and '-'; a value starts with a letter, holds no ':', '#' or tab, and
// does not end in a space, so that it is a plain scalar that ends on its
// line; neither is a word yaml.v3 reads as a boolean or null (or YAML 1.1
// did); no key is given twice. Everything else is left to yaml.v3.
func parseSimple(fm []byte) (map[string]any, *yaml.Node, bool) {
	for _, c := range fm {
		if (c < ' ' || c > '~') && c != '\n' {
			return nil, nil, false
		}
	}
	var top *yaml.Node
	m := map[string]any{}
	text := string(fm)
	for n := 1; text != ""; n++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		if line == "" || line[0] == '#' {
			continue
		}
		key, value, ok := strings.Cut(line, ": ")
		if !ok || !simpleKey(key) {
			return nil, nil, false
		}
		col := len(key) + 3 // 1-based, after ": "
		for value != "" && value[0] == ' ' {
			value, col = value[1:], col+1
		}
		if !simpleValue(value) {
			return nil, nil, false
		}
		if _, dup := m[key]; dup {
			return nil, nil, false // yaml.v3 refuses a key given twice
		}
		m[key] = value
		if top == nil {
			top = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n, Column: 1}
		}
		top.Content = append(top.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: n, Column: 1},
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value, Line: n, Column: col})
	}
	if top == nil {
		return nil, nil, false
	}
	return m, top, true
}

// maxSimpleKey is the longest key parseSimple reads.
const maxSimpleKey = 256

// simpleKey: a plain key that is a string to yaml.v3.
func simpleKey(s string) bool {
	// yaml.v3 refuses a key that does not end within 1,024 characters
	// of its start: far longer than any frontmatter key.
	if s == "" || len(s) > maxSimpleKey || !(isLetter(s[0]) || s[0] == '_') || reserved(s) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// simpleValue: a plain scalar that is a string to yaml.v3 and ends on its
// line. A letter first rules out numbers, timestamps, indicators (- ? : ,
// [ ] { } # & * ! | > ' " % @ `) and the floats .inf and .nan.
func simpleValue(s string) bool {
	if s == "" || !isLetter(s[0]) || s[len(s)-1] == ' ' || reserved(s) {
		return false
	}
	return !strings.ContainsAny(s, ":#\t")
}

// reserved: the words yaml.v3 resolves to a boolean or null, and those
// YAML 1.1 did, in any case.
func reserved(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
		return true
	}
	return false
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
