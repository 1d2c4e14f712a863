package agy

// FieldType is the type of a frontmatter value agyconf writes.
type FieldType string

const (
	FieldString  FieldType = "string"
	FieldStrings FieldType = "list of strings"
	FieldBool    FieldType = "boolean"
)

// AgentField is one key of a subagent's agent.md frontmatter that agyconf
// knows: the agent block's argument that writes it and since when agy
// reads it. The decoder, render, import, lint, the schemas (generated
// parts) and the docs derive from this list; a key not in it is unknown to
// agyconf.
type AgentField struct {
	// Key is the frontmatter key, as agy spells it.
	Key string
	// Arg is the agent block's argument; "" for the name, which is the
	// block's label.
	Arg  string
	Type FieldType
	// Feature is the behaviour row of a key only newer builds read; ""
	// for a key every build that reads subagents reads (name,
	// description, and the lists rulesync names, which no changelog
	// dates).
	Feature Feature
	// ShapeUnknown: no source gives the value's shape. agyconf writes the
	// shape Type names when asked to, and accepts any value in a live
	// file, so that no file is called wrong for a shape nobody knows.
	ShapeUnknown bool
	// Summary says what the key does, for schema descriptions and docs.
	Summary string
	Source  Source
}

// agentPaths is how agy resolves the entries of a subagent's path lists.
const agentPaths = "Entries are names or paths: absolute, workspace-relative, or relative to the agent's folder (CLI changelog 1.1.25, 1.1.27)."

// agentFields is the table, in the order render writes the keys.
func agentFields() []AgentField {
	return []AgentField{
		{Key: "name", Type: FieldString, Summary: "The subagent's name; required, not blank. agyconf writes the block's label", Source: Source{ThirdParty, "rulesync, citing antigravity.google/docs/subagents (CLI 1.1.6 and newer)"}},
		{Key: "description", Arg: "description", Type: FieldString, Summary: "When to delegate to the subagent; required, not blank: the main agent reads it to decide", Source: Source{ThirdParty, "rulesync, citing antigravity.google/docs/subagents"}},
		{Key: "model", Arg: "model", Type: FieldString, Feature: AgentModel, Summary: "The model the subagent runs on; agy's default is inherit (the parent's). Values seen: inherit, flash_lite, flash, pro, and full model names such as gemini-3.8-flash-high, so any non-blank string is taken.", Source: Source{Changelog, "1.1.5; pstack names the values inherit, flash_lite, flash and pro"}},
		{Key: "tools", Arg: "tools", Type: FieldStrings, Summary: "The tool names the subagent may use, such as view_file or run_command; default []. A list, not the comma-separated string of other tools' agent files. A custom agent may list tools retired from the default set (find_by_name, grep_search, list_dir: CLI 1.2.7)", Source: Source{Changelog, "1.2.7 (find_by_name, grep_search and list_dir left the default set); rulesync (tools: []); tool names probed by dotai"}},
		{Key: "mcpServers", Arg: "mcp_servers", Type: FieldStrings, Summary: "The MCP servers the subagent may use, by name; default [].", Source: Source{ThirdParty, "rulesync"}},
		{Key: "skills", Arg: "skills", Type: FieldStrings, Summary: "The skills the subagent may use; default []. " + agentPaths, Source: Source{Changelog, "1.1.27 (the path rules); rulesync (skills: [])"}},
		{Key: "plugins", Arg: "plugins", Type: FieldStrings, Summary: "The plugins the subagent may use; default []. " + agentPaths, Source: Source{Changelog, "1.1.25 (relative plugin paths); rulesync (plugins: [])"}},
		{Key: "rules", Arg: "rules", Type: FieldStrings, Feature: AgentRules, Summary: "Rule files the subagent applies, always, instead of inheriting the whole rule tree. " + agentPaths, Source: Source{Changelog, "1.1.15"}},
		{Key: "agents", Arg: "agents", Type: FieldStrings, Feature: AgentAgents, Summary: "The subagents this agent depends on. " + agentPaths, Source: Source{Changelog, "1.1.27"}},
		{Key: "hooks", Arg: "hooks", Type: FieldStrings, Feature: AgentHooks, ShapeUnknown: true, Summary: "Hooks of the subagent. ⚠ Only a third-party reading of the changelogs names the key, and no source gives the value's shape: agyconf writes a list of strings (hooks.json files, read like the other path lists), an unverified guess, and accepts any value in a live file.", Source: Source{ThirdParty, "reading of the Antigravity 2.0 v2.17.0 and CLI 1.3.1 changelogs"}},
		{Key: "commandExecutionPolicy", Feature: AgentMarkdownKeys, Arg: "command_execution_policy", Type: FieldString, Summary: "How the subagent runs commands; agy's default is sandbox. The other values are undocumented (off and ask are seen), so any non-blank string is taken.", Source: Source{Changelog, "1.1.6 (Markdown agents); rulesync"}},
		{Key: "mainAgent", Feature: AgentMarkdownKeys, Arg: "main_agent", Type: FieldBool, Summary: "Whether the agent can be the main agent; default true.", Source: Source{Changelog, "1.1.6 (Markdown agents); rulesync"}},
		{Key: "subagent", Feature: AgentMarkdownKeys, Arg: "subagent", Type: FieldBool, Summary: "Whether the agent can be invoked as a subagent; default true", Source: Source{Changelog, "1.1.6 (Markdown agents); rulesync"}},
		{Key: "hidden", Feature: AgentMarkdownKeys, Arg: "hidden", Type: FieldBool, Summary: "Hides the agent from agy's lists (rulesync passes it through)", Source: Source{Changelog, "1.1.6 (Markdown agents); rulesync"}},
		{Key: "inheritMcp", Feature: AgentMarkdownKeys, Arg: "inherit_mcp", Type: FieldBool, Summary: "Whether the agent inherits the caller's MCP servers (rulesync passes it through)", Source: Source{Changelog, "1.1.6 (Markdown agents); rulesync"}},
		{Key: "inheritCustomizations", Arg: "inherit_customizations", Type: FieldBool, Feature: AgentInheritCustomizations, Summary: "One switch for whether the agent adopts the user's skills, rules, plugins, subagents and MCP servers (Markdown agents inherit them by default since CLI 1.1.25).", Source: Source{Changelog, "1.1.14, 1.1.25"}},
		{Key: "excludeDefaultComponents", Arg: "exclude_default_components", Type: FieldBool, Feature: AgentExcludeDefaultComponents, Summary: "true opts the agent out of agy's default prompt sections and built-in tools (post-invocation hooks still run).", Source: Source{Changelog, "1.2.1"}},
	}
}

// AgentFields lists every subagent frontmatter key agyconf knows, in the
// order render writes them.
func AgentFields() []AgentField { return agentFields() }

// AgentFieldOf finds a key's row.
func AgentFieldOf(key string) (AgentField, bool) {
	for _, f := range agentFields() {
		if f.Key == key {
			return f, true
		}
	}
	return AgentField{}, false
}

// Since is the first build that reads the key; unknown for a key every
// build that reads Markdown agents reads.
func (f AgentField) Since() Version {
	if f.Feature == "" {
		return Version{}
	}
	return BehaviourOf(f.Feature).Since
}

// SkillField is one key of a SKILL.md frontmatter that a skill block
// writes besides name and description.
type SkillField struct {
	// Path is the key's place in the frontmatter: one key, or a nested
	// one (metadata, icon).
	Path    []string
	Arg     string
	Type    FieldType
	Feature Feature
	Summary string
	Source  Source
}

// Key is the key as the docs write it: "metadata.icon".
func (f SkillField) Key() string {
	k := ""
	for i, p := range f.Path {
		if i > 0 {
			k += "."
		}
		k += p
	}
	return k
}

// Since is the first build that reads the key.
func (f SkillField) Since() Version { return BehaviourOf(f.Feature).Since }

func skillFields() []SkillField {
	return []SkillField{
		{Path: []string{"metadata", "icon"}, Arg: "icon", Type: FieldString, Feature: SkillIcon, Summary: "An emoji shown for the skill in the /skills catalog, its detail header and slash-command completion.", Source: Source{Changelog, "1.1.20"}},
		{Path: []string{"disable-slash-command"}, Arg: "disable_slash_command", Type: FieldBool, Feature: SkillDisableSlashCommand, Summary: "true hides the skill from the / menu and from /name resolution; the model can still discover and invoke it.", Source: Source{Changelog, "1.1.12"}},
	}
}

// SkillFields lists the SKILL.md keys a skill block writes besides name
// and description, in the order render writes them.
func SkillFields() []SkillField { return skillFields() }
