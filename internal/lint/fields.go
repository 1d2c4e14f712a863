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
		add(rule, m.Line, m.Col, base+"/"+escape(m.Name), fmt.Sprintf("%q is a member of %s agyconf does not know: %s; agyconf writes such a member only from extra = { … }", shortName(m.Name), shortName(what), unknownWhy(rule)))
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

func unknownWhy(rule string) string {
	switch rule {
	case "mcp/unknown-field":
		return "agy ignores keys it does not read (reference §3), so it is a newer build's field or a misspelling that does nothing"
	case "agent/unknown-field":
		return "agy adds subagent keys between releases and no source shows an unknown one dropping the subagent (reference §8), so it is a newer build's key or a misspelling that does nothing"
	case "rule/unknown-field":
		return "agy reads trigger, globs and description of a rule (reference §6) and ignores any other key, so it does nothing (another tool's key, such as Cursor's alwaysApply or a name, or a misspelling)"
	case "workflow/unknown-field":
		return "agy reads only description of a workflow (reference §7) and ignores any other key, so it does nothing (another tool's key, such as a name or allowed-tools, or a misspelling)"
	case "plugin/unknown-field":
		return "agy discards keys it does not read and still loads the plugin (measured on 1.1.25), so it is a newer build's field or a misspelling that does nothing, and the CLI docs' schema refuses it"
	}
	return "a newer build's key or a misspelling that does nothing"
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
		add("plugin/disabled", l, col, "/disabled", fmt.Sprintf("\"disabled\": %v only seeds the plugin's enablement when agy first discovers it (agy 1.1.11): from then on its entry in ~/.gemini/config/config.json decides, whatever the manifest says; switch the plugin with agy plugin enable|disable, or agyconf's plugin { enabled = … }", d))
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
		add(rule, l, col, "/"+escape(k), fmt.Sprintf("%q is a frontmatter key agyconf does not know: %s; agyconf writes such a key only from extra = { … }", k, unknownWhy(rule)))
	}
}
