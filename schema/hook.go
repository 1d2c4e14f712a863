package schema

// hookContracts maps each hooks.json event to the schemas of what agy
// writes on a hook's stdin and what it honours on the hook's stdout
// (reference §2.4–§2.6).
var hookContracts = map[string][2]string{
	"PreToolUse":     {"hook-stdin-pre-tool-use", "hook-stdout-pre-tool-use"},
	"PostToolUse":    {"hook-stdin-post-tool-use", "hook-stdout-post-tool-use"},
	"PreInvocation":  {"hook-stdin-pre-invocation", "hook-stdout-pre-invocation"},
	"PostInvocation": {"hook-stdin-post-invocation", "hook-stdout-post-invocation"},
	"Stop":           {"hook-stdin-stop", "hook-stdout-stop"},
	"SessionStart":   {"hook-stdin-session-start", "hook-stdout-session-start"},
}

// HookContract returns the names of the schemas of a hook event's stdin
// payload and of the stdout agy honours for it. event is spelled as in
// hooks.json (PreToolUse, PostToolUse, PreInvocation, PostInvocation,
// Stop, SessionStart); only the canonical spelling is known, and any
// other name gives "", "".
func HookContract(event string) (stdin, stdout string) {
	c, ok := hookContracts[event]
	if !ok {
		return "", ""
	}
	return c[0], c[1]
}
