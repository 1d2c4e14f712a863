// Package layout resolves where each kind of Antigravity document lives on
// disk for one config: the table of default paths (internal/agy), every
// cell overridable from the config's `agyconf { layout { … } }` block.
package layout

import (
	"fmt"
	"path"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/model"
)

// The table of paths itself is internal/agy's (agy.Kinds): one row per
// kind of document, with its default paths per scope and product.

// Layout is the table resolved for one config.
type Layout struct {
	scope     model.Scope
	product   model.Product
	overrides map[string]string
	// former are overrides of earlier renders (WithFormer): places to let
	// go of, never to write.
	former map[string][]string
}

// New resolves the layout for a config's agyconf block.
func New(a model.Agyconf) Layout {
	return Layout{scope: a.Scope, product: a.Product, overrides: a.Layout}
}

// Paths returns where an artifact goes, relative to the render root: none
// when the scope and product have no such artifact, two for workflows of
// product "both" (each product has its own folder). An override replaces
// the default with one path.
func (l Layout) Paths(a agy.KindID) []string {
	if p, ok := l.overrides[string(a)]; ok {
		return []string{p}
	}
	k, _ := agy.KindOf(a)
	return k.PathsFor(l.scope, l.product)
}

// Path returns the single path of an artifact that has one, and false when
// it has none.
func (l Layout) Path(a agy.KindID) (string, bool) {
	ps := l.Paths(a)
	if len(ps) == 0 {
		return "", false
	}
	return ps[0], true
}

// Elsewhere describes the scopes and products where an artifact does have
// a place, for the error that says it has none here.
func (l Layout) Elsewhere(a agy.KindID) string {
	var places []string
	k, _ := agy.KindOf(a)
	for _, s := range agy.Scopes() {
		for _, p := range agy.Products() {
			if ps := k.PathsFor(s, p); len(ps) > 0 {
				places = append(places, fmt.Sprintf("scope %q with product %q (%s)", s, p, strings.Join(ps, ", ")))
			}
		}
	}
	if len(places) == 0 {
		return fmt.Sprintf("set a path for it in agyconf { layout { %s = \"…\" } }", a)
	}
	return fmt.Sprintf("it has a place in %s, or set one in agyconf { layout { %s = \"…\" } }", strings.Join(places, "; "), a)
}

// Overrides returns the config's overrides, by kind (a copy).
func (l Layout) Overrides() map[string]string {
	out := make(map[string]string, len(l.overrides))
	for k, p := range l.overrides {
		out[k] = p
	}
	return out
}

// WithFormer returns the layout with the overrides of earlier renders
// added as places: what they put files at is a place this config wrote
// (Writes) and their folders are the layout's (Folders), so that a file an
// override put somewhere is let go of properly after the override is
// dropped. Nothing is ever rendered there. An entry for a kind that does
// not exist, or a path no override could name (in .git or agyconf's own
// folder, absolute, or leaving the root: a state a cloned workspace
// brings is not trusted with more than its config), is ignored.
func (l Layout) WithFormer(former map[string][]string) Layout {
	l.former = map[string][]string{}
	for kind, paths := range former {
		if _, ok := agy.KindOf(agy.KindID(kind)); !ok {
			continue
		}
		for _, p := range paths {
			if p == "" || p == "." || path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") || OverrideProblem(p) != "" {
				continue
			}
			l.former[kind] = append(l.former[kind], p)
		}
	}
	return l
}

// Scope and Product return what the layout was resolved for.
func (l Layout) Scope() model.Scope     { return l.scope }
func (l Layout) Product() model.Product { return l.product }

// Folders returns every folder the layout names and each of their parents,
// relative to the root: the folders a prune must leave in place even when
// it empties them.
func (l Layout) Folders() map[string]bool {
	out := map[string]bool{}
	for _, k := range agy.Kinds() {
		for _, p := range append(l.Paths(k.ID), l.former[string(k.ID)]...) {
			if !k.Folder {
				p = path.Dir(p)
			}
			for ; p != "." && p != "/" && p != ""; p = path.Dir(p) {
				out[p] = true
			}
		}
	}
	return out
}

// FormerAgent maps a file where agyconf put a subagent before state
// version 4 — agy.Agents' FormerItem, <agents>/<name>.md, in the layout's
// agents folder or in a plugin's agents/ — to where the subagent lives
// now (its Item, <name>/agent.md); false for any other path.
func (l Layout) FormerAgent(p string) (string, bool) {
	k, _ := agy.KindOf(agy.Agents)
	before, after, _ := strings.Cut(k.FormerItem, "NAME")
	name := func(dir string) (string, bool) {
		rest, ok := strings.CutPrefix(p, dir+"/")
		if !ok {
			return "", false
		}
		n, ok := strings.CutPrefix(rest, before)
		if !ok {
			return "", false
		}
		n, ok = strings.CutSuffix(n, after)
		return n, ok && n != "" && !strings.Contains(n, "/")
	}
	for _, dir := range l.Paths(agy.Agents) {
		if n, ok := name(dir); ok {
			return k.ItemPath(dir, n), true
		}
	}
	// A plugin's subagents are in its agents/ folder (internal/render).
	for _, plugins := range l.Paths(agy.Plugins) {
		rest, ok := strings.CutPrefix(p, plugins+"/")
		plugin, inner, _ := strings.Cut(rest, "/")
		if !ok || plugin == "" || !strings.HasPrefix(inner, "agents/") {
			continue
		}
		dir := plugins + "/" + plugin + "/agents"
		if n, ok := name(dir); ok {
			return k.ItemPath(dir, n), true
		}
	}
	return "", false
}

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
	for _, s := range agy.Scopes() {
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
	check := func(k agy.Kind, q string) bool {
		if k.Folder {
			return strings.HasPrefix(p, q+"/")
		}
		return p == q
	}
	for _, k := range agy.Kinds() {
		for _, ps := range k.Places[l.scope] {
			for _, q := range ps {
				if check(k, q) {
					return true
				}
			}
		}
		if q, ok := l.overrides[string(k.ID)]; ok && check(k, q) {
			return true
		}
		for _, q := range l.former[string(k.ID)] {
			if check(k, q) {
				return true
			}
		}
	}
	// What agyconf wrote where it no longer writes is still let go of
	// properly: pruned, or given back as it was found.
	for _, r := range agy.RetiredKinds() {
		for _, ps := range r.Places[l.scope] {
			for _, q := range ps {
				if p == q {
					return true
				}
			}
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
