package agy

import (
	"fmt"
	"strings"

	"github.com/agyconf/agyconf/internal/lazyre"
)

// PermissionAction is the part of a permission entry before its target:
// command(git *) has the action command.
type PermissionAction struct {
	Name    string
	Summary string
	// ReplacedBy is the action agy asks for instead of a deprecated one,
	// from DeprecatedSince on; "" for a current action.
	ReplacedBy      string
	DeprecatedSince Version
	Source          Source
}

func permissionActions() []PermissionAction {
	return []PermissionAction{
		{Name: "read_file", Summary: "reading a file or folder (write_file implies it)", Source: Source{ThirdParty, "rulesync (write implies read); sigil, CLI 1.2.0"}},
		{Name: "write_file", Summary: "writing a file or below a folder", Source: Source{ThirdParty, "rulesync; sigil, CLI 1.2.0"}},
		{Name: "read_url", Summary: "reading a URL (asked about by default since 1.1.28)", Source: Source{Changelog, "1.1.28 (read_url asked about by default); rulesync names the action"}},
		{Name: "execute_url", Summary: "opening a URL in the browser agent", Source: Source{ThirdParty, "rulesync"}},
		{Name: "command", Summary: "running a command; the target matches literally, or as a pattern after regex: (1.0.13)", Source: Source{Changelog, "1.0.13 (literal by default, regex: opts in); sigil, CLI 1.2.0 (command(git *))"}},
		{Name: "unsandboxed", Summary: "running a command outside the terminal sandbox",
			ReplacedBy: "command", DeprecatedSince: V(1, 2, 2), Source: Source{Changelog, "1.2.2 (the startup warning for deprecated unsandboxed rules, pointing to command rules)"}},
		{Name: "mcp", Summary: "calling an MCP tool: mcp(server/tool), mcp(server/*)", Source: Source{ThirdParty, "rulesync; git-courer pull request #169 (mcp(<server>/*))"}},
	}
}

// PermissionActions lists every action agy knows, in the order the docs
// give them.
func PermissionActions() []PermissionAction { return permissionActions() }

// PermissionActionNames are the action names, in the same order.
func PermissionActionNames() []string {
	var out []string
	for _, a := range permissionActions() {
		out = append(out, a.Name)
	}
	return out
}

// PermissionActionOf finds an action by name.
func PermissionActionOf(name string) (PermissionAction, bool) {
	for _, a := range permissionActions() {
		if a.Name == name {
			return a, true
		}
	}
	return PermissionAction{}, false
}

// Features of permission entries only newer builds read as meant.
const (
	// RegexCommandRules: command(regex:PATTERN) matches PATTERN as a
	// regular expression. From 1.0.13 command rules match literally by
	// default; before, every rule was a pattern, so "regex:" was part of
	// the pattern and the rule matched nothing.
	RegexCommandRules Feature = "permissions/regex-command"
)

// RegexPrefix opens the target of a command rule that is a pattern.
const RegexPrefix = "regex:"

// PermissionChange is a change in how agy reads permission entries that
// gates nothing agyconf writes: for the facts page and the rules that
// cite it.
type PermissionChange struct {
	ID      string
	Summary string
	Since   Version
	Source  Source
}

func permissionChanges() []PermissionChange {
	return []PermissionChange{
		{ID: "literal-command-rules", Summary: "command rules match literally by default; a regex: prefix opts into a pattern (before, every rule was a pattern). Antigravity 2.0 defaults to strict literal matching too (2.0 v2.3.0)", Since: V(1, 0, 13), Source: Source{Changelog, "1.0.13; the 2.0 changelog v2.3.0"}},
		{ID: "zero-word-entries", Summary: "an allowlist entry that tokenizes to zero command words — command(time), a comment-only entry, an empty compound such as () — matches nothing; before, it matched every command and auto-approved anything the agent ran", Since: V(1, 1, 11), Source: Source{Changelog, "1.1.11"}},
		{ID: "unsandboxed-deprecated", Summary: "unsandboxed rules are deprecated: agy warns at startup, naming each file and up to five rules, and asks for command rules instead", Since: V(1, 2, 2), Source: Source{Changelog, "1.2.2"}},
	}
}

// PermissionChanges lists the changes, oldest first.
func PermissionChanges() []PermissionChange { return permissionChanges() }

// PermissionChangeOf finds a change by ID; every ID used in code has one
// (a test checks).
func PermissionChangeOf(id string) PermissionChange {
	for _, c := range permissionChanges() {
		if c.ID == id {
			return c
		}
	}
	return PermissionChange{ID: id}
}

// Permission is one entry of a permission list: action, or
// action(target).
type Permission struct {
	Action string
	// Target is the text between the parentheses; HasTarget is false for
	// a bare action, which means any target.
	Target    string
	HasTarget bool
}

var permissionSyntax = lazyre.New(`^(` + strings.Join(PermissionActionNames(), "|") + `)(?:\((.+)\))?$`)

// PermissionPattern is the syntax of an entry as a regular expression
// (RE2, and valid in JSON Schema's ECMA-262 dialect): for schemas.
func PermissionPattern() string {
	return `^(?:` + strings.Join(PermissionActionNames(), "|") + `)(?:\([^\n]+\))?$`
}

// ParsePermission reads an entry; ok is false when it is not action or
// action(target) with an action agy knows.
func ParsePermission(entry string) (Permission, bool) {
	m := permissionSyntax().FindStringSubmatch(entry)
	if m == nil {
		return Permission{}, false
	}
	return Permission{Action: m[1], Target: m[2], HasTarget: m[2] != ""}, true
}

func (p Permission) String() string {
	if !p.HasTarget {
		return p.Action
	}
	return p.Action + "(" + p.Target + ")"
}

// Pattern is the regular expression of a command(regex:PATTERN) rule.
func (p Permission) Pattern() (string, bool) {
	if p.Action != "command" || !strings.HasPrefix(p.Target, RegexPrefix) {
		return "", false
	}
	return strings.TrimPrefix(p.Target, RegexPrefix), true
}

// Replacement is the entry agy asks for instead of one with a deprecated
// action: unsandboxed(git push) becomes command(git push).
func (p Permission) Replacement() (Permission, bool) {
	a, ok := PermissionActionOf(p.Action)
	if !ok || a.ReplacedBy == "" {
		return Permission{}, false
	}
	p.Action = a.ReplacedBy
	return p, true
}

// DeprecationAdvice says why an entry with a deprecated action should go
// and what to write instead, or "" for a current action. list is the
// permission list that holds it (allow, ask, deny).
func (p Permission) DeprecationAdvice(list string) string {
	r, deprecated := p.Replacement()
	if !deprecated {
		return ""
	}
	a, _ := PermissionActionOf(p.Action)
	c := PermissionChangeOf("unsandboxed-deprecated")
	msg := fmt.Sprintf("%s rules are deprecated since agy %s, which warns about them at startup and asks for %s rules instead (%s): write %q for %q", p.Action, a.DeprecatedSince, a.ReplacedBy, c.Source, r.String(), p.String())
	if list == "deny" || list == "ask" {
		msg += fmt.Sprintf("; a %s rule is about running the command at all, in the sandbox or out of it, so in the %s list it holds back every run of it, not only the unsandboxed ones", a.ReplacedBy, list)
	}
	return msg + "."
}

// DeprecationLine is DeprecationAdvice on one line: what is wrong — the
// fix.
func (p Permission) DeprecationLine() string {
	r, deprecated := p.Replacement()
	if !deprecated {
		return ""
	}
	a, _ := PermissionActionOf(p.Action)
	return fmt.Sprintf("%s rules are deprecated since agy %s — write %q for %q", p.Action, a.DeprecatedSince, r.String(), p.String())
}

// ZeroCommandWords reports whether a command rule's target tokenizes to
// no command word, the entries agy 1.1.11 made match nothing: the shapes
// the changelog names — time alone, a comment, an empty compound such as
// () — and what a shell reads the same way: blanks, operators and
// grouping alone, ! alone, variable assignments alone. A regex: target
// is a pattern, not a command line, and never counts.
func (p Permission) ZeroCommandWords() bool {
	if p.Action != "command" || !p.HasTarget {
		return false
	}
	if _, isPattern := p.Pattern(); isPattern {
		return false
	}
	return len(commandWords(p.Target)) == 0
}

// commandWords splits a command line the way a shell finds its command
// words, roughly: words outside comments, minus operators, grouping,
// reserved prefixes (time, time -p, !) and leading assignments of each
// command. Quoted text is one word.
func commandWords(s string) []string {
	var out []string
	atStart := true // at the start of a command: prefixes and assignments are skipped
	prevTime := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		case strings.IndexByte("()&|;{}", c) >= 0:
			i++
			atStart, prevTime = true, false
			continue
		}
		start := i
		for i < len(s) && strings.IndexByte(" \t\n\r()&|;", s[i]) < 0 {
			if q := s[i]; q == '"' || q == '\'' {
				if end := strings.IndexByte(s[i+1:], q); end >= 0 {
					i += end + 2
					continue
				}
				i = len(s)
				break
			}
			i++
		}
		w := s[start:i]
		if atStart {
			switch {
			case w == "!" || w == "time" || (prevTime && w == "-p"):
				prevTime = w == "time"
				continue
			case isAssignment(w):
				prevTime = false
				continue
			}
		}
		atStart, prevTime = false, false
		out = append(out, w)
	}
	return out
}

var assignment = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*=`)

func isAssignment(w string) bool { return assignment().MatchString(w) }

// RegexLookalike names a construct in a literal command rule's target
// that only means something in a regular expression — a leading ^, a
// trailing $, .* or .+, \d and its kin, an (a|b) group — or "" for none.
// Since 1.0.13 such a rule matches its text literally.
func (p Permission) RegexLookalike() string {
	if p.Action != "command" || !p.HasTarget {
		return ""
	}
	if _, isPattern := p.Pattern(); isPattern {
		return ""
	}
	t := p.Target
	switch {
	case strings.HasSuffix(t, ":*"):
		// Claude Code's prefix rule, Bash(git:*).
		return "a trailing :*, Claude Code's prefix syntax (Bash(git:*))"
	case strings.HasPrefix(t, "^"):
		return "a leading ^"
	case strings.HasSuffix(t, "$") && !strings.HasSuffix(t, `\$`):
		return "a trailing $"
	case strings.Contains(t, ".*"):
		return ".*"
	case strings.Contains(t, ".+"):
		return ".+"
	}
	if m := regexClass().FindString(t); m != "" {
		return m
	}
	if m := regexEscape().FindString(t); m != "" {
		// A command line holds the character itself: the backslash
		// is matched as written, so the rule never matches.
		return "the escape " + m
	}
	if m := regexAlternation().FindStringSubmatch(t); m != nil {
		return m[1]
	}
	return ""
}

// LookalikeAdvice says what a command rule that reads like a pattern
// (RegexLookalike) does in agy and what to write instead, or "".
func (p Permission) LookalikeAdvice() string {
	what := p.RegexLookalike()
	if what == "" {
		return ""
	}
	c := PermissionChangeOf("literal-command-rules")
	return fmt.Sprintf("%q has %s, which agy does not read as a pattern: since agy %s a command rule matches its text literally (%s), and no command line holds that text, so the rule never matches; %s", p.String(), what, c.Since, c.Source, p.lookalikeFix())
}

// LookalikeLine is LookalikeAdvice on one line: what is wrong — the fix.
func (p Permission) LookalikeLine() string {
	what := p.RegexLookalike()
	if what == "" {
		return ""
	}
	return fmt.Sprintf("%q has %s, but agy matches a command rule literally, so it never matches — %s", p.String(), what, p.lookalikeFix())
}

// lookalikeFix is what to write instead of a command rule that reads like
// a pattern.
func (p Permission) lookalikeFix() string {
	if prefix, ok := strings.CutSuffix(p.Target, ":*"); ok {
		// An entry matches the commands its words start (an entry of
		// no words once matched every command: CLI changelog 1.1.11).
		return fmt.Sprintf("for every %s command, write %q", strings.TrimSpace(prefix), "command("+strings.TrimSpace(prefix)+")")
	}
	return fmt.Sprintf("if a pattern is meant, write %q", "command("+RegexPrefix+p.Target+")")
}

var (
	regexClass = lazyre.New(`\\[dDwWsSb]`)
	// A backslash before punctuation only a regular expression escapes,
	// as in "command(\\.specify/setup\\.sh)": a shell needs no backslash
	// before . - or /, while one before $ * ( and the like is shell.
	regexEscape = lazyre.New(`\\[./-]`)
	// A group of alternatives glued to a word, as in "npm run (build|test)"
	// or "git (push|pull)": a subshell of a pipeline starts a command, so
	// "(ls | wc)" alone is shell, not a pattern.
	regexAlternation = lazyre.New(`[^\s(;&|]\s*(\([^()\s|]+(?:\|[^()\s|]+)+\))`)
)
