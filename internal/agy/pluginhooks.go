package agy

// Where agy reads a plugin's hooks from: the sources conflict, per build
// and per command, and no source settles it for any build. This is the
// one place the fact lives; render writes, validate judges, import reads
// and doctor compares by it.

// PluginHooksFile is a file of a plugin's folder that agy builds read the
// plugin's hooks from, with what each source shows of it.
type PluginHooksFile struct {
	// Path is relative to the plugin's folder.
	Path string
	// Evidence is what the sources show of it, oldest build first.
	Evidence []HooksFileEvidence
}

// HooksFileEvidence is what one source shows of one file on one build.
type HooksFileEvidence struct {
	// Build is the agy build (or the docs, or "unknown") it was seen on.
	Build string
	// Reads: the build reads the file (the source saw it read, counted or
	// documented); false: it skipped or ignored it.
	Reads bool
	// Seen is what the source observed, in its words where they matter.
	Seen   string
	Source Source
}

// PluginHooksFacts is the fact and agyconf's decision.
type PluginHooksFacts struct {
	// Files are where a plugin's hooks are read from, the docs' first.
	Files []PluginHooksFile
	// Decision is what agyconf does; Why says why that is safe under every
	// reading of the sources; Caveat is what it leaves contested.
	Decision, Why, Caveat string
	Source                Source
}

// PluginHooks returns the fact.
func PluginHooks() PluginHooksFacts {
	return PluginHooksFacts{
		Files: []PluginHooksFile{
			{Path: "hooks.json", Evidence: []HooksFileEvidence{
				{Build: "1.0.6", Reads: false, Seen: "`agy plugin validate` of a plugin with only a root hooks.json: \"hooks : skipped (not found)\"",
					Source: Source{ThirdParty, "yvgude/lean-ctx#284 (2026-06-07)"}},
				{Build: "1.1.26", Reads: true, Seen: "`agy plugin install` of a plugin with only a root hooks.json: \"✔ hooks : 1 processed\" (whether its hooks then ran was not settled: the probe's hooks.json had Claude Code's shape)",
					Source: Source{ThirdParty, "Digital-Process-Tools/claude-remember#553 (2026-09-04; superseded on 1.1.27 as a schema artifact)"}},
				{Build: "docs (Antigravity 2.0, CLI, IDE)", Reads: true, Seen: "the plugin layout names hooks.json at the plugin's root, next to plugin.json and mcp_config.json",
					Source: Source{ThirdParty, "antigravity.google/docs/plugins (quoted 2026-05-27 by MemPalace's hooks/antigravity/INVESTIGATION.md; page updated 2026-09-23); n8n-skills#45 (2026-07-21)"}},
				{Build: "Antigravity 2.0 (2026-08)", Reads: true, Seen: "a root hooks.json added \"for Antigravity plugin hook registration\", hooks/hooks.json kept for Claude Code",
					Source: Source{ThirdParty, "cofin/flow PR #71 (2026-08-29)"}},
				{Build: "unknown (\"1.4.12/1.5.0\", not a known build)", Reads: true, Seen: "the root hooks.json is used and hooks/hooks.json ignored",
					Source: Source{ThirdParty, "pstack (michael-denyer/pstack-claude v0.9.129)"}},
			}},
			{Path: "hooks/hooks.json", Evidence: []HooksFileEvidence{
				{Build: "1.0.4", Reads: true, Seen: "`agy plugin validate`, an install→list→uninstall cycle and Google's own plugins agree on <dir>/hooks/hooks.json",
					Source: Source{ThirdParty, "Ju571nK/sigil PR #91 (2026-06-02)"}},
				{Build: "1.0.6", Reads: true, Seen: "`agy plugin validate` of a plugin with only hooks/hooks.json: \"✔ hooks : 1 processed\"",
					Source: Source{ThirdParty, "yvgude/lean-ctx#284 (2026-06-07)"}},
				{Build: "1.1.24", Reads: true, Seen: "at load, agy parses a plugin's hooks/hooks.json (the plugin has no root hooks.json): \"Failed to parse hooks for plugin superpowers: invalid hook \\\"hooks\\\"\"",
					Source: Source{ThirdParty, "obra/superpowers#2247 (2026-09-02)"}},
				{Build: "1.2.7", Reads: true, Seen: "the same parse failure of superpowers' hooks/hooks.json at load",
					Source: Source{ThirdParty, "obra/superpowers PR #2350 (2026-09-20)"}},
			}},
		},
		Decision: "agyconf writes a plugin's hooks to both files, the same document in each",
		Why: "no source settles where any build reads a plugin's hooks: `agy plugin validate` counts hooks/hooks.json on 1.0.4 and 1.0.6 and skips a root hooks.json on 1.0.6, 1.1.24 and 1.2.7 parse hooks/hooks.json when they load, while `agy plugin install` counts a root hooks.json on 1.1.26 and the docs (2.0, CLI, IDE) and 2.0-era plugins put it at the root, so a plugin with one of the two may lose its hooks on some build. " +
			"The same document in both is safe under every reading but one, a build that reads both and runs each hook twice, which no source shows (none measured a plugin holding both); `agyconf doctor` says so if agy lists a plugin's hook from both files (agy lists plugin hooks from 1.2.3)",
		Caveat: "a plugin hook's relative command is contested once more: the copy in hooks/ may start in hooks/ (the bundled docs: a hook starts in the folder holding its hooks.json) or in the plugin's folder (probes of plugin hooks: pstack), so render warns on it there; use an absolute path",
		Source: Source{ThirdParty, "the sources of each file above; no changelog entry names the file (1.2.3: /hooks lists plugin hooks; 1.1.7: a disabled plugin's hooks no longer run)"},
	}
}

// PluginHooksPaths are the files of a plugin's folder its hooks are
// written to and read from, relative to the folder, the docs' first.
func PluginHooksPaths() []string {
	var out []string
	for _, f := range PluginHooks().Files {
		out = append(out, f.Path)
	}
	return out
}
