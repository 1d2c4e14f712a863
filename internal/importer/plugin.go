package importer

import (
	"io/fs"
	"strings"

	"github.com/agyconf/agyconf/internal/model"
)

// plugins imports every plugin folder under dir.
func (im *importer) plugins(dir string) {
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
		if p := im.plugin(rel, e.Name()); p != nil {
			im.cfg.Plugins = append(im.cfg.Plugins, p)
		}
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
	doc, ok := im.readJSON(manifest, "plugin")
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
		if s != dirName {
			im.skip(rel, "", "plugin.json names it %q but its folder is %q; agyconf writes a plugin to the folder of its name: rename one of them", s, dirName)
			return nil
		}
	} else {
		im.conv(manifest, "name", "missing (agy plugin validate refuses that); written as %q", dirName)
	}
	if p := pluginNameProblem(name); p != "" {
		im.skip(rel, "", "the plugin name %q cannot be declared: %s", name, p)
		return nil
	}
	pl := &model.Plugin{Name: name}
	for _, k := range sortedKeys(m) {
		v := m[k]
		switch k {
		case "name":
		case "description", "logo":
			s, isStr := v.(string)
			if !isStr {
				im.skip(manifest, "", "%s is not a string: agy does not treat the folder as a plugin", k)
				return nil
			}
			if s == "" {
				im.conv(manifest, k, "empty; left out")
			} else if k == "description" {
				pl.Description = s
			} else {
				pl.Logo = s
			}
		case "disabled":
			b, isBool := v.(bool)
			if !isBool {
				im.skip(manifest, "", "disabled is not a boolean: agy does not treat the folder as a plugin")
				return nil
			}
			pl.Disabled = b
			if !b {
				im.conv(manifest, k, "false is the default and is left out")
			}
		case "permissions":
			im.skip(manifest, k, "plugins cannot declare permissions (the field some guides describe does not exist); agy ignores it")
		default:
			im.skip(manifest, k, "agy reads only name, description, disabled and logo from plugin.json; it is not written")
		}
	}
	if doc, ok := im.readJSON(join(rel, "mcp_config.json"), "mcp_config"); ok {
		pl.MCPServers = im.mcpServers(join(rel, "mcp_config.json"), doc, name)
	}
	if doc, ok := im.readJSON(join(rel, "hooks.json"), "hooks"); ok {
		pl.Hooks = im.hooks(join(rel, "hooks.json"), doc)
	}
	if im.exists(join(rel, "hooks", "hooks.json")) {
		im.skip(join(rel, "hooks", "hooks.json"), "", "agy ignores a plugin's hooks/hooks.json in favour of its root hooks.json")
	}
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
	if len(pl.MCPServers)+len(pl.Hooks)+len(pl.Skills)+len(pl.Rules)+len(pl.Agents) == 0 {
		im.skip(rel, "", "no component that can be imported; a plugin block needs one")
		return nil
	}
	return pl
}
