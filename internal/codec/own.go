package codec

// Set names a kind of entry whose extra = { … } adds members agyconf does
// not know.
type Set string

const (
	MCPServerSet Set = "an MCP server entry"
	HandlerSet   Set = "a hook handler"
	AgentSet     Set = "a subagent's frontmatter"
	SkillSet     Set = "a SKILL.md's frontmatter"
	RuleSet      Set = "a rule's frontmatter"
	WorkflowSet  Set = "a workflow's frontmatter"
	PluginSet    Set = "plugin.json"
)

// Sets lists every kind of entry with an extra.
func Sets() []Set {
	return []Set{MCPServerSet, HandlerSet, AgentSet, SkillSet, RuleSet, WorkflowSet, PluginSet}
}

// Own lists the members of s that agyconf writes itself (a row of its
// table) or refuses, with the input that sets them: extra may set none of
// them, so that it never overrides what the input language says. It is
// the table's, so render cannot write a member it does not list.
func Own(s Set) []Refused {
	switch s {
	case MCPServerSet:
		return MCPServer().Own()
	case HandlerSet:
		return Handler().Own()
	case AgentSet:
		return Agent().Own()
	case SkillSet:
		return Skill().Own()
	case RuleSet:
		return Rule().Own()
	case WorkflowSet:
		return Workflow().Own()
	case PluginSet:
		return Plugin().Own()
	}
	return nil
}

// OwnField finds key among Own(s).
func OwnField(s Set, key string) (Refused, bool) {
	for _, f := range Own(s) {
		if f.Key == key {
			return f, true
		}
	}
	return Refused{}, false
}
