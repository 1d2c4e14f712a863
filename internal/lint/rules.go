package lint

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/agyconf/agyconf/internal/agy"
)

// ruleTable returns every rule. It is a function, not a variable, so the
// package holds no mutable state.
func ruleTable() []Rule {
	return []Rule{
		{"json/bom", Error, "A UTF-8 byte order mark: agy reads one in mcp_config.json since 1.1.23 (CLI changelog) and in hooks.json by 1.3.1 (a third-party reading of the changelog), so there it is a warning naming the version with no --agy-version, an error below it, nothing from it on; in the other files Go's encoding/json refuses it and agy drops the file (reference §0.10, §2.1, §4)."},
		{"json/invalid-utf8", Error, "Invalid UTF-8: encoding/json silently replaces it with U+FFFD, so agy reads other text than the file holds (reference §2.1)."},
		{"json/comment", Error, "A comment: agy reads // and /* */ comments in mcp_config.json since 1.1.24 (CLI changelog), where it is a warning naming the version with no --agy-version, an error below it, nothing from it on; its strict encoding/json loaders of the other files refuse one, and a hooks.json is dropped whole (no source says hooks.json accepts comments; reference §0.10, §2.1, §3)."},
		{"json/trailing-comma", Error, "A trailing comma: agy reads them in mcp_config.json since 1.1.24 (CLI changelog), where it is a warning naming the version with no --agy-version, an error below it, nothing from it on; elsewhere strict encoding/json refuses it and the whole file is dropped (reference §0.10, §2.1, §3)."},
		{"json/duplicate-key", Warning, "A duplicate key: encoding/json keeps the last value and silently drops the first (reference §2.1, §3, §9)."},
		{"json/invalid", Error, "Not one valid JSON value (unclosed, trailing data, NaN, Infinity, single quotes): agy refuses the file (reference §0.10, §2.1, §3)."},
		{"json/more-findings", Warning, "More findings in one file than validate lists (200 a file, the first in document order): one finding says how many more there are. A file with thousands of unknown keys is one mistake repeated, listing each held memory in proportion to their count, and agy stops at a file's first load error anyway (reference §0.10)."},
		{"hooks/top-level-enabled", Error, "enabled at the top level of hooks.json is a load error that drops the whole file; enabled belongs inside a named hook (reference §0.10, §2.1)."},
		{"hooks/top-level-event", Error, "A bare event name or a hooks wrapper at the top level does not load: every top-level key is a hook name (reference §2.1; the older {\"hooks\":…} wrap from agy 1.0.5 is outdated)."},
		{"hooks/event-shape", Error, "PreToolUse/PostToolUse take [{matcher, hooks}], the other events take handlers directly; the wrong shape rejects the whole file (reference §2.1)."},
		{"hooks/timeout", Error, "timeout must be an integer number of seconds (int32); a float or a string is a load error that drops the whole file (reference §0.10, §2.2)."},
		{"hooks/handler-type", Error, "A handler's type is case-sensitive \"command\" or \"prompt\" (reference §2.2; MemPalace's older reading knows only command ⚠ conflict, §0.5)."},
		{"hooks/dropped-key", Warning, "env, cwd, name and background on a handler are silently discarded by agy (reference §0.10, §2.2)."},
		{"hooks/relative-command", Warning, "A command whose program is a relative path runs from the folder holding its hooks.json (the IDE's bundled docs; plugin hooks were probed to start in the plugin dir, so plugin hooks.json files are exempt), while MemPalace and Tanaike reported relative paths unreliable on older builds; an absolute path is safe under every reading (reference §2.2)."},
		{"hooks/command-not-found", Warning, "The command's program is not on this PATH, or is an absolute (or ~/) path that does not exist here or is not executable — such as MemPalace's placeholder /ABSOLUTE/PATH/TO/… —; agy runs it under sh -c with its own environment, where it may be missing too (reference §2.2). Checked by validate PATH only, never by render, which looks nothing up on the machine."},
		{"hooks/matcher-never-matches", Warning, "A matcher that compiles but selects no tool: a matcher is a pattern the whole tool name must match, and agy's tool names are lowercase step types (the IDE's bundled docs: \"run_command\" matches exactly run_command, \"browser_.*\" every browser tool), so \"Bash\" or \"Edit|Write\" never fire, and \\| is a literal | (reference §2.3)."},
		{"hooks/matcher-regexp", Warning, "The matcher does not compile as a regular expression; agy does not compile it at load time, so the hook loads and never matches as meant (reference §2.3; the IDE's bundled docs: \"\" and \"*\" are the catch-alls, any other matcher is a pattern the whole tool name must match)."},
		{"hooks/newer-agy", Warning, "An event or a handler type only newer agy builds know (SessionStart, prompt handlers: agy 1.1.25; docs/agy-facts.md lists each version): an older build may drop the whole file, so it is a warning naming the version when validate is given no --agy-version, an error when it is given an older one, and nothing from that version on (reference §0.5, §0.6)."},
		{"hooks/unknown-event", Warning, "An unknown event loads but never fires (reference §2.1, §2.4)."},
		{"hooks/unread-location", Error, "A hooks.json agy never reads: ~/.gemini/antigravity-cli/hooks.json does not fire (probed on CLI 1.2.0) and a plugin's hooks/hooks.json is ignored in favour of its root hooks.json (reference §1)."},
		{"hooks/schema", Error, "hooks.json does not match what agy loads; one load error drops the whole file silently (reference §0.10, §2)."},
		{"mcp/non-string", Error, "args elements and env values must be strings; a violation silently drops that server (reference §3)."},
		{"mcp/enabled", Error, "agy does not read enabled on an MCP server; use disabled (reference §3)."},
		{"mcp/auth-provider-type", Error, "authProviderType accepts only lowercase \"google_credentials\"; the proto spelling drops the server (reference §3)."},
		{"mcp/url-and-command", Warning, "A server with both serverUrl and command: serverUrl wins and command is ignored (reference §3)."},
		{"mcp/relative-command", Error, "A local server whose command is a relative path (./bin/server, bin/server): agy starts servers without a shell in whatever folder it was started in, so the server may never start (reference §3)."},
		{"mcp/tilde-command", Error, "A local server whose command starts with ~: agy starts servers without a shell (unverified either way, so the safe reading), so ~ is not expanded and the server does not start; write the absolute path (reference §3)."},
		{"mcp/newer-agy", Warning, "A server field only newer agy builds read: url (1.0.5), timeoutSeconds (1.0.7), enabledTools and tools (1.1.16; docs/agy-facts.md lists each version). An older build ignores it — the server connects nowhere, launches with the default timeout, offers every tool — so it is a warning naming the version when validate is given no --agy-version, an error when it is given an older one, and nothing from that version on (reference §3)."},
		{"mcp/unknown-field", Warning, "A server field agyconf does not know: agy ignores keys it does not read (reference §3), so it is a newer build's field or a misspelling (timeout for timeoutSeconds) that silently does nothing. agyconf writes such a field only from an mcp_server's extra = { … }."},
		{"mcp/command-not-found", Warning, "A local server's program is not on this PATH, or is an absolute path that does not exist here or is not executable (a placeholder such as /ABSOLUTE/PATH/TO/…): agy cannot start the server if it is missing where agy runs too (reference §3). Checked by validate PATH only, never by render, which looks nothing up on the machine."},
		{"mcp/no-connection", Warning, "A server with no command, serverUrl or url loads silently and does nothing (reference §3)."},
		{"mcp/inline-credential", Warning, "A credential written inline in env, headers or oauth in a file other users can read; agyconf itself writes such values, on purpose, into a 0600 file when secret_file() is used (reference §3, §16)."},
		{"mcp/schema", Error, "mcp_config.json does not match what agy loads: a bad server is dropped silently, a bad file is fatal at startup (reference §3)."},
		{"plugin/bom", Error, "A UTF-8 byte order mark in plugin.json: older agy builds do not treat the directory as a plugin (reference §4); accepted by 1.3.1 (a third-party reading of the changelog), so a warning naming that version with no --agy-version, an error below it, nothing from it on."},
		{"plugin/duplicate-key", Error, "A duplicate key in plugin.json: agy does not treat the directory as a plugin (reference §4)."},
		{"plugin/name", Error, "name must match [A-Za-z0-9_-] and not start with '.', or agy plugin install/validate refuse it (reference §4)."},
		{"plugin/missing-name", Error, "Without name agy falls back to the directory name, but agy plugin validate/install refuse the plugin (reference §4)."},
		{"plugin/permissions", Error, "plugin.json has no permissions field: the one some guides describe is fabricated, plugins cannot declare permissions (reference §1, §4)."},
		{"plugin/schema", Error, "plugin.json is a protobuf JSON message agy reads name, description, disabled and logo from; a type error means the directory is not a plugin (reference §4)."},
		{"plugin/unknown-field", Warning, "A plugin.json key agyconf does not know: agy discards it and still loads the plugin (measured on 1.1.25), so it is a newer build's field or a misspelling that does nothing; the CLI docs' schema allows only name and description (version, author, repository and license, which Google's own manifests carry, are known; reference §4)."},
		{"plugin/disabled", Warning, "disabled in plugin.json only seeds the plugin's enablement when agy first discovers it; since agy 1.1.11 ~/.gemini/config/config.json decides afterwards, whatever the manifest says (reference §4; agy CLI changelog 1.1.11)."},
		{"skill/flat-file", Warning, "A flat skills/<name>.md: the CLI docs show one (docs-cli-plugins.md), a probe found one never discovered (reference §5, 2026-12 §7); every source discovers skills/<name>/SKILL.md, so the sources' conflict is a warning."},
		{"skill/newer-agy", Warning, "A SKILL.md key only newer agy builds read (disable-slash-command: 1.1.12, metadata.icon: 1.1.20; docs/agy-facts.md lists each; reference §5): an older build ignores it, so a warning naming the version with no --agy-version, an error with an older one, nothing from that version on."},
		{"skill/legacy-folder", Warning, "A skill in a folder agy no longer reads, ~/.gemini/antigravity/skills/ (the IDE's global skills before Antigravity 2.0, reference §0.7, §5; docs/agy-facts.md lists each folder with its source): it has no effect; the message names the folders agy reads now."},
		{"skill/frontmatter", Error, "A SKILL.md needs YAML frontmatter with a description; only name and description reach the prompt (reference §5)."},
		{"skill/name", Error, "A skill name is lowercase words joined by hyphens (reference §5; HM uses ':' for nesting, S8)."},
		{"skill/body-size", Warning, limitRule(agy.SkillBody, "one source, so a warning")},
		{"skill/schema", Error, "The skill frontmatter does not match what Antigravity reads (reference §5)."},
		{"rule/size", Warning, limitRule(agy.RuleBudget, "judged over every user and workspace rule of a validate run or a config, plugin rules apart, tokens estimated as bytes / 4; the 12,000 characters per file of reference §6 gave way to it: what is over is cut, not refused, so a warning")},
		{"rule/newer-agy", Warning, "A global rules file only newer agy builds read (~/.gemini/config/rules/, ~/.gemini/AGENTS.md, ~/.gemini/config/AGENTS.md and GEMINI.md: 1.2.15, a third-party reading; reference §1, §6): an older build ignores it, so a warning naming the version with no --agy-version, an error with an older one, nothing from that version on."},
		{"rule/include-missing", Warning, "An @path include in a rule names no file on this machine, so agy brings nothing in (Antigravity 2.0 v2.11.0, a third-party report; a relative path resolves against the rule file, an absolute one as it is, then against the repository: reference §6). It depends on this machine, so validate PATH only."},
		{"rule/trigger", Error, "trigger is one of always_on, glob, model_decision, manual (reference §6; rulesync keeps it an open string ⚠, so new values may appear)."},
		{"rule/globs", Error, "globs is one comma-separated string, used only with trigger: glob (reference §6)."},
		{"rule/schema", Error, "The rule frontmatter does not match what Antigravity reads (reference §6)."},
		{"workflow/size", Warning, limitRule(agy.WorkflowBody, "a warning")},
		{"workflow/schema", Error, "The workflow frontmatter does not match what Antigravity reads (reference §7)."},
		{"agent/frontmatter", Error, "A subagent needs frontmatter with name and description (reference §8)."},
		{"agent/unknown-field", Warning, "A subagent frontmatter key agyconf does not know: agy adds keys between releases and no source shows an unknown one dropping the subagent (reference §8), so it is a newer build's key or a misspelling that does nothing. agyconf writes such a key only from an agent's extra = { … }."},
		{"agent/schema", Error, "The subagent frontmatter does not match what Antigravity reads (reference §8)."},
		{"ignore/encoding", Warning, "A line of .antigravityignore that holds a NUL byte or is not valid UTF-8: the file's syntax is undocumented (agy CLI changelog 1.1.16 names it for @ file path completion only), so such a pattern may match nothing. Nothing else about a pattern is judged; and nothing shows the file keeps a file from the agent's tools, so it is no way to hide secrets (agy CLI changelog 1.1.16; reference §8 of antigravity-2026-12.md)."},
		{"ignore/managed-block", Error, "agyconf's marker lines in .antigravityignore are incomplete, out of order or repeated: agyconf render refuses to write the file until one block, begin then end, is left (or both lines are removed): the block is found as render finds it (reference §8 of antigravity-2026-12.md names the file)."},
		{"settings/acp-no-token", Warning, "The ACP server's settings.json names an OAuth auth.type (oauth-personal, oauth-business) but its token file (acp_token.json, acp_business_token.json) is not beside it: a headless session/new starts a browser sign-in and waits about five minutes for it (a third party's reading of agy_acp_server 1.3.0; reference §12 and its ACP addendum, 002 §3.6). validate PATH only, and not on macOS, where the server keeps tokens in the Keychain unless AGY_ACP_FORCE_FILE_STORAGE is set."},
		{"settings/deprecated-action", Warning, "An unsandboxed rule: deprecated since agy 1.2.2, which warns at startup and asks for command rules instead; the message spells out the command(…) rule to write (agy CLI changelog 1.2.2; reference §10)."},
		{"settings/literal-pattern", Warning, "A command rule that reads like a regular expression (a leading ^, a trailing $, .*, \\d, (a|b)): since agy 1.0.13 a command rule matches its text literally, and only command(regex:…) is a pattern (agy CLI changelog 1.0.13; reference §10)."},
		{"settings/newer-agy", Warning, "A permission rule or setting value only newer agy builds read as meant (command(regex:…): 1.0.13; verbosity \"medium\": 1.2.10; docs/agy-facts.md lists each version): a warning naming the version when validate is given no --agy-version, an error when it is given an older one, nothing from that version on (reference §10)."},
		{"settings/regex-rule", Warning, "The pattern of a command(regex:…) rule does not compile in Go's RE2 syntax, which is what agyconf checks: agy is a Go program, but its pattern engine is undocumented, so a warning (reference §10; agy CLI changelog 1.0.13)."},
		{"settings/not-read", Warning, "A workspace settings file Antigravity does not read, .agents/settings.json or .antigravity/settings.json: its settings and permissions have no effect (docs/agy-facts.md lists each file with its reason and source; reference §0.9, §10)."},
		{"agent/flat-file", Warning, "A flat agents/<name>.md: the CLI's /agents docs call it a common mistake (the scanner expects agents/<name>/agent.md), while rulesync reads the docs as allowing both (reference §8, 2026-12 §4); the folder form is read under both, so the conflict is a warning."},
		{"agent/newer-agy", Warning, "A subagent key only newer agy builds read (inheritCustomizations 1.1.14, rules 1.1.15, agents 1.1.27, excludeDefaultComponents 1.2.1, hooks 1.3.1; docs/agy-facts.md lists each; reference §8): an older build ignores it and the agent runs without it, so a warning naming the version with no --agy-version, an error with an older one, nothing from that version on."},
		{"settings/permission-entry", Error, "A permission entry is action or action(target), action one of read_file, write_file, read_url, execute_url, command, unsandboxed, mcp (reference §10)."},
		{"settings/plugin-server-name", Warning, "A permission entry mcp(…) naming a plugin's MCP server: agy 1.2.2 and newer call it <plugin>_<server> (agy CLI changelog 1.2.2), so mcp(<server>/…) matches nothing there — a deny that no longer denies — unless --agy-version names an older build; mcp(<plugin>_<server>/…) is judged by --agy-version (a warning with none, an error below 1.2.2). Only plugins among the files validate is given are known (reference §10)."},
		{"config/schema", Error, "~/.gemini/config/config.json does not match what agy reads of it: a plugin's entry is {\"enabled\": true|false}, the shared permission grants are lists of entries (reference §10; agy CLI changelog 1.1.11; key layout from third-party probes of 1.1.11 and 1.1.12)."},
		{"settings/zero-word-entry", Warning, "A command rule whose target tokenizes to zero command words (command(time), a comment, ()): since agy 1.1.11 it matches nothing, and before it matched every command, so an allow entry auto-approved anything the agent ran; an error with --agy-version older than 1.1.11 (agy CLI changelog 1.1.11; reference §10)."},
		{"settings/schema", Error, "settings.json does not match what Antigravity reads (reference §10; ⚠ the CLI ignored project settings on 1.2.0 while rulesync says it merges them, §0.9)."},
	}
}

// limitRule describes a size rule from agy's table of limits.
func limitRule(id agy.LimitID, why string) string {
	l := agy.LimitOf(id)
	return fmt.Sprintf("%s%s (%s; %s).", strings.ToUpper(l.Summary[:1]), l.Summary[1:], l.Source, why)
}

// Rules returns every rule, sorted by id.
func Rules() []Rule {
	rs := ruleTable()
	sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
	return rs
}

func severityOf(id string) Severity {
	if sev, ok := severities()[id]; ok {
		return sev
	}
	return Error
}

// severities is the table's severity per rule id, built once: severityOf
// runs per finding (the table itself formats its texts when built).
var severities = sync.OnceValue(func() map[string]Severity {
	m := map[string]Severity{}
	for _, r := range ruleTable() {
		m[r.ID] = r.Severity
	}
	return m
})
