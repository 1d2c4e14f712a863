// Package importer reads the Antigravity files live under a root — what agy,
// a person, an installer or agyconf itself wrote — and turns them into an
// agyconf config that renders back to the same content, listing exactly
// what it could not carry over and why.
//
// It reads only the places agyconf's layout writes (internal/layout) plus
// the IDE's legacy mcp_config.json, parses each file as strictly as agy
// does, builds a model.Config, recognises the wiring of the MemPalace and
// xmsg harnesses, and prints the config with hclwrite. Nothing is written
// under the root, and everything is read through one reader (tree.go),
// which never follows a link out of the root unless told to; secrets found
// inline (secrets.go says which) are never copied into the config, and are
// redacted from everything else the import prints.
package importer

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/jsonmerge"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/model"
)

// Options say what to import and how to write it.
type Options struct {
	// Root is the folder whose files are read: $HOME for global scope,
	// a project for workspace scope. Absolute.
	Root    string
	Scope   model.Scope
	Product model.Product
	// Out, when set, is the folder the config will be written to: large
	// bodies become file("…") calls and skill folders are copied next to
	// it (Result.Files). Empty means everything inline.
	Out string
	// SecretDir is where secret_file() placeholders point without Out;
	// default <Root>/.config/agyconf/secrets. With Out the values are
	// written to <Out>/secrets (Result.Files) and read from there.
	SecretDir string
	// StateSecrets lists, per live file (slash-separated, relative to
	// Root), the JSON pointers (RFC 6901, from the file's root) of the
	// string values agyconf's states record as read from secret_file():
	// each is a secret whatever it looks like. The caller reads the
	// states; Import calls it once, when it first meets a value it must
	// judge, so the caller may still be reading them while Import reads
	// the live files. nil means there are none.
	StateSecrets func() map[string][]string
	// FollowLinksOut reads through symbolic links that lead out of Root.
	// Unset, a link that leads out (or nowhere) is reported as not
	// imported and nothing is read through it: a workspace is a cloned
	// repository, possibly hostile, where a link to ~/.ssh/id_ed25519 or
	// /proc/self/environ would otherwise be printed into the config. The
	// CLI sets it in global scope only, where Root is the user's own home
	// and dotfiles are often linked from elsewhere (a dotfiles checkout,
	// /nix/store). Either way every read is bounded and never blocks.
	FollowLinksOut bool
	// perSection is how many top-level blocks are formatted together
	// (sections); 0 means 256. Tests set others.
	perSection int
}

// Kinds of report items, in the order they are printed.
const (
	KindNotImported = "not imported"
	KindConverted   = "converted"
	KindSecret      = "secret"
	KindHarness     = "harness"
)

var kindOrder = map[string]int{KindNotImported: 0, KindConverted: 1, KindSecret: 2, KindHarness: 3}

// Item is one line of the report: something that was not imported, was
// changed on the way, is a secret left out, or became a harness.
type Item struct {
	Kind string `json:"kind"`
	// Path is relative to the root, with forward slashes.
	Path string `json:"path"`
	// Line and Column locate a parse error (1-based); zero otherwise.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Unit names the entry inside the file (mcpServers.github.trust).
	Unit   string `json:"unit,omitempty"`
	Reason string `json:"reason"`
	// Command is, for a secret, the command that creates its file.
	Command string `json:"command,omitempty"`
}

// String is the report line: "KIND: PATH[:LINE:COL][ UNIT]: REASON".
func (it Item) String() string {
	var b strings.Builder
	b.WriteString(it.Kind)
	b.WriteString(": ")
	b.WriteString(it.Path)
	if it.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", it.Line, it.Column)
	}
	if it.Unit != "" {
		b.WriteString(" ")
		b.WriteString(it.Unit)
	}
	b.WriteString(": ")
	b.WriteString(it.Reason)
	return b.String()
}

// File is one file written next to the config when Options.Out is set.
type File struct {
	Data       []byte
	Executable bool
	// Secret is set for a secret's value: write it mode 0600, in a
	// folder created mode 0700, and never over an existing file.
	Secret bool
}

// Result is an import.
type Result struct {
	// Config is what was imported, harness blocks included (unexpanded).
	Config *model.Config
	// HCL is the config's text, formatted.
	HCL []byte
	// Files are the bodies and skill folders the config reads, by path
	// relative to Options.Out; empty without Out.
	Files map[string]File
	// Items is the report, sorted by kind, path and unit.
	Items []Item
	// Secrets are the secret values found inline, for the caller to keep
	// out of anything it shows (the migration diff).
	Secrets []string
	// ReadsSecrets is set when HCL calls secret_file(): a file holding it
	// must be mode 0600, since it names where the credentials are.
	ReadsSecrets bool
	// secretFiles maps each placeholder path to its value, for tests.
	secretFiles map[string]string
}

// maxLiveFile bounds a live file read, the bound render and validate use.
const maxLiveFile = 16 << 20

type importer struct {
	opts  Options
	l     layout.Layout
	cfg   *model.Config
	items []Item
	// noEnabled are the named hooks imported without "enabled"
	// (reportNoEnabled).
	noEnabled []noEnabled
	files     map[string]File
	// need is the oldest agy build that loads what was imported (a newer
	// event, prompt handlers): the config's agy_version.
	need        agy.Version
	values      []string
	secretFiles map[string]string
	// state is Options.StateSecrets as sets, file then pointer, asked
	// for once.
	state func() map[string]map[string]bool
	// nSecrets counts the secret_file() placeholders written.
	nSecrets int
	// skillSrc is the source argument to write for a skill copied whole.
	skillSrc map[*model.Skill]string
	// bodyPath is where a body goes under Out, per unit.
	bodyPath map[any]string
	// tools collects tools entries harness recognition needs.
	tools map[string]string
	// tree is the live tree, the one way to read it.
	tree *tree
	// linkItems are the link items reported, so that a folder link is
	// reported once, not for every file below it.
	linkItems map[string]bool
	// enablement is each plugin's entry in config.json, by name, and
	// claimed the names a plugin folder imported.
	enablement     map[string]bool
	claimed        map[string]bool
	userConfigPath string
	// perSection is how many top-level blocks generate formats together
	// (sections).
	perSection int
	// root is the workspace root being read (agy.WorkspaceRoots), "" in
	// global scope: path and paths read from it.
	root string
}

// Import reads the live files under opts.Root and returns the config that
// describes them.
func Import(opts Options) (*Result, error) {
	t, err := openTree(opts.Root, opts.FollowLinksOut)
	switch {
	case errors.Is(err, syscall.ENOTDIR):
		return nil, fmt.Errorf("root %s is not a folder", opts.Root)
	case err != nil:
		return nil, fmt.Errorf("root: %w", err)
	}
	defer t.close()
	switch {
	case opts.Out != "":
		opts.SecretDir = filepath.Join(opts.Out, "secrets")
	case opts.SecretDir == "":
		opts.SecretDir = filepath.Join(opts.Root, ".config", "agyconf", "secrets")
	}
	agy := model.Agyconf{Scope: opts.Scope, Product: opts.Product}
	im := &importer{
		opts:        opts,
		l:           layout.New(agy),
		cfg:         &model.Config{Agyconf: agy},
		files:       map[string]File{},
		skillSrc:    map[*model.Skill]string{},
		bodyPath:    map[any]string{},
		tools:       map[string]string{},
		secretFiles: map[string]string{},
		state: sync.OnceValue(func() map[string]map[string]bool {
			if opts.StateSecrets == nil {
				return nil
			}
			return stateSet(opts.StateSecrets())
		}),
		tree:       t,
		linkItems:  map[string]bool{},
		enablement: map[string]bool{},
		claimed:    map[string]bool{},
		perSection: cmp.Or(opts.perSection, 256),
	}
	im.run()
	if im.need.Known() {
		im.cfg.Agyconf.AgyVersion = im.need.String()
	}
	if len(im.tools) > 0 {
		im.cfg.Tools = map[string]model.Tool{}
		for k, v := range im.tools {
			im.cfg.Tools[k] = model.Tool{Path: v}
		}
	}
	hcl := im.generate()
	sort.SliceStable(im.items, func(i, j int) bool {
		a, b := im.items[i], im.items[j]
		if kindOrder[a.Kind] != kindOrder[b.Kind] {
			return kindOrder[a.Kind] < kindOrder[b.Kind]
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Unit < b.Unit
	})
	if opts.Out == "" {
		im.files = nil
	}
	// The backstop: whatever a reason quotes, no secret value found
	// anywhere in the tree is printed.
	for i := range im.items {
		im.items[i] = redactItem(im.items[i], im.values)
	}
	return &Result{Config: im.cfg, HCL: hcl, Files: im.files, Items: im.items, Secrets: im.values,
		ReadsSecrets: readsSecrets(im.cfg), secretFiles: im.secretFiles}, nil
}

func (im *importer) add(kind, p, unit, format string, args ...any) {
	im.items = append(im.items, Item{Kind: kind, Path: p, Unit: unit, Reason: fmt.Sprintf(format, args...)})
}

func (im *importer) skip(p, unit, format string, args ...any) {
	im.add(KindNotImported, p, unit, format, args...)
}

func (im *importer) conv(p, unit, format string, args ...any) {
	im.add(KindConverted, p, unit, format, args...)
}

func (im *importer) run() {
	roots := []string{""}
	if im.opts.Scope == model.ScopeWorkspace {
		roots = nil
		for _, r := range agy.WorkspaceRoots() {
			if !r.Legacy {
				roots = append(roots, r.Path)
				continue
			}
			fi, err := im.tree.stat(r.Path)
			switch {
			case err == nil && fi.IsDir():
				roots = append(roots, r.Path)
			case err != nil:
				im.linkRefused(r.Path, err)
			}
		}
	}
	for i, root := range roots {
		im.root = root
		before := im.counts()
		// Skills first: they need nothing of the states, which are read
		// meanwhile, and the MCP servers' values are judged against them.
		im.skillDirs()
		im.mcpFiles()
		if p, ok := im.path(agy.Hooks); ok {
			if doc, ok := im.readJSON(p, "hooks"); ok {
				im.cfg.Hooks = append(im.cfg.Hooks, im.hooks(p, doc)...)
			}
		}
		if p, ok := im.path(agy.Rules); ok {
			im.cfg.Rules = append(im.cfg.Rules, im.rules(p, "rules")...)
		}
		if p, ok := im.path(agy.Agents); ok {
			im.cfg.Agents = append(im.cfg.Agents, im.agents(p, "agents")...)
		}
		im.workflowDirs()
		if i == 0 {
			if p, ok := im.l.Path(agy.GlobalRules); ok {
				im.cfg.Rules = append(im.cfg.Rules, im.globalRules(p)...)
			}
			im.readings()
			im.contexts()
			im.settingsFile()
			im.userConfigFile()
			if p, ok := im.l.Path(agy.Ignore); ok {
				im.cfg.Ignore = im.ignore(p)
			}
		}
		if p, ok := im.path(agy.Plugins); ok {
			im.plugins(p)
		}
		if root != "" {
			for _, n := range []string{"AGENTS.md", "GEMINI.md"} {
				if p := join(root, n); im.isFile(p) {
					im.skip(p, "", "agy reads a workspace's %s at the workspace's top, beside %s/ (skillsaw, sigil), and no source has it read from %s/: it has no effect here; move it up to keep it", n, root, root)
				}
			}
		}
		if i > 0 {
			im.legacyRoot(root, roots[0], before)
		}
	}
	im.root = ""
	im.unclaimedEnablement()
	im.pluginServerNames()
	im.legacyFolders()
	im.recognise()
	im.reportNoEnabled()
	sortConfig(im.cfg)
}

// contexts imports the files of global rules agy reads whole besides
// GEMINI.md's block (agy.ContextFiles) into context blocks, which render
// writes back as they are; a newer build reads them, so the config's
// agy_version becomes that build's.
func (im *importer) contexts() {
	for _, r := range agy.ContextFiles() {
		if r.Scope != im.opts.Scope || !im.exists(r.Path) {
			continue
		}
		data, ok := im.readFile(r.Path)
		if !ok {
			continue
		}
		if !utf8.Valid(data) {
			im.skip(r.Path, "", "is not valid UTF-8")
			continue
		}
		body := normBody(string(data))
		if strings.TrimSpace(body) == "" {
			im.skip(r.Path, "", "is empty; a context block needs text")
			continue
		}
		if r.Feature != "" {
			im.needs(agy.BehaviourOf(r.Feature).Since)
		}
		c := &model.Context{Path: r.Path, Body: body}
		im.bodyPath[c] = join("context", strings.ReplaceAll(strings.TrimPrefix(r.Path, ".gemini/"), "/", "-"))
		im.cfg.Contexts = append(im.cfg.Contexts, c)
	}
}

// isFile reports whether rel is a file the tree reads (a link it refuses,
// or that leads nowhere, is none).
func (im *importer) isFile(rel string) bool {
	fi, err := im.tree.stat(rel)
	return err == nil && !fi.IsDir()
}

// counts are how many of each kind the config holds so far.
type counts struct{ servers, hooks, skills, rules, agents, workflows, plugins int }

func (im *importer) counts() counts {
	c := im.cfg
	return counts{len(c.MCPServers), len(c.Hooks), len(c.Skills), len(c.Rules), len(c.Agents), len(c.Workflows), len(c.Plugins)}
}

// legacyRoot keeps what a legacy workspace root (agy.WorkspaceRoots)
// added since before, less what the roots read before it already name,
// and says where render writes it: under first, .agents/.
func (im *importer) legacyRoot(root, first string, before counts) {
	n := 0
	keep := func(kind string, names []string, from int) []int {
		seen := map[string]bool{}
		for _, x := range names[:from] {
			seen[x] = true
		}
		var out []int
		for i := from; i < len(names); i++ {
			if seen[names[i]] {
				im.skip(root, kind+" "+names[i], "%s also holds a %s of this name, which is imported; agy reads both roots (two of one name: one wins)", first, kind)
				continue
			}
			seen[names[i]] = true
			out = append(out, i)
			n++
		}
		return out
	}
	c := im.cfg
	c.MCPServers = pick(c.MCPServers, keep("MCP server", names(c.MCPServers, func(x *model.MCPServer) string { return x.Name }), before.servers), before.servers)
	c.Hooks = pick(c.Hooks, keep("hook", names(c.Hooks, func(x *model.Hook) string { return x.Name }), before.hooks), before.hooks)
	c.Skills = pick(c.Skills, keep("skill", names(c.Skills, func(x *model.Skill) string { return x.Name }), before.skills), before.skills)
	c.Rules = pick(c.Rules, keep("rule", names(c.Rules, func(x *model.Rule) string { return x.Name }), before.rules), before.rules)
	c.Agents = pick(c.Agents, keep("subagent", names(c.Agents, func(x *model.Agent) string { return x.Name }), before.agents), before.agents)
	c.Workflows = pick(c.Workflows, keep("workflow", names(c.Workflows, func(x *model.Workflow) string { return x.Name }), before.workflows), before.workflows)
	c.Plugins = pick(c.Plugins, keep("plugin", names(c.Plugins, func(x *model.Plugin) string { return x.Name }), before.plugins), before.plugins)
	if n > 0 {
		r := agy.WorkspaceRoots()[0]
		im.conv(root, "", "a legacy customization root, which agy still reads (%s): what it holds is imported, and render writes it under %s/, the root agyconf writes; remove %s/ once that is in place, or agy reads both", r.Source, first, root)
	}
}

func names[T any](xs []T, name func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = name(x)
	}
	return out
}

// pick keeps xs[:from] and the items of xs at keep.
func pick[T any](xs []T, keep []int, from int) []T {
	out := xs[:from:from]
	for _, i := range keep {
		out = append(out, xs[i])
	}
	return out
}

// path is where a kind's one file or folder is in the root being read:
// the layout's, in a legacy workspace root that root's (.agent/hooks.json).
func (im *importer) path(k agy.KindID) (string, bool) {
	p, ok := im.l.Path(k)
	return im.inRoot(p), ok
}

// paths is path for a kind with more than one folder.
func (im *importer) paths(k agy.KindID) []string {
	ps := im.l.Paths(k)
	for i, p := range ps {
		ps[i] = im.inRoot(p)
	}
	return ps
}

func (im *importer) inRoot(p string) string {
	first := agy.WorkspaceRoots()[0].Path
	if im.root == "" || im.root == first {
		return p
	}
	if rest, ok := strings.CutPrefix(p, first+"/"); ok {
		return im.root + "/" + rest
	}
	return p
}

// legacyFolders lists what lies in the folders agy no longer reads
// (agy.LegacyFolders), entry by entry: none of it has an effect, and a
// config that declared it would write it somewhere agy reads, which the
// user should decide.
func (im *importer) legacyFolders() {
	for _, l := range agy.LegacyFolders() {
		if string(l.Scope) != string(im.opts.Scope) {
			continue
		}
		k, _ := agy.KindOf(l.Kind)
		var now, nowRel []string
		for _, p := range []agy.Product{agy.ProductCLI, agy.ProductIDE} {
			for _, dir := range k.PathsFor(l.Scope, p) {
				now = append(now, agy.ScopePath(l.Scope, dir))
				nowRel = append(nowRel, dir)
			}
		}
		if im.sameFolderAsOneOf(l.Path, nowRel) {
			// A link to a folder agy reads (a compatibility link): what
			// is there is imported from that folder.
			continue
		}
		for _, e := range im.listDir(l.Path) {
			im.skip(join(l.Path, e.Name()), "", "in %s, %s: agy does not load it; move it to %s, or declare it in the config, to keep it", agy.ScopePath(l.Scope, l.Path), l.Why, strings.Join(now, " or "))
		}
	}
}

// sameFolderAsOneOf reports whether the folder rel is one of dirs, through
// links.
func (im *importer) sameFolderAsOneOf(rel string, dirs []string) bool {
	fi, err := im.tree.stat(rel)
	if err != nil || !fi.IsDir() {
		return false
	}
	for _, d := range dirs {
		if other, err := im.tree.stat(d); err == nil && os.SameFile(fi, other) {
			return true
		}
	}
	return false
}

// readings reports the files at the places of agy's table that agyconf
// only reads (agy.Reading): they stay the user's, as they are. Skills
// there are imported (skillDirs).
func (im *importer) readings() {
	for _, k := range agy.Kinds() {
		if k.ID == agy.Skills || k.ID == agy.GlobalRules {
			// Imported: skills (skillDirs), files of global rules
			// (contexts).
			continue
		}
		for _, r := range k.Reads {
			if r.Scope != im.opts.Scope {
				continue
			}
			why := r.Why
			if r.Feature != "" {
				why = fmt.Sprintf("agy reads it since %s (%s), but %s; it stays as it is, yours", agy.BehaviourOf(r.Feature).Since, r.Source, r.Why)
			}
			if !k.Folder {
				if im.exists(r.Path) {
					im.skip(r.Path, "", "%s", why)
				}
				continue
			}
			for _, e := range im.listDir(r.Path) {
				im.skip(join(r.Path, e.Name()), "", "%s", why)
			}
		}
	}
}

func (im *importer) abs(rel string) string {
	return filepath.Join(im.opts.Root, filepath.FromSlash(rel))
}

// readFile reads a live file; a missing one is (nil, false) silently.
func (im *importer) readFile(rel string) ([]byte, bool) {
	data, _, err := im.tree.readFile(rel, maxLiveFile)
	if !im.readOK(rel, err) {
		return nil, false
	}
	return data, true
}

// readOK reports whether reading rel gave err == nil; otherwise it reports
// the problem (a missing file is none: it is simply not there).
func (im *importer) readOK(rel string, err error) bool {
	switch {
	case err == nil:
		return true
	case im.linkRefused(rel, err), errors.Is(err, fs.ErrNotExist):
	default:
		im.skip(rel, "", "%s", readProblem(err))
	}
	return false
}

// readProblem says why a live file could not be read.
func readProblem(err error) string {
	var nr *confine.NotRegularError
	var tl *confine.TooLargeError
	switch {
	case errors.As(err, &nr):
		return fmt.Sprintf("is %s, not a regular file", confine.KindOf(nr.Mode))
	case errors.As(err, &tl):
		return fmt.Sprintf("is %d bytes; agyconf reads live files of at most %d MiB", tl.Size, maxLiveFile>>20)
	}
	return fmt.Sprintf("cannot be read: %v", unwrap(err))
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// readJSON reads and parses a live JSON file of the named schema the way
// agy's loaders do (the syntax agy reads there, the last of duplicate keys,
// numbers kept as written); a parse error is reported with its line and
// column.
func (im *importer) readJSON(rel, schemaName string) (any, bool) {
	return im.readJSONFile(rel, schemaName, true)
}

// readJSONOther reads a JSON file render never merges into (a plugin's
// files, written whole; the IDE's legacy mcp_config.json; a file agy no
// longer reads): one that does not parse is a report line, not the end of
// the import.
func (im *importer) readJSONOther(rel, schemaName string) (any, bool) {
	return im.readJSONFile(rel, schemaName, false)
}

// readJSONFile reads a live JSON file as agy reads it. One that cannot be
// read or does not parse is reported, with its position, and the rest of
// the tree is still imported: the config declares nothing of the file,
// and render refuses to merge into a shared one (one render merges into)
// until it is fixed, as it does now.
func (im *importer) readJSONFile(rel, schemaName string, shared bool) (any, bool) {
	data, _, err := im.tree.readFile(rel, maxLiveFile)
	if !im.readOK(rel, err) {
		return nil, false
	}
	if len(data) == 0 && schemaName == "mcp_config" {
		// What agy writes itself on its first run, read as no servers
		// (agy.MCPEmptyFile).
		return map[string]any{}, true
	}
	t, err := jsonmerge.Read(data, jsonmerge.AgySyntax(schemaName))
	if err != nil {
		var se *jsonmerge.SyntaxError
		line, col, msg := 1, 1, err.Error()
		if errors.As(err, &se) {
			line, col, msg = se.Pos.Line, se.Pos.Column, se.Msg
		}
		reason := "does not parse: " + msg
		if shared {
			reason += "; render refuses to merge into it until it is fixed, so nothing of it is declared"
		}
		im.items = append(im.items, Item{Kind: KindNotImported, Path: rel, Line: line, Column: col, Reason: reason})
		return nil, false
	}
	return t.Value(), true
}

// readObject reads a live JSON file whose top level must be an object,
// reporting the file when it is not; false also when it is missing or
// does not parse (readJSON).
func (im *importer) readObject(rel, schemaName string) (map[string]any, bool) {
	doc, ok := im.readJSON(rel, schemaName)
	if !ok {
		return nil, false
	}
	root, ok := doc.(map[string]any)
	if !ok {
		im.skip(rel, "", "the top level is not an object")
	}
	return root, ok
}

// listDir returns a folder's entries sorted by name, hidden ones left out;
// a missing folder is empty. An entry is as listed (a link is a link), but
// a link the tree refuses is reported and left out.
func (im *importer) listDir(rel string) []fs.DirEntry {
	es, err := im.tree.readDir(rel)
	if err != nil {
		if !im.linkRefused(rel, err) && !errors.Is(err, fs.ErrNotExist) {
			im.skip(rel, "", "cannot be read: %v", unwrap(err))
		}
		return nil
	}
	var out []fs.DirEntry
	for _, e := range es {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 {
			if _, err := im.tree.stat(join(rel, e.Name())); im.linkRefused(join(rel, e.Name()), err) {
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

func sortConfig(cfg *model.Config) {
	sort.Slice(cfg.MCPServers, func(i, j int) bool { return cfg.MCPServers[i].Name < cfg.MCPServers[j].Name })
	sort.Slice(cfg.Hooks, func(i, j int) bool { return cfg.Hooks[i].Name < cfg.Hooks[j].Name })
	sort.Slice(cfg.Skills, func(i, j int) bool { return cfg.Skills[i].Name < cfg.Skills[j].Name })
	sort.Slice(cfg.Rules, func(i, j int) bool { return cfg.Rules[i].Name < cfg.Rules[j].Name })
	sort.Slice(cfg.Agents, func(i, j int) bool { return cfg.Agents[i].Name < cfg.Agents[j].Name })
	sort.Slice(cfg.Workflows, func(i, j int) bool { return cfg.Workflows[i].Name < cfg.Workflows[j].Name })
	sort.Slice(cfg.Plugins, func(i, j int) bool { return cfg.Plugins[i].Name < cfg.Plugins[j].Name })
	sort.Slice(cfg.Harnesses, func(i, j int) bool { return cfg.Harnesses[i].Kind < cfg.Harnesses[j].Kind })
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func join(elems ...string) string { return path.Join(elems...) }

// needs records that what was imported loads only on agy v or newer.
func (im *importer) needs(v agy.Version) {
	if !im.need.AtLeast(v) {
		im.need = v
	}
}
