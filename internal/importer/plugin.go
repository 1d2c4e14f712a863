package importer

import (
	"io/fs"
	"reflect"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/codec"
	"github.com/agyconf/agyconf/internal/model"
)

// plugins imports every plugin folder under dir. Two folders whose
// plugin.json give the same name are one plugin to the config, which
// declares it once: the first folder's, the other reported.
func (im *importer) plugins(dir string) {
	from := map[string]string{}
	for _, e := range im.listDir(dir) {
		rel := join(dir, e.Name())
		if e.Type()&fs.ModeSymlink != 0 {
			if fi, err := im.tree.stat(rel); err == nil && fi.IsDir() {
				im.skip(rel, "", "a link to a folder; agyconf imports a plugin only as a folder of its own, which render writes: replace the link by the folder")
				continue
			}
		}
		if !e.IsDir() {
			im.skip(rel, "", "not a plugin folder")
			continue
		}
		p := im.plugin(rel, e.Name())
		if p == nil {
			continue
		}
		if first, dup := from[p.Name]; dup {
			im.skip(rel, "", "plugin.json names it %q, as %s does, which is imported: a config declares a plugin once, and which of the two agy loads is unknown; remove or rename one of them", p.Name, first)
			continue
		}
		from[p.Name] = rel
		if p.Folder != "" {
			im.conv(rel, "", "plugin.json names it %q, not its folder: imported as plugin %q with folder = %q, so render writes it back to %s", p.Name, p.Name, p.Folder, rel)
		}
		im.cfg.Plugins = append(im.cfg.Plugins, p)
	}
}

// pluginParts are what a plugin folder holds that the model describes.
var pluginParts = map[string]bool{"plugin.json": true, "mcp_config.json": true, "hooks.json": true, "skills": true, "rules": true, "agents": true}

func (im *importer) plugin(rel, dirName string) *model.Plugin {
	manifest := join(rel, "plugin.json")
	if !im.exists(manifest) {
		im.skip(rel, "", "has no plugin.json, so agy does not load it as a plugin")
		return nil
	}
	doc, ok := im.readJSONOther(manifest, "plugin")
	if !ok {
		return nil
	}
	m, ok := doc.(map[string]any)
	if !ok {
		im.skip(manifest, "", "the top level is not an object: agy does not treat the folder as a plugin")
		return nil
	}
	name := dirName
	if n, has := m["name"]; has {
		s, isStr := n.(string)
		if !isStr {
			im.skip(manifest, "", "name is not a string: agy does not treat the folder as a plugin")
			return nil
		}
		name = s
	} else {
		im.conv(manifest, "name", "missing (agy plugin validate refuses that); written as %q", dirName)
	}
	if p := pluginNameProblem(name); p != "" {
		im.skip(rel, "", "the plugin name %q cannot be declared: %s", name, p)
		return nil
	}
	pl := &model.Plugin{Name: name}
	if name != dirName {
		// agy names a plugin by plugin.json and falls back to the folder
		// only when the name is missing (skillsaw, agy 1.1.25; the
		// Antigravity plugins docs): the folder, which holds what its
		// hooks and servers run (dist/, scripts), stays where it is.
		// A folder the config's folder argument refuses (a space, a
		// name Windows reserves) is not declared: the config would not
		// validate.
		if p := entryNameProblem(dirName); p != "" {
			im.skip(rel, "", "plugin.json names it %q, not its folder, and the folder %q cannot be declared: %s", name, dirName, p)
			return nil
		}
		pl.Folder = dirName
	}
	if d, has := m["disabled"]; has {
		b, isBool := d.(bool)
		if !isBool {
			im.skip(manifest, "", "disabled is not a boolean: agy does not treat the folder as a plugin")
			return nil
		}
		im.manifestDisabled(manifest, pl, b)
	}
	for _, p := range codec.Plugin().Decode(m, pl) {
		switch {
		case p.Key == "disabled":
		case p.Key == "permissions":
			im.skip(manifest, p.Key, "plugins cannot declare permissions (the field some guides describe does not exist); agy ignores it")
		case p.Drops:
			im.skip(manifest, "", "%s %s: agy does not treat the folder as a plugin", p.Key, p.Reason)
			return nil
		default:
			im.conv(manifest, p.Key, "%s; left out", p.Reason)
		}
	}
	pl.Name = name
	if pl.Description == "" && m["description"] != nil {
		im.conv(manifest, "description", "empty; left out")
	}
	if l, has := m["logo"]; has {
		if _, isStr := l.(string); !isStr {
			im.skip(manifest, "", "logo is not a string: agy does not treat the folder as a plugin")
			return nil
		}
	}
	extra := sortedKeys(pl.Extra)
	// plugin.json's metadata (author) is judged by value alone.
	pl.Extra = im.keepExtra(manifest, pl.Extra, m, false)
	if len(extra) > 0 {
		im.conv(manifest, "", "%s kept in extra, with allow_extra = true: the plugin.json schema of the agy CLI docs has only name and description, and agy discards what it does not read", strings.Join(extra, ", "))
	}
	im.claimed[name] = true
	if live, has := im.enablement[name]; has {
		// The entry as config.json holds it, true included: the config
		// then owns it, as it owns every entry it declares.
		pl.Enabled = &live
	}
	if doc, ok := im.readJSONOther(join(rel, "mcp_config.json"), "mcp_config"); ok {
		pl.MCPServers = im.mcpServers(join(rel, "mcp_config.json"), doc, name)
	}
	pl.Hooks = im.pluginHooks(rel)
	out := join("plugins", name)
	pl.Skills = im.skills(join(rel, "skills"), join(out, "skills"))
	pl.Rules = im.rules(join(rel, "rules"), join(out, "rules"))
	pl.Agents = im.agents(join(rel, "agents"), join(out, "agents"))
	// Everything else in the folder is not part of the model: it stays
	// where it is (hook scripts, READMEs), and render leaves it alone.
	var other []string
	var walk func(sub string)
	walk = func(sub string) {
		// Listed, never read: an entry that cannot be listed is left out.
		es, err := im.tree.readDir(join(rel, sub))
		if err != nil {
			return
		}
		for _, e := range es {
			r := join(sub, e.Name())
			if strings.HasPrefix(e.Name(), ".") || (sub == "" && pluginParts[e.Name()]) {
				continue
			}
			if e.IsDir() {
				walk(r)
			} else if r != "hooks/hooks.json" {
				other = append(other, r)
			}
		}
	}
	walk("")
	for _, o := range other {
		im.skip(join(rel, o), "", "not a plugin component agyconf models; it stays in place and render leaves it alone")
	}
	return pl
}

// manifestDisabled imports a plugin.json "disabled": since agy 1.1.11 it
// only seeds the plugin's entry in config.json when agy first discovers
// the plugin; afterwards the entry alone counts.
func (im *importer) manifestDisabled(manifest string, pl *model.Plugin, disabled bool) {
	live, has := im.enablement[pl.Name]
	switch {
	case im.userConfigPath == "" && im.opts.Scope == model.ScopeWorkspace:
		im.skip(manifest, "disabled", "enablement lives in the user's ~/.gemini/config/config.json (agy 1.1.11), outside the project; switch the plugin with agy plugin enable|disable")
	case has:
		im.conv(manifest, "disabled", "only seeds enablement when agy first discovers the plugin (agy 1.1.11); %s says enabled: %v, which is what counts, and what the config keeps", im.userConfigPath, live)
	case disabled:
		f := false
		pl.Enabled = &f
		im.conv(manifest, "disabled", "written as enabled = false, which agyconf keeps in ~/.gemini/config/config.json, where agy reads enablement since 1.1.11")
		if p, ok := im.l.Path(agy.UserConfig); ok {
			im.conv(p, "plugins."+pl.Name, "added from %s's \"disabled\": true, which seeds enablement only when agy first discovers the plugin (agy 1.1.11): the entry keeps it disabled", manifest)
		}
	default:
		im.conv(manifest, "disabled", "false is the default and is left out")
	}
}

// pluginHooks imports a plugin's hooks from the files agy builds read
// them from (agy.PluginHooks: the root hooks.json, hooks/hooks.json),
// which agyconf writes alike. The same hooks in both are imported once;
// hooks in one file are imported and written to the other as well
// (converted); two that differ import the root's, the other reported.
func (im *importer) pluginHooks(rel string) []*model.Hook {
	files := agy.PluginHooksPaths()
	type live struct {
		path string
		doc  any
		ok   bool
	}
	var found []live
	for _, f := range files {
		p := join(rel, f)
		if !im.exists(p) {
			continue
		}
		doc, ok := im.readJSONOther(p, "hooks")
		found = append(found, live{p, doc, ok})
	}
	var from *live
	for i := range found {
		if found[i].ok {
			from = &found[i]
			break
		}
	}
	if from == nil {
		return nil // none, or each reported as not parsing
	}
	hooks := im.hooks(from.path, from.doc)
	why := "agy builds disagree on which of a plugin's " + strings.Join(files, " and ") + " they read its hooks from, and agyconf writes the same hooks to each (docs/agy-facts.md, \"Where agy reads a plugin's hooks\")"
	for _, f := range found {
		switch {
		case f.path == from.path:
		case f.ok && reflect.DeepEqual(f.doc, from.doc):
		default:
			im.skip(f.path, "", "differs from %s, whose hooks are imported: %s, so render replaces this file — a conflict until it is moved, or render runs with --adopt, which backs it up", from.path, why)
		}
	}
	if len(found) == 1 && len(hooks) > 0 {
		var others []string
		for _, f := range files {
			if join(rel, f) != from.path {
				others = append(others, join(rel, f))
			}
		}
		im.conv(from.path, "", "written to %s as well: %s", strings.Join(others, " and "), why)
	}
	return hooks
}
