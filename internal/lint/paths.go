package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agyconf/agyconf/internal/agy"
)

// Options control a lint run. Paths checks files on several goroutines,
// but calls LookPath and Stat from one at a time.
type Options struct {
	// LookPath finds a hook's bare command name; nil means PATH's, as
	// exec.LookPath finds it.
	LookPath func(string) (string, error)
	// Stat looks up an absolute command's program; nil means os.Stat.
	Stat func(string) (fs.FileInfo, error)
	// BytesOnly skips the rules that depend on this machine (a command on
	// PATH, a file's mode): what render itself refuses on.
	BytesOnly bool
	// AgyVersion is the oldest agy build the files must load on
	// (validate --agy-version); unknown by default. See checker.since.
	AgyVersion agy.Version
}

// kind is what a file is to Antigravity.
type kind string

const (
	kindHooks       kind = "hooks"
	kindHooksUnread kind = "hooks-unread"
	// kindPluginHooksSub: a plugin's hooks/hooks.json, the second of the
	// files builds read a plugin's hooks from (agy.PluginHooks); the
	// first, its root hooks.json, is kindHooks.
	kindPluginHooksSub kind = "plugin-hooks-sub"
	// kindSkillLegacy: a SKILL.md in a folder agy no longer reads
	// (agy.LegacyFolders).
	kindSkillLegacy kind = "skill-legacy"
	kindMCP         kind = "mcp"
	kindPlugin      kind = "plugin"
	kindSkill       kind = "skill"
	kindSkillFlat   kind = "skill-flat"
	// kindSkillNested: a SKILL.md below a skill's own folder
	// (skills/<a>/<b>/SKILL.md), which agy never discovers.
	kindSkillNested kind = "skill-nested"
	// kindSkillCase: a skill's file named skill.md or another spelling
	// of SKILL.md in another case.
	kindSkillCase kind = "skill-case"
	kindRule      kind = "rule"
	kindWorkflow  kind = "workflow"
	kindAgent     kind = "agent"
	kindAgentFlat kind = "agent-flat"
	// kindRuleText is a rule file without frontmatter that agy reads whole:
	// ~/.gemini/GEMINI.md and the other global places of agy.GlobalRules.
	kindRuleText    kind = "rule-text"
	kindCLISettings kind = "cli-settings"
	// kindSettingsUnread: a workspace settings file agy does not read
	// (agy.UnreadFiles).
	kindSettingsUnread kind = "settings-unread"
	kindACPSettings    kind = "acp-settings"
	kindUserConfig     kind = "user-config"
	// kindIgnore: a workspace's .antigravityignore (agy.Ignore).
	kindIgnore kind = "ignore"
)

// isRoot reports whether a folder name is a workspace customization root
// (agy.WorkspaceRoots).
func isRoot(name string) bool { return agy.IsWorkspaceRoot(name) }

// Paths lints every Antigravity file in paths: files are recognised by
// name, folders are searched for global, workspace and plugin layouts.
// Files are checked while the folders are still being searched, on as
// many goroutines as Go runs at once; the findings are the same, in the
// same order, as one goroutine's, and so is the error: that of the search
// if it fails, else the first file's that fails, in the search's order.
func Paths(paths []string, opts Options) ([]Finding, error) {
	// PATH's folders are listed on a goroutine of their own while the
	// tree is searched, once a path may name a command: a folder, or one
	// of the files that do.
	prefetch := func() {}
	if opts.LookPath == nil {
		ix := newPathIndex(os.Getenv("PATH"))
		if !opts.BytesOnly {
			prefetch = sync.OnceFunc(func() { go ix.prefetch() })
		}
		opts.LookPath = ix.lookPath
	} else {
		opts.LookPath = serialized(opts.LookPath)
	}
	if opts.Stat != nil {
		opts.Stat = serialized(opts.Stat)
	}
	c := newChecker(opts)
	c.machine = !opts.BytesOnly
	q := newQueue()
	go func() { q.close(search(paths, c.memo.plugins, prefetch, q.add)) }()
	// Permission entries name plugins' MCP servers: the servers of every
	// plugin among the files are known before any file is judged. Only a
	// settings file asks, so only then are they read, once the search is
	// over.
	c.servers = sync.OnceValue(func() *serverIndex { return indexServers(q.found(), c.memo.plugins) })
	jobs, err := q.run(c)
	if err != nil {
		return nil, err
	}
	var out []Finding
	var budget []BudgetEntry
	for _, j := range jobs {
		if j.err != nil {
			return nil, j.err
		}
		out = append(out, j.findings...)
		if j.budget != nil {
			budget = append(budget, *j.budget)
		}
	}
	out = append(out, RuleBudget(budget)...)
	cite(out)
	Sort(out)
	return out, nil
}

// search finds the files of paths, in order, handing each to add once:
// a file two of the paths reach (a folder and a plugin inside it) is
// checked, and reported, the first time only.
func search(paths []string, plugins *pluginDirs, prefetch func(), addAll func(found)) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	add := func(f found) {
		abs := f.path
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(wd, abs)
		}
		if abs = filepath.Clean(abs); !seen[abs] {
			seen[abs] = true
			addAll(f)
		}
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			k, ok := classifyFile(p)
			if !ok {
				return fmt.Errorf("%s: not a file Antigravity reads (mcp_config.json, hooks.json, plugin.json, settings.json, ~/.gemini/config/config.json, SKILL.md, agent.md, .antigravityignore, ~/.gemini/GEMINI.md or AGENTS.md, or a .md under rules/, workflows/, agents/)", p)
			}
			if k == kindMCP || k == kindHooks || k == kindPluginHooksSub {
				prefetch()
			}
			add(found{path: p, kind: k})
			continue
		}
		prefetch()
		if err := discover(p, plugins, add); err != nil {
			return err
		}
	}
	return nil
}

// serialized lets one goroutine at a time call f: Options' LookPath and
// Stat are the caller's, not known to be safe for concurrent use.
func serialized[T any](f func(string) (T, error)) func(string) (T, error) {
	var mu sync.Mutex
	return func(s string) (T, error) {
		mu.Lock()
		defer mu.Unlock()
		return f(s)
	}
}

// ignoreFile is the name of a workspace's .antigravityignore, its path
// relative to the workspace root in internal/agy's table.
func ignoreFile() string {
	k, _ := agy.KindOf(agy.Ignore)
	return k.PathsFor(agy.ScopeWorkspace, agy.ProductBoth)[0]
}

func fileIsPluginDir(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, "plugin.json"))
	return err == nil && !fi.IsDir()
}

// pluginDirs answers fileIsPluginDir once per folder in a run: discover
// asks for every file, and the checks again for the file's folder and its
// parent. It is safe for concurrent use.
type pluginDirs struct {
	mu sync.Mutex
	m  map[string]bool
}

func newPluginDirs() *pluginDirs { return &pluginDirs{m: map[string]bool{}} }

// know records what a listing of dir says.
func (p *pluginDirs) know(dir string, is bool) {
	p.mu.Lock()
	p.m[dir] = is
	p.mu.Unlock()
}

func (p *pluginDirs) is(dir string) bool {
	p.mu.Lock()
	is, ok := p.m[dir]
	p.mu.Unlock()
	if !ok {
		// Two checkers may both stat the same folder; both get the same.
		is = fileIsPluginDir(dir)
		p.mu.Lock()
		p.m[dir] = is
		p.mu.Unlock()
	}
	return is
}

type found struct {
	path string
	kind kind
	// listed: the walk found it in its folder's listing, a regular file.
	listed bool
}

// discover walks a folder for the files Antigravity reads, handing each
// to add in the walk's order (filepath.WalkDir's: lexical, depth first).
// The folder itself may be a link to one; below it, a link to a file agy
// reads is read through (walk), and no link to a folder is followed.
func discover(dir string, plugins *pluginDirs, add func(found)) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	base := strings.Split(filepath.ToSlash(abs), "/")
	// The given folder counts as inside a layout when it is a root, a
	// .gemini folder, a plugin, or lies below one of those.
	w := walker{plugins: plugins, add: add, ignore: ignoreFile(), root: abs, own: slices.Contains(base, ".gemini")}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		w.root = real
	}
	inside := plugins.is(dir)
	for _, s := range base {
		if isRoot(s) || s == ".gemini" || s == ".antigravity" {
			inside = true
		}
	}
	return w.walk(dir, base, inside)
}

// walker is one discover's walk.
type walker struct {
	plugins *pluginDirs
	add     func(found)
	ignore  string // the name of a workspace's .antigravityignore
	// root is the walked folder, its links resolved: a link in a
	// workspace or a plugin is read through only to a file within it.
	root string
	// own: the walked folder is, or lies in, a .gemini folder: the
	// user's own configuration, whose links are the user's.
	own bool
}

// mayFollow reports whether the walk reads a file agy reads through the
// link at path: always when the walked folder is a .gemini folder (or in
// one), the user's own configuration; otherwise — a workspace or a
// plugin, which may be a clone of anyone's repository, a .gemini folder
// in it included — only to a file within the walked folder or in the
// Nix store (Home Manager's links; the store is readable by all), so
// that a planted link cannot bring a file from elsewhere on the machine
// (a credential) into validate's messages. A link that leads nowhere is
// left to the read, which names it.
func (w *walker) mayFollow(path string) (target string, ok bool) {
	if w.own {
		return "", true
	}
	real, err := filepath.EvalSymlinks(path)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return "", true
	}
	if real == w.root || strings.HasPrefix(real, w.root+string(filepath.Separator)) || strings.HasPrefix(real, "/nix/store/") {
		return real, true
	}
	return real, false
}

// walk finds the files in the folder p, whose path's segments are segs;
// inside says a segment below the given folder's own path, or the given
// folder, put it inside a layout.
func (w *walker) walk(p string, segs []string, inside bool) error {
	entries, err := os.ReadDir(p)
	if err != nil {
		return err
	}
	// Whether p is a plugin is in its listing: a plugin.json that is a
	// file says so, none says not. Anything else (a link, another
	// entry, another casing, which a case-insensitive volume finds) is
	// asked of the filesystem, as agy asks.
	plugin := false
	for _, e := range entries {
		switch name := e.Name(); {
		case name == "plugin.json" && e.Type().IsRegular():
			plugin = true
		case strings.EqualFold(name, "plugin.json"):
			plugin = plugin || fileIsPluginDir(p)
		}
	}
	w.plugins.know(p, plugin)
	for _, e := range entries {
		name := e.Name()
		child := filepath.Join(p, name)
		csegs := append(segs[:len(segs):len(segs)], name)
		if e.IsDir() {
			if skipDir(csegs) {
				continue
			}
			// A plugin's folders are inside: agy reads its components
			// wherever the plugin stands.
			if err := w.walk(child, csegs, inside || plugin || isRoot(name) || name == ".gemini" || name == ".antigravity"); err != nil {
				return err
			}
			continue
		}
		// A file agy reads may be a link (Home Manager links every file
		// it manages into the store): it is read through the link, as
		// agy reads it. A named pipe, a device or a socket where agy
		// reads a file is read as well, and refused with an error that
		// names it, never passed over in silence.
		regular := e.Type().IsRegular()
		if !regular && e.Type()&(fs.ModeSymlink|fs.ModeNamedPipe|fs.ModeDevice|fs.ModeCharDevice|fs.ModeSocket) == 0 {
			continue
		}
		// follow says whether a link, of a name agy reads, may be read
		// through (mayFollow).
		follow := func() error {
			if e.Type()&fs.ModeSymlink == 0 {
				return nil
			}
			if target, ok := w.mayFollow(child); !ok {
				return fmt.Errorf("%s is a link to %s, outside %s: in a workspace or a plugin, validate reads through a link only to a file within the folder it checks (a cloned repository's link may lead to any file on this machine)", child, target, w.root)
			}
			return nil
		}
		if name == w.ignore {
			if err := follow(); err != nil {
				return err
			}
			// At the workspace root, outside every customization root.
			w.add(found{child, kindIgnore, regular})
			continue
		}
		if !inside && !plugin {
			continue
		}
		if name == "hooks.json" && filepath.Base(p) == "hooks" && w.plugins.is(filepath.Dir(p)) {
			// A plugin's hooks/hooks.json, wherever the plugin is.
			if err := follow(); err != nil {
				return err
			}
			w.add(found{child, kindPluginHooksSub, regular})
			continue
		}
		if k, ok := classify(csegs, plugin); ok {
			if name == "settings.json" && k != kindSettingsUnread {
				switch csegs[len(csegs)-2] {
				case "antigravity-cli", "antigravity-acp":
				default:
					continue // not a settings file Antigravity reads
				}
			}
			if err := follow(); err != nil {
				return err
			}
			w.add(found{child, k, regular})
		}
	}
	return nil
}

// legacyFolderOf finds the legacy folder (agy.LegacyFolders) a file lies
// in, one entry below it (skills/<name>/SKILL.md), wherever the scope's
// root is: the folder's own path ends two segments above the file.
func legacyFolderOf(segs []string) (agy.LegacyFolder, bool) {
	if len(segs) < 3 {
		return agy.LegacyFolder{}, false
	}
	dir := strings.Join(segs[:len(segs)-2], "/")
	for _, l := range agy.LegacyFolders() {
		if dir == l.Path || strings.HasSuffix(dir, "/"+l.Path) {
			return l, true
		}
	}
	return agy.LegacyFolder{}, false
}

// skipDir reports folders never linted: version control, dependencies,
// agyconf's own state and cache, and agy's state.
func skipDir(segs []string) bool {
	n := len(segs)
	name := segs[n-1]
	switch name {
	case ".git", "node_modules", ".agyconf":
		return true
	}
	if n >= 3 && segs[n-3] == ".local" && segs[n-2] == "state" && name == "agyconf" {
		return true
	}
	if n >= 2 && segs[n-2] == "antigravity-cli" {
		switch name {
		case "brain", "builtin", "scratch", "presence":
			return true
		}
	}
	return false
}

// classifyFile names the kind of a file given by itself: by its name
// wherever it is, or by its folder's name for markdown files.
func classifyFile(p string) (kind, bool) {
	switch filepath.Base(p) {
	case "mcp_config.json":
		return kindMCP, true
	case "hooks.json":
		if dir := filepath.Dir(p); filepath.Base(dir) == "hooks" && fileIsPluginDir(filepath.Dir(dir)) {
			return kindPluginHooksSub, true
		}
		return kindHooks, true
	case "SKILL.md":
		return kindSkill, true
	case ignoreFile():
		return kindIgnore, true
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", false
	}
	return classify(strings.Split(filepath.ToSlash(abs), "/"), fileIsPluginDir(filepath.Dir(p)))
}

// classify names a file's kind from its path segments (absolute, split on
// '/') and whether its folder holds a plugin.json.
func classify(segs []string, inPlugin bool) (kind, bool) {
	n := len(segs)
	at := func(i int) string {
		if n-1-i < 0 {
			return ""
		}
		return segs[n-1-i]
	}
	name, parent, grand := at(0), at(1), at(2)
	if _, ok := globalRuleFile(segs); ok {
		return kindRuleText, true
	}
	// dirIsLayout: a folder that may hold mcp_config.json and hooks.json.
	dirIsLayout := isRoot(parent) || inPlugin || grand == "plugins" ||
		(parent == "config" && grand == ".gemini")
	switch name {
	case "mcp_config.json":
		if dirIsLayout || (parent == "antigravity" && grand == ".gemini") {
			return kindMCP, true
		}
		return "", false
	case "hooks.json":
		if dirIsLayout {
			return kindHooks, true
		}
		if parent == "antigravity-cli" && grand == ".gemini" {
			return kindHooksUnread, true
		}
		if parent == "hooks" && at(3) == "plugins" {
			return kindPluginHooksSub, true
		}
		return "", false
	case "plugin.json":
		return kindPlugin, true
	case "config.json":
		// The user config the CLI shares with Antigravity 2.0; a
		// repository's .gemini/config.json is another file.
		if parent == "config" && grand == ".gemini" {
			return kindUserConfig, true
		}
		return "", false
	case "settings.json":
		if _, ok := agy.UnreadFileAt(parent + "/" + name); ok {
			return kindSettingsUnread, true
		}
		switch parent {
		case "antigravity-acp":
			return kindACPSettings, true
		}
		return kindCLISettings, true
	case "agent.md":
		if grand == "agents" {
			return kindAgent, true
		}
	}
	if strings.EqualFold(name, "SKILL.md") {
		switch _, legacy := legacyFolderOf(segs); {
		case legacy:
			return kindSkillLegacy, true
		case grand == "skills" && name == "SKILL.md":
			return kindSkill, true
		case grand == "skills":
			return kindSkillCase, true
		case nestedSkill(segs):
			return kindSkillNested, true
		}
		if name == "SKILL.md" {
			return "", false
		}
	}
	if !strings.HasSuffix(name, ".md") {
		return "", false
	}
	switch parent {
	case "skills":
		return kindSkillFlat, true
	case "rules":
		return kindRule, true
	case "workflows", "global_workflows":
		return kindWorkflow, true
	case "agents":
		return kindAgentFlat, true
	}
	return "", false
}

// nestedSkill reports whether a SKILL.md lies two or more folders below
// a skills/ folder of its layout (skills/<a>/<b>/SKILL.md): the nearest
// skills/ above it, below the last customization root, .gemini or
// plugin folder on its path.
func nestedSkill(segs []string) bool {
	n := len(segs)
	for i := n - 4; i >= 0; i-- {
		switch s := segs[i]; {
		case s == "skills":
			return true
		case isRoot(s), s == ".gemini", s == "plugins":
			return false
		}
	}
	return false
}

// hasSuffix reports whether segs end with the segments of a slash path.
func hasSuffix(segs []string, p string) bool {
	want := strings.Split(p, "/")
	if len(want) > len(segs) {
		return false
	}
	for i, w := range want {
		if segs[len(segs)-len(want)+i] != w {
			return false
		}
	}
	return true
}

// globalRuleFile finds the global rules file of agy's table a file is
// (~/.gemini/GEMINI.md, or one of the places agyconf only reads), by the
// trailing segments of its path: the reading, or a zero one for the file
// agyconf writes.
func globalRuleFile(segs []string) (agy.Reading, bool) {
	k, _ := agy.KindOf(agy.GlobalRules)
	for _, r := range k.Reads {
		if hasSuffix(segs, r.Path) {
			return r, true
		}
	}
	for _, p := range agy.Products() {
		for _, q := range k.PathsFor(agy.ScopeGlobal, p) {
			if hasSuffix(segs, q) {
				return agy.Reading{Scope: agy.ScopeGlobal, Path: q}, true
			}
		}
	}
	return agy.Reading{}, false
}

// readingOf finds the place agyconf only reads that a file of kind k is at
// (a global rules file, a rule in ~/.gemini/config/rules/), if any.
func readingOf(segs []string, k kind) (agy.Reading, bool) {
	switch k {
	case kindRuleText:
		r, ok := globalRuleFile(segs)
		return r, ok && r.Feature != ""
	case kindRule:
		rk, _ := agy.KindOf(agy.Rules)
		for _, r := range rk.Reads {
			if len(segs) > 1 && hasSuffix(segs[:len(segs)-1], r.Path) {
				return r, true
			}
		}
	}
	return agy.Reading{}, false
}

// Files lists the files under paths that agy reads, as validate finds
// them (the same search), in the search's order: what a check that
// everything agy reads survives something (import, then render) compares.
// The files validate finds only to say agy does not read them (a nested
// skill, a legacy skills folder, a workspace settings file) are not
// listed, nor a plugin's hooks/hooks.json beside a root hooks.json that
// no build loads (another tool's file: validate's pluginHooksSub).
func Files(paths []string) ([]string, error) {
	var out []string
	var subs []string
	err := search(paths, newPluginDirs(), func() {}, func(f found) {
		switch f.kind {
		case kindHooksUnread, kindSkillLegacy, kindSkillNested, kindSkillCase, kindSettingsUnread:
			return
		case kindPluginHooksSub:
			subs = append(subs, f.path)
		}
		out = append(out, f.path)
	})
	if err != nil {
		return nil, err
	}
	for _, sub := range subs {
		root := filepath.Join(filepath.Dir(filepath.Dir(sub)), "hooks.json")
		if _, err := os.Lstat(root); err != nil {
			continue
		}
		c := newChecker(Options{LookPath: func(string) (string, error) { return "", nil }, BytesOnly: true})
		if fs, _, err := c.file(sub, kindHooks, true); err == nil && !hasError(fs) {
			continue
		}
		out = slices.DeleteFunc(out, func(p string) bool { return p == sub })
	}
	return out, nil
}

func hasError(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == Error {
			return true
		}
	}
	return false
}
