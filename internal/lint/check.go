package lint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"regexp/syntax"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/frontmatter"
	"github.com/agyconf/agyconf/internal/jsonmerge"
	"github.com/agyconf/agyconf/schema"
)

// gated is a finding of a rule about a construct only agy v and newer
// read as written, judged for the build validate was given, or for the
// newest agy the facts table knows when none was (agy.JudgedAt): nothing
// from v on; below it, the rule's own severity, which follows what an
// older build does (the rule's agy.Effect), with a note naming both
// builds. ok is false for nothing to report.
func (c *checker) gated(v agy.Version, f Finding) (Finding, bool) {
	at := agy.JudgedAt(c.version)
	if at.AtLeast(v) {
		return Finding{}, false
	}
	f.Severity = severityOf(f.Rule)
	// The note says what is wrong, so it goes before the fix.
	what, fix, hasFix := strings.Cut(f.Message, " — ")
	if c.version.Known() {
		what += fmt.Sprintf(": read as written only since agy %s, and the files must load on %s (--agy-version)", v, at)
	} else {
		what += fmt.Sprintf(": read as written only since agy %s, newer than %s, the newest agy agyconf knows", v, at)
	}
	f.Message = what
	if hasFix {
		f.Message += " — " + fix
	}
	return f, true
}

// checker lints documents. One checker checks one document at a time;
// Paths checks files on several goroutines with a copy of the checker
// each (worker), sharing memo and what is read-only while files are
// checked.
type checker struct {
	// version is Options.AgyVersion: what gated judges against (the
	// newest agy when unknown).
	version    agy.Version
	memo       *memo
	lookPath   func(string) (string, error)
	stat       func(string) (fs.FileInfo, error)
	credential *regexp.Regexp
	reference  *regexp.Regexp
	// unknownBudget is how many more unknown-field findings the document
	// being checked may list; unlisted counts those past it.
	unknownBudget, unlisted int
	// servers are the MCP servers of the files validate was given, for
	// permission entries naming a plugin's (nil for a lone document). It
	// reads them on first use: only a settings file needs them.
	servers func() *serverIndex
	// machine runs the rules that depend on this machine: a command on
	// PATH, a file's mode. Without it only what the bytes say is checked,
	// the same anywhere (what render checks its own documents with).
	machine bool
	// alongside starts f, a large document's rules, to run while its
	// schema is checked, and returns what waits for it: the queue's
	// checkers take it (queue.help), else a goroutine of its own.
	alongside func(f func()) (wait func())
}

// alongsideFrom is the size of document whose rules run alongside its
// schema check: a 1,000-server mcp_config.json was validate's longest
// check, alone on one core.
const alongsideFrom = 16 << 10

// onItsOwn runs f on a goroutine of its own: alongside, for a checker
// outside a queue.
func onItsOwn(f func()) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	return func() { <-done }
}

func newChecker(opts Options) *checker {
	if opts.Stat == nil {
		opts.Stat = os.Stat
	}
	return &checker{
		stat:       opts.Stat,
		version:    opts.AgyVersion,
		memo:       &memo{validators: map[string]*compiled{}, props: map[string][]string{}, plugins: newPluginDirs(), matchers: map[string][2]string{}, wd: sync.OnceValues(os.Getwd)},
		lookPath:   opts.LookPath,
		machine:    true,
		alongside:  onItsOwn,
		reference:  regexp.MustCompile(`^(Bearer )?\$\{[A-Za-z_][A-Za-z0-9_]*\}$`),
		credential: regexp.MustCompile(`(?i)(token|secret|passw|api[_-]?key|apikey|auth|credential|private[_-]?key|access[_-]?key|cookie)`),
	}
}

// memo is what a run's checkers build once and share, each part safe
// for concurrent use.
type memo struct {
	mu sync.Mutex
	// validators are compiled on first use, each once.
	validators map[string]*compiled
	// props are schema.Properties, by schema and pointer.
	props map[string][]string
	// plugins remembers which folders hold a plugin.json.
	plugins *pluginDirs
	// matchers are hook matchers judged, with their finding's rule and
	// message (matcher).
	matchers map[string][2]string
	// wd is the working folder, looked up once a run: filepath.Abs asks
	// the kernel twice for every name (os.Getwd), 800 calls for 400
	// skills.
	wd func() (string, error)
}

// abs is filepath.Abs of p, with the working folder looked up once.
func (m *memo) abs(p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	wd, err := m.wd()
	if err != nil {
		return "", err
	}
	return filepath.Join(wd, p), nil
}

// compiled is one schema's Validator, compiled by the first checker that
// needs it while any other waits.
type compiled struct {
	once sync.Once
	v    *schema.Validator
	err  error
}

// validator compiles a schema the first time a document needs it:
// compiling all of them up front cost most of a small run. Two checkers
// compiling different schemas do not wait for each other.
func (c *checker) validator(name string) (*schema.Validator, error) {
	c.memo.mu.Lock()
	e, ok := c.memo.validators[name]
	if !ok {
		e = &compiled{}
		c.memo.validators[name] = e
	}
	c.memo.mu.Unlock()
	e.once.Do(func() { e.v, e.err = schema.NewValidator(name) })
	return e.v, e.err
}

func schemaName(k kind) string {
	switch k {
	case kindHooks:
		return "hooks"
	case kindMCP:
		return "mcp_config"
	case kindPlugin:
		return "plugin"
	case kindSkill:
		return "skill-frontmatter"
	case kindRule:
		return "rule-frontmatter"
	case kindWorkflow:
		return "workflow-frontmatter"
	case kindAgent, kindAgentFlat:
		return "agent-frontmatter"
	case kindRuleText:
		return "" // no frontmatter, no schema
	}
	return string(k) // the settings kinds are named as their schemas
}

// MaxFileSize bounds each file validate reads, as apply.MaxLiveFileSize
// bounds the live files a render reads: Antigravity's files are kilobytes,
// and a bigger one is refused before it is read or parsed.
const MaxFileSize = 16 << 20

// readLimited reads a file validate was pointed at: bounded, and never
// blocking on a FIFO or a device (a cloned tree may hold either). listed
// says the search found it in a listing of its folder, as a regular file
// (confine.ReadListedFile).
func readLimited(path string, listed bool) ([]byte, fs.FileInfo, error) {
	read := confine.ReadFileInfo
	if listed {
		read = confine.ReadListedFile
	}
	data, fi, err := read(path, MaxFileSize)
	if err != nil && !listed {
		if target, lerr := os.Readlink(path); lerr == nil {
			// A store link whose target is gone, or a loop: the
			// message names where the link points.
			err = fmt.Errorf("%s is a link to %s, which cannot be read: %w", path, target, err)
		}
	}
	var tl *confine.TooLargeError
	if errors.As(err, &tl) {
		if tl.Size < 0 {
			return nil, nil, fmt.Errorf("%s grew past %d bytes while being read; agyconf validate reads files of at most %d bytes (16 MiB)", path, MaxFileSize, MaxFileSize)
		}
		return nil, nil, fmt.Errorf("%s is %d bytes; agyconf validate reads files of at most %d bytes (16 MiB)", path, tl.Size, MaxFileSize)
	}
	return data, fi, err
}

// file lints the file at path, of kind k, listed as a regular file or not
// (readLimited). A user or workspace rule text is also returned as the
// run's budget entry, for RuleBudget.
func (c *checker) file(path string, k kind, listed bool) ([]Finding, *BudgetEntry, error) {
	if k == kindSkillFlat {
		return []Finding{{Rule: "skill/flat-file", Severity: severityOf("skill/flat-file"), File: path,
			Message: "a flat skill file, which agy may never discover — move it to " + filepath.ToSlash(filepath.Join("skills", strings.TrimSuffix(filepath.Base(path), ".md"), "SKILL.md"))}}, nil, nil
	}
	var pre []Finding
	if k == kindAgentFlat {
		name := strings.TrimSuffix(filepath.Base(path), ".md")
		pre = append(pre, Finding{Rule: "agent/flat-file", Severity: severityOf("agent/flat-file"), File: path,
			Message: "a flat subagent file, which the CLI's docs call a common mistake — move it to " + filepath.ToSlash(filepath.Join("agents", name, "agent.md"))})
		k = kindAgent
	}
	if k == kindSkillNested {
		return []Finding{{Rule: "skill/nested", Severity: severityOf("skill/nested"), File: path,
			Message: fmt.Sprintf("a skill nested inside another skill's folder, which agy never loads — move its folder %s up beside the others", filepath.Base(filepath.Dir(path)))}}, nil, nil
	}
	if k == kindSkillCase {
		return []Finding{{Rule: "skill/file-name", Severity: severityOf("skill/file-name"), File: path,
			Message: fmt.Sprintf("%s, where agy reads SKILL.md: a case-sensitive filesystem never matches it", filepath.Base(path))}}, nil, nil
	}
	if k == kindHooksUnread {
		return []Finding{{Rule: "hooks/unread-location", Severity: severityOf("hooks/unread-location"), File: path,
			Message: "agy never reads a hooks.json here"}}, nil, nil
	}
	if k == kindPluginHooksSub {
		out, err := c.pluginHooksSub(path, listed)
		return out, nil, err
	}
	if k == kindSkillLegacy {
		abs, _ := filepath.Abs(path)
		l, _ := legacyFolderOf(strings.Split(filepath.ToSlash(abs), "/"))
		return []Finding{{Rule: "skill/legacy-folder", Severity: severityOf("skill/legacy-folder"), File: path,
			Message: fmt.Sprintf("this skill has no effect: agy no longer reads %s — move its folder to %s", agy.ScopePath(l.Scope, l.Path), legacyTarget(l))}}, nil, nil
	}
	if k == kindSettingsUnread {
		rel := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(path)), filepath.Base(path)))
		return []Finding{{Rule: "settings/not-read", Severity: severityOf("settings/not-read"), File: path,
			Message: fmt.Sprintf("agy does not read %s, so what it holds has no effect", rel)}}, nil, nil
	}
	data, fi, err := readLimited(path, listed)
	if err != nil {
		return nil, nil, err
	}
	if k == kindIgnore {
		return append(pre, capFindings(ignoreFindings(path, data), 0)...), nil, nil
	}
	if k == kindMCP && len(data) == 0 {
		// What agy writes itself on its first run: no servers.
		b := agy.BehaviourOf(agy.MCPEmptyFile)
		f, ok := c.gated(b.Since, Finding{Rule: "json/invalid", File: path, Line: 1, Column: 1, Message: "an empty mcp_config.json (agy writes one itself on its first run), on which older builds stop at startup — write {} for no servers"})
		if !ok {
			return pre, nil, nil
		}
		return append(pre, f), nil, nil
	}
	var budget *BudgetEntry
	if k == kindRuleText || (k == kindRule && !c.memo.plugins.is(filepath.Dir(filepath.Dir(path)))) {
		// A plugin's rules are not user or workspace rules: agy's rule
		// budget is theirs alone (CLI changelog 1.2.7).
		text, _ := ruleText(data)
		budget = &BudgetEntry{Path: path, Text: text}
	}
	out, err := c.check(path, k, data, fi.Mode().Perm(), c.memo.plugins.is(filepath.Dir(path)))
	if err == nil && k == kindHooks && c.memo.plugins.is(filepath.Dir(path)) {
		out = append(out, c.pluginHooksRoot(path)...)
	}
	return append(pre, out...), budget, err
}

// The files a plugin's hooks are read from are contested
// (agy.PluginHooks): a plugin whose hooks stand in one of them only, or in
// both but not the same, loses them on some build. The root hooks.json
// says when hooks/hooks.json is missing; hooks/hooks.json says the rest.

func pluginHooksFinding(path, msg string) Finding {
	return Finding{Rule: "hooks/plugin-location", Severity: severityOf("hooks/plugin-location"), File: path, Message: msg}
}

// pluginHooksRoot judges a plugin's root hooks.json against its
// hooks/hooks.json.
func (c *checker) pluginHooksRoot(path string) []Finding {
	sub := filepath.Join(filepath.Dir(path), "hooks", "hooks.json")
	if _, err := os.Lstat(sub); err == nil {
		return nil
	}
	return []Finding{pluginHooksFinding(path, "the plugin has no hooks/hooks.json, so builds that read a plugin's hooks from there (1.0.4, 1.0.6, 1.1.24, 1.2.7) never run these hooks")}
}

// pluginHooksSub judges a plugin's hooks/hooks.json: as any hooks.json,
// since builds read it, and against the plugin's root hooks.json. Beside
// a root hooks.json, a file no build loads as written (another tool's,
// such as Claude Code's) is one warning, not the errors of a hooks.json:
// whether the builds that fail to parse it read the root one then is not
// known.
func (c *checker) pluginHooksSub(path string, listed bool) ([]Finding, error) {
	plugin := filepath.Dir(filepath.Dir(path))
	if !c.memo.plugins.is(plugin) {
		return nil, nil // no plugin: agy reads nothing of this folder
	}
	data, fi, err := readLimited(path, listed)
	if err != nil {
		return nil, err
	}
	out, err := c.check(path, kindHooks, data, fi.Mode().Perm(), false)
	if err != nil {
		return nil, err
	}
	root := filepath.Join(plugin, "hooks.json")
	rootData, _, rootErr := readLimited(root, false)
	if errors.Is(rootErr, fs.ErrNotExist) {
		return append(out, pluginHooksFinding(path, "the plugin has no root hooks.json, so builds that read a plugin's hooks from there (the docs of every product; 1.1.26) never run these hooks")), nil
	}
	for _, f := range out {
		if f.Severity == Error {
			at := ""
			if f.Pointer != "" {
				at = " at " + f.Pointer
			}
			return []Finding{pluginHooksFinding(path, fmt.Sprintf("agy does not load this file as written (%s%s: %s), so builds that read a plugin's hooks/hooks.json (1.1.24, 1.2.7) drop it and may not run its hooks — keep a Claude Code plugin's hooks out of hooks/hooks.json, or give it agy's hooks", f.Rule, at, strings.SplitN(f.Message, " — ", 2)[0]))}, nil
		}
	}
	if rootErr == nil && !sameJSON(data, rootData) {
		out = append(out, pluginHooksFinding(path, "it differs from the plugin's hooks.json, so which hooks run depends on the build"))
	}
	return out, nil
}

// sameJSON reports whether two documents hold the same JSON value; false
// when either does not parse.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// check lints the bytes of one document of kind k, named path in
// findings. perm is its mode (0: unknown); inPlugin says it belongs to a
// plugin, whose hooks start in the plugin's folder (pstack).
func (c *checker) check(path string, k kind, data []byte, perm fs.FileMode, inPlugin bool) ([]Finding, error) {
	// A file of thousands of unknown keys lists MaxFindings of them and
	// counts the rest (unknownFields), never building each one's finding.
	c.unknownBudget, c.unlisted = MaxFindings, 0
	// The schema's findings come first, then those of the rules run on
	// the document as read, which may run while the schema check does.
	found := &sink{c: c, path: path}
	var rules *sink
	markdown := strings.HasSuffix(path, ".md")
	if name := schemaName(k); name != "" {
		v, err := c.validator(name)
		if err != nil {
			return nil, err
		}
		if markdown {
			err = v.ValidateMarkdown(name, data)
		} else {
			_, err = v.CheckJSONWhile(name, data, func(tree *jsonmerge.Tree, root any) func() {
				rules = &sink{c: c, path: path}
				run := func() { c.rules(path, k, tree, root, perm, inPlugin, rules) }
				if len(data) < alongsideFrom {
					run()
					return func() {}
				}
				return c.alongside(run)
			})
		}
		if err := c.schemaFindings(path, k, name, err, found); err != nil {
			return nil, err
		}
	}
	if k == kindRule || k == kindWorkflow {
		found.out = emptyValues(k, data, found.out)
	}
	if markdown {
		c.markdown(path, k, data, found.add, found.addSince)
	}
	out := found.out
	if rules != nil {
		out = append(out, rules.out...)
	}
	return capFindings(out, c.unlisted), nil
}

// schemaFindings adds the findings of a schema check of the document at
// path, of kind k, whose error err is; an error that is not about the
// document is returned.
func (c *checker) schemaFindings(path string, k kind, name string, err error, found *sink) error {
	var de *schema.DocumentError
	if err != nil && !errors.As(err, &de) {
		return fmt.Errorf("%s: %w", path, err)
	}
	if de == nil {
		return nil
	}
	for _, f := range de.Findings {
		rule := mapFinding(k, f)
		// What agy reads from some build in this kind of file is judged
		// by version, never a false error.
		if ext, ok := extensionOf(rule); ok {
			if b, accepted := agy.JSONAccepts(name, ext); accepted {
				found.addSince(b.Since, rule, f.Line, f.Column, f.Pointer, f.Message)
				continue
			}
		}
		found.add(rule, f.Line, f.Column, f.Pointer, f.Message)
	}
	return nil
}

// checkValue lints a JSON document of kind k held as a value, as check
// lints its text: the same findings, without positions.
func (c *checker) checkValue(path string, k kind, value any, perm fs.FileMode, inPlugin bool) ([]Finding, error) {
	c.unknownBudget, c.unlisted = MaxFindings, 0
	name := schemaName(k)
	if name == "" || !jsonKind(k) {
		return nil, fmt.Errorf("lint: %s documents are not JSON", k)
	}
	v, err := c.validator(name)
	if err != nil {
		return nil, err
	}
	found, rules := &sink{c: c, path: path}, &sink{c: c, path: path}
	if err := c.schemaFindings(path, k, name, v.ValidateValue(name, value), found); err != nil {
		return nil, err
	}
	c.rules(path, k, nil, value, perm, inPlugin, rules)
	return capFindings(append(found.out, rules.out...), c.unlisted), nil
}

// jsonKind says a kind of document is JSON, not markdown.
func jsonKind(k kind) bool {
	switch k {
	case kindHooks, kindMCP, kindPlugin, kindCLISettings, kindACPSettings, kindUserConfig:
		return true
	}
	return false
}

// sink collects one document's findings.
type sink struct {
	c    *checker
	path string
	out  []Finding
}

func (s *sink) add(rule string, line, col int, ptr, msg string) {
	s.out = append(s.out, Finding{Rule: rule, Severity: severityOf(rule), File: s.path, Line: line, Column: col, Pointer: schema.ShortPointer(ptr), Message: msg})
}

// addSince reports what only agy v and newer accept, judged by since.
func (s *sink) addSince(v agy.Version, rule string, line, col int, ptr, msg string) {
	if f, ok := s.c.gated(v, Finding{Rule: rule, File: s.path, Line: line, Column: col, Pointer: schema.ShortPointer(ptr), Message: msg}); ok {
		s.out = append(s.out, f)
	}
}

// addAs reports at a severity of the rule's own choosing.
func (s *sink) addAs(sev Severity, rule string, line, col int, ptr, msg string) {
	s.out = append(s.out, Finding{Rule: rule, Severity: sev, File: s.path, Line: line, Column: col, Pointer: ptr, Message: msg})
}

// rules runs the checks the schema cannot make on a JSON document of kind
// k, read as tree with the value root (tree nil: held as the value root).
func (c *checker) rules(path string, k kind, tree *jsonmerge.Tree, root any, perm fs.FileMode, inPlugin bool, s *sink) {
	loc := &locator{tree, root}
	switch k {
	case kindHooks:
		c.hooks(root, loc, inPlugin, s.add, s.addSince)
	case kindMCP:
		c.commands(root, loc, s.add)
		c.mcpNewer(root, loc, s.addSince)
		c.mcpUnknown(root, loc, s.add)
		c.mcpIgnored(root, loc, s.add)
		if c.machine && perm&0o077 != 0 {
			c.credentials(root, loc, perm, s.add)
		}
	case kindPlugin:
		c.pluginManifest(root, loc, s.add)
	case kindUserConfig:
		c.permissionServers(root, loc, []string{"userSettings", "globalPermissionGrants"}, s.add, s.addSince)
	case kindACPSettings:
		if c.machine {
			c.acpToken(path, root, loc, s.add)
		}
		c.permissionServers(root, loc, []string{"permissions"}, s.add, s.addSince)
	case kindCLISettings:
		c.settings(root, loc, s.addAs, s.addSince)
		c.permissionServers(root, loc, []string{"permissions"}, s.add, s.addSince)
	}
}

func (c *checker) markdown(path string, k kind, data []byte, add func(string, int, int, string, string), addSince func(agy.Version, string, int, int, string, string)) {
	if abs, err := c.memo.abs(path); err == nil {
		if r, ok := readingOf(strings.Split(filepath.ToSlash(abs), "/"), k); ok {
			addSince(agy.BehaviourOf(r.Feature).Since, "rule/newer-agy", 0, 0, "", fmt.Sprintf("rules at %s are read", r.Path))
		}
	}
	switch k {
	case kindSkill:
		_, body, _, err := frontmatter.Split(data)
		if l := agy.LimitOf(agy.SkillBody); err == nil && l.Exceeds(string(body)) {
			add("skill/body-size", 0, 0, "", fmt.Sprintf("the skill body is %d %s; agy keeps the first %d", l.Measure(string(body)), l.Unit, l.Max))
		}
		newerKeys(k, data, addSince)
	case kindAgent:
		c.unknownKeys(data, "agent/unknown-field", "agent-frontmatter", add)
		newerKeys(k, data, addSince)
	case kindRule, kindRuleText:
		// What the rules take together is judged by RuleBudget, over a
		// whole run or a whole plan; includes depend on this machine.
		if c.machine {
			c.missingIncludes(path, data, add)
		}
		if k == kindRule {
			c.unknownKeys(data, "rule/unknown-field", "rule-frontmatter", add)
			ruleTrigger(data, add)
		}
	case kindWorkflow:
		c.unknownKeys(data, "workflow/unknown-field", "workflow-frontmatter", add)
		// The body, as the decoder counts it: the same text passes both
		// or neither.
		_, body, _, err := frontmatter.Split(data)
		if err != nil {
			body = data
		}
		if l := agy.LimitOf(agy.WorkflowBody); l.Exceeds(string(body)) {
			add("workflow/size", 0, 0, "", fmt.Sprintf("the body is %d %s; agy reads the first %d", l.Measure(string(body)), l.Unit, l.Max))
		}
	}
}

// pointerSegments splits a JSON pointer into unescaped segments.
func pointerSegments(p string) []string {
	if p == "" {
		return nil
	}
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return segs
}

func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// byteLevel names the rule for a finding about a JSON file's bytes, or "".
func byteLevel(k kind, f schema.Finding) string {
	m := f.Message
	switch {
	case strings.Contains(m, "byte order mark"):
		if k == kindPlugin {
			return "plugin/bom"
		}
		return "json/bom"
	case strings.HasPrefix(m, "invalid UTF-8"):
		return "json/invalid-utf8"
	case strings.HasPrefix(m, "duplicate key"):
		if k == kindPlugin {
			return "plugin/duplicate-key"
		}
		return "json/duplicate-key"
	case f.Pointer != "":
		return ""
	case strings.HasPrefix(m, "a comment"):
		return "json/comment"
	case strings.HasPrefix(m, "a trailing comma"):
		return "json/trailing-comma"
	case strings.HasPrefix(m, "the JSON ends early"), strings.HasPrefix(m, "data after"),
		strings.Contains(m, "is not a JSON number"), strings.HasPrefix(m, "a single-quoted"),
		strings.HasPrefix(m, "JSON syntax error"), strings.HasPrefix(m, "not JSON"):
		return "json/invalid"
	}
	return ""
}

// mapFinding names the rule a schema finding breaks.
func mapFinding(k kind, f schema.Finding) string {
	segs := pointerSegments(f.Pointer)
	last := ""
	if len(segs) > 0 {
		last = segs[len(segs)-1]
	}
	m := f.Message
	switch k {
	case kindSkill, kindRule, kindWorkflow, kindAgent, kindRuleText:
		return mapMarkdown(k, segs, m)
	}
	if r := byteLevel(k, f); r != "" {
		return r
	}
	switch k {
	case kindHooks:
		return mapHooks(segs, m)
	case kindMCP:
		if len(segs) >= 3 && segs[0] == "mcpServers" {
			switch {
			case last == "authProviderType" && strings.Contains(m, "value must"):
				return "mcp/auth-provider-type"
			case len(segs) == 4 && (segs[2] == "args" || segs[2] == "env") && strings.Contains(m, "want string"):
				return "mcp/non-string"
			case len(segs) == 4 && segs[2] == "oauth" && strings.Contains(m, "not allowed"):
				// A key of the OAuth client agy does not read: ignored.
				return "mcp/unknown-field"
			}
		}
		if len(segs) == 1 && strings.Contains(m, "not allowed") {
			// A top-level key beside mcpServers ($schema, another tool's
			// servers): agy tolerates unknown keys (skillsaw, agy 1.1.25).
			return "mcp/unknown-field"
		}
		if len(segs) == 2 && segs[0] == "mcpServers" && strings.Contains(m, "missing one of") {
			return "mcp/no-connection"
		}
		return "mcp/schema"
	case kindPlugin:
		switch {
		case f.Pointer == "/name":
			return "plugin/name"
		case f.Pointer == "" && strings.Contains(m, "'name'"):
			return "plugin/missing-name"
		case f.Pointer == "/permissions":
			return "plugin/permissions"
		}
		return "plugin/schema"
	case kindUserConfig:
		if len(segs) == 4 && segs[0] == "userSettings" && segs[1] == "globalPermissionGrants" {
			switch segs[2] {
			case "allow", "ask", "deny":
				return "settings/permission-entry"
			}
		}
		return "config/schema"
	case kindCLISettings, kindACPSettings:
		if len(segs) == 3 && segs[0] == "permissions" {
			switch segs[1] {
			case "allow", "ask", "deny":
				return "settings/permission-entry"
			}
		}
		return "settings/schema"
	}
	return string(k) + "/schema"
}

func mapMarkdown(k kind, segs []string, m string) string {
	switch k {
	case kindSkill:
		switch {
		case len(segs) == 0:
			return "skill/frontmatter"
		case segs[0] == "name" && strings.Contains(m, "does not match pattern"):
			// The pattern alone is contested; a name that is not text
			// at all agy cannot decode (skill/schema).
			return "skill/name"
		}
		return "skill/schema"
	case kindRule:
		switch {
		case len(segs) > 0 && segs[0] == "trigger":
			return "rule/trigger"
		case len(segs) > 0 && segs[0] == "globs":
			return "rule/globs"
		}
		return "rule/schema"
	case kindAgent:
		if len(segs) == 0 {
			return "agent/frontmatter"
		}
		return "agent/schema"
	}
	return "workflow/schema"
}

func isGrouped(event string) bool {
	return strings.EqualFold(event, "PreToolUse") || strings.EqualFold(event, "PostToolUse")
}

func mapHooks(segs []string, m string) string {
	n := len(segs)
	last := ""
	if n > 0 {
		last = segs[n-1]
	}
	switch {
	case n == 1 && last == "enabled":
		return "hooks/top-level-enabled"
	case n == 1 && (strings.Contains(m, "top level") || strings.Contains(m, "wrapper")):
		return "hooks/top-level-event"
	case n == 2 && strings.Contains(m, "unknown event"):
		return "hooks/unknown-event"
	case n == 3 && strings.Contains(m, "missing propert"):
		return "hooks/event-shape"
	}
	if n < 4 {
		return "hooks/schema"
	}
	grouped := isGrouped(segs[1])
	handler := false
	switch {
	case n == 4 && grouped:
		if last != "matcher" && last != "hooks" {
			return "hooks/event-shape"
		}
		return "hooks/schema"
	case n == 4:
		if last == "matcher" || last == "hooks" {
			return "hooks/event-shape"
		}
		handler = true
	case n == 6 && grouped && segs[3] == "hooks":
		handler = true
	}
	if handler {
		switch last {
		case "timeout":
			// A type error drops the file; 0 and negative values load
			// (skillsaw), so range findings stay generic.
			if strings.Contains(m, "want integer") || strings.Contains(m, "fraction") || strings.Contains(m, "exponent") {
				return "hooks/timeout"
			}
			return "hooks/schema"
		case "type":
			return "hooks/handler-type"
		case "env", "cwd", "name", "background":
			return "hooks/dropped-key"
		case "command", "prompt", "model":
		default:
			// Any other key on a handler agy discards (probed on 1.1.25):
			// a description, a Claude Code matcher field.
			if strings.Contains(m, "not allowed") {
				return "hooks/dropped-key"
			}
		}
	}
	return "hooks/schema"
}

// hooks runs the checks the schema cannot: commands and matchers.
func (c *checker) hooks(root any, loc *locator, inPlugin bool, add func(string, int, int, string, string), addSince func(agy.Version, string, int, int, string, string)) {
	top, ok := root.(map[string]any)
	if !ok {
		return
	}
	prompt := agy.BehaviourOf(agy.PromptHandlers)
	newerHandler := func(obj map[string]any, ptr string) {
		if t, _ := obj["type"].(string); t == "prompt" {
			l, col := loc.value(ptr + "/type")
			addSince(prompt.Since, "hooks/newer-agy", l, col, ptr+"/type", "a prompt handler")
		}
	}
	for name, hv := range top {
		hook, ok := hv.(map[string]any)
		if !ok {
			continue
		}
		for event, ev := range hook {
			list, ok := ev.([]any)
			if !ok {
				continue
			}
			base := "/" + escape(name) + "/" + escape(event)
			if e, ok := agy.EventNamed(event); ok && e.Since.Known() {
				l, col := loc.value(base)
				addSince(e.Since, "hooks/newer-agy", l, col, base, "the event "+event)
			}
			for i, item := range list {
				ip := base + "/" + strconv.Itoa(i)
				obj, ok := item.(map[string]any)
				if !ok {
					continue
				}
				if !isGrouped(event) {
					newerHandler(obj, ip)
					c.handler(obj, ip, loc, inPlugin, add)
					continue
				}
				if m, ok := obj["matcher"].(string); ok && m != "" && m != "*" {
					if rule, msg := c.memo.matcher(m); rule != "" {
						l, col := loc.value(ip + "/matcher")
						add(rule, l, col, ip+"/matcher", msg)
					}
				}
				hs, _ := obj["hooks"].([]any)
				for j, h := range hs {
					if ho, ok := h.(map[string]any); ok {
						newerHandler(ho, ip+"/hooks/"+strconv.Itoa(j))
						c.handler(ho, ip+"/hooks/"+strconv.Itoa(j), loc, inPlugin, add)
					}
				}
			}
		}
	}
}

// matcher judges a hook's matcher: the rule and message of its finding,
// or "" for none. A file of a hundred hooks has the same few matchers, so
// each is compiled once a run.
func (m *memo) matcher(pattern string) (rule, msg string) {
	m.mu.Lock()
	v, ok := m.matchers[pattern]
	m.mu.Unlock()
	if ok {
		return v[0], v[1]
	}
	if _, err := regexp.Compile(pattern); err != nil {
		rule, msg = "hooks/matcher-regexp", fmt.Sprintf("matcher %q is not a valid regular expression (%v), so it never matches as meant", pattern, err)
	} else if why := neverMatches(pattern); why != "" {
		rule, msg = "hooks/matcher-never-matches", fmt.Sprintf("matcher %q %s", pattern, why)
	}
	m.mu.Lock()
	m.matchers[pattern] = [2]string{rule, msg}
	m.mu.Unlock()
	return rule, msg
}

// neverMatches says why a matcher that compiles selects no tool, or "".
// A matcher is a pattern the whole tool name must match (the IDE's bundled
// docs), and agy's tool names are its step types lowercased without their
// CORTEX_STEP_TYPE_ prefix (run_command, view_file, browser_…).
func neverMatches(m string) string {
	if strings.Contains(m, `\|`) {
		return "has \\|, a literal | no tool name has (the bundled docs' \"run_command\\|view_file\" is a table's escape) — write run_command|view_file for either tool"
	}
	re, err := syntax.Parse(m, syntax.Perl)
	if err != nil {
		return ""
	}
	re = re.Simplify()
	var literals []*syntax.Regexp
	switch re.Op {
	case syntax.OpLiteral:
		literals = []*syntax.Regexp{re}
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if s.Op != syntax.OpLiteral {
				return ""
			}
			literals = append(literals, s)
		}
	default:
		return ""
	}
	var capitals []string
	for _, l := range literals {
		name := string(l.Rune)
		// MCP tools' names carry their server's and tool's own spelling,
		// which nothing says is lowercased.
		if l.Flags&syntax.FoldCase != 0 || strings.HasPrefix(name, "mcp_") || strings.ToLower(name) == name {
			return "" // this alternative can match
		}
		capitals = append(capitals, strconv.Quote(name))
	}
	return fmt.Sprintf("names only %s, with capitals, so it selects no tool: agy's tool names are lowercase (Claude Code's Bash is agy's run_command)", strings.Join(capitals, ", "))
}

func (c *checker) handler(h map[string]any, ptr string, loc *locator, inPlugin bool, add func(string, int, int, string, string)) {
	if t, ok := h["type"]; ok && t != "command" {
		return
	}
	cmd, ok := h["command"].(string)
	if !ok {
		return
	}
	prog := firstWord(cmd)
	if prog == "" || strings.ContainsAny(prog, "=$`()") {
		return
	}
	l, col := loc.value(ptr + "/command")
	if strings.HasPrefix(prog, "~") {
		// agy expands ~ in a hook's command (the IDE's bundled docs).
		if rest, ok := strings.CutPrefix(prog, "~/"); ok && c.machine {
			if home, err := os.UserHomeDir(); err == nil {
				if why := c.notRunnable(filepath.Join(home, rest)); why != "" {
					add("hooks/command-not-found", l, col, ptr+"/command", fmt.Sprintf("%q (agy expands ~ to %s) %s here", prog, home, why))
				}
			}
		}
		return
	}
	if strings.Contains(prog, "/") {
		switch {
		case !filepath.IsAbs(prog) && !inPlugin:
			add("hooks/relative-command", l, col, ptr+"/command", fmt.Sprintf("the command runs %q, a relative path", prog))
		case filepath.IsAbs(prog) && c.machine:
			if why := c.notRunnable(prog); why != "" {
				add("hooks/command-not-found", l, col, ptr+"/command", fmt.Sprintf("%q %s here", prog, why))
			}
		}
		return
	}
	if shellBuiltin(prog) || !c.machine {
		return
	}
	if _, err := c.lookPath(prog); err != nil {
		add("hooks/command-not-found", l, col, ptr+"/command", fmt.Sprintf("%q is not on PATH here", prog))
	}
}

// settings runs the checks of a CLI settings.json the schema cannot: how
// agy reads each permission entry, and values only newer builds know.
func (c *checker) settings(root any, loc *locator, add func(Severity, string, int, int, string, string), addSince func(agy.Version, string, int, int, string, string)) {
	top, ok := root.(map[string]any)
	if !ok {
		return
	}
	perms, _ := top["permissions"].(map[string]any)
	for _, list := range []string{"allow", "ask", "deny"} {
		entries, _ := perms[list].([]any)
		for i, e := range entries {
			s, ok := e.(string)
			if !ok {
				continue
			}
			if p, ok := agy.ParsePermission(s); ok {
				ptr := "/permissions/" + list + "/" + strconv.Itoa(i)
				l, col := loc.value(ptr)
				c.permission(list, p, func(sev Severity, rule, msg string) { add(sev, rule, l, col, ptr, msg) }, func(v agy.Version, rule, msg string) { addSince(v, rule, l, col, ptr, msg) })
			}
		}
	}
	for _, k := range agy.SettingKeys() {
		v, _ := top[k.Key].(string)
		if f, newer := k.NewerValues[v]; newer {
			ptr := "/" + escape(k.Key)
			l, col := loc.value(ptr)
			addSince(agy.BehaviourOf(f).Since, "settings/newer-agy", l, col, ptr, fmt.Sprintf("%s %q", k.Key, v))
		}
	}
}

// acpToken warns when the ACP server's settings name an OAuth method and
// its token is not stored beside the file: a headless session/new then
// starts a browser sign-in and waits for it. On macOS the server keeps
// tokens in the Keychain unless AGY_ACP_FORCE_FILE_STORAGE is set, so a
// missing file proves nothing there and nothing is said.
func (c *checker) acpToken(path string, root any, loc *locator, add func(string, int, int, string, string)) {
	top, _ := root.(map[string]any)
	auth, _ := top["auth"].(map[string]any)
	t, _ := auth["type"].(string)
	m, ok := agy.ACPAuthMethodOf(t)
	if !ok || m.TokenFile == "" || tokensMayBeInKeychain() {
		return
	}
	token := filepath.Join(filepath.Dir(path), m.TokenFile)
	if _, err := c.stat(token); err == nil {
		return
	}
	l, col := loc.value("/auth/type")
	add("settings/acp-no-token", l, col, "/auth/type", fmt.Sprintf("auth.type is %q but no %s is beside this settings.json, so a headless session/new waits about %d minutes for a browser sign-in — sign in once where a browser can open (the ACP authenticate method with %s), or use gemini-api-key for headless runs", t, m.TokenFile, agy.ACPSignInWait/60, t))
}

// tokensMayBeInKeychain reports whether the ACP server may keep its tokens
// in the macOS Keychain instead of its token files (its default there,
// unless AGY_ACP_FORCE_FILE_STORAGE is 1, true or yes).
func tokensMayBeInKeychain() bool {
	if runtime.GOOS != "darwin" {
		return false
	}
	switch strings.ToLower(os.Getenv("AGY_ACP_FORCE_FILE_STORAGE")) {
	case "1", "true", "yes":
		return false
	}
	return true
}

// permission checks one entry of a permission list; add takes the
// severity of a finding, the rule's own when "".
func (c *checker) permission(list string, p agy.Permission, addAs func(sev Severity, rule, msg string), addSince func(v agy.Version, rule, msg string)) {
	add := func(rule, msg string) { addAs(severityOf(rule), rule, msg) }
	if line := p.DeprecationLine(); line != "" {
		add("settings/deprecated-action", line)
	}
	if p.ZeroCommandWords() {
		ch := agy.PermissionChangeOf("zero-word-entries")
		msg := fmt.Sprintf("%q names no command (its target tokenizes to zero command words), so agy %s and newer match it against nothing", p.String(), ch.Since)
		sev := severityOf("settings/zero-word-entry")
		if list == "allow" {
			msg += ", and older builds matched it against every command, auto-approving anything the agent ran"
			if !agy.JudgedAt(c.version).AtLeast(ch.Since) {
				// The files must load on such a build (--agy-version).
				sev = Error
				msg += fmt.Sprintf(", as %s (--agy-version) does", c.version)
			}
		}
		addAs(sev, "settings/zero-word-entry", msg)
	}
	pattern, isPattern := p.Pattern()
	if !isPattern {
		// Before 1.0.13 every command rule was a pattern: the finding
		// would be false on the build the files are judged for.
		literal := agy.PermissionChangeOf("literal-command-rules").Since
		if line := p.LookalikeLine(); line != "" && agy.JudgedAt(c.version).AtLeast(literal) {
			add("settings/literal-pattern", line)
		}
		return
	}
	b := agy.BehaviourOf(agy.RegexCommandRules)
	addSince(b.Since, "settings/newer-agy", fmt.Sprintf("the pattern rule %q, which older builds read literally, \"regex:\" included", p.String()))
	if _, err := regexp.Compile(pattern); err != nil {
		add("settings/regex-rule", fmt.Sprintf("the pattern of %q does not compile in Go's RE2 syntax (%v)", p.String(), err))
	}
}

// commands checks the program each local MCP server starts. agy starts it
// directly, with no shell (unverified either way, so the safe reading):
// nothing expands "~", and a relative path depends on whatever folder agy
// was started in. agyconf's own exec-env wrapping is looked through to the
// server it starts.
func (c *checker) commands(root any, loc *locator, add func(string, int, int, string, string)) {
	top, _ := root.(map[string]any)
	servers, _ := top["mcpServers"].(map[string]any)
	for name, sv := range servers {
		s, ok := sv.(map[string]any)
		if !ok {
			continue
		}
		base := "/mcpServers/" + escape(name)
		prog, _ := s["command"].(string)
		c.program(prog, base+"/command", loc, add)
		if args, ok := s["args"].([]any); ok && filepath.Base(prog) == "agyhook" && len(args) > 0 && args[0] == "exec-env" {
			for i, a := range args {
				if a == "--" && i+1 < len(args) {
					wrapped, _ := args[i+1].(string)
					c.program(wrapped, base+"/args/"+strconv.Itoa(i+1), loc, add)
					break
				}
			}
		}
	}
}

// program checks one program an MCP server entry starts.
func (c *checker) program(prog, ptr string, loc *locator, add func(string, int, int, string, string)) {
	l, col := loc.value(ptr)
	switch {
	case prog == "":
	case strings.HasPrefix(prog, "~"):
		add("mcp/tilde-command", l, col, ptr, fmt.Sprintf("the server runs %q, and nothing expands ~: agy starts servers without a shell", prog))
	case strings.Contains(prog, "/") && !filepath.IsAbs(prog):
		add("mcp/relative-command", l, col, ptr, fmt.Sprintf("the server runs %q, a relative path", prog))
	case !c.machine:
	case filepath.IsAbs(prog):
		if why := c.notRunnable(prog); why != "" {
			add("mcp/command-not-found", l, col, ptr, fmt.Sprintf("the server runs %q, which %s here", prog, why))
		}
	default:
		if _, err := c.lookPath(prog); err != nil {
			add("mcp/command-not-found", l, col, ptr, fmt.Sprintf("the server runs %q, which is not on PATH here", prog))
		}
	}
}

// notRunnable says why an absolute program cannot be run on this machine
// ("does not exist", "is a folder", "is not executable"), or "".
func (c *checker) notRunnable(prog string) string {
	fi, err := c.stat(prog)
	switch {
	case err != nil:
		return "does not exist"
	case fi.IsDir():
		return "is a folder"
	case fi.Mode()&0o111 == 0:
		return fmt.Sprintf("is not executable (mode %04o)", fi.Mode().Perm())
	}
	return ""
}

// firstWord returns the program a sh -c command line runs.
func firstWord(cmd string) string {
	s := strings.TrimLeft(cmd, " \t\n")
	if s == "" {
		return ""
	}
	if q := s[0]; q == '"' || q == '\'' {
		if end := strings.IndexByte(s[1:], q); end >= 0 {
			return s[1 : 1+end]
		}
		return ""
	}
	if i := strings.IndexAny(s, " \t\n;|&<>"); i >= 0 {
		return s[:i]
	}
	return s
}

func shellBuiltin(w string) bool {
	switch w {
	case ":", ".", "[", "true", "false", "echo", "printf", "exit", "cd", "test", "exec", "export", "set", "if", "for", "while", "case", "read", "cat", "sleep", "command", "eval", "trap", "wait", "{", "!":
		return true
	}
	return false
}

// credentials warns about inline credentials in a file other users may read.
func (c *checker) credentials(root any, loc *locator, perm os.FileMode, add func(string, int, int, string, string)) {
	top, _ := root.(map[string]any)
	servers, _ := top["mcpServers"].(map[string]any)
	for name, sv := range servers {
		s, ok := sv.(map[string]any)
		if !ok {
			continue
		}
		base := "/mcpServers/" + escape(name)
		for _, field := range []string{"env", "headers", "oauth"} {
			m, _ := s[field].(map[string]any)
			for key, val := range m {
				str, ok := val.(string)
				// A value that is only a ${VAR} reference holds no
				// credential (whether agy expands it is unverified: skillsaw shows it, a Looker plugin says agy cannot).
				if !ok || str == "" || !c.credential.MatchString(key) || (field == "oauth" && key == "clientId") || c.reference.MatchString(str) {
					continue
				}
				vp := base + "/" + field + "/" + escape(key)
				l, col := loc.value(vp)
				add("mcp/inline-credential", l, col, vp, fmt.Sprintf("%s.%s holds a credential inline in a file with mode %04o, which others can read", field, key, perm))
			}
		}
	}
}

// locator finds where the values of a document read by the one JSON reader
// (jsonmerge.Read) start.
// locator locates in a document read as t, or, t nil, held as the value
// root: then nothing has a position, and members come in sorted order,
// the order agyconf writes them in.
type locator struct {
	t    *jsonmerge.Tree
	root any
}

// members lists the members of the object at path, in document order, a
// later duplicate counting (jsonmerge.Tree.Members).
func (l *locator) members(path []string) []jsonmerge.Member {
	if l.t != nil {
		return l.t.Members(path)
	}
	v := l.root
	for _, seg := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[seg]
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := make([]jsonmerge.Member, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, jsonmerge.Member{Name: k})
	}
	return out
}

// key returns the 1-based line and character column of the member name
// ptr ends in, or 0, 0 as value does.
func (l *locator) key(ptr string) (int, int) {
	if l.t == nil {
		return 0, 0
	}
	line, col, found := l.t.LocatePointer(ptr, true)
	if !found {
		return 0, 0
	}
	return line, col
}

// value returns the 1-based line and character column of the value at
// ptr, or 0, 0 for a pointer into no value or a document without text.
func (l *locator) value(ptr string) (int, int) {
	if l.t == nil {
		return 0, 0
	}
	line, col, found := l.t.LocatePointer(ptr, false)
	if !found {
		return 0, 0
	}
	return line, col
}

// extensionOf names the construct beyond strict JSON a byte-level rule is
// about, for rules agy's table gates by version in some kinds of file.
func extensionOf(rule string) (agy.JSONExtension, bool) {
	switch rule {
	case "json/comment":
		return agy.Comments, true
	case "json/trailing-comma":
		return agy.TrailingCommas, true
	case "json/bom", "plugin/bom":
		return agy.BOM, true
	}
	return "", false
}

// MaxFindings bounds the findings listed for one document; one more, of
// the rule json/more-findings, says how many were left out.
const MaxFindings = schema.MaxFindings

// capFindings keeps the first MaxFindings findings of one document in
// document order, and says how many more there were.
// unlisted are findings a rule counted without making them, all later in
// the document than MaxFindings it made (unknownFields).
func capFindings(fs []Finding, unlisted int) []Finding {
	if len(fs)+unlisted <= MaxFindings {
		return fs
	}
	Sort(fs)
	keep := min(len(fs), MaxFindings)
	last := fs[keep-1]
	more := len(fs) - keep + unlisted
	fs = append(fs[:keep:keep], Finding{Rule: "json/more-findings", Severity: severityOf("json/more-findings"), File: last.File, Line: last.Line, Column: last.Column,
		Message: fmt.Sprintf("%d more findings in this file, not listed: validate lists at most %d a file", more, MaxFindings)})
	return fs
}

// DocumentOptions describe a document linted from its bytes.
type DocumentOptions struct {
	// InPlugin says the document belongs to a plugin folder.
	InPlugin bool
	// Machine also runs the rules that depend on this machine (a command
	// on PATH; Mode, when set, for credentials in readable files).
	Machine bool
	Mode    fs.FileMode
	// LookPath and Stat as in Options.
	LookPath func(string) (string, error)
	Stat     func(string) (fs.FileInfo, error)
	// AgyVersion as in Options: for a rendered document, the config's
	// agy_version.
	AgyVersion agy.Version
}

// Document lints one document agyconf would write, or holds in memory, by
// the schema name it is checked against ("hooks", "mcp_config",
// "skill-frontmatter", …): the same rules `validate PATH` runs on the
// file, findings named path and located in data, each with its JSON
// pointer. Without Machine it runs only the rules that depend on the bytes
// alone: what render refuses before writing, the same on any machine.
func Document(path, schemaName string, data []byte, o DocumentOptions) ([]Finding, error) {
	return NewDocumentChecker().Check(path, schemaName, data, o)
}

// DocumentChecker lints many documents, as Document does, with what they
// share built once: each schema is compiled on its first document, not on
// every one (2,000 skills compiled the skill schema 2,000 times). Not for
// concurrent use; Fork makes another for another goroutine.
type DocumentChecker struct {
	c    *checker
	stat func(string) (fs.FileInfo, error) // newChecker's default
}

// NewDocumentChecker returns a checker with nothing compiled yet.
func NewDocumentChecker() *DocumentChecker {
	c := newChecker(Options{})
	return &DocumentChecker{c: c, stat: c.stat}
}

// Fork returns a DocumentChecker for another goroutine that shares what
// dc has built and builds: each schema is still compiled once.
func (dc *DocumentChecker) Fork() *DocumentChecker {
	c := *dc.c
	return &DocumentChecker{c: &c, stat: dc.stat}
}

// Check lints one document: see Document.
func (dc *DocumentChecker) Check(path, schemaName string, data []byte, o DocumentOptions) ([]Finding, error) {
	c, k, err := dc.with(schemaName, o)
	if err != nil {
		return nil, err
	}
	out, err := c.check(path, k, data, o.Mode, o.InPlugin)
	cite(out)
	Sort(out)
	return out, err
}

// CheckValue lints a JSON document agyconf holds as a value, as Check
// lints its text: value is what encoding/json with UseNumber decodes the
// text into (schema.Validator.ValidateValue). The findings are Check's on
// the text agyconf writes for it (members sorted), without positions;
// what only text can hold is not judged. Render checks what it writes
// this way, and reads the text for positions only when there are
// findings.
func (dc *DocumentChecker) CheckValue(path, schemaName string, value any, o DocumentOptions) ([]Finding, error) {
	c, k, err := dc.with(schemaName, o)
	if err != nil {
		return nil, err
	}
	out, err := c.checkValue(path, k, value, o.Mode, o.InPlugin)
	cite(out)
	Sort(out)
	return out, err
}

// with sets the checker up for one document of the named schema, and
// returns it with the document's kind.
func (dc *DocumentChecker) with(schemaName string, o DocumentOptions) (*checker, kind, error) {
	k, ok := kindOfSchema(schemaName)
	if !ok {
		return nil, "", fmt.Errorf("lint: no kind of document has the schema %q", schemaName)
	}
	if o.LookPath == nil {
		o.LookPath = exec.LookPath
	}
	c := dc.c
	c.version, c.lookPath, c.machine = o.AgyVersion, o.LookPath, o.Machine
	c.stat = o.Stat
	if c.stat == nil {
		c.stat = dc.stat
	}
	return c, k, nil
}

// legacyTarget names where what a legacy folder holds belongs now: the
// kind's global places, per product.
func legacyTarget(l agy.LegacyFolder) string {
	k, _ := agy.KindOf(l.Kind)
	var out []string
	for _, p := range []agy.Product{agy.ProductCLI, agy.ProductIDE} {
		for _, dir := range k.PathsFor(l.Scope, p) {
			out = append(out, fmt.Sprintf("%s (%s)", agy.ScopePath(l.Scope, dir), p))
		}
	}
	if len(out) == 0 {
		return "the place the config's layout gives"
	}
	return strings.Join(out, " or ")
}

// kindOfSchema is the kind of document a schema describes.
func kindOfSchema(name string) (kind, bool) {
	for _, k := range []kind{kindHooks, kindMCP, kindPlugin, kindSkill, kindRule, kindWorkflow, kindAgent, kindCLISettings, kindACPSettings, kindUserConfig} {
		if schemaName(k) == name {
			return k, true
		}
	}
	return "", false
}
