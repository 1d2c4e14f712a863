// Package layout says where each kind of Antigravity artifact lives on disk
// for a scope and product: the one table of paths agyconf writes to, every
// cell overridable from the config's `agyconf { layout { … } }` block.
package layout

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/agyconf/agyconf/internal/model"
)

// Artifact is a kind of file or folder agyconf writes. The names are the
// keys of `agyconf { layout { … } }`.
type Artifact string

const (
	MCPConfig          Artifact = "mcp_config"
	LegacyIDEMCPConfig Artifact = "legacy_mcp_config"
	Hooks              Artifact = "hooks"
	Plugins            Artifact = "plugins"
	Skills             Artifact = "skills"
	Agents             Artifact = "agents"
	Rules              Artifact = "rules"
	GlobalRules        Artifact = "global_rules"
	Workflows          Artifact = "workflows"
	Settings           Artifact = "settings"
	IDESettings        Artifact = "ide_settings"
	ACPSettings        Artifact = "acp_settings"
)

// cell holds the default paths of one artifact per product; nil means the
// product reads no such artifact in that scope.
type cell map[model.Product][]string

func same(p string) cell {
	return cell{model.ProductCLI: {p}, model.ProductIDE: {p}, model.ProductBoth: {p}}
}

// table is the measured layout (reference §1; shared/design.md "Layout").
// Paths are relative to the render root: $HOME for global scope, the
// project directory for workspace scope.
var table = map[model.Scope]map[Artifact]cell{
	model.ScopeGlobal: {
		// The IDE and the CLI both read ~/.gemini/config/ (reference §1,
		// rulesync for IDE 2.0); the IDE's old path is written only when a
		// layout override names it.
		MCPConfig:          same(".gemini/config/mcp_config.json"),
		LegacyIDEMCPConfig: {},
		Hooks:              same(".gemini/config/hooks.json"),
		Plugins:            same(".gemini/config/plugins"),
		// Three sources disagree on the CLI's global skills folder; dotai
		// measured ~/.gemini/config/skills working on the CLI and rulesync
		// names it for the IDE, so one folder serves both products.
		Skills: same(".gemini/config/skills"),
		Agents: same(".gemini/config/agents"),
		// The only verified global rules surface is ~/.gemini/GEMINI.md,
		// written as a managed block; there is no global rules folder.
		Rules:       {},
		GlobalRules: same(".gemini/GEMINI.md"),
		Workflows: {
			model.ProductCLI:  {".gemini/antigravity-cli/global_workflows"},
			model.ProductIDE:  {".gemini/antigravity/global_workflows"},
			model.ProductBoth: {".gemini/antigravity-cli/global_workflows", ".gemini/antigravity/global_workflows"},
		},
		// Only the CLI has a global settings file agyconf knows.
		Settings: {
			model.ProductCLI:  {".gemini/antigravity-cli/settings.json"},
			model.ProductBoth: {".gemini/antigravity-cli/settings.json"},
		},
		IDESettings: {},
		ACPSettings: {
			model.ProductCLI:  {".gemini/antigravity-acp/settings.json"},
			model.ProductBoth: {".gemini/antigravity-acp/settings.json"},
		},
	},
	model.ScopeWorkspace: {
		MCPConfig:          same(".agents/mcp_config.json"),
		LegacyIDEMCPConfig: {},
		Hooks:              same(".agents/hooks.json"),
		Plugins:            same(".agents/plugins"),
		Skills:             same(".agents/skills"),
		Agents:             same(".agents/agents"),
		Rules:              same(".agents/rules"),
		GlobalRules:        {},
		Workflows:          same(".agents/workflows"),
		// The CLI ignores project permission files (probed on 1.2.0,
		// reference §0.9); the IDE reads .antigravity/settings.json.
		Settings: {},
		IDESettings: {
			model.ProductIDE:  {".antigravity/settings.json"},
			model.ProductBoth: {".antigravity/settings.json"},
		},
		ACPSettings: {},
	},
}

// Artifacts lists every artifact, sorted.
func Artifacts() []Artifact {
	out := make([]Artifact, 0, len(table[model.ScopeGlobal]))
	for a := range table[model.ScopeGlobal] {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Layout is the table resolved for one config.
type Layout struct {
	scope     model.Scope
	product   model.Product
	overrides map[string]string
}

// New resolves the layout for a config's agyconf block.
func New(a model.Agyconf) Layout {
	return Layout{scope: a.Scope, product: a.Product, overrides: a.Layout}
}

// Paths returns where an artifact goes, relative to the render root: none
// when the scope and product have no such artifact, two for workflows of
// product "both" (each product has its own folder). An override replaces
// the default with one path.
func (l Layout) Paths(a Artifact) []string {
	if p, ok := l.overrides[string(a)]; ok {
		return []string{p}
	}
	return append([]string(nil), table[l.scope][a][l.product]...)
}

// Path returns the single path of an artifact that has one, and false when
// it has none.
func (l Layout) Path(a Artifact) (string, bool) {
	ps := l.Paths(a)
	if len(ps) == 0 {
		return "", false
	}
	return ps[0], true
}

// Elsewhere describes the scopes and products where an artifact does have
// a place, for the error that says it has none here.
func (l Layout) Elsewhere(a Artifact) string {
	var places []string
	for _, s := range []model.Scope{model.ScopeGlobal, model.ScopeWorkspace} {
		for _, p := range []model.Product{model.ProductCLI, model.ProductIDE, model.ProductBoth} {
			if ps := table[s][a][p]; len(ps) > 0 {
				places = append(places, fmt.Sprintf("scope %q with product %q (%s)", s, p, strings.Join(ps, ", ")))
			}
		}
	}
	if len(places) == 0 {
		return fmt.Sprintf("set a path for it in agyconf { layout { %s = \"…\" } }", a)
	}
	return fmt.Sprintf("it has a place in %s, or set one in agyconf { layout { %s = \"…\" } }", strings.Join(places, "; "), a)
}

// Scope and Product return what the layout was resolved for.
func (l Layout) Scope() model.Scope     { return l.scope }
func (l Layout) Product() model.Product { return l.product }

// Folders returns every folder the layout names and each of their parents,
// relative to the root: the folders a prune must leave in place even when
// it empties them.
func (l Layout) Folders() map[string]bool {
	out := map[string]bool{}
	for _, a := range Artifacts() {
		for _, p := range l.Paths(a) {
			if !dirArtifacts[a] {
				p = path.Dir(p)
			}
			for ; p != "." && p != "/" && p != ""; p = path.Dir(p) {
				out[p] = true
			}
		}
	}
	return out
}

// dirArtifacts are the artifacts whose path names a folder of items.
var dirArtifacts = map[Artifact]bool{Plugins: true, Skills: true, Agents: true, Rules: true, Workflows: true}

// StateDir is agyconf's own folder under a root of scope: the states of
// its config instances, the lock, the cache and backups. Global scope
// keeps it where XDG puts state; a workspace keeps it in the tree, so that
// the state is committed with the rendered files.
func StateDir(scope model.Scope) string {
	if scope == model.ScopeWorkspace {
		return ".agyconf"
	}
	return ".local/state/agyconf"
}

// OverlapsStateDir reports whether a path below the root (forward
// slashes, clean) is one of agyconf's own folders, inside one, or above
// one — rendered files there would be overwritten by the state, or hold
// it — or is in a .git folder.
func OverlapsStateDir(p string) bool {
	if hasSegment(p, ".git") {
		// A layout path into .git could plant a git hook that the next
		// git commit runs.
		return true
	}
	for _, s := range []model.Scope{model.ScopeGlobal, model.ScopeWorkspace} {
		d := StateDir(s)
		if p == d || strings.HasPrefix(p, d+"/") || strings.HasPrefix(d, p+"/") {
			return true
		}
	}
	return false
}

// OverrideProblem says why a path cannot be a layout override or a
// config_root, or "".
func OverrideProblem(p string) string {
	if hasSegment(p, ".git") {
		return fmt.Sprintf("%q is in a .git folder, where a rendered file could be a git hook that the next git commit runs; choose another path", p)
	}
	if OverlapsStateDir(p) {
		return fmt.Sprintf("%q is agyconf's own folder (%s or %s), inside it or above it: the state, lock and backups live there, and files rendered there would be overwritten by them; choose another path", p, StateDir(model.ScopeGlobal), StateDir(model.ScopeWorkspace))
	}
	return ""
}

// Writes reports whether a path below the root (forward slashes) is a
// place this layout can write: an artifact's file, or something under an
// artifact's folder, for any product of the scope (a config that narrowed
// its product still owns what it wrote for the other) and the overrides.
// A path the state records elsewhere is not agyconf's to remove or
// rewrite: the state was edited, or a cloned workspace's is hostile (a
// state could otherwise name .git/HEAD). agyconf's own folders and .git
// are never places.
func (l Layout) Writes(p string) bool {
	if OverlapsStateDir(p) || hasSegment(p, ".git") {
		return false
	}
	check := func(a Artifact, q string) bool {
		if dirArtifacts[a] {
			return strings.HasPrefix(p, q+"/")
		}
		return p == q
	}
	for a, c := range table[l.scope] {
		for _, ps := range c {
			for _, q := range ps {
				if check(a, q) {
					return true
				}
			}
		}
		if q, ok := l.overrides[string(a)]; ok && check(a, q) {
			return true
		}
	}
	return false
}

// hasSegment reports whether a slash path has seg as one of its segments.
func hasSegment(p, seg string) bool {
	for _, s := range strings.Split(p, "/") {
		if s == seg {
			return true
		}
	}
	return false
}
