package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/jsonmerge"
	"github.com/agyconf/agyconf/internal/lint"
	"github.com/agyconf/agyconf/internal/render"
)

// OSFiles reads this machine's files.
type OSFiles struct{}

func (OSFiles) Read(path string, limit int64) ([]byte, error) { return confine.ReadFile(path, limit) }
func (OSFiles) Size(path string) (int64, error)               { return confine.Size(path) }
func (OSFiles) ReadTail(path string, from, limit int64) ([]byte, error) {
	return confine.ReadTail(path, from, limit)
}

// Resolve compares a path agy reports with one the plan writes: agy
// reports the path it resolved (entireio's probe resolves both sides).
func (OSFiles) Resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func (OSFiles) Lint(path string, v agy.Version) ([]lint.Finding, error) {
	return lint.Paths([]string{path}, lint.Options{AgyVersion: v})
}

// maxLive bounds the live files doctor reads to find causes.
const maxLive = lint.MaxFileSize

// verdicts judges every expected item.
func (d *diagnosis) verdicts() {
	for _, it := range d.plan.Items {
		item := Item{Kind: it.Kind, Name: it.Name, File: it.File, Plugin: it.Plugin, List: it.List}
		if why, ok := d.unchecked(it); ok {
			item.Status, item.Detail = NotChecked, why
		} else {
			switch it.Kind {
			case KindHook:
				d.hook(it, &item)
			case KindServer:
				d.server(it, &item)
			case KindSkill:
				d.skill(it, &item)
			case KindPermission:
				d.permission(it, &item)
			}
		}
		if item.Status == NotLoaded {
			d.causes(it, &item)
		}
		d.res.Items = append(d.res.Items, item)
	}
	if d.logErr != nil && d.res.Code() == ExitNotLoaded {
		d.res.Notes = append(d.res.Notes, fmt.Sprintf("agy's log could not be read (%v): what it would tell of the causes is not checked", d.logErr))
	}
}

// unchecked says why an item is not checked, if it is not.
func (d *diagnosis) unchecked(it Expected) (string, bool) {
	if it.Kind == KindSubagent {
		return "agy has no report of its subagents doctor can read: " + agy.ReportOf(agy.ReportAgents).Why, true
	}
	if !it.CLIReads {
		return fmt.Sprintf("agy (the CLI) does not read %s: a place of the IDE's, or one a layout override chose", it.File), true
	}
	if it.PluginOff {
		return fmt.Sprintf("the config disables the plugin %s (config.json)", it.Plugin), true
	}
	if it.Kind == KindServer && d.o.Scope == agy.ScopeWorkspace {
		return "agy mcp list lists only the user-level ~/.gemini/config/mcp_config.json, not a workspace's", true
	}
	if d.res.Problem != nil {
		return "agy could not be asked (the problem above says why)", true
	}
	id := map[Kind]agy.ReportID{KindHook: agy.ReportHooks, KindServer: agy.ReportMCPList, KindSkill: agy.ReportSkills, KindPermission: agy.ReportPermissions}[it.Kind]
	rr := d.asked[id]
	switch {
	case rr == nil:
		return "not asked", true
	case rr.Status == NotAsked:
		return rr.Command + " was not asked: " + rr.Why, true
	case rr.Status == Failed:
		return rr.Command + " failed: " + rr.Why, true
	}
	r := agy.ReportOf(id)
	if it.Plugin != "" && r.PluginsSince.Known() && !d.version.AtLeast(r.PluginsSince) {
		return fmt.Sprintf("agy %s lists what plugins bring only from %s", d.version, r.PluginsSince), true
	}
	return "", false
}

// abs is where the plan writes file.
func (d *diagnosis) abs(file string) string { return filepath.Join(d.o.Root, filepath.FromSlash(file)) }

// same says whether a path agy reported is p: equal once cleaned, "~/"
// taken as agy's home, or once both have their links resolved.
func (d *diagnosis) same(reported, p string) bool {
	if rest, ok := strings.CutPrefix(reported, "~/"); ok {
		reported = filepath.Join(d.home, rest)
	}
	a, b := filepath.Clean(reported), filepath.Clean(p)
	return a == b || d.o.Files.Resolve(a) == d.o.Files.Resolve(b)
}

func (d *diagnosis) hook(it Expected, item *Item) {
	rel := append([]string{it.File}, it.Also...)
	files := make([]string, len(rel))
	for i, f := range rel {
		files[i] = d.abs(f)
	}
	// A plugin hook stands in each of the plugin's hooks files: the one
	// agy lists it from is the one it read, and a hook listed from two is
	// one agy runs twice (agy.PluginHooks).
	var listed []int
	var elsewhere []string
	for _, h := range d.hooks {
		if h.Name != it.Name {
			continue
		}
		at := slices.IndexFunc(files, func(f string) bool { return d.same(h.Source, f) })
		if at < 0 {
			elsewhere = append(elsewhere, h.Source)
			continue
		}
		if !slices.Contains(listed, at) {
			listed = append(listed, at)
		}
	}
	for _, h := range d.hooks {
		if h.Name != it.Name || !slices.ContainsFunc(files, func(f string) bool { return d.same(h.Source, f) }) {
			continue
		}
		switch {
		case it.Enabled && !h.Enabled:
			item.Status, item.Detail = NotLoaded, "agy lists it disabled; the config enables it"
			item.Fix = "run agyconf render (agyconf status shows what differs in the file)"
		case !it.Enabled && h.Enabled:
			item.Status, item.Detail = NotLoaded, "agy lists it enabled; the config disables it"
			item.Fix = "run agyconf render (agyconf status shows what differs in the file)"
		default:
			item.Status, item.Detail = Loaded, "enabled"
			if !it.Enabled {
				item.Detail = "disabled, as the config says"
			}
			if h.HasActions {
				if missing := missingEvents(it.Events, h.Events); len(missing) > 0 {
					item.Status = NotLoaded
					item.Detail = "agy lists it without its " + strings.Join(missing, ", ") + " handlers"
					for _, ev := range missing {
						if e, ok := agy.EventNamed(ev); ok && e.Since.Known() && !d.version.AtLeast(e.Since) {
							item.Causes = append(item.Causes, fmt.Sprintf("agy %s predates the event %s (agy %s)", d.version, ev, e.Since))
						}
					}
				}
			}
		}
		switch {
		case len(listed) > 1:
			var both []string
			for _, i := range listed {
				both = append(both, rel[i])
			}
			item.Detail += fmt.Sprintf("; agy lists it from both %s: this agy reads both of the plugin's hooks files, so each of its handlers runs twice", strings.Join(both, " and "))
			item.Fix = "declare the hook as a top-level hook block (the global hooks.json) instead of in the plugin, whose hooks agyconf writes to both files because agy builds disagree on which they read (docs/agy-facts.md, \"Where agy reads a plugin's hooks\")"
		case len(rel) > 1 && listed[0] != 0:
			item.Detail += " (from " + rel[listed[0]] + ")"
		}
		return
	}
	item.Status, item.Detail = NotLoaded, "agy does not list it"
	if len(elsewhere) > 0 {
		item.Detail = "agy lists a hook of this name only from " + strings.Join(elsewhere, ", ")
	}
}

// missingEvents are the events of want that got lacks (agy matches event
// names without regard to case).
func missingEvents(want, got []string) []string {
	have := map[string]bool{}
	for _, g := range got {
		have[strings.ToLower(g)] = true
	}
	var out []string
	for _, w := range want {
		if !have[strings.ToLower(w)] {
			out = append(out, w)
		}
	}
	return out
}

func (d *diagnosis) server(it Expected, item *Item) {
	names := []string{it.Name}
	if it.Plugin != "" {
		names = []string{agy.PluginServerName(it.Plugin, it.Name), it.Name}
	}
	for _, name := range names {
		for _, s := range d.servers {
			if s.Name != name {
				continue
			}
			enabled := s.Status == "enabled"
			switch {
			case it.Enabled && !enabled:
				item.Status, item.Detail = NotLoaded, fmt.Sprintf("agy lists it disabled (type %s); the config enables it", s.Type)
				item.Fix = fmt.Sprintf("agy mcp enable %s; agyconf keeps the disabled agy sets where the config says nothing, so write disabled = true if it should stay off", name)
			case !it.Enabled && enabled:
				item.Status, item.Detail = NotLoaded, fmt.Sprintf("agy lists it enabled (type %s); the config disables it", s.Type)
				item.Fix = "run agyconf render (agyconf status shows what differs in the file)"
			case enabled && it.Bridged && s.Type != "stdio":
				// The file agy read still has the server as a remote one
				// (an earlier render, secret_mode "inline"): not what the
				// config renders now.
				item.Status, item.Detail = NotLoaded, fmt.Sprintf("agy lists it as type %s; the config renders it through agyhook-bridge, which agy starts as a local server (stdio)", s.Type)
				item.Fix = "run agyconf render (agyconf status shows what differs in the file)"
			case enabled && it.Bridged:
				item.Status, item.Detail = Loaded, "enabled, through agyhook-bridge (agy starts it as a local server, type stdio; the bridge reads the header secrets and speaks to the URL)"
			case enabled:
				item.Status, item.Detail = Loaded, "enabled, type "+s.Type
			default:
				item.Status, item.Detail = Loaded, "disabled, as the config says"
			}
			return
		}
	}
	if it.Plugin != "" {
		item.Status, item.Detail = NotChecked, "agy mcp list does not list it, and no source shows that it lists plugins' servers"
		return
	}
	item.Status, item.Detail = NotLoaded, "agy mcp list does not list it"
	if len(d.servers) == 0 {
		item.Detail = "agy mcp list lists no server at all"
	}
}

func (d *diagnosis) skill(it Expected, item *Item) {
	file := d.abs(it.File)
	var elsewhere []string
	for _, s := range d.skills {
		if s.Name != it.Name && (it.Plugin == "" || s.Name != it.Plugin+":"+it.Name) {
			continue
		}
		if d.same(s.Path, file) || d.same(s.Path, filepath.Dir(file)) {
			item.Status, item.Detail = Loaded, ""
			return
		}
		elsewhere = append(elsewhere, s.Path)
	}
	item.Status, item.Detail = NotLoaded, "agy does not list it"
	if len(elsewhere) > 0 {
		item.Detail = "agy loads a skill of this name from " + strings.Join(elsewhere, ", ") + " instead"
	}
}

func (d *diagnosis) permission(it Expected, item *Item) {
	var scopes []string
	for _, s := range d.permissions {
		for _, r := range s.List(it.List) {
			if strings.TrimSpace(r) == strings.TrimSpace(it.Name) {
				scopes = append(scopes, s.Scope)
				break
			}
		}
	}
	switch {
	case len(scopes) == 0:
		item.Status, item.Detail = NotLoaded, fmt.Sprintf("agy lists no %s rule %q in any scope", it.List, it.Name)
	case containsString(scopes, it.Scope):
		item.Status, item.Detail = Loaded, "scope "+it.Scope
	default:
		item.Status, item.Detail = Loaded, fmt.Sprintf("agy lists it in scope %s, not %s", strings.Join(scopes, ", "), it.Scope)
	}
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// causes gathers what doctor can establish of why an item is not
// loaded: agy's log, the live file, agy's version, the workspace's
// trust, the plugin's enablement.
func (d *diagnosis) causes(it Expected, item *Item) {
	file := d.abs(it.File)
	if it.Kind == KindHook {
		for _, b := range d.blocks {
			for _, f := range b.FileFailures {
				if d.same(f.Path, file) {
					item.Causes = appendNew(item.Causes, fmt.Sprintf("agy's log: failed to parse %s: %s", f.Path, f.Message))
				}
			}
			for _, f := range b.PluginFailures {
				if it.Plugin != "" && f.Plugin == it.Plugin {
					item.Causes = appendNew(item.Causes, fmt.Sprintf("agy's log: failed to parse the hooks of plugin %s: %s", f.Plugin, f.Message))
				}
			}
		}
		if it.Prompt {
			if b := agy.BehaviourOf(agy.PromptHandlers); !d.version.AtLeast(b.Since) {
				item.Causes = append(item.Causes, fmt.Sprintf("agy %s predates prompt handlers (agy %s): such a build drops the whole hooks.json", d.version, b.Since))
			}
		}
		for _, ev := range it.Events {
			if e, ok := agy.EventNamed(ev); ok && e.Since.Known() && !d.version.AtLeast(e.Since) {
				item.Causes = appendNew(item.Causes, fmt.Sprintf("agy %s predates the event %s (agy %s): such a build may drop the whole hooks.json", d.version, ev, e.Since))
			}
		}
	}
	kind := map[Kind]agy.KindID{KindHook: agy.Hooks, KindServer: agy.MCPConfig, KindSkill: agy.Skills, KindPermission: agy.Settings}[it.Kind]
	if it.Kind == KindPermission && it.Scope == "shared" {
		kind = agy.UserConfig
	}
	if kd, ok := agy.KindOf(kind); ok && kd.Since.Known() && !d.version.AtLeast(kd.Since) {
		item.Causes = append(item.Causes, fmt.Sprintf("agy %s predates %s (agy %s)", d.version, kd.Summary, kd.Since))
	}
	if it.Kind == KindServer && it.Plugin != "" && !agy.Has(d.version, agy.MCPPluginServerNames) {
		item.Causes = append(item.Causes, fmt.Sprintf("agy %s names a plugin's server without the plugin's prefix (from %s: %s)", d.version, agy.BehaviourOf(agy.MCPPluginServerNames).Since, agy.PluginServerName(it.Plugin, it.Name)))
	}
	item.Causes = append(item.Causes, d.live(it, file)...)
	if d.o.Scope == agy.ScopeWorkspace && d.trust == untrusted {
		item.Causes = append(item.Causes, fmt.Sprintf("the workspace %s is not trusted: %s does not list it among trustedWorkspaces, and agy loads nothing of an untrusted workspace; start agy there and trust the folder", d.o.Root, d.settingsPath()))
	}
	if it.Plugin != "" {
		if off, cfg := d.pluginDisabled(it.Plugin); off {
			item.Causes = append(item.Causes, fmt.Sprintf("the plugin %s is disabled in %s: agy plugin enable %s", it.Plugin, cfg, it.Plugin))
		}
	}
	if len(item.Causes) == 0 {
		item.Causes = []string{"doctor found no cause: agy's log, validate's rules on the file, the version table, the workspace's trust and config.json say nothing against it"}
	}
}

func appendNew(xs []string, s string) []string {
	if containsString(xs, s) {
		return xs
	}
	return append(xs, s)
}

// live checks the file the item is written to as it is on disk: there,
// holding the entry, and what validate's rules say of it.
func (d *diagnosis) live(it Expected, file string) []string {
	data, err := d.o.Files.Read(file, maxLive)
	if errors.Is(err, fs.ErrNotExist) {
		return []string{fmt.Sprintf("%s is not there: run agyconf render", it.File)}
	}
	if err != nil {
		return []string{fmt.Sprintf("%s cannot be read: %v", it.File, err)}
	}
	var out []string
	if missing := d.missingEntry(it, data); missing != "" {
		out = append(out, missing)
	}
	return append(out, d.lintFile(it.File, file)...)
}

// missingEntry says when the live file lacks the item's entry.
func (d *diagnosis) missingEntry(it Expected, data []byte) string {
	var schema string
	switch it.Kind {
	case KindHook:
		schema = render.SchemaOf(agy.Hooks)
	case KindServer:
		schema = render.SchemaOf(agy.MCPConfig)
	case KindPermission:
		schema = render.SchemaOf(agy.Settings)
		if it.Scope == "shared" {
			schema = render.SchemaOf(agy.UserConfig)
		}
	default:
		return ""
	}
	tree, err := jsonmerge.Read(data, jsonmerge.AgySyntax(schema))
	if err != nil {
		return "" // validate's rules say where
	}
	v := asMap(tree.Value())
	present := true
	switch it.Kind {
	case KindHook:
		_, present = v[it.Name]
	case KindServer:
		_, present = asMap(v["mcpServers"])[it.Name]
	case KindPermission:
		lists := asMap(v["permissions"])
		if it.Scope == "shared" {
			lists = asMap(asMap(v["userSettings"])["globalPermissionGrants"])
		}
		present = false
		rules, _ := lists[it.List].([]any)
		for _, r := range rules {
			if s, _ := r.(string); s == it.Name {
				present = true
			}
		}
	}
	if present {
		return ""
	}
	return fmt.Sprintf("%s does not hold it: run agyconf render (agyconf status says why it is not there)", it.File)
}

// lintFile runs validate's rules on a live file, once, and quotes the
// errors.
func (d *diagnosis) lintFile(rel, file string) []string {
	if got, ok := d.lints[file]; ok {
		return got
	}
	var out []string
	findings, err := d.o.Files.Lint(file, d.version)
	if err != nil {
		out = []string{fmt.Sprintf("validate could not check %s: %v", rel, err)}
	}
	var errs []lint.Finding
	for _, f := range findings {
		if f.Severity == lint.Error {
			errs = append(errs, f)
		}
	}
	const quoted = 3
	for i, f := range errs {
		if i == quoted {
			out = append(out, fmt.Sprintf("validate: %d more errors in %s (agyconf validate %s)", len(errs)-quoted, rel, file))
			break
		}
		out = append(out, fmt.Sprintf("validate: %s:%d:%d %s: %s", rel, f.Line, f.Column, f.Rule, f.Message))
	}
	d.lints[file] = out
	return out
}

// trust is what the workspace's trust is known to be.
type trust int

const (
	trustUnknown trust = iota
	trusted
	untrusted
)

func (d *diagnosis) settingsPath() string {
	return filepath.Join(d.home, ".gemini", "antigravity-cli", "settings.json")
}

// readTrust reads the trustedWorkspaces agy writes into its settings
// after its trust prompt (firstmate, CLI 1.1.22): the root or a folder above it
// listed is trusted; a file without the list trusts nothing.
func (d *diagnosis) readTrust() trust {
	data, err := d.o.Files.Read(d.settingsPath(), maxLive)
	if errors.Is(err, fs.ErrNotExist) {
		return untrusted
	}
	if err != nil {
		return trustUnknown
	}
	tree, err := jsonmerge.Read(data, jsonmerge.AgySyntax(render.SchemaOf(agy.Settings)))
	if err != nil {
		return trustUnknown
	}
	list, _ := asMap(tree.Value())["trustedWorkspaces"].([]any)
	root := filepath.Clean(d.o.Root)
	for _, x := range list {
		s, ok := x.(string)
		if !ok || s == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(s, "~/"); ok {
			s = filepath.Join(d.home, rest)
		}
		for _, w := range []string{filepath.Clean(s), d.o.Files.Resolve(filepath.Clean(s))} {
			for _, r := range []string{root, d.o.Files.Resolve(root)} {
				if rel, err := filepath.Rel(w, r); err == nil && filepath.IsLocal(rel) || w == r {
					return trusted
				}
			}
		}
	}
	return untrusted
}

// pluginDisabled says whether the live config.json disables a plugin.
func (d *diagnosis) pluginDisabled(plugin string) (bool, string) {
	file := filepath.Join(d.home, filepath.FromSlash(path.Join(".gemini", "config", "config.json")))
	data, err := d.o.Files.Read(file, maxLive)
	if err != nil {
		return false, file
	}
	tree, err := jsonmerge.Read(data, jsonmerge.AgySyntax(render.SchemaOf(agy.UserConfig)))
	if err != nil {
		return false, file
	}
	en, ok := asMap(asMap(asMap(tree.Value())["plugins"])[plugin])["enabled"].(bool)
	return ok && !en, file
}
