package agy

import (
	"slices"
	"sync"
)

// Feature names a behaviour of agy that changed between builds: something
// newer builds read, write or accept that older ones do not.
type Feature string

// Features code gates on.
const (
	// PromptHandlers: hook handlers of type "prompt".
	PromptHandlers Feature = "hooks/prompt-handler"
	// MCPURL: a remote server's address in url, beside serverUrl.
	MCPURL Feature = "mcp/url"
	// MCPTimeoutSeconds: a server's launch timeout, timeoutSeconds.
	MCPTimeoutSeconds Feature = "mcp/timeout-seconds"
	// MCPEnabledTools: a server's allowlist of tools, enabledTools.
	MCPEnabledTools Feature = "mcp/enabled-tools"
	// MCPToolLoading: per-tool settings of a server, tools.<tool>.eager.
	MCPToolLoading Feature = "mcp/tool-loading"
	// MCPPluginServerNames: a plugin's MCP servers named <plugin>_<server>.
	MCPPluginServerNames Feature = "mcp/plugin-server-names"
	// MCPComments, MCPTrailingCommas, MCPBOM: what agy's reader of
	// mcp_config.json accepts beyond strict JSON.
	MCPComments       Feature = "mcp/comments"
	MCPTrailingCommas Feature = "mcp/trailing-commas"
	MCPBOM            Feature = "mcp/bom"
	// HooksBOM, PluginBOM: a byte order mark in hooks.json and plugin.json.
	HooksBOM  Feature = "hooks/bom"
	PluginBOM Feature = "plugin/bom"
	// UserConfigBOM: a byte order mark in ~/.gemini/config/config.json.
	UserConfigBOM Feature = "user-config/bom"
	// MCPEmptyFile: an mcp_config.json of zero bytes, which agy itself
	// writes on its first run, read as no servers.
	MCPEmptyFile Feature = "mcp/empty-file"

	// Subagent frontmatter keys newer builds read (AgentFields names the
	// key each one is about). An older build ignores a key it does not
	// know, so the agent would run without what the key asks for: a tool
	// set not cut down, customizations inherited after all.
	AgentModel                    Feature = "agents/model"
	AgentMarkdownKeys             Feature = "agents/markdown-keys"
	AgentInheritCustomizations    Feature = "agents/inherit-customizations"
	AgentRules                    Feature = "agents/rules"
	AgentAgents                   Feature = "agents/agents"
	AgentExcludeDefaultComponents Feature = "agents/exclude-default-components"
	AgentHooks                    Feature = "agents/hooks"

	// SKILL.md frontmatter keys newer builds read.
	SkillDisableSlashCommand Feature = "skills/disable-slash-command"
	SkillIcon                Feature = "skills/icon"

	// GlobalRuleSources: the global rule places besides ~/.gemini/GEMINI.md
	// (the Reads of the rules and global_rules kinds).
	GlobalRuleSources Feature = "rules/global-sources"
)

// Behaviour is one version-dependent behaviour.
type Behaviour struct {
	Feature Feature
	Summary string
	// Since is the first build with it. For what agyconf writes, a
	// feature is used only when agy_version is at least this (an older
	// build may drop a whole file over it); for what a user's live file
	// holds, it is a warning naming the version when no version is given,
	// and an error when an older one is.
	Since  Version
	Source Source
}

func behaviours() []Behaviour {
	return []Behaviour{
		{Feature: PromptHandlers, Summary: `hook handlers with "type": "prompt" (a model call instead of a command)`, Since: V(1, 1, 25), Source: Source{Probe, "1.1.25 and 1.1.26 by skillsaw; unknown to older builds, which drop the whole hooks.json"}},
		{Feature: MCPURL, Summary: "a remote MCP server's address in `url` as well as `serverUrl` (agyconf writes serverUrl)", Since: V(1, 0, 5),
			Source: Source{Changelog, "1.0.5 (url in mcp_config.json; Antigravity 2.0 v2.1.4); an older build ignores url, and the server connects nowhere"}},
		{Feature: MCPTimeoutSeconds, Summary: "`timeoutSeconds` on an MCP server: how long agy waits for it to launch, -1 for no limit", Since: V(1, 0, 7),
			Source: Source{Changelog, "1.0.7 (a configurable launch timeout, -1 disables it); the field is first named timeoutSeconds in 1.1.16. The earlier version is used: a build in between that ignores the field starts the server with its default timeout, and no live file is called wrong for it"}},
		{Feature: MCPEnabledTools, Summary: "`enabledTools` on an MCP server: the tools agy offers, all others hidden", Since: V(1, 1, 16),
			Source: Source{Changelog, "1.1.16 (the /mcp panel keeps enabledTools, written by newer clients); an older build ignores it and offers every tool of the server"}},
		{Feature: MCPToolLoading, Summary: "per-tool settings of an MCP server, `tools.<tool>.eager` (load the tool's declaration at startup)", Since: V(1, 1, 16),
			Source: Source{Changelog, "1.1.16 names tools.eager; the per-tool shape tools.<tool>.eager is a third-party reading (an mcp_config.json written by Antigravity with tools.<name>.eager and .background), the only one under which writing it cannot cost the server"}},
		{Feature: MCPPluginServerNames, Summary: "a plugin's MCP server is named `<plugin>_<server>`: permission entries `mcp(<plugin>_<server>/…)` name it so", Since: V(1, 2, 2),
			Source: Source{Changelog, "1.2.2 (\"automatically namespacing plugin MCP servers as <plugin>_<server>\", so that they no longer collide); that permission rules and hook matchers follow the name is a third-party reading. An older build knows the server by its own name, so the namespaced entry matches nothing there, and the bare one matches nothing from 1.2.2 on"}},
		{Feature: RegexCommandRules, Summary: `command(regex:PATTERN) permission rules, matched as a regular expression; older builds read every rule as a pattern, "regex:" included, so the rule matches nothing there`, Since: V(1, 0, 13), Source: Source{Changelog, "1.0.13 (command rules literal by default, a regex: prefix opts in); the command(regex:…) form as the permissions docs write it, quoted by third parties"}},
		{Feature: VerbosityMedium, Summary: `verbosity "medium" in settings.json; an older build does not know the value, and before 1.1.20 an unrecognized setting value could make it overwrite settings.json with defaults`, Since: V(1, 2, 10), Source: Source{Changelog, "1.2.10 (medium verbosity); 1.1.20 (settings.json no longer overwritten over an unrecognized value)"}},
		{Feature: MCPComments, Summary: "`//` and `/* */` comments in mcp_config.json", Since: V(1, 1, 24), Source: Source{Changelog, "1.1.24 (\"Fixed MCP configuration parsing failing when mcp_config.json contains single-line (//) comments, multi-line (/* */) comments, or trailing commas\"); older builds refuse the file at startup"}},
		{Feature: MCPTrailingCommas, Summary: "trailing commas in mcp_config.json", Since: V(1, 1, 24), Source: Source{Changelog, "1.1.24 (the same fix as comments)"}},
		{Feature: MCPEmptyFile, Summary: "an mcp_config.json of zero bytes (agy writes one itself on its first run, and again later) read as no servers; before, it crashed the loader at startup (\"unexpected end of JSON input\"), before the workspace's file was read", Since: V(1, 2, 0), Source: Source{ThirdParty, "google-antigravity/antigravity-cli#252 (\"Parser crashes on empty mcp_config\", opened 2026-05-31; the maintainers' comment of 2026-09-09: resolved in the latest release). The first build after that date is taken: CLI 1.2.0, which sigil's compatibility notes of 2026-09-10 measure; 1.1.27 (2026-09-05) may have had the fix, and judging it older errs towards an error on that build only"}},
		{Feature: MCPBOM, Summary: "a UTF-8 byte order mark at the start of mcp_config.json", Since: V(1, 1, 23), Source: Source{Changelog, "1.1.23 (\"Fixed parsing MCP JSON configuration files on Windows when saved with a UTF-8 byte order mark\"); reported on Windows, and the safe reading is every platform from that build on"}},
		{Feature: UserConfigBOM, Summary: "a UTF-8 byte order mark at the start of ~/.gemini/config/config.json", Since: V(1, 2, 16), Source: Source{ThirdParty, "a reading of the agy CLI changelog up to 1.3.1: config.json accepted with a BOM by 1.2.16; the public changelog up to 1.2.10 has no such entry, so no earlier build is assumed"}},
		{Feature: HooksBOM, Summary: "a UTF-8 byte order mark at the start of hooks.json", Since: V(1, 3, 1), Source: Source{ThirdParty, "a reading of the agy CLI changelog up to 1.3.1: accepted by 1.3.1, the first build named; the public changelog up to 1.2.10 has no such entry, so no earlier build is assumed"}},
		{Feature: PluginBOM, Summary: "a UTF-8 byte order mark at the start of plugin.json", Since: V(1, 3, 1), Source: Source{ThirdParty, "a reading of the agy CLI changelog up to 1.3.1; older builds do not load a plugin.json with one (skillsaw, agy 1.1.25)"}},
		{Feature: AgentModel, Summary: "model in a subagent's frontmatter: the model tier the agent runs at when invoked as a subagent (default inherit, the parent's)", Since: V(1, 1, 5), Source: Source{Changelog, "1.1.5"}},
		{Feature: AgentMarkdownKeys, Summary: "mainAgent, subagent, hidden, inheritMcp and commandExecutionPolicy in a subagent's frontmatter, with Markdown agents (agent.md)", Since: V(1, 1, 6), Source: Source{Changelog, "1.1.6"}},
		{Feature: AgentInheritCustomizations, Summary: "inheritCustomizations in a subagent's frontmatter: one switch for whether the agent adopts the user's skills, rules, plugins, subagents and MCP servers", Since: V(1, 1, 14), Source: Source{Changelog, "1.1.14"}},
		{Feature: AgentRules, Summary: "rules in a subagent's frontmatter: rule files the agent applies always, instead of inheriting the whole rule tree", Since: V(1, 1, 15), Source: Source{Changelog, "1.1.15"}},
		{Feature: AgentAgents, Summary: "agents in a subagent's frontmatter: the subagents it depends on, with the path rules of skills (workspace-relative, absolute, agent-relative)", Since: V(1, 1, 27), Source: Source{Changelog, "1.1.27"}},
		{Feature: AgentExcludeDefaultComponents, Summary: "excludeDefaultComponents: true in a subagent's frontmatter: the agent opts out of the default prompt sections and built-in tools", Since: V(1, 2, 1), Source: Source{Changelog, "1.2.1"}},
		{Feature: AgentHooks, Summary: "hooks in a subagent's frontmatter", Since: V(1, 3, 1), Source: Source{ThirdParty, "a reading of the Antigravity 2.0 v2.17.0 and CLI 1.3.1 changelogs; the shape of the value is in no source agyconf could read"}},
		{Feature: SkillDisableSlashCommand, Summary: "disable-slash-command: true in SKILL.md: the skill leaves the / menu and /name resolution and stays invocable by the model", Since: V(1, 1, 12), Source: Source{Changelog, "1.1.12"}},
		{Feature: SkillIcon, Summary: "metadata.icon in SKILL.md: an emoji shown in the /skills catalog and in slash-command completion", Since: V(1, 1, 20), Source: Source{Changelog, "1.1.20"}},
		{Feature: GlobalRuleSources, Summary: "global rules read from ~/.gemini/config/rules/, ~/.gemini/AGENTS.md, ~/.gemini/config/AGENTS.md and ~/.gemini/config/GEMINI.md, besides ~/.gemini/GEMINI.md", Since: V(1, 2, 15), Source: Source{ThirdParty, "a reading of the CLI 1.2.15 changelog; third-party installers write ~/.gemini/config/rules/"}},
	}
}

// PluginServerName is what agy 1.2.2 and newer call the MCP server server
// of the plugin plugin (MCPPluginServerNames).
func PluginServerName(plugin, server string) string { return plugin + "_" + server }

// Behaviours lists every version-dependent behaviour.
func Behaviours() []Behaviour { return slices.Clone(behaviourTable()) }

// behaviourTable is the table, built once (Has runs per entry); never
// modified.
var behaviourTable = sync.OnceValue(behaviours)

// BehaviourOf returns the row of a feature; every Feature constant has
// one (a test checks).
func BehaviourOf(f Feature) Behaviour {
	for _, b := range behaviourTable() {
		if b.Feature == f {
			return b
		}
	}
	return Behaviour{Feature: f}
}

// Has reports whether a build of version v has the feature. An unknown v
// has only what every known build has.
func Has(v Version, f Feature) bool { return v.AtLeast(BehaviourOf(f).Since) }

// JSONExtension is a construct of JSON text beyond strict JSON (RFC 8259).
type JSONExtension string

const (
	Comments       JSONExtension = "comments"
	TrailingCommas JSONExtension = "trailing-commas"
	BOM            JSONExtension = "bom"
)

// jsonSyntax says which extension agy accepts in the documents of which
// schema, by the feature (and so the build) that brought it. What is not
// listed, agy refuses in every build agyconf knows: a comment in hooks.json,
// anything in settings.json.
func jsonSyntax() []struct {
	Schema    string
	Extension JSONExtension
	Feature   Feature
} {
	return []struct {
		Schema    string
		Extension JSONExtension
		Feature   Feature
	}{
		{"mcp_config", Comments, MCPComments},
		{"mcp_config", TrailingCommas, MCPTrailingCommas},
		{"mcp_config", BOM, MCPBOM},
		{"hooks", BOM, HooksBOM},
		{"plugin", BOM, PluginBOM},
		{"user-config", BOM, UserConfigBOM},
	}
}

// JSONAccepts returns the behaviour row of the build from which agy
// accepts ext in a document of the schema named schema, and false when no
// build does.
func JSONAccepts(schema string, ext JSONExtension) (Behaviour, bool) {
	for _, r := range jsonSyntax() {
		if r.Schema == schema && r.Extension == ext {
			return BehaviourOf(r.Feature), true
		}
	}
	return Behaviour{}, false
}
