package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Names become file names, folder names and JSON keys on disk, so they are
// checked before anything else looks at them. Each check returns "" when the
// name is fine, or the reason it is not.

const maxNameLen = 128

// commonNameProblem catches what no kind of name may contain: the
// characters that would let a name escape its folder or hide a file.
func commonNameProblem(name string) string {
	switch {
	case name == "":
		return "The name is empty."
	case len(name) > maxNameLen:
		return fmt.Sprintf("The name is %d bytes long; the limit is %d.", len(name), maxNameLen)
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return fmt.Sprintf("The name contains the control character %U.", r)
		}
	}
	switch {
	case strings.ContainsAny(name, `/\`):
		return "The name contains a slash; names become file and folder names and may not name a path."
	case strings.Contains(name, ".."):
		return `The name contains ".."; names become file and folder names and may not climb out of their folder.`
	case strings.HasPrefix(name, "."):
		return "The name starts with a dot, which would make a hidden file that Antigravity skips."
	}
	return ""
}

var entryNameRe = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)

// entryNameProblem checks the names of MCP servers, hooks, rules, agents and
// workflows.
func entryNameProblem(name string) string {
	if p := commonNameProblem(name); p != "" {
		return p
	}
	if !entryNameRe.MatchString(name) {
		return "Names may contain only letters, digits, \"_\", \"-\" and \".\", and start with a letter, digit or \"_\"."
	}
	return ""
}

var pluginNameRe = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// pluginNameProblem applies the rule `agy plugin install` enforces.
func pluginNameProblem(name string) string {
	if p := commonNameProblem(name); p != "" {
		return p
	}
	if !pluginNameRe.MatchString(name) {
		return "Plugin names may contain only letters, digits, \"_\" and \"-\" (the rule `agy plugin install` enforces)."
	}
	return ""
}

var skillNameRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// skillNameProblem applies the documented skill name rule: lowercase words
// joined by hyphens.
func skillNameProblem(name string) string {
	if p := commonNameProblem(name); p != "" {
		return p
	}
	if len(name) > 64 {
		return fmt.Sprintf("Skill names are at most 64 characters; this one has %d.", len(name))
	}
	if strings.ToLower(name) != name {
		return fmt.Sprintf("Skill names are lowercase (Antigravity's skill frontmatter rule); write %q.", strings.ToLower(name))
	}
	if !skillNameRe.MatchString(name) {
		return "Skill names are lowercase letters and digits joined by single hyphens, such as \"release-notes\"."
	}
	return ""
}

var envNameRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func envNameProblem(name string) string {
	if !envNameRe.MatchString(name) {
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

// version is an agy release such as 1.5.0; the zero value means unknown.
type version struct{ major, minor, patch int }

func parseVersion(s string) (version, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return version{}, false
	}
	var n [3]int
	for i, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" || (len(p) > 1 && p[0] == '0') {
			return version{}, false
		}
		v, err := strconv.Atoi(p)
		if err != nil {
			return version{}, false
		}
		n[i] = v
	}
	return version{n[0], n[1], n[2]}, true
}

func (v version) known() bool { return v != version{} }

func (v version) atLeast(o version) bool {
	if v.major != o.major {
		return v.major > o.major
	}
	if v.minor != o.minor {
		return v.minor > o.minor
	}
	return v.patch >= o.patch
}

func (v version) String() string { return fmt.Sprintf("%d.%d.%d", v.major, v.minor, v.patch) }
