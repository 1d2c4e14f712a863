package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agyconf/agyconf/internal/frontmatter"
	"github.com/agyconf/agyconf/schema"
)

// unknownFields reports the members of obj (at ptr) the named schema does
// not declare at defPtr: agy ignores or discards them, so each is either a
// newer build's field or a misspelling that does nothing — a warning, not
// an error. agyconf writes such members only from extra = { … }.
func (c *checker) unknownFields(rule, schemaName, defPtr string, obj map[string]any, ptr string, loc *locator, add func(string, int, int, string, string), what string) {
	known, err := c.properties(schemaName, defPtr)
	if err != nil {
		// The embedded schemas are agyconf's own: a test covers every
		// pointer used here.
		panic(fmt.Sprintf("lint: %v", err))
	}
	for _, k := range sortedMembers(obj) {
		if slices.Contains(known, k) {
			continue
		}
		p := ptr + "/" + escape(k)
		l, col := loc.value(p)
		add(rule, l, col, p, fmt.Sprintf("%q is a member of %s agyconf does not know: %s; agyconf writes such a member only from extra = { … }", k, what, unknownWhy(rule)))
	}
}

func unknownWhy(rule string) string {
	switch rule {
	case "mcp/unknown-field":
		return "agy ignores keys it does not read (reference §3), so it is a newer build's field or a misspelling that does nothing"
	case "agent/unknown-field":
		return "agy adds subagent keys between releases and no source shows an unknown one dropping the subagent (reference §8), so it is a newer build's key or a misspelling that does nothing"
	case "plugin/unknown-field":
		return "agy discards keys it does not read and still loads the plugin (measured on 1.1.25), so it is a newer build's field or a misspelling that does nothing, and the CLI docs' schema refuses it"
	}
	return "a newer build's key or a misspelling that does nothing"
}

// properties caches schema.Properties for one run.
func (c *checker) properties(name, ptr string) ([]string, error) {
	key := name + "#" + ptr
	if p, ok := c.props[key]; ok {
		return p, nil
	}
	p, err := schema.Properties(name, ptr)
	if err != nil {
		return nil, err
	}
	c.props[key] = p
	return p, nil
}

// pluginManifest runs what the plugin schema cannot check: members agy
// discards, and a disabled that only seeds enablement once.
func (c *checker) pluginManifest(root any, loc *locator, add func(string, int, int, string, string)) {
	m, ok := root.(map[string]any)
	if !ok {
		return
	}
	c.unknownFields("plugin/unknown-field", "plugin", "", m, "", loc, add, "plugin.json")
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

// agentUnknown reports the frontmatter keys of a subagent agyconf does not
// know (agent/unknown-field), each on the line of its key.
func (c *checker) agentUnknown(data []byte, add func(string, int, int, string, string)) {
	fm, _, line, err := frontmatter.Split(data)
	if err != nil {
		return
	}
	m, err := frontmatter.Parse(fm)
	if err != nil {
		return
	}
	known, err := c.properties("agent-frontmatter", "")
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
		add("agent/unknown-field", l, col, "/"+escape(k), fmt.Sprintf("%q is a frontmatter key agyconf does not know: %s; agyconf writes such a key only from extra = { … }", k, unknownWhy("agent/unknown-field")))
	}
}
