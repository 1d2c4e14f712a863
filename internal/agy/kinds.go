package agy

import (
	"slices"
	"strings"
	"sync"
)

// Scope says whose tree a config renders into.
type Scope string

const (
	// ScopeGlobal renders into a user's home directory.
	ScopeGlobal Scope = "global"
	// ScopeWorkspace renders into a project directory that is usually
	// committed, so nothing machine-specific may reach it.
	ScopeWorkspace Scope = "workspace"
)

// Product says which Antigravity product's paths are written.
type Product string

const (
	ProductCLI  Product = "cli"
	ProductIDE  Product = "ide"
	ProductBoth Product = "both"
)

// Scopes and Products list the values, in the order the docs give them.
func Scopes() []Scope     { return []Scope{ScopeGlobal, ScopeWorkspace} }
func Products() []Product { return []Product{ProductCLI, ProductIDE, ProductBoth} }

// KindID names a kind of document agy reads; the IDs are also the keys of
// agyconf { layout { … } }.
type KindID string

const (
	MCPConfig          KindID = "mcp_config"
	LegacyIDEMCPConfig KindID = "legacy_mcp_config"
	Hooks              KindID = "hooks"
	Plugins            KindID = "plugins"
	Skills             KindID = "skills"
	Agents             KindID = "agents"
	Rules              KindID = "rules"
	GlobalRules        KindID = "global_rules"
	Workflows          KindID = "workflows"
	Settings           KindID = "settings"
	ACPSettings        KindID = "acp_settings"
	UserConfig         KindID = "user_config"
	Ignore             KindID = "ignore"
	// IDESettings is retired: see retiredKinds.
	IDESettings KindID = "ide_settings"
)

// Places are a kind's default paths, relative to the render root ($HOME
// in global scope, the project in a workspace), per scope and product;
// none means that product reads no such document in that scope.
type Places map[Scope]map[Product][]string

// Kind is one kind of document agy reads.
type Kind struct {
	ID      KindID
	Summary string
	// Schema is the embedded JSON Schema a document of the kind (JSON) or
	// its frontmatter (markdown) is checked against; "" for none.
	Schema string
	// Folder kinds are a folder of items (one file or folder each); the
	// others one file.
	Folder bool
	// Shared kinds are files agyconf shares with the user and agy: it owns
	// entries of them, never the whole file.
	Shared bool
	// Block kinds are a file that is the user's, in which agyconf owns
	// one managed block between marker lines written in the file's own
	// comment syntax; "" for the others.
	Block BlockSyntax
	// Since is the first agy build known to read the kind; zero when it
	// predates what the sources cover.
	Since Version
	// Item is where one item of a folder kind lives in its folder, with
	// NAME for the item's name ("NAME/agent.md"); "" for other kinds.
	Item string
	// FormerItem is where agyconf put an item before (the flat agents'
	// NAME.md): the state migration moves agyconf's own items from it
	// (internal/apply), and lint warns on it.
	FormerItem string
	Places     Places
	// Reads are further places agy reads documents of the kind from, which
	// agyconf reads (validate, import) and never writes.
	Reads  []Reading
	Source Source
}

// BlockSyntax is the comment syntax of agyconf's marker lines in a file
// where it owns a managed block.
type BlockSyntax string

const (
	// BlockHTMLComment: markdown files (GEMINI.md), whose HTML comments
	// do not show when rendered.
	BlockHTMLComment BlockSyntax = "html-comment"
	// BlockHashComment: line-oriented files where a line starting with
	// "#" is a comment (.antigravityignore, read like a .gitignore).
	BlockHashComment BlockSyntax = "hash-comment"
)

// Markers are the begin and end lines around agyconf's block in a file of
// the syntax; every syntax has both, each a whole line.
func (s BlockSyntax) Markers() (begin, end string) {
	const what = "BEGIN agyconf: managed block; edits here are overwritten by agyconf render"
	if s == BlockHashComment {
		return "# " + what, "# END agyconf"
	}
	return "<!-- " + what + " -->", "<!-- END agyconf -->"
}

// Reading is a place agy reads documents of a kind from that agyconf only
// reads: writing there too would load what it writes twice, or the
// sources are too weak to write by.
type Reading struct {
	Scope Scope
	// Path is relative to the render root: a file, or for a folder kind
	// the folder.
	Path string
	// Feature is the behaviour row of a place only newer builds read; ""
	// for every build.
	Feature Feature
	// Why agyconf does not write there.
	Why    string
	Source Source
}

// ItemPath is where the item name of a folder kind lives below dir.
func (k Kind) ItemPath(dir, name string) string {
	return dir + "/" + strings.ReplaceAll(k.Item, "NAME", name)
}

// FormerItemPath is where agyconf put the item before, or "".
func (k Kind) FormerItemPath(dir, name string) string {
	if k.FormerItem == "" {
		return ""
	}
	return dir + "/" + strings.ReplaceAll(k.FormerItem, "NAME", name)
}

func same(p string) map[Product][]string {
	return map[Product][]string{ProductCLI: {p}, ProductIDE: {p}, ProductBoth: {p}}
}

// globalRulesWhy is why agyconf writes global rules only into GEMINI.md.
const globalRulesWhy = "agyconf writes global rules into the managed block of ~/.gemini/GEMINI.md, which every build and both products read; a copy here too would be loaded twice by the builds that read this place (only a third-party reading says which those are), and an older build or the IDE may not read it at all"

// contextWhy is why agyconf writes a context file only when declared.
const contextWhy = globalRulesWhy + "; agyconf writes this file whole only when a context block declares it, as import does to give back such a file"

// kinds is the measured layout (each row's Source; docs/design.md).
func kinds() []Kind {
	return []Kind{
		{ID: MCPConfig, Summary: "MCP servers", Schema: "mcp_config", Shared: true,
			// The IDE and the CLI both read ~/.gemini/config/ (Home Manager,
			// rulesync for IDE 2.0); the IDE's old path is written only
			// when a layout override names it.
			Places: Places{ScopeGlobal: same(".gemini/config/mcp_config.json"), ScopeWorkspace: same(".agents/mcp_config.json")},
			Source: Source{Changelog, "1.0.3 (the migrated config/mcp_config.json); Home Manager writes it; rulesync (IDE 2.0 reads it too)"}},
		{ID: LegacyIDEMCPConfig, Summary: "MCP servers for IDE builds older than 2.0", Schema: "mcp_config", Shared: true,
			Places: Places{}, Source: Source{ThirdParty, "MemPalace (the IDE's docs of 2026-05 name ~/.gemini/antigravity/mcp_config.json); rulesync (2026-08: a legacy path, no longer read by 2.0)"}},
		{ID: Hooks, Summary: "hooks", Schema: "hooks", Shared: true,
			Places: Places{ScopeGlobal: same(".gemini/config/hooks.json"), ScopeWorkspace: same(".agents/hooks.json")},
			Source: Source{Changelog, "1.0.8 (the shared ~/.gemini/config/hooks.json), 1.1.1 (workspace .agents/hooks.json)"}},
		{ID: Plugins, Summary: "plugins, one folder each with a plugin.json", Schema: "plugin", Folder: true, Item: "NAME/plugin.json",
			Places: Places{ScopeGlobal: same(".gemini/config/plugins"), ScopeWorkspace: same(".agents/plugins")},
			Source: Source{Changelog, "1.0.2 (plugins install into the shared ~/.gemini/config/)"}},
		{ID: Skills, Summary: "skills, one folder each with a SKILL.md", Schema: "skill-frontmatter", Folder: true, Item: "NAME/SKILL.md",
			// Three sources disagree on the CLI's global skills folder.
			// ~/.gemini/antigravity-cli/skills/ is what every reading has
			// the CLI load: its docs (docs-cli-plugins.md), Home Manager's
			// module (strace of the CLI), rulesync; dotai's probe of
			// ~/.gemini/config/skills/ working names no folder the CLI does
			// not read. The IDE reads ~/.gemini/config/skills/ (rulesync,
			// dotai). Product "both" writes both: skills are keyed by
			// name, one found twice is one skill (the higher layer shadows
			// the lower; a name collision has one winner, CLI
			// changelog 1.1.21, 1.2.7), and the two copies are the same.
			Places: Places{
				ScopeGlobal: {
					ProductCLI:  {".gemini/antigravity-cli/skills"},
					ProductIDE:  {".gemini/config/skills"},
					ProductBoth: {".gemini/antigravity-cli/skills", ".gemini/config/skills"},
				},
				ScopeWorkspace: same(".agents/skills"),
			},
			Reads: []Reading{
				{Scope: ScopeGlobal, Path: ".gemini/skills", Why: "a folder only third parties show the CLI reading (a workaround reported working in antigravity-cli #103; skill managers list it as the shared skills folder); agyconf writes skills where the CLI's docs and Home Manager put them, and a copy here too would be loaded twice (which one wins is unknown)",
					Source: Source{ThirdParty, "antigravity-cli #103 comments of 2026-05-22; codegraphx, skills-manager"}},
			},
			Source: Source{CLIDocs, "docs-cli-plugins.md (the CLI's global ~/.gemini/antigravity-cli/skills/); Home Manager (an strace of the CLI), rulesync"}},
		{ID: Agents, Summary: "subagents (custom agents), one folder each with an agent.md", Schema: "agent-frontmatter", Folder: true,
			// The CLI's /agents docs give <name>/agent.md and call flat
			// files directly in agents/ a common mistake; rulesync reads
			// the docs as allowing both. The folder form is read under
			// both readings. agyconf wrote NAME.md before state version 4.
			Item: "NAME/agent.md", FormerItem: "NAME.md",
			Places: Places{ScopeGlobal: same(".gemini/config/agents"), ScopeWorkspace: same(".agents/agents")},
			Source: Source{CLIDocs, "docs-cli-commands-agents.md (<name>/agent.md; flat files a common mistake); CLI changelog 1.1.0 (global subagents in ~/.gemini/config/), 1.1.6 (Markdown agents)"}},
		{ID: Rules, Summary: "rules, one markdown file each", Schema: "rule-frontmatter", Folder: true, Item: "NAME.md",
			// The only global rules surface every build and both products
			// read is ~/.gemini/GEMINI.md, written as a managed block.
			Places: Places{ScopeWorkspace: same(".agents/rules")},
			Reads: []Reading{
				{Scope: ScopeGlobal, Path: ".gemini/config/rules", Feature: GlobalRuleSources, Why: globalRulesWhy, Source: Source{ThirdParty, "a reading of the CLI 1.2.15 changelog; third-party installers write there (xmsg's Home Manager config)"}},
			},
			Source: Source{ThirdParty, "rulesync (.agents/rules/*.md, legacy .agent/rules); skly.ai"}},
		{ID: GlobalRules, Summary: "global rules: a block agyconf manages in GEMINI.md", Block: BlockHTMLComment,
			Places: Places{ScopeGlobal: same(".gemini/GEMINI.md")},
			Reads: []Reading{
				{Scope: ScopeGlobal, Path: ".gemini/AGENTS.md", Feature: GlobalRuleSources, Why: contextWhy, Source: Source{ThirdParty, "a reading of the CLI 1.2.15 changelog"}},
				{Scope: ScopeGlobal, Path: ".gemini/config/AGENTS.md", Feature: GlobalRuleSources, Why: contextWhy, Source: Source{ThirdParty, "a reading of the CLI 1.2.15 changelog; dotai (documented only)"}},
				{Scope: ScopeGlobal, Path: ".gemini/config/GEMINI.md", Feature: GlobalRuleSources, Why: contextWhy, Source: Source{ThirdParty, "a reading of the CLI 1.2.15 changelog"}},
			},
			Source: Source{ThirdParty, "rulesync (~/.gemini/GEMINI.md, read by both products); skly.ai"}},
		{ID: Workflows, Summary: "workflows, one markdown file each", Schema: "workflow-frontmatter", Folder: true, Item: "NAME.md",
			Places: Places{
				ScopeGlobal: {
					ProductCLI:  {".gemini/antigravity-cli/global_workflows"},
					ProductIDE:  {".gemini/antigravity/global_workflows"},
					ProductBoth: {".gemini/antigravity-cli/global_workflows", ".gemini/antigravity/global_workflows"},
				},
				ScopeWorkspace: same(".agents/workflows"),
			},
			Source: Source{ThirdParty, "rulesync (IDE ~/.gemini/antigravity/global_workflows/, CLI ~/.gemini/antigravity-cli/global_workflows/)"}},
		{ID: Settings, Summary: "the CLI's settings and permissions", Schema: "cli-settings", Shared: true,
			// The CLI ignores project permission files (probed on 1.2.0 by
			// sigil).
			Places: Places{ScopeGlobal: {ProductCLI: {".gemini/antigravity-cli/settings.json"}, ProductBoth: {".gemini/antigravity-cli/settings.json"}}},
			Source: Source{Probe, "1.2.0 by sigil (~/.gemini/antigravity-cli/settings.json is the only permissions file the CLI honours); Home Manager writes it"}},
		{ID: ACPSettings, Summary: "the ACP server's settings", Schema: "acp-settings", Shared: true,
			Places: Places{ScopeGlobal: {ProductCLI: {".gemini/antigravity-acp/settings.json"}, ProductBoth: {".gemini/antigravity-acp/settings.json"}}},
			Source: Source{Probe, "agy_acp_server 20260818_01_RC01 by pi-antigravity-bridge (section 3.3)"}},
		{ID: UserConfig, Summary: "the user config the CLI shares with Antigravity 2.0: plugin enablement and shared permission grants", Schema: "user-config", Shared: true,
			// Both keys are third-party readings of a file agy writes
			// itself: plugins.<name>.enabled (a read-only survey of a
			// 1.1.11 install, and an installer that sets it), and
			// userSettings.globalPermissionGrants (a probe of 1.1.12, the
			// "Shared with Antigravity" scope of /permissions). The file is
			// in the home whatever the product; project grants, in
			// ~/.gemini/config/projects/<uuid>.json under a uuid agy
			// assigns, have no place agyconf can find (docs/limitations.md).
			Places: Places{ScopeGlobal: same(".gemini/config/config.json")},
			Source: Source{Changelog, "1.1.11 (plugin enablement lives only in config.json, seeded once from each manifest), 1.1.28 (uninstall removes the plugin's entry), 1.0.5 (permissions shared with Antigravity merged into the CLI's); key layout: third-party probes of 1.1.11 and 1.1.12"}},
		// The changelog names the file once, and only for what @ path
		// completion offers: nothing documents its syntax (read here as
		// gitignore-like lines, the safe reading: agyconf writes the
		// user's lines as given) nor shows it keeps files from the agent's
		// tools, so it is no way to hide secrets.
		{ID: Ignore, Summary: "paths agy leaves out of @ file path completion: a block agyconf manages in .antigravityignore", Block: BlockHashComment, Since: V(1, 1, 16),
			Places: Places{ScopeWorkspace: same(".antigravityignore")},
			Source: Source{Changelog, "1.1.16 (\"Fixed `@` file path completion showing files that were in your `.antigravityignore`\"); syntax undocumented"}},
	}
}

// kindTable is the table, built once: KindOf is called per document and
// per entry. It is never modified; Kinds hands out copies of its slice.
var kindTable = sync.OnceValue(kinds)

// RetiredKind is a kind of document agyconf once wrote and no longer
// does, because no source shows anything reading it. Its former paths
// stay places agyconf lets go of: a render prunes the entries it wrote
// there and gives back what it found, as for any entry dropped from a
// config. Its layout key is refused with Why.
type RetiredKind struct {
	ID     KindID
	Places Places
	Why    string
	Source Source
}

func retiredKinds() []RetiredKind {
	return []RetiredKind{
		{ID: IDESettings,
			Places: Places{ScopeWorkspace: {ProductIDE: {ideSettingsPath}, ProductBoth: {ideSettingsPath}}},
			Why:    "no source shows anything reading a workspace's .antigravity/settings.json, which agyconf wrote for the IDE on rulesync's word alone (" + unreadWhy(ideSettingsPath) + "); declare settings and permissions in a global config, whose ~/.gemini/antigravity-cli/settings.json the CLI reads",
			Source: Source{ThirdParty, "rulesync alone names the file; sigil measured the CLI ignoring every project permissions file (1.2.0)"}},
	}
}

// RetiredKinds lists the kinds agyconf no longer writes.
func RetiredKinds() []RetiredKind { return retiredKinds() }

// RetiredKindOf finds a retired kind by ID.
func RetiredKindOf(id KindID) (RetiredKind, bool) {
	for _, k := range retiredKinds() {
		if k.ID == id {
			return k, true
		}
	}
	return RetiredKind{}, false
}

const ideSettingsPath = ".antigravity/settings.json"

// UnreadFile is a settings file in a workspace that Antigravity does not
// read, or no longer reads, though tools and older guides still write
// it: validate warns that what it holds has no effect.
type UnreadFile struct {
	// Path is relative to the workspace root.
	Path   string
	Why    string
	Source Source
}

func unreadFiles() []UnreadFile {
	return []UnreadFile{
		{Path: ".agents/settings.json",
			Why:    "Antigravity 2.0 no longer reads .agents/settings.json since v2.17.0 and keeps repository settings in <repo>/.gemini/config.json; the agy CLI was measured ignoring every project-level permissions file (1.2.0)",
			Source: Source{ThirdParty, "a reading of the Antigravity 2.0 changelog, v2.17.0; sigil, probed on CLI 1.2.0"}},
		{Path: ideSettingsPath,
			Why:    "the agy CLI was measured ignoring every project-level permissions file (1.2.0), the IDE's bundled docs do not name this file, and Antigravity 2.0 keeps repository settings in <repo>/.gemini/config.json (v2.17.0)",
			Source: Source{Probe, "1.2.0 by sigil (the CLI reads no project permissions file); rulesync, which writes the file, is the only source naming it"}},
	}
}

// UnreadFiles lists the workspace settings files agy does not read.
func UnreadFiles() []UnreadFile { return unreadFiles() }

// UnreadFileAt finds the row of a workspace-relative path.
func UnreadFileAt(path string) (UnreadFile, bool) {
	for _, u := range unreadFiles() {
		if u.Path == path {
			return u, true
		}
	}
	return UnreadFile{}, false
}

// LegacyFolder is a folder older Antigravity builds read documents from
// and current ones do not: what lies there has no effect any more, though
// installers and older guides still put files there. import lists each
// entry as not imported and validate warns, naming where it belongs now.
type LegacyFolder struct {
	Scope Scope
	// Path is relative to the scope's root (the home folder, the
	// workspace).
	Path string
	// Kind is what the folder held, and where it belongs now.
	Kind   KindID
	Why    string
	Source Source
}

func legacyFolders() []LegacyFolder {
	return []LegacyFolder{
		{Scope: ScopeGlobal, Path: ".gemini/antigravity/skills", Kind: Skills,
			Why:    "the global skills folder of IDE builds before Antigravity 2.0, which 2.0 and the agy CLI no longer read (MemPalace's docs of 2026-05 still name it)",
			Source: Source{ThirdParty, "rulesync (2026-08: legacy, no longer read); MemPalace's docs of 2026-05 still name it"}},
	}
}

// ScopePath spells a path relative to a scope's root as users read it:
// ~/… in global scope, as it stands in a workspace.
func ScopePath(s Scope, rel string) string {
	if s == ScopeGlobal {
		return "~/" + rel
	}
	return rel
}

// LegacyFolders lists the folders agy no longer reads.
func LegacyFolders() []LegacyFolder { return legacyFolders() }

func unreadWhy(path string) string {
	u, _ := UnreadFileAt(path)
	return u.Why
}

// Kinds lists every kind of document, sorted by ID.
func Kinds() []Kind {
	ks := slices.Clone(kindTable())
	sortBy(ks, func(k Kind) string { return string(k.ID) })
	return ks
}

// KindOf finds a kind by its ID.
func KindOf(id KindID) (Kind, bool) {
	for _, k := range kindTable() {
		if k.ID == id {
			return k, true
		}
	}
	return Kind{}, false
}

// PathsFor are a kind's default paths for a scope and product.
func (k Kind) PathsFor(s Scope, p Product) []string {
	return append([]string(nil), k.Places[s][p]...)
}

// KindIDs lists every kind's ID, sorted: the keys of agyconf { layout }.
func KindIDs() []KindID {
	var out []KindID
	for _, k := range Kinds() {
		out = append(out, k.ID)
	}
	return out
}

// ContextFiles are the files of global rules besides the managed block of
// ~/.gemini/GEMINI.md that agy reads whole (the Reads of GlobalRules):
// agyconf writes one whole when a config declares it (a context block),
// which import does to give back such a file.
func ContextFiles() []Reading {
	k, _ := KindOf(GlobalRules)
	return slices.Clone(k.Reads)
}

// ContextFileAt finds the context file at a path relative to the home.
func ContextFileAt(p string) (Reading, bool) {
	for _, r := range ContextFiles() {
		if r.Path == p {
			return r, true
		}
	}
	return Reading{}, false
}

// WorkspaceRoot is a folder of a workspace agy reads customizations from
// (rules, skills, workflows, subagents, hooks, MCP servers, plugins).
type WorkspaceRoot struct {
	Path string
	// Legacy roots are read as well as .agents/, the one agyconf writes:
	// what stands in them is written into .agents/ when imported.
	Legacy bool
	Source Source
}

// WorkspaceRoots lists the roots, the one agyconf writes first.
func WorkspaceRoots() []WorkspaceRoot {
	src := Source{ThirdParty, "skillsaw (the customization roots .agents/, .agent/, _agents/, _agent/); sigil probed hooks in each on CLI 1.2.0; published setups in .agent/ that load"}
	return []WorkspaceRoot{
		{Path: ".agents", Source: src},
		{Path: ".agent", Legacy: true, Source: src},
		{Path: "_agents", Legacy: true, Source: src},
		{Path: "_agent", Legacy: true, Source: src},
	}
}

// IsWorkspaceRoot reports whether a folder name is a workspace root.
func IsWorkspaceRoot(name string) bool {
	for _, r := range WorkspaceRoots() {
		if r.Path == name {
			return true
		}
	}
	return false
}
