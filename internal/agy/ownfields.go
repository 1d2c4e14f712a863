package agy

// FieldSet names an object of a document whose members agyconf writes
// itself: the fields of an MCP server entry, of a subagent's frontmatter,
// of plugin.json.
type FieldSet string

const (
	MCPServerEntry   FieldSet = "an MCP server entry"
	AgentFrontmatter FieldSet = "a subagent's frontmatter"
	PluginManifest   FieldSet = "plugin.json"
)

// Field is one member agyconf writes, or refuses because agy reads it under
// another name: Input is the input language's way to set it.
type Field struct {
	Name  string
	Input string
}

// OwnFields are the members of s that agyconf writes itself or refuses:
// an extra = { … } may set none of them, so that it never overrides what
// the input language says. render's tests check that every member render
// writes is listed here.
func OwnFields(s FieldSet) []Field {
	switch s {
	case MCPServerEntry:
		return []Field{
			{"command", "command"}, {"args", "args"}, {"env", "env"}, {"cwd", "cwd"},
			{"serverUrl", "server_url"}, {"url", "server_url"}, {"type", "server_url"}, {"httpUrl", "server_url"},
			{"headers", "headers"}, {"authProviderType", "auth_provider_type"}, {"oauth", "an oauth block"},
			{"disabled", "disabled"}, {"enabled", "disabled"}, {"disabledTools", "disabled_tools"},
			{"enabledTools", "enabled_tools"}, {"timeoutSeconds", "timeout_seconds"}, {"tools", "tool blocks"},
		}
	case AgentFrontmatter:
		// The table of agent frontmatter keys (AgentFields).
		var out []Field
		for _, f := range AgentFields() {
			in := f.Arg
			if in == "" {
				in = "the block's label"
			}
			out = append(out, Field{f.Key, in})
		}
		return out
	case PluginManifest:
		return []Field{
			{"name", "the block's label"}, {"description", "description"},
			// Enablement lives in config.json since 1.1.11; a manifest's
			// "disabled" only seeds it once.
			{"disabled", "enabled (kept in ~/.gemini/config/config.json)"},
			{"permissions", "the top-level permissions block (plugins cannot declare permissions)"},
		}
	}
	return nil
}

// OwnField finds name among the members of s agyconf writes itself.
func OwnField(s FieldSet, name string) (Field, bool) {
	for _, f := range OwnFields(s) {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}
