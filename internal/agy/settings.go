package agy

// SettingType is the JSON type a settings.json key holds.
type SettingType string

const (
	// SettingEnum is a string from Values.
	SettingEnum SettingType = "enum"
	// SettingBool is true or false.
	SettingBool SettingType = "boolean"
	// SettingString is any string.
	SettingString SettingType = "string"
	// SettingStringList is a list of strings.
	SettingStringList SettingType = "string-list"
	// SettingAny is a key whose shape is undocumented: any value passes.
	SettingAny SettingType = "any"
)

// Features of settings values only newer builds know.
const (
	// VerbosityMedium: verbosity "medium", between high and low.
	VerbosityMedium Feature = "settings/verbosity-medium"
)

// SettingKey is one key of the CLI's settings.json
// (~/.gemini/antigravity-cli/settings.json).
type SettingKey struct {
	Key  string
	Type SettingType
	// Values are what an enum key accepts. agy treats an unknown value as
	// the default (sigil, rulesync), and before CLI 1.1.20 an unrecognized
	// value could make it overwrite the file with defaults (changelog
	// 1.1.20), so the decoder refuses values outside the list.
	Values []string
	// NewerValues are values only newer builds know, each with the
	// Behaviour row that gates writing it.
	NewerValues map[string]Feature
	Summary     string
	// Since is the first build that reads the key; zero: every known
	// build. An older build keeps a key it does not know (unknown fields
	// are preserved since 1.0.7) and ignores it, so a key is not gated;
	// only a value an older build misreads is (NewerValues).
	Since Version
	// Unverified keys come from a list no primary source confirms: they
	// are known (so import keeps them and a typo of one is caught), and
	// their value is not checked.
	Unverified bool
	// AgyState keys are agy's own record of its state, which it rewrites
	// (the sign-in): import leaves them to agy rather than have a config
	// fight agy over them.
	AgyState bool
	Source   Source
}

// settingKeys is the table. Keys and types come from the CLI docs'
// reference table (docs/reference.md, "Configuration keys
// (settings.json)") and settings page (docs/docs-cli-settings.md) unless
// a row says otherwise.
func settingKeys() []SettingKey {
	cliRef := Source{CLIDocs, "reference.md, \"Configuration keys (settings.json)\""}
	return []SettingKey{
		{Key: "toolPermission", Type: SettingEnum, Values: []string{"request-review", "proceed-in-sandbox", "always-proceed", "strict"},
			Summary: "how agy asks before tools run; request-review is the default", Source: Source{CLIDocs, "reference.md; sigil and rulesync (an unknown value behaves as request-review)"}},
		{Key: "artifactReviewPolicy", Type: SettingEnum, Values: []string{"asks-for-review", "agent-decides", "always-proceed"},
			Summary: "when the agent asks to review artifacts it writes; asks-for-review is the default", Source: Source{CLIDocs, "reference.md"}},
		{Key: "agentMode", Type: SettingEnum, Values: []string{"default", "accept-edits", "plan"},
			Summary: "the default execution mode", Source: Source{Changelog, "1.1.0 (the Agent Mode option of /settings); sigil names its values"}},
		{Key: "enableTerminalSandbox", Type: SettingBool, Summary: "run the agent's terminal commands in the OS sandbox; default false", Source: Source{CLIDocs, "docs-cli-sandbox.md, reference.md"}},
		{Key: "allowNonWorkspaceAccess", Type: SettingBool, Summary: "let file tools reach outside the workspace; default false (read access only since 1.1.14)", Source: Source{CLIDocs, "reference.md; changelog 1.1.14"}},
		{Key: "statusLine", Type: SettingAny, Summary: "the custom status line ({type, command, stack_with_default}); its full shape is undocumented here, so any value passes", Source: Source{Changelog, "1.0.6 (stack_with_default); dotai names the key"}},
		{Key: "trustedWorkspaces", Type: SettingStringList, Summary: "workspace folders agy trusts; agy writes it itself after its trust prompt", Source: Source{Probe, "1.1.22 by firstmate (written after the trust prompt)"}},
		{Key: "colorScheme", Type: SettingString, Summary: `the colour theme: "terminal" (the default), "light", "dark", "solarized light", "solarized dark", "colorblind-friendly light", "colorblind-friendly dark", "tokyo night"; new themes appear between builds and an unknown one falls back, so the value is not checked`, Source: cliRef},
		{Key: "altScreenMode", Type: SettingEnum, Values: []string{"default", "always", "never"},
			Summary: "how the TUI uses the terminal: default (adaptive), always (alternate screen) or never (inline)", Source: cliRef},
		{Key: "model", Type: SettingString, Summary: "the model agy uses; agy rewrites it itself, so agyconf owns it only as a default (written when absent)", Source: Source{CLIDocs, "reference.md (/model: the choice persists across sessions); antigravity-cli #239"}},
		{Key: "verbosity", Type: SettingEnum, Values: []string{"high", "medium", "low"}, NewerValues: map[string]Feature{"medium": VerbosityMedium},
			Summary: "how much of the agent's thoughts and tool steps the TUI shows: high (the default) or low; medium groups related steps into summaries (1.2.10)", Source: Source{CLIDocs, "reference.md (high, low); changelog 1.2.10 (medium)"}},
		{Key: "runningLightSpeed", Type: SettingEnum, Values: []string{"fast", "medium", "slow", "off"},
			Summary: "the speed of the progress animation; medium is the default", Source: cliRef},
		{Key: "editor", Type: SettingString, Summary: `the editor for artifacts and prompts (Ctrl+G): "auto" (the default, $EDITOR), "vim", "emacs" or another name`, Source: cliRef},
		{Key: "notifications", Type: SettingBool, Summary: "a desktop notification and a bell when a long task ends or needs attention; default false", Source: cliRef},
		{Key: "showTips", Type: SettingBool, Summary: "tips while the agent works; default true", Source: cliRef},
		{Key: "showFeedbackSurvey", Type: SettingBool, Summary: "a short survey after some tasks; default true", Source: cliRef},
		{Key: "enableTelemetry", Type: SettingBool, Summary: "anonymous usage statistics and crash reports; default true", Source: cliRef},
		{Key: "useG1Credits", Type: SettingBool, Summary: "use AI credits when the plan's quota runs out (external builds only); default false. The 1.0.3 changelog spells it UseG1Credits; the CLI docs' useG1Credits is what agyconf writes", Since: V(1, 0, 3), Source: Source{CLIDocs, "reference.md; changelog 1.0.3"}},
		{Key: "copyOnSelect", Type: SettingBool, Summary: "copy a mouse selection to the clipboard on release, in the alternate-screen mode; default on (its JSON type is read from the /settings toggle, as for the other on/off settings)", Since: V(1, 1, 8), Source: Source{Changelog, "1.1.8"}},
		{Key: "pickerGrouping", Type: SettingString, Summary: "the default /resume list: flat, or grouped by workspace; the changelog names no values, so the value is not checked", Since: V(1, 1, 26), Source: Source{Changelog, "1.1.26"}},
		{Key: "modelProvider", Type: SettingString, Summary: `the model backend: "gemini" runs against the Gemini API with GEMINI_API_KEY (1.1.13); custom models configured in settings.json (1.2.8) are undocumented here and pass unchecked`, Since: V(1, 1, 13), Source: Source{Changelog, "1.1.13, 1.2.8"}},
		{Key: "auth", Type: SettingAny, AgyState: true, Unverified: true, Summary: "agy's own sign-in state, which it writes itself; left to agy", Source: Source{ThirdParty, "antigravity-cli #338 (a read-only settings.json breaks sign-in: agy writes its own state there)"}},
		{Key: "queuedMessages", Type: SettingAny, Unverified: true, Summary: "⚠ unverified: only a third-party list of settings keys names it; no changelog entry or CLI doc does, so its value is not checked", Source: Source{ThirdParty, "an unnamed third-party list of settings keys"}},
	}
}

// SettingKeys lists every settings key agyconf knows, sorted by key.
func SettingKeys() []SettingKey {
	s := settingKeys()
	sortBy(s, func(x SettingKey) string { return x.Key })
	return s
}

// SettingKeyOf finds a settings key, spelled exactly.
func SettingKeyOf(key string) (SettingKey, bool) {
	for _, s := range settingKeys() {
		if s.Key == key {
			return s, true
		}
	}
	return SettingKey{}, false
}

// Trust is where agy records the workspace folders it trusts, and what it
// does with one it does not: the workspace's files have no effect there.
type Trust struct {
	// File is the settings file holding the record, relative to the
	// home; Key its list of folders.
	File, Key string
	Summary   string
	// HowTo says how a folder becomes trusted; Fix says it in a few
	// words.
	HowTo, Fix string
	Source     Source
}

// WorkspaceTrust is agy's record of trusted workspace folders.
func WorkspaceTrust() Trust {
	return Trust{
		File: ".gemini/antigravity-cli/settings.json", Key: "trustedWorkspaces",
		Summary: "in a folder agy has not trusted, it resolves to its scratch workspace and loads none of the workspace's files (hooks, rules, skills, servers)",
		Fix:     "start agy there once and accept its trust prompt",
		HowTo:   "start agy in the folder once and accept its trust prompt (agy then writes the folder into trustedWorkspaces), or list it in a global config's settings { trustedWorkspaces = [...] }",
		Source:  Source{ThirdParty, "entire's agy probe (agy 1.1.12 and newer; notes of 1.2.7) and the trust screen of CLI 1.3.2; trustedWorkspaces written by agy after its trust prompt (firstmate, CLI 1.1.22)"},
	}
}
