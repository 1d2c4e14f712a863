// Package factsgen writes what is derived from internal/agy's table but
// cannot be derived at run time: the parts of the JSON Schemas that list
// hook events, the facts the Nix module reads (nix/agy-facts.json), and
// the generated facts page (docs/agy-facts.md). Files that are partly
// hand-written are patched at the JSON pointers the table owns, every
// other byte kept (internal/jsonmerge). A test beside it fails when a
// generated file is stale; `go test ./internal/factsgen -update` rewrites
// them.
package factsgen

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/codec"
	"github.com/agyconf/agyconf/internal/jsonmerge"
)

// File is one generated file: its path below the repository root and the
// content it must have.
type File struct {
	Path string
	Data []byte
}

// Generate computes every generated file from the table and, for the
// patched ones, their current content in repo (the repository's tree).
func Generate(repo fs.FS) ([]File, error) {
	var out []File
	for _, g := range []struct {
		path  string
		patch func(*jsonmerge.Doc) error
	}{
		{"schema/agyconf.schema.json", patchInputSchema},
		{"schema/hooks.schema.json", patchHooksSchema},
		{"schema/cli-settings.schema.json", patchCLISettings},
		{"schema/acp-settings.schema.json", patchACPSettings},
		{"schema/agent-frontmatter.schema.json", patchAgentSchema},
		{"schema/skill-frontmatter.schema.json", patchSkillSchema},
	} {
		src, err := fs.ReadFile(repo, g.path)
		if err != nil {
			return nil, err
		}
		doc, err := jsonmerge.Parse(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.path, err)
		}
		if err := g.patch(doc); err != nil {
			return nil, fmt.Errorf("%s: %w", g.path, err)
		}
		out = append(out, File{g.path, doc.Bytes()})
	}
	nix, err := nixFacts()
	if err != nil {
		return nil, err
	}
	out = append(out, File{"nix/agy-facts.json", nix}, File{"docs/agy-facts.md", []byte(factsPage())})
	return out, nil
}

// set puts a Go value at path, encoded as two-space JSON without HTML
// escaping (jsonmerge indents it with the rest).
func set(doc *jsonmerge.Doc, v any, path ...string) error {
	raw, err := encode(v)
	if err != nil {
		return err
	}
	return doc.Set(raw, path...)
}

func encode(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(strings.TrimSuffix(b.String(), "\n")), nil
}

// ordered is a JSON object whose members keep the order given.
type ordered []member

type member struct {
	key   string
	value any
}

func (o ordered) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := encode(m.key)
		if err != nil {
			return nil, err
		}
		v, err := encode(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// sinceNote is what an event or feature newer than every build says about
// agy_version, for schema descriptions; "" for one every build has.
func sinceNote(since agy.Version, what string) string {
	if !since.Known() {
		return ""
	}
	return fmt.Sprintf(" ⚠ %s exists only in agy %s and newer, and an older build may drop the whole file for it: written only when agyconf.agy_version is %s or newer (the decoder checks).", what, since, since)
}

// extraDefs are the input schema's extra = { … } objects and the set of
// members each may not set.
var extraDefs = []struct {
	def string
	set codec.Set
}{{"mcpServerExtra", codec.MCPServerSet}, {"agentExtra", codec.AgentSet}, {"pluginExtra", codec.PluginSet}, {"ruleExtra", codec.RuleSet}, {"workflowExtra", codec.WorkflowSet}, {"skillExtra", codec.SkillSet}, {"handlerExtra", codec.HandlerSet}}

// keyNote is what a frontmatter key only newer builds read says about
// agy_version, for schema descriptions; "" for one every build reads.
func keyNote(f agy.Feature) string {
	if f == "" {
		return ""
	}
	since := agy.BehaviourOf(f).Since
	return fmt.Sprintf(" ⚠ Read since agy %s (an older build ignores it): written only when agyconf.agy_version is %s or newer (the decoder checks).", since, since)
}

// lowerFirst lowers a sentence's first letter, for a summary that follows
// a colon; "true …" and key names stay as they are.
func lowerFirst(s string) string {
	if s == "" || !strings.ContainsAny(s[:1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// sourced is a summary with its source: "… (agy CLI changelog 1.2.1)".
func sourced(summary string, src agy.Source) string {
	return strings.TrimSuffix(summary, ".") + " (" + src.String() + ")"
}

// inputType and liveType are the JSON Schema of a frontmatter value in the
// input language and in a live file.
func inputType(t agy.FieldType) member {
	switch t {
	case agy.FieldStrings:
		return member{"$ref", "#/$defs/textList"}
	case agy.FieldBool:
		return member{"type", "boolean"}
	}
	return member{"$ref", "#/$defs/nonBlankText"}
}

func liveType(t agy.FieldType, what string) ordered {
	switch t {
	case agy.FieldStrings:
		return ordered{{"type", "array"}, {"items", ordered{{"description", what}, {"type", "string"}}}}
	case agy.FieldBool:
		return ordered{{"type", "boolean"}}
	}
	return ordered{{"type", "string"}, {"pattern", "\\S"}}
}

// patchAgentFields writes the agent block's frontmatter arguments.
func patchAgentFields(doc *jsonmerge.Doc) error {
	for _, f := range agy.AgentFields() {
		if f.Arg == "" {
			continue
		}
		desc := fmt.Sprintf("Frontmatter %s: %s.%s", f.Key, lowerFirst(sourced(f.Summary, f.Source)), keyNote(f.Feature))
		if err := set(doc, ordered{{"description", desc}, inputType(f.Type)}, "$defs", "agent", "properties", f.Arg); err != nil {
			return err
		}
	}
	for _, f := range agy.SkillFields() {
		desc := fmt.Sprintf("SKILL.md %s: %s. Only with body: a skill with source carries its own SKILL.md.%s", f.Key(), lowerFirst(sourced(f.Summary, f.Source)), keyNote(f.Feature))
		if err := set(doc, ordered{{"description", desc}, inputType(f.Type)}, "$defs", "skill", "properties", f.Arg); err != nil {
			return err
		}
		if err := set(doc, []string{"body"}, "$defs", "skill", "dependentRequired", f.Arg); err != nil {
			return err
		}
	}
	return nil
}

// patchAgentSchema writes the properties of the subagent frontmatter
// schema that agyconf's table knows.
func patchAgentSchema(doc *jsonmerge.Doc) error {
	for _, f := range agy.AgentFields() {
		desc := fmt.Sprintf("%s.%s", sourced(f.Summary, f.Source), keyNote(f.Feature))
		prop := append(ordered{{"description", desc}}, liveType(f.Type, "One entry of "+f.Key+".")...)
		if f.ShapeUnknown {
			prop = ordered{{"description", desc + " Any value passes: no source gives the shape agy reads."}}
		}
		if err := set(doc, prop, "properties", f.Key); err != nil {
			return err
		}
	}
	return nil
}

// patchSkillSchema writes the SKILL.md keys of agyconf's table.
func patchSkillSchema(doc *jsonmerge.Doc) error {
	for _, f := range agy.SkillFields() {
		desc := fmt.Sprintf("%s.%s", sourced(f.Summary, f.Source), keyNote(f.Feature))
		prop := append(ordered{{"description", desc}}, liveType(f.Type, "One entry of "+f.Key()+".")...)
		path := []string{"properties"}
		for i, k := range f.Path {
			path = append(path, k)
			if i < len(f.Path)-1 {
				if _, ok := doc.Get(path...); !ok {
					parent := ordered{{"description", "A mapping of further keys (agy reads some of them: see its properties)."}, {"type", "object"}}
					if err := set(doc, parent, path...); err != nil {
						return err
					}
				}
				path = append(path, "properties")
			}
		}
		if err := set(doc, prop, path...); err != nil {
			return err
		}
	}
	return nil
}

// patchInputSchema writes the hook block's event properties and the rule
// that a hook has at least one of them, the settings keys and permission
// entries (patchSettingsKeys), the frontmatter arguments of the agent and
// skill blocks, and the members each extra object may not set.
func patchInputSchema(doc *jsonmerge.Doc) error {
	if err := patchSettingsKeys(doc); err != nil {
		return err
	}
	if err := patchAgentFields(doc); err != nil {
		return err
	}
	for _, x := range extraDefs {
		var names []string
		for _, f := range codec.Own(x.set) {
			names = append(names, f.Key)
		}
		if err := set(doc, names, "$defs", x.def, "propertyNames", "not", "enum"); err != nil {
			return err
		}
	}
	var anyOf []any
	for _, e := range agy.Events() {
		ref, shape := "#/$defs/handlerBlocks", "One handler per block (repeat it, or write an array); no matcher: agy ignores one here (skillsaw, agy 1.1.25)."
		if e.Grouped {
			ref, shape = "#/$defs/matcherGroupBlocks", "Matcher groups: one group body, or an array of them, run in order."
		}
		desc := fmt.Sprintf("%s: %s (%s).%s %s", e.Name, e.When, e.Source, sinceNote(e.Since, string(e.Name)), shape)
		if err := set(doc, ordered{{"description", desc}, {"$ref", ref}}, "$defs", "hook", "properties", e.Block()); err != nil {
			return err
		}
		anyOf = append(anyOf, ordered{{"required", []string{e.Block()}}, {"properties", ordered{{e.Block(), ordered{{"$ref", "#/$defs/nonEmptyBlocks"}}}}}})
	}
	if err := set(doc, anyOf, "$defs", "hook", "anyOf"); err != nil {
		return err
	}
	// Where a plugin's hooks go: contested, so both files (agy.PluginHooks).
	ph := agy.PluginHooks()
	files := strings.Join(agy.PluginHooksPaths(), " and ")
	if err := set(doc, fmt.Sprintf("Named hooks of the plugin, written to its %s, the same in both: the sources disagree on which of the two agy reads a plugin's hooks from (docs/agy-facts.md, \"Where agy reads a plugin's hooks\", has the evidence). %s.", files, strings.ToUpper(ph.Caveat[:1])+ph.Caveat[1:]), "$defs", "plugin", "properties", "hook", "description"); err != nil {
		return err
	}
	// A skill's body and its limit, from the table of limits.
	l := agy.LimitOf(agy.SkillBody)
	desc := fmt.Sprintf("The SKILL.md text below the frontmatter, often body = \"${file(\\\"skills/name.md\\\")}\"; not empty. %s (%s), so a longer body is refused.", strings.ToUpper(l.Summary[:1])+l.Summary[1:], l.Source)
	if l.Unit == agy.Bytes {
		desc += fmt.Sprintf(" The schema counts %s characters; the decoder counts bytes.", thousands(l.Max))
	}
	for _, p := range []struct {
		v    any
		path []string
	}{{desc, []string{"$defs", "skill", "properties", "body", "description"}}, {l.Max, []string{"$defs", "skill", "properties", "body", "maxLength"}}} {
		if err := set(doc, p.v, p.path...); err != nil {
			return err
		}
	}
	return nil
}

// patchHooksSchema writes hooks.json's event properties and the pattern
// that refuses an event at the top level.
func patchHooksSchema(doc *jsonmerge.Doc) error {
	var grouped, flat, alts []string
	for _, e := range agy.Events() {
		ref, shape := "#/$defs/flatEvent", "Flat: a list of handlers, no matcher groups."
		if e.Grouped {
			ref, shape = "#/$defs/groupedEvent", "Grouped: a list of matcher groups {matcher, hooks}, run in order."
			grouped = append(grouped, string(e.Name))
		} else {
			flat = append(flat, string(e.Name))
		}
		when := strings.ToUpper(e.When[:1]) + e.When[1:]
		desc := fmt.Sprintf("%s (%s).%s %s", when, e.Source, sinceNote(e.Since, string(e.Name)), shape)
		if err := set(doc, ordered{{"description", desc}, {"$ref", ref}}, "$defs", "namedHook", "properties", string(e.Name)); err != nil {
			return err
		}
		alts = append(alts, caseless(string(e.Name)))
	}
	var names []string
	for _, e := range agy.Events() {
		names = append(names, string(e.Name))
	}
	for _, p := range []struct {
		value any
		path  []string
	}{
		{fmt.Sprintf("A named hook: enabled plus event lists. Grouped events (%s) take matcher groups; flat events (%s) take handlers directly. Only canonical event names: see the top-level description for why other casings and unknown events are refused.", strings.Join(grouped, ", "), strings.Join(flat, ", ")), []string{"$defs", "namedHook", "description"}},
		{fmt.Sprintf("The shape of %s: an array of matcher groups. Handler objects directly in this array are the flat shape, which these events do not take.", strings.Join(grouped, " and ")), []string{"$defs", "groupedEvent", "description"}},
		{fmt.Sprintf("The shape of %s: an array of handlers. A matcher group here is the grouped shape, which agy rejects — the whole file — with \"command hook must specify 'command'\" (skillsaw, agy 1.1.25; Gobby).", strings.Join(flat, ", ")), []string{"$defs", "flatEvent", "description"}},
		{names, []string{"$defs", "canonicalEvent", "enum"}},
		{append([]string{"enabled"}, names...), []string{"$defs", "namedHookKey", "enum"}},
	} {
		if err := set(doc, p.value, p.path...); err != nil {
			return err
		}
	}
	return set(doc, "^(?:"+strings.Join(alts, "|")+")$", "$defs", "eventName", "pattern")
}

// caseless is a regular expression matching s in any letter case.
func caseless(s string) string {
	var b strings.Builder
	for _, r := range s {
		lo, up := strings.ToLower(string(r)), strings.ToUpper(string(r))
		if lo == up {
			b.WriteString(string(r))
			continue
		}
		b.WriteString("[" + up + lo + "]")
	}
	return b.String()
}
