package agy

// Decision is one value of a PreToolUse hook's decision and what agy does
// with it: the one place schema descriptions, `hook test` and the docs
// take it from.
type Decision struct {
	Name    string
	Summary string
	Source  Source
}

// HowToGrant is how a hook or a config grants a tool call, which allow
// does not (PreToolUseDecisions).
const HowToGrant = "to grant the call, answer with permissionOverrides (temporary grants, such as [\"command(npm test)\"]) or give it a permission rule: permissions.allow in ~/.gemini/antigravity-cli/settings.json (agyconf's permissions block) or the grants shared with Antigravity 2.0 (shared_permissions)"

// PreToolUseDecisions lists the decisions, in the order the docs give them.
func PreToolUseDecisions() []Decision {
	return []Decision{
		{Name: "allow", Summary: "no objection from the hook; agy's permission rules still apply: in a non-interactive run (agy -p) a call no rule allows is denied all the same; " + HowToGrant,
			Source: Source{ThirdParty, "google-antigravity/antigravity-cli #1053 (agy 1.2.7, 2026-09-19, open, labelled documentation: allow did not let a run_command through in -p without a command(…) grant); the IDE's bundled docs call it allow"}},
		{Name: "deny", Summary: "block the call; reason reaches the model", Source: Source{Bundled, "hooks.md, PreToolUse Contract; probed by plur (1.1.21), dotai and sigil (1.2.0)"}},
		{Name: "ask", Summary: "leave the call to agy's permission flow: the user is asked, an earlier \"Always Allow\" honoured", Source: Source{Bundled, "hooks.md, PreToolUse Contract, quoted by sigil"}},
		{Name: "force_ask", Summary: "always ask the user", Source: Source{Bundled, "hooks.md, PreToolUse Contract, quoted by sigil"}},
		{Name: "deny_unless_prior_grant", Summary: "deny unless a grant allows the call already", Source: Source{ThirdParty, "sigil, quoting the IDE's bundled hooks.md (the list of decisions); no probe"}},
	}
}

// DecisionOf finds a PreToolUse decision by name.
func DecisionOf(name string) (Decision, bool) {
	for _, d := range PreToolUseDecisions() {
		if d.Name == name {
			return d, true
		}
	}
	return Decision{}, false
}
