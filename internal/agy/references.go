package agy

// Reference is a public source the facts cite by name ("skillsaw",
// "sigil"), with where a reader finds it. docs/agy-facts.md lists them, so
// that every citation in a fact, a rule, a message or a schema
// description can be followed without anything agyconf does not ship.
type Reference struct {
	Name  string // as citations name it
	Where string // where to read it
	What  string // what it holds, and the builds it measured
}

// References lists the public sources the facts cite, the project's own
// first, then third parties by name.
func References() []Reference {
	return []Reference{
		{"agy CLI changelog", "https://github.com/google-antigravity/antigravity-cli/blob/main/CHANGELOG.md (also docs/changelog.md there)", "Google's release notes of the agy CLI; public copies reach 1.2.10, and third parties quote it to 1.3.3"},
		{"agy CLI docs", "https://github.com/google-antigravity/antigravity-cli/tree/main/docs", "the CLI's documentation (docs-cli-plugins.md, docs-cli-commands-agents.md, reference.md, …)"},
		{"antigravity-cli issues", "https://github.com/google-antigravity/antigravity-cli/issues", "bug reports against agy, cited by number (#103 skills folders, #155 no config-root override, #252 empty mcp_config.json, #338 read-only settings, #396 plugin rules, #628 deny approvable, #1053 allow in -p)"},
		{"the IDE's bundled docs", "builtin/skills/agy-customizations/docs/ in an Antigravity or agy install (~/.gemini/antigravity-cli/builtin/skills/agy-customizations/docs/: hooks.md, plugins.md, rules.md, mcp_servers.md, json_configs.md)", "the customization docs Antigravity ships, quoted in public transcripts"},
		{"skillsaw", "https://github.com/stbenjam/skillsaw, docs/rules/antigravity-hooks-valid.md, antigravity-mcp-valid.md, antigravity-plugin-json-valid.md, antigravity-config-json-valid.md", "a linter's rules for Antigravity's files, measured against agy 1.1.25 and 1.1.26: what loads, what is dropped, what is discarded"},
		{"sigil", "https://github.com/Ju571nK/sigil, docs/research/antigravity-compatibility-2026-09-10.md; issues #112, #202, #208; pull requests #157, #210, #212", "compatibility notes measured on agy CLI 1.2.0: where hooks and settings are read, PreToolUse answers"},
		{"MemPalace", "https://github.com/MemPalace/mempalace/pull/1633 (hooks/antigravity/, .antigravity-plugin/, website/guide/antigravity.md)", "an Antigravity integration whose INVESTIGATION.md quotes antigravity.google/docs as of 2026-05-27"},
		{"rulesync", "https://github.com/dyoshikawa/rulesync (.rulesync/skills/rulesync-feature-research/references/antigravity.md; src/features/*/antigravity-*.ts), as of 2026-08-18", "a generator's reading of the Antigravity docs: rules, workflows, subagents, permissions, paths per product"},
		{"dotai", "https://github.com/gopallin/dotai, CLAUDE.md (\"agy Hook Contract\", \"CLI Feature Gaps\")", "probes of agy's hooks, tool names and skill folders"},
		{"Home Manager", "https://github.com/nix-community/home-manager, modules/programs/antigravity-cli.nix", "the antigravity-cli module: where it writes skills, MCP servers and settings"},
		{"xmsg", "https://github.com/sini/xmsg (README.md; docs/probes/agy-hook-injection.md; docs/agy/xmsg-register.md)", "an agy harness with probes of hook injection and of the environment hooks and MCP servers get (agy 1.2.13, 1.3.1)"},
		{"Gobby", "https://github.com/GobbyAI/gobby, src/gobby/adapters/agy_contract.py", "an adapter's model of agy's hook contract"},
		{"pstack", "https://github.com/michael-denyer/pstack-claude, release v0.9.129", "a plugin measured on agy 1.4.12 and 1.5.0: plugin hooks, the skill body limit"},
		{"ToolAhead", "https://github.com/michael-ra/toolahead, releases v0.5.0 and v0.7.0", "notes on agy's plugins and hooks (CLI 1.1.11)"},
		{"Tanaike", "https://tanaikech.github.io/2026/06/26/a-developers-guide-to-agent-hooks-in-antigravity-cli/", "a walkthrough of agy's hooks"},
		{"websentry", "https://github.com/websentry-ai/setup/pull/104", "findings on agy 1.0.5's hooks"},
		{"plur", "https://github.com/plur-ai/plur/issues/1033", "a probe of agy 1.1.21's hooks"},
		{"omnigent", "https://github.com/omnigent-ai/omnigent/pull/1585", "agy's hidden --gemini_dir flag"},
		{"skly.ai", "https://skly.ai/docs/rules/antigravity", "rules, their limit and @path includes"},
		{"entire", "https://github.com/entireio/cli (cmd/entire/cli/agent/antigravity/)", "an agy probe (1.1.12 and newer, notes of 1.2.7): what agy reports, the untrusted-workspace trap"},
		{"Torque's agy notes", "Torque's notes on agy, measured on CLI 1.3.1 (Windows, 2026-10)", "rules without a valid trigger, silent PreToolUse blocks"},
		{"pi-antigravity-bridge", "the npm package @estebanforge/pi-antigravity-bridge 1.3.3, docs/ANTIGRAVITY-INTEGRATIONS.md (sections 3.3 to 3.6)", "the ACP server agy_acp_server, reverse-engineered and run (build 20260818_01_RC01): its home folder, sign-in and settings"},
		{"firstmate", "the firstmate \"crewmate adapter\" verification record (its repository is not named publicly)", "a probe of agy CLI 1.1.22: payloads, environment"},
	}
}
