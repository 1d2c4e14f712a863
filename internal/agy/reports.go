package agy

import (
	"slices"
	"sync"
)

// ReportID names one of agy's own answers about what it loaded.
type ReportID string

// The reports agyconf doctor knows of.
const (
	ReportVersion     ReportID = "version"
	ReportHooks       ReportID = "hooks"
	ReportMCPList     ReportID = "mcp-list"
	ReportSkills      ReportID = "skills"
	ReportPermissions ReportID = "permissions"
	ReportAgents      ReportID = "agents"
)

// Report is one read-only question agy answers about itself: the command,
// the first build that answers it without starting a model turn, and the
// shape of the answer as third parties recorded it. agyconf doctor asks
// only the reports it can read (Read) on builds that answer them (Since).
type Report struct {
	ID ReportID
	// Args follow the agy program: ["-p", "/hooks", "--output-format", "json"].
	Args []string
	// Lists says what the answer names.
	Lists string
	// Since is the first build that answers; for a slash command in print
	// mode, the first that answers it locally. Before it the prompt went
	// to the model as text (CLI changelog 1.1.11: "previously fell through
	// as literal prompt text and let the model answer"): a model turn on
	// the user's quota, so a report is never asked of an older build.
	Since Version
	// PluginsSince is the first build whose answer includes what plugins
	// bring; zero when plugins are not part of it.
	PluginsSince Version
	// Read says whether doctor reads the answer; Why says why not.
	Read bool
	Why  string
	// Shape is the answer as recorded; Gaps what it does not cover.
	Shape string
	Gaps  string
	// Source backs Since; ShapeSource is where the shape was recorded.
	Source, ShapeSource Source
}

// Slash is the slash command a print-mode report sends as its prompt, or
// "" for a subcommand.
func (r Report) Slash() string {
	for i, a := range r.Args {
		if (a == "-p" || a == "--print") && i+1 < len(r.Args) {
			return r.Args[i+1]
		}
	}
	return ""
}

// PrintSkillExpansion is the first build whose print mode runs a prompt
// "/NAME ..." as the skill or workflow NAME: from it on, a skill named
// like a report's slash command may be what answers the report, with a
// model turn. Which of the two wins is in no source, so doctor does not
// ask a report whose name the config gives a skill or a workflow.
func PrintSkillExpansion() (Version, Source) {
	return V(1, 1, 9), Source{Changelog, "1.1.9 (\"slash-command and skill expansion to print mode, so a headless run such as -p \\\"/my-skill review this diff\\\" now resolves and applies the skill\")"}
}

func reports() []Report {
	return []Report{
		{ID: ReportVersion, Args: []string{"--version"}, Lists: "the build, one line", Read: true,
			Shape:       "`1.1.26`: the version alone on one line (a leading `v` is accepted)",
			Source:      Source{ThirdParty, "every capture of agy; the version gates every other report"},
			ShapeSource: Source{ThirdParty, "a sanitized capture of agy.exe 1.1.26, 2026-09-19 (`agy --version` printed `1.1.26`); entireio/cli cmd/entire/cli/agent/antigravity/hooks_probe.go, which accepts a leading v"}},
		{ID: ReportHooks, Args: []string{"-p", "/hooks", "--output-format", "json"}, Lists: "every named hook agy loaded: its name, whether it is enabled, the hooks.json it came from and its handlers",
			Since: V(1, 1, 12), PluginsSince: V(1, 2, 3), Read: true,
			Shape:       "`{\"conversation_id\":\"\",\"status\":\"SUCCESS\",\"response\":\"…\",\"num_turns\":0,\"usage\":{…},\"command\":{\"name\":\"hooks\",\"data\":{\"hooks\":[{\"name\":\"…\",\"enabled\":true,\"source\":\"<absolute path of the hooks.json>\",\"actions\":[{\"event\":\"PreToolUse\",\"matcher\":\"*\",\"type\":\"command\",\"command\":\"…\"}]}]}}}`",
			Gaps:        "the hooks of plugins only from 1.2.3; a workspace's hooks only with `--add-dir` and the absolute workspace; one Windows build was seen to list no workspace hooks while running them (antigravity-cli #562)",
			Source:      Source{Changelog, "1.1.12 (\"-p \\\"/permissions\\\", /hooks, /help, /changelog and /config each emit one tab-separated record per line, or a structured payload under --output-format json, without starting an agent turn\"); 1.2.3 (plugin hooks listed)"},
			ShapeSource: Source{ThirdParty, "entireio/cli cmd/entire/cli/agent/antigravity/hooks_probe_test.go (\"real 1.1.22 envelope shape\"); a live probe of agy 1.1.27, 2026-09-07 (num_turns 0, every usage counter 0, source the absolute path)"}},
		{ID: ReportMCPList, Args: []string{"mcp", "list"}, Lists: "the MCP servers of the user-level mcp_config.json: name, type, enabled or disabled, command or URL",
			Since: V(1, 1, 16), Read: true,
			Shape:       "a table: `NAME    TYPE   STATUS   COMMAND/URL`, then one row per server (`koinon  stdio  enabled  /path/cmd args`), STATUS `enabled` or `disabled`; with none, `No MCP servers configured.`",
			Gaps:        "only the user-level ~/.gemini/config/mcp_config.json: not a workspace's .agents/mcp_config.json, and no source shows whether it lists plugins' servers",
			Source:      Source{Changelog, "1.1.16 (\"mcp subcommands (add, remove, list, enable, disable) for managing MCP servers in your user-level mcp_config.json\")"},
			ShapeSource: Source{ThirdParty, "rwcii/koinon internal/setup/setup_test.go (output captured from agy 1.3.0); the empty answer from a sanitized capture of agy.exe 1.1.26, 2026-09-19; a workspace file not listed: a third-party run noted in a Paseo plugin's docs"}},
		{ID: ReportSkills, Args: []string{"-p", "/skills", "--output-format", "json"}, Lists: "every skill agy loaded: name, description, the SKILL.md it came from, whether it is built in",
			Since: V(1, 1, 16), Read: true,
			Shape:       "`{…,\"command\":{\"name\":\"skills\",\"data\":{\"skills\":[{\"name\":\"…\",\"description\":\"…\",\"path\":\"<absolute path of the SKILL.md>\",\"builtin\":false,\"model_invocable\":true}]}}}`",
			Gaps:        "answered locally from 1.1.11, its builtin flag accurate from 1.1.16 (the first build asked); the shape is from third-party tests, not a published capture",
			Source:      Source{Changelog, "1.1.11 (/skills answered in print mode without a model turn), 1.1.16 (\"the builtin flag in the /skills listing under --output-format json is accurate\")"},
			ShapeSource: Source{ThirdParty, "a parser test of a multi-agent runner (a command_result frame from a live run, \"not recorded, because the real listing names the user's installed plugins\") and a stand-in agy of another tool; neither names its build"}},
		{ID: ReportPermissions, Args: []string{"-p", "/permissions", "--output-format", "json"}, Lists: "the permission rules in force, per scope (project, shared, global), each with its allow, ask and deny lists",
			Since: V(1, 1, 12), Read: true,
			Shape:       "`{…,\"command\":{\"name\":\"permissions\",\"data\":{\"permissions\":[{\"scope\":\"project\"},{\"scope\":\"shared\"},{\"scope\":\"global\",\"allow\":[\"command(ls)\"]}]}}}`",
			Gaps:        "rules are compared as written; the scopes are the three files the CLI merges (CLI changelog 1.0.5)",
			Source:      Source{Changelog, "1.1.12 (-p \"/permissions\" answered without an agent turn)"},
			ShapeSource: Source{ThirdParty, "a live probe of agy 1.1.27, 2026-09-07, and a query on a Linux machine (scopes project, shared, global; num_turns 0)"}},
		{ID: ReportAgents, Args: []string{"agents", "--output-format", "json"}, Lists: "custom agents",
			Since: V(1, 1, 12), Read: false,
			Why:         "no source records its answer; agy 1.1.13 refused the flag; it fetches from the network with no time limit; it lists no workspace agent (.agents/agents/)",
			Source:      Source{Changelog, "1.1.12 (machine-readable output for models and agents)"},
			ShapeSource: Source{ThirdParty, "a provider for agy measured on 1.1.13 and 1.1.14, 2026-08-18 (the flag refused); a probe of 1.1.12, 2026-08-11 (a remote fetch, workspace agents not listed)"}},
	}
}

// Reports lists agy's reports about what it loaded.
func Reports() []Report { return slices.Clone(reportTable()) }

var reportTable = sync.OnceValue(reports)

// ReportOf returns the row of a report; every ReportID constant has one.
func ReportOf(id ReportID) Report {
	for _, r := range reportTable() {
		if r.ID == id {
			return r
		}
	}
	return Report{ID: id}
}
