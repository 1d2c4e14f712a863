package lint

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/frontmatter"
)

// keyAt locates frontmatter keys: the 1-based line and column of the key
// at a path of mapping keys, or ok false when the document has no such
// key (or no frontmatter that parses; the schema reports that).
type keyAt func(path ...string) (line, col int, ok bool)

// frontmatterKeys parses a markdown document's frontmatter for keyAt.
func frontmatterKeys(data []byte) keyAt {
	fm, _, first, err := frontmatter.Split(data)
	var root yaml.Node
	if err != nil || yaml.Unmarshal(fm, &root) != nil || len(root.Content) == 0 {
		return func(...string) (int, int, bool) { return 0, 0, false }
	}
	return func(path ...string) (int, int, bool) {
		n := root.Content[0]
		for _, key := range path {
			if n.Kind != yaml.MappingNode {
				return 0, 0, false
			}
			var next, at *yaml.Node
			// The last of duplicate keys, as YAML decoders keep it.
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == key {
					at, next = n.Content[i], n.Content[i+1]
				}
			}
			if next == nil {
				return 0, 0, false
			}
			if key == path[len(path)-1] {
				return first + at.Line - 1, at.Column, true
			}
			n = next
		}
		return 0, 0, false
	}
}

// pointerOf is the JSON pointer of a frontmatter key path.
func pointerOf(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteString("/" + escape(p))
	}
	return b.String()
}

// newerKeys reports the frontmatter keys of subagents and skills that only
// newer agy builds read (agy.AgentFields, agy.SkillFields).
func newerKeys(k kind, data []byte, addSince func(agy.Version, string, int, int, string, string)) {
	if !mayName(data, gatedKeys(k)) {
		return
	}
	at := frontmatterKeys(data)
	switch k {
	case kindAgent:
		for _, f := range agy.AgentFields() {
			if f.Feature == "" {
				continue
			}
			if line, col, ok := at(f.Key); ok {
				addSince(f.Since(), "agent/newer-agy", line, col, pointerOf([]string{f.Key}), fmt.Sprintf("the subagent key %s, which an older agy ignores", f.Key))
			}
		}
	case kindSkill:
		for _, f := range agy.SkillFields() {
			if line, col, ok := at(f.Path...); ok {
				addSince(f.Since(), "skill/newer-agy", line, col, pointerOf(f.Path), fmt.Sprintf("the SKILL.md key %s, which an older agy ignores", f.Key()))
			}
		}
	}
}

// gatedKeys are the frontmatter key names newerKeys looks for in a
// document of kind k, every segment of a nested key's path included.
func gatedKeys(k kind) []string {
	var out []string
	switch k {
	case kindAgent:
		for _, f := range agy.AgentFields() {
			if f.Feature != "" {
				out = append(out, f.Key)
			}
		}
	case kindSkill:
		for _, f := range agy.SkillFields() {
			out = append(out, f.Path...)
		}
	}
	return out
}

// mayName reports whether YAML text could hold a key named one of keys:
// it spells one of them, or holds a backslash, a NUL or a byte past
// ASCII. A YAML key is its own characters but for the escapes of
// double-quoted strings, in ASCII text (the YAML reader also honours a
// UTF-16 byte order mark, whose text spells nothing bytewise), so text
// that spells none of the names names none of them, and the parse is
// skipped (most SKILL.md hold only name and description). FuzzMayName
// checks it against the parse.
func mayName(text []byte, keys []string) bool {
	for _, b := range text {
		if b == '\\' || b == 0 || b >= 0x80 {
			return true
		}
	}
	for _, k := range keys {
		if bytes.Contains(text, []byte(k)) {
			return true
		}
	}
	return false
}

// ruleText is the text of a rule file that counts against agy's rule
// budget and may hold @path includes: the body below the frontmatter, or
// the whole file when it has none; line is the file's line it starts on.
func ruleText(data []byte) (text string, line int) {
	_, body, _, err := frontmatter.Split(data)
	if err != nil {
		return string(data), 1
	}
	return string(body), 1 + strings.Count(string(data[:len(data)-len(body)]), "\n")
}

// BudgetEntry is one user or workspace rule text, for RuleBudget.
type BudgetEntry struct {
	// Path names the file in the finding.
	Path string
	// Text is what agy counts: the rule's body, or the text of a file with
	// no frontmatter (GEMINI.md, AGENTS.md, agyconf's managed block).
	Text string
}

// RuleBudget judges user and workspace rules together against the token
// budget agy gives them (agy.RuleBudget): one warning, at the rule whose
// text takes the running total over it, in the order given. agy cuts the
// rules over the budget rather than refusing them, and the count is an
// estimate, so it is never an error.
func RuleBudget(entries []BudgetEntry) []Finding {
	l := agy.LimitOf(agy.RuleBudget)
	total := 0
	for i, e := range entries {
		total += len(e.Text)
		if tokens := agy.EstimateTokens(total); tokens > l.Max {
			what := "this rule alone is"
			if i > 0 {
				what = fmt.Sprintf("the %d rules up to this one are", i+1)
			}
			fs := []Finding{{Rule: "rule/size", Severity: severityOf("rule/size"), File: e.Path,
				Message: fmt.Sprintf("%s about %d tokens (bytes / 4), over the %d agy reads of user and workspace rules", what, tokens, l.Max)}}
			cite(fs)
			return fs
		}
	}
	return nil
}

// includes finds the @path includes of a rule's text outside code: an @
// at the start of a line or after white space, followed by a path that
// starts with ./, ../, / or ~/, or ends in a file extension. An @name
// without one (a mention, a decorator, an npm scope) is no include.
func includes(text string) []include {
	var out []include
	fence := ""
	for n, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		inCode := false
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case c == '`':
				inCode = !inCode
			case c == '@' && !inCode && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
				end := i + 1
				for end < len(line) && !strings.ContainsRune(" \t`<>\"'", rune(line[end])) {
					end++
				}
				if p := strings.TrimRight(line[i+1:end], ".,;:!?)]}"); isIncludePath(p) {
					out = append(out, include{p, n, utf8.RuneCountInString(line[:i]) + 1})
				}
				i = end - 1
			}
		}
	}
	return out
}

// include is one @path of a rule's text: the path, the 0-based line of
// the text it is on and its 1-based column.
type include struct {
	path      string
	line, col int
}

func isIncludePath(p string) bool {
	for _, prefix := range []string{"./", "../", "/", "~/"} {
		if strings.HasPrefix(p, prefix) && len(p) > len(prefix) {
			return true
		}
	}
	ext := filepath.Ext(p)
	if len(ext) < 2 || strings.HasPrefix(p, ".") {
		return false
	}
	for i, r := range ext[1:] {
		isLetter := (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !isLetter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// includeRoots are the folders an include of the rule file at path may
// resolve against besides the file's own: the folder above the nearest
// customization root (.agents, .gemini), and the nearest git work tree.
func includeRoots(path string) []string {
	var roots []string
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if name := filepath.Base(dir); isRoot(name) || name == ".gemini" {
			roots = append(roots, filepath.Dir(dir))
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			roots = append(roots, dir)
			break
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return roots
}

// missingIncludes reports each @path include of a rule file that names
// nothing on this machine: agy brings nothing in for it.
func (c *checker) missingIncludes(path string, data []byte, add func(string, int, int, string, string)) {
	text, first := ruleText(data)
	incs := includes(text)
	if len(incs) == 0 {
		return
	}
	roots := includeRoots(path)
	home, _ := os.UserHomeDir()
	for _, in := range incs {
		inc := in.path
		var tried []string
		switch {
		case strings.HasPrefix(inc, "~/"):
			if home != "" {
				tried = append(tried, filepath.Join(home, inc[2:]))
			}
		case filepath.IsAbs(inc):
			tried = append(tried, inc)
			for _, r := range roots {
				tried = append(tried, filepath.Join(r, inc))
			}
		default:
			tried = append(tried, filepath.Join(filepath.Dir(path), inc))
			for _, r := range roots {
				tried = append(tried, filepath.Join(r, inc))
			}
		}
		found := false
		for _, t := range tried {
			if _, err := os.Stat(t); err == nil {
				found = true
				break
			}
		}
		if !found {
			add("rule/include-missing", first+in.line, in.col, "", fmt.Sprintf("@%s names no file here (looked for %s), so agy brings in nothing for it", inc, strings.Join(tried, ", ")))
		}
	}
}

// ruleTrigger judges a rule file's trigger beyond its schema: none at all
// (no frontmatter, or none of its keys), which the sources contest, and
// globs beside another trigger, which agy does not read.
func ruleTrigger(data []byte, add func(string, int, int, string, string)) {
	fm, _, line, err := frontmatter.Split(data)
	var m map[string]any
	switch {
	case errors.Is(err, frontmatter.ErrNone):
		line = 0
	case err != nil:
		return
	default:
		if m, err = frontmatter.Parse(fm); err != nil {
			return
		}
	}
	t, has := m["trigger"]
	if !has {
		what := "a rule without frontmatter"
		if m != nil {
			what = "a rule whose frontmatter has no trigger"
		}
		col := 0
		if line > 0 {
			col = 1
		}
		add("rule/no-trigger", line, col, "", what+", which some agy builds discard")
		return
	}
	if _, has := m["globs"]; has && t != "glob" {
		l := line
		for i, text := range strings.Split(string(fm), "\n") {
			if strings.HasPrefix(text, "globs:") {
				l = line + i
			}
		}
		add("rule/globs-ignored", l, 1, "/globs", fmt.Sprintf("globs beside trigger %v, which agy ignores: it reads globs only for trigger: glob", t))
	}
}

// emptyValues re-judges the schema's findings on a rule's or workflow's
// description and globs written with no value (null: "globs:" with
// nothing after it, as Windsurf writes every rule) or a blank one: a
// decoder of typed fields reads either as no value, so it is an error
// only where the trigger needs the key (description for model_decision,
// globs for glob), and otherwise a warning (rule/empty-value,
// workflow/empty-value); a rule's globs beside another trigger already
// have theirs (rule/globs-ignored).
func emptyValues(k kind, data []byte, fs []Finding) []Finding {
	fm, _, _, err := frontmatter.Split(data)
	if err != nil {
		return fs
	}
	m, err := frontmatter.Parse(fm)
	if err != nil {
		return fs
	}
	trigger, _ := m["trigger"].(string)
	var out []Finding
	judged := map[string]bool{}
	for _, f := range fs {
		key := strings.TrimPrefix(f.Pointer, "/")
		v, has := m[key]
		s, isStr := v.(string)
		empty := has && (v == nil || isStr && strings.TrimSpace(s) == "")
		if f.Severity != Error || !empty || (key != "description" && (key != "globs" || k != kindRule)) {
			out = append(out, f)
			continue
		}
		switch {
		case k == kindRule && key == "description" && trigger == "model_decision",
			k == kindRule && key == "globs" && trigger == "glob":
			out = append(out, f) // the trigger needs it: the rule selects nothing
		case judged[key]:
		case k == kindRule && key == "globs":
			judged[key] = true // rule/globs-ignored says it
		default:
			judged[key] = true
			rule := "rule/empty-value"
			if k == kindWorkflow {
				rule = "workflow/empty-value"
			}
			out = append(out, Finding{Rule: rule, Severity: severityOf(rule), File: f.File, Line: f.Line, Column: f.Column, Pointer: f.Pointer,
				Message: key + " written with no value, which agy reads as none"})
		}
	}
	return out
}
