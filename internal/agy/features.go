package agy

// Feature names a behaviour of agy that changed between builds: something
// newer builds read, write or accept that older ones do not.
type Feature string

// Features code gates on.
const (
	// PromptHandlers: hook handlers of type "prompt".
	PromptHandlers Feature = "hooks/prompt-handler"
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
		{Feature: PromptHandlers, Summary: `hook handlers with "type": "prompt" (a model call instead of a command)`, Since: V(1, 1, 25), Source: Source{Probe, "1.1.25 and 1.1.26 (reference §0.5); unknown to older builds, which drop the whole hooks.json"}},
		{Feature: RegexCommandRules, Summary: `command(regex:PATTERN) permission rules, matched as a regular expression; older builds read every rule as a pattern, "regex:" included, so the rule matches nothing there`, Since: V(1, 0, 13), Source: Source{Changelog, "1.0.13 (command rules literal by default, a regex: prefix opts in); the command(regex:…) form as the permissions docs write it, quoted by third parties"}},
		{Feature: VerbosityMedium, Summary: `verbosity "medium" in settings.json; an older build does not know the value, and before 1.1.20 an unrecognized setting value could make it overwrite settings.json with defaults`, Since: V(1, 2, 10), Source: Source{Changelog, "1.2.10 (medium verbosity); 1.1.20 (settings.json no longer overwritten over an unrecognized value)"}},
	}
}

// Behaviours lists every version-dependent behaviour.
func Behaviours() []Behaviour { return behaviours() }

// BehaviourOf returns the row of a feature; every Feature constant has
// one (a test checks).
func BehaviourOf(f Feature) Behaviour {
	for _, b := range behaviours() {
		if b.Feature == f {
			return b
		}
	}
	return Behaviour{Feature: f}
}

// Has reports whether a build of version v has the feature. An unknown v
// has only what every known build has.
func Has(v Version, f Feature) bool { return v.AtLeast(BehaviourOf(f).Since) }
