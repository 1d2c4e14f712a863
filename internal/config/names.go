package config

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agyconf/agyconf/internal/lazyre"
)

// Names become file names, folder names and JSON keys on disk, so they are
// checked before anything else looks at them. Each check returns "" when the
// name is fine, or the reason it is not.

const maxNameLen = 128

// MaxSegmentLen bounds one segment of a path agyconf writes: NAME_MAX of
// Linux and macOS filesystems.
const MaxSegmentLen = 255

// slashLookalikes are characters that render like "/", "\" or ".." in a
// terminal, a diff or an editor's file tree: a name holding one reads as a
// path it is not.
var slashLookalikes = map[rune]string{
	'\u2215': "DIVISION SLASH",
	'\u2044': "FRACTION SLASH",
	'\uFF0F': "FULLWIDTH SOLIDUS",
	'\u29F8': "BIG SOLIDUS",
	'\u2571': "BOX DRAWINGS LIGHT DIAGONAL UPPER RIGHT TO LOWER LEFT",
	'\u0338': "COMBINING LONG SOLIDUS OVERLAY",
	'\u0337': "COMBINING SHORT SOLIDUS OVERLAY",
	'\u2216': "SET MINUS",
	'\u29F5': "REVERSE SOLIDUS OPERATOR",
	'\u29F9': "BIG REVERSE SOLIDUS",
	'\uFE68': "SMALL REVERSE SOLIDUS",
	'\uFF3C': "FULLWIDTH REVERSE SOLIDUS",
	'\u2572': "BOX DRAWINGS LIGHT DIAGONAL UPPER LEFT TO LOWER RIGHT",
	'\u2024': "ONE DOT LEADER",
	'\u2025': "TWO DOT LEADER",
	'\u2026': "HORIZONTAL ELLIPSIS",
	'\uFF0E': "FULLWIDTH FULL STOP",
}

// runeProblem catches the characters no name and no path segment may hold:
// control characters, invisible and direction-changing format characters
// (bidi overrides, zero-width joiners, a byte order mark: "Trojan Source"),
// and look-alikes of slashes and dots.
func runeProblem(s string) string {
	if !utf8.ValidString(s) {
		return "The name is not valid UTF-8."
	}
	for _, r := range s {
		switch {
		case unicode.IsControl(r):
			return fmt.Sprintf("The name contains the control character %U.", r)
		case unicode.Is(unicode.Cf, r):
			return fmt.Sprintf("The name contains %U, an invisible formatting character (such as a bidi override or a zero-width joiner) that makes a name display as another.", r)
		case slashLookalikes[r] != "":
			return fmt.Sprintf("The name contains %U %s, which looks like a slash or dots; names become file and folder names and may not look like a path.", r, slashLookalikes[r])
		}
	}
	return ""
}

// windowsReserved are the device names Windows refuses as file names, with
// any extension ("con.md" too). A workspace tree is committed and may be
// checked out on Windows, where the IDE runs.
var windowsReserved = lazyre.New(`(?i)^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$`)

// commonNameProblem catches what no kind of name may contain: the
// characters that would let a name escape its folder or hide a file.
func commonNameProblem(name string) string {
	switch {
	case name == "":
		return "The name is empty."
	case len(name) > maxNameLen:
		return fmt.Sprintf("The name is %d bytes long; the limit is %d.", len(name), maxNameLen)
	}
	if p := runeProblem(name); p != "" {
		return p
	}
	switch {
	case strings.ContainsAny(name, `/\`):
		return "The name contains a slash; names become file and folder names and may not name a path."
	case strings.Contains(name, ".."):
		return `The name contains ".."; names become file and folder names and may not climb out of their folder.`
	case strings.HasPrefix(name, "."):
		return "The name starts with a dot, which would make a hidden file that Antigravity skips."
	case strings.HasSuffix(name, ".") || strings.HasSuffix(name, " "):
		return "The name ends with a dot or a space, which Windows drops from file names: two names would land on one file."
	case windowsReserved().MatchString(name):
		return fmt.Sprintf("%q is a device name Windows reserves (CON, PRN, AUX, NUL, COM0-9, LPT0-9, with any extension): a workspace checked out there could not hold the file.", name)
	}
	return ""
}

// PathSegmentProblem checks one segment of a path agyconf writes that is not
// a config name: a layout path's folders, a file copied from a skill's
// source folder, every segment of every target before apply touches it.
// Leading dots are allowed here (.gemini, .agents); what would climb,
// separate, hide or disguise is not.
func PathSegmentProblem(seg string) string {
	switch {
	case seg == "":
		return "The path has an empty segment."
	case seg == "." || seg == "..":
		return fmt.Sprintf("The path has a %q segment; paths stay below their folder.", seg)
	case len(seg) > MaxSegmentLen:
		return fmt.Sprintf("The path segment is %d bytes long; file systems allow %d.", len(seg), MaxSegmentLen)
	case strings.ContainsAny(seg, `/\`):
		return fmt.Sprintf("The path segment %q contains a slash.", seg)
	}
	if p := runeProblem(seg); p != "" {
		return strings.Replace(p, "The name", "The path segment "+strconv.QuoteToASCII(seg), 1)
	}
	return ""
}

// PathProblem checks a relative slash-separated path segment by segment.
func PathProblem(p string) string {
	if strings.HasPrefix(p, "/") {
		return fmt.Sprintf("%s is absolute; paths are relative to their folder.", strconv.QuoteToASCII(p))
	}
	for _, seg := range strings.Split(p, "/") {
		if msg := PathSegmentProblem(seg); msg != "" {
			return msg
		}
	}
	return ""
}

var entryNameRe = lazyre.New(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)

// entryNameProblem checks the names of MCP servers, hooks, rules, agents and
// workflows.
func entryNameProblem(name string) string {
	if p := commonNameProblem(name); p != "" {
		return p
	}
	if !entryNameRe().MatchString(name) {
		return "Names may contain only letters, digits, \"_\", \"-\" and \".\", and start with a letter, digit or \"_\"."
	}
	return ""
}

var pluginNameRe = lazyre.New(`^[A-Za-z0-9_-]+$`)

// pluginNameProblem applies the rule `agy plugin install` enforces.
func pluginNameProblem(name string) string {
	if p := commonNameProblem(name); p != "" {
		return p
	}
	if !pluginNameRe().MatchString(name) {
		return "Plugin names may contain only letters, digits, \"_\" and \"-\" (the rule `agy plugin install` enforces)."
	}
	return ""
}

var skillNameRe = lazyre.New(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// skillNameProblem applies the Agent Skills specification's name rule
// (agentskills.io): lowercase words joined by hyphens. agyconf declares
// only such names, which every reader accepts; a live skill named
// otherwise is a warning (skill/name), since no source shows agy
// dropping it.
func skillNameProblem(name string) string {
	if p := commonNameProblem(name); p != "" {
		return p
	}
	if len(name) > 64 {
		return fmt.Sprintf("Skill names are at most 64 characters; this one has %d.", len(name))
	}
	if strings.ToLower(name) != name {
		return fmt.Sprintf("Skill names are lowercase (the Agent Skills specification, agentskills.io); write %q.", strings.ToLower(name))
	}
	if !skillNameRe().MatchString(name) {
		return "Skill names are lowercase letters and digits joined by single hyphens, such as \"release-notes\"."
	}
	return ""
}

// MaxMatcherInsts bounds a matcher's compiled size, in instructions of Go's
// regexp program. Go's regexp has no size knob of its own beyond its
// parser's limits, and agy compiles every matcher for every tool call; a
// tool-name pattern such as "mcp_github_.*|run_command" is tens of
// instructions.
const MaxMatcherInsts = 10000

// matcherProblem checks a hook matcher: it must compile, and its program
// must stay within MaxMatcherInsts.
func matcherProblem(m string) string {
	if _, err := regexp.Compile(m); err != nil {
		return fmt.Sprintf("The matcher is matched against tool names as a regular expression and does not compile: %s. Use \"*\" to match every tool.", err)
	}
	re, err := syntax.Parse(m, syntax.Perl)
	if err != nil {
		return fmt.Sprintf("The matcher does not compile: %s.", err)
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return fmt.Sprintf("The matcher does not compile: %s.", err)
	}
	if n := len(prog.Inst); n > MaxMatcherInsts {
		return fmt.Sprintf("The matcher compiles to %d instructions; the limit is %d. Matchers select tools by name: list the names, or use a shorter pattern.", n, MaxMatcherInsts)
	}
	return ""
}

var envNameRe = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

func envNameProblem(name string) string {
	if !envNameRe().MatchString(name) {
		return fmt.Sprintf("%q is not a valid environment variable name: use letters, digits and \"_\", not starting with a digit.", name)
	}
	return ""
}

func headerNameProblem(name string) string {
	if name == "" {
		return "A header name is empty."
	}
	for _, r := range name {
		if r > 0x7e || r <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return fmt.Sprintf("%q is not a valid HTTP header name.", name)
		}
	}
	return ""
}

// NameKind is the kind of thing a name is checked for by NameProblem.
type NameKind int

// The kinds of names, each with its own rule.
const (
	EntryName  NameKind = iota // MCP servers, hooks, rules, agents, workflows
	PluginName                 // plugins
	SkillName                  // skills
	EnvName                    // environment variables
	HeaderName                 // HTTP headers
	Matcher                    // hook matchers (a regexp, not a name)
)

// NameProblem applies the input language's rule for kind to name: ""
// when the config could declare it, else why not. Whoever reads names
// from elsewhere (agyconf import) uses the same rules as the decoder.
func NameProblem(kind NameKind, name string) string {
	switch kind {
	case EntryName:
		return entryNameProblem(name)
	case PluginName:
		return pluginNameProblem(name)
	case SkillName:
		return skillNameProblem(name)
	case EnvName:
		return envNameProblem(name)
	case HeaderName:
		return headerNameProblem(name)
	case Matcher:
		if name == "" || name == "*" {
			return "" // the catch-alls
		}
		return matcherProblem(name)
	}
	panic(fmt.Sprintf("config: unknown name kind %d", kind))
}
