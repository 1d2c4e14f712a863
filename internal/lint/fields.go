package lint

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agyconf/agyconf/internal/frontmatter"
	"github.com/agyconf/agyconf/schema"
)

// unknownFields reports the members of the object at path the named
// schema does not declare at defPtr: agy ignores or discards them, so each
// is either a newer build's field or a misspelling that does nothing — a
// warning, not an error. agyconf writes such members only from extra =
// { … }. Members are visited in document order in one walk, and past the
// document's budget they are only counted (capFindings), so a file of
// thousands of them costs no more than reading it.
func (c *checker) unknownFields(rule, schemaName, defPtr string, path []string, loc *locator, add func(string, int, int, string, string), what string) {
	known, err := c.properties(schemaName, defPtr)
	if err != nil {
		// The embedded schemas are agyconf's own: a test covers every
		// pointer used here.
		panic(fmt.Sprintf("lint: %v", err))
	}
	members := loc.members(path)
	base := ""
	for _, seg := range path {
		base += "/" + escape(seg)
	}
	base = schema.ShortPointer(base)
	for _, m := range members {
		if slices.Contains(known, m.Name) {
			continue
		}
		if c.unknownBudget <= 0 {
			c.unlisted++
			continue
		}
		c.unknownBudget--
		add(rule, m.Line, m.Col, base+"/"+escape(m.Name), fmt.Sprintf("%q on %s is no field agyconf knows", shortName(m.Name), shortName(what)))
	}
}

// shortName bounds a member name quoted in a message.
func shortName(s string) string {
	const max = 200
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// properties caches schema.Properties for one run.
func (c *checker) properties(name, ptr string) ([]string, error) {
	key := name + "#" + ptr
	c.memo.mu.Lock()
	p, ok := c.memo.props[key]
	c.memo.mu.Unlock()
	if ok {
		return p, nil
	}
	// Two checkers may both look the same key up; both get the same.
	p, err := schema.Properties(name, ptr)
	if err != nil {
		return nil, err
	}
	c.memo.mu.Lock()
	c.memo.props[key] = p
	c.memo.mu.Unlock()
	return p, nil
}

// pluginManifest runs what the plugin schema cannot check: members agy
// discards, and a disabled that only seeds enablement once.
func (c *checker) pluginManifest(root any, loc *locator, add func(string, int, int, string, string)) {
	m, ok := root.(map[string]any)
	if !ok {
		return
	}
	c.unknownFields("plugin/unknown-field", "plugin", "", nil, loc, add, "plugin.json")
	if d, ok := m["disabled"].(bool); ok {
		l, col := loc.value("/disabled")
		add("plugin/disabled", l, col, "/disabled", fmt.Sprintf("\"disabled\": %v only seeds the plugin's enablement when agy first discovers it; ~/.gemini/config/config.json decides afterwards", d))
	}
}

func sortedMembers(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// unknownKeys reports the frontmatter keys of a markdown document agyconf
// does not know (rule, against the named schema's properties), each on the
// line of its key: agy does not read them.
func (c *checker) unknownKeys(data []byte, rule, schemaName string, add func(string, int, int, string, string)) {
	fm, _, line, err := frontmatter.Split(data)
	if err != nil {
		return
	}
	m, err := frontmatter.Parse(fm)
	if err != nil {
		return
	}
	known, err := c.properties(schemaName, "")
	if err != nil {
		panic(fmt.Sprintf("lint: %v", err))
	}
	lines := strings.Split(string(fm), "\n")
	for _, k := range sortedMembers(m) {
		if slices.Contains(known, k) {
			continue
		}
		l := 0
		for i, text := range lines {
			// A top-level key starts its line; quoted keys are found too.
			if t := strings.TrimRight(text, " \t\r"); strings.HasPrefix(t, k+":") || strings.HasPrefix(t, `"`+k+`":`) || strings.HasPrefix(t, "'"+k+"':") {
				l = line + i
				break
			}
		}
		col := 0
		if l > 0 {
			col = 1
		}
		add(rule, l, col, "/"+escape(k), fmt.Sprintf("%q is no frontmatter key agyconf knows", k))
	}
}
