package doctor

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/agyhook"
	"github.com/agyconf/agyconf/internal/render"
)

// Kind is a kind of thing doctor asks agy about.
type Kind string

// The kinds, in the order doctor reports them.
const (
	KindHook       Kind = "hook"
	KindServer     Kind = "mcp-server"
	KindSkill      Kind = "skill"
	KindPermission Kind = "permission"
	KindSubagent   Kind = "subagent"
)

func kindOrder(k Kind) int {
	return slices.Index([]Kind{KindHook, KindServer, KindSkill, KindPermission, KindSubagent}, k)
}

// Expected is one thing the config's plan writes that agy should load:
// read from the documents the render would write, never from the files.
type Expected struct {
	Kind Kind
	// Name is the hook's, server's, skill's or subagent's name, or a
	// permission's rule as written.
	Name string
	// File is the document it is written to, relative to the root.
	File string
	// Plugin is the plugin whose tree holds File, or "".
	Plugin string
	// Enabled: a hook's "enabled"; a server that is not "disabled".
	Enabled bool
	// Events are a hook's events, in agy's table order; Prompt says a
	// handler of it is a prompt handler.
	Events []string
	Prompt bool
	// List (allow, ask, deny) and Scope (the /permissions scope of the
	// file: global for the CLI's settings.json, shared for the config.json
	// shared with Antigravity 2.0) place a permission.
	List, Scope string
	// CLIReads says agy, the CLI, reads File's place: not the IDE's own
	// places, nor a place a layout override moved the document to.
	CLIReads bool
	// PluginOff says the config itself disables Plugin (config.json).
	PluginOff bool
	// Bridged says a server is a remote one agy starts as a local server,
	// agyhook-bridge, which reads its header secrets and speaks to the URL.
	Bridged bool
	// Also are the other files a plugin hook is written to: a plugin's
	// hooks stand in each file builds read them from (agy.PluginHooks),
	// and agy may list the hook from any of them.
	Also []string
}

// Plan is what doctor expects of a plan: the items it asks agy about,
// the names a prompt "/NAME" may run as a skill or workflow, and the other
// kinds of document, which no report covers.
type Plan struct {
	Items []Expected
	// SlashNames are the names of the skills and workflows the plan
	// writes (agy.PrintSkillExpansion).
	SlashNames map[string]bool
	// Unchecked counts the plan's other documents by what they are.
	Unchecked map[string]int
}

// Expect reads a plan rendered in scope.
func Expect(plan *render.Plan, scope agy.Scope) Plan {
	e := expecter{scope: scope, places: map[agy.KindID][]string{}, names: map[string]string{}}
	for _, k := range agy.Kinds() {
		e.places[k.ID] = k.PathsFor(scope, agy.ProductCLI)
	}
	for _, d := range plan.Documents {
		// agy names a plugin by its plugin.json, whatever its folder (a
		// plugin's folder argument): the name its servers and skills are
		// listed under, and config.json's key.
		if d.Schema == render.SchemaOf(agy.Plugins) && path.Base(d.Path) == "plugin.json" {
			if name, ok := asMap(d.JSON)["name"].(string); ok && name != "" {
				e.names[path.Dir(d.Path)] = name
			}
		}
	}
	out := Plan{SlashNames: map[string]bool{}, Unchecked: map[string]int{}}
	off := map[string]bool{}
	for _, d := range plan.Documents {
		if d.Schema == render.SchemaOf(agy.UserConfig) {
			for p, v := range asMap(asMap(d.JSON)["plugins"]) {
				if en, ok := asMap(v)["enabled"].(bool); ok && !en {
					off[p] = true
				}
			}
		}
	}
	for _, d := range plan.Documents {
		out.Items = append(out.Items, e.document(d, &out)...)
	}
	for i := range out.Items {
		it := &out.Items[i]
		it.PluginOff = it.Plugin != "" && off[it.Plugin]
	}
	sort.SliceStable(out.Items, func(i, j int) bool {
		a, b := out.Items[i], out.Items[j]
		if a.Kind != b.Kind {
			return kindOrder(a.Kind) < kindOrder(b.Kind)
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.File != b.File {
			return a.File < b.File
		}
		return a.List < b.List
	})
	out.Items = e.mergePluginHooks(out.Items)
	return out
}

// mergePluginHooks makes the copies of a plugin hook in the plugin's
// hooks files one expected hook, found in any of them: its File the
// first (the root hooks.json), the others Also.
func (e expecter) mergePluginHooks(items []Expected) []Expected {
	out := items[:0]
	first := map[string]int{}
	for _, it := range items {
		if it.Kind == KindHook && it.Plugin != "" {
			if dir, ok := e.pluginHooksDir(it.File); ok {
				key := dir + "\x00" + it.Name
				if i, seen := first[key]; seen {
					out[i].Also = append(out[i].Also, it.File)
					continue
				}
				first[key] = len(out)
			}
		}
		out = append(out, it)
	}
	return out
}

// pluginHooksDir is the plugin folder p is a hooks file of.
func (e expecter) pluginHooksDir(p string) (string, bool) {
	for _, dir := range e.places[agy.Plugins] {
		rest, ok := strings.CutPrefix(p, dir+"/")
		if !ok {
			continue
		}
		name, file, _ := strings.Cut(rest, "/")
		if slices.Contains(agy.PluginHooksPaths(), file) {
			return dir + "/" + name, true
		}
	}
	return "", false
}

type expecter struct {
	scope  agy.Scope
	places map[agy.KindID][]string
	// names are the plugins' names by their folders' paths.
	names map[string]string
}

// plugin is the plugin whose tree holds p, in a plugins folder the CLI
// reads.
func (e expecter) plugin(p string) (string, bool) {
	for _, dir := range e.places[agy.Plugins] {
		if rest, ok := strings.CutPrefix(p, dir+"/"); ok {
			folder, _, _ := strings.Cut(rest, "/")
			if name := e.names[dir+"/"+folder]; name != "" {
				return name, true
			}
			return folder, true
		}
	}
	return "", false
}

// reads says whether the CLI reads p as a document of kind k.
func (e expecter) reads(p string, k agy.KindID) bool {
	if _, ok := e.plugin(p); ok {
		return true
	}
	kd, _ := agy.KindOf(k)
	for _, q := range e.places[k] {
		if p == q || (kd.Folder && strings.HasPrefix(p, q+"/")) {
			return true
		}
	}
	return false
}

func (e expecter) document(d *render.Document, out *Plan) []Expected {
	plugin, _ := e.plugin(d.Path)
	base := Expected{File: d.Path, Plugin: plugin}
	var items []Expected
	switch d.Schema {
	case render.SchemaOf(agy.Hooks):
		base.Kind, base.CLIReads = KindHook, e.reads(d.Path, agy.Hooks)
		doc := asMap(d.JSON)
		for _, name := range sortedKeys(doc) {
			it := base
			it.Name = name
			entry := asMap(doc[name])
			it.Enabled, _ = entry["enabled"].(bool)
			for _, ev := range agy.Events() {
				handlers, ok := entry[string(ev.Name)]
				if !ok {
					continue
				}
				it.Events = append(it.Events, string(ev.Name))
				it.Prompt = it.Prompt || hasPrompt(handlers, ev.Grouped)
			}
			items = append(items, it)
		}
	case render.SchemaOf(agy.MCPConfig):
		base.Kind, base.CLIReads = KindServer, e.reads(d.Path, agy.MCPConfig)
		servers := asMap(asMap(d.JSON)["mcpServers"])
		for _, name := range sortedKeys(servers) {
			it := base
			it.Name = name
			disabled, _ := asMap(servers[name])["disabled"].(bool)
			it.Enabled = !disabled
			command, _ := asMap(servers[name])["command"].(string)
			it.Bridged = path.Base(command) == agyhook.BridgeProgram
			items = append(items, it)
		}
	case render.SchemaOf(agy.Skills):
		if path.Base(d.Path) != "SKILL.md" {
			break
		}
		name := path.Base(path.Dir(d.Path))
		out.SlashNames[name] = true
		base.Kind, base.Name, base.CLIReads = KindSkill, name, e.reads(d.Path, agy.Skills)
		items = append(items, base)
	case render.SchemaOf(agy.Workflows):
		out.SlashNames[strings.TrimSuffix(path.Base(d.Path), ".md")] = true
		out.Unchecked[summary(agy.Workflows)]++
	case render.SchemaOf(agy.Agents):
		name := strings.TrimSuffix(path.Base(d.Path), ".md")
		if name == "agent" {
			name = path.Base(path.Dir(d.Path))
		}
		base.Kind, base.Name, base.CLIReads = KindSubagent, name, e.reads(d.Path, agy.Agents)
		items = append(items, base)
	case render.SchemaOf(agy.Settings):
		base.Kind, base.Scope, base.CLIReads = KindPermission, "global", e.reads(d.Path, agy.Settings)
		doc := asMap(d.JSON)
		items = append(items, permissions(base, asMap(doc["permissions"]))...)
		if len(doc) > 1 || (len(doc) == 1 && doc["permissions"] == nil) {
			out.Unchecked["settings keys in "+d.Path]++
		}
	case render.SchemaOf(agy.UserConfig):
		base.Kind, base.Scope, base.CLIReads = KindPermission, "shared", e.reads(d.Path, agy.UserConfig)
		doc := asMap(d.JSON)
		items = append(items, permissions(base, asMap(asMap(doc["userSettings"])["globalPermissionGrants"]))...)
		if doc["plugins"] != nil {
			out.Unchecked["plugin enablement in "+d.Path]++
		}
	case "":
		// A file copied into a skill's folder, or a managed block.
		if d.Kind == render.ManagedBlock {
			out.Unchecked["the managed block of "+d.Path]++
		}
	default:
		out.Unchecked[summaryOfSchema(d.Schema)]++
	}
	return items
}

// permissions lists the rules of a document's allow, ask and deny lists.
func permissions(base Expected, lists map[string]any) []Expected {
	var items []Expected
	for _, l := range []string{"allow", "ask", "deny"} {
		rules, _ := lists[l].([]any)
		for _, r := range rules {
			s, ok := r.(string)
			if !ok {
				continue
			}
			it := base
			it.List, it.Name = l, s
			items = append(items, it)
		}
	}
	return items
}

// hasPrompt says whether handlers (of a flat event, or matcher groups of
// a grouped one) hold a prompt handler.
func hasPrompt(v any, grouped bool) bool {
	list, _ := v.([]any)
	for _, x := range list {
		if grouped {
			if hasPrompt(asMap(x)["hooks"], false) {
				return true
			}
			continue
		}
		if t, _ := asMap(x)["type"].(string); t == "prompt" {
			return true
		}
	}
	return false
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func summary(k agy.KindID) string {
	kd, _ := agy.KindOf(k)
	return kd.Summary
}

func summaryOfSchema(schema string) string {
	for _, k := range agy.Kinds() {
		if k.Schema == schema {
			return k.Summary
		}
	}
	return fmt.Sprintf("documents of the schema %q", schema)
}
