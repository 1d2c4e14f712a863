package config

import (
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/model"
)

// mcpRef is a permission entry mcp(server…), where it stands.
type mcpRef struct {
	server, entry string
	rng           hcl.Range
}

// pluginServerRefs judges the permission entries naming a plugin's MCP
// server, which agy 1.2.2 and newer call <plugin>_<server>
// (agy.MCPPluginServerNames): the namespaced name needs an agy_version
// that has it, and the server's own name is refused when agy_version has
// it, since the entry would match nothing there. With agy_version unknown
// the own name is accepted (it is what every build before 1.2.2 reads);
// docs/limitations.md says so. An entry naming a top-level server is about that
// server.
func (d *decoder) pluginServerRefs(cfg *model.Config) {
	if len(d.mcpRefs) == 0 {
		return
	}
	top := map[string]bool{}
	for _, s := range cfg.MCPServers {
		top[s.Name] = true
	}
	own := map[string][]string{}         // server → plugins declaring it
	namespaced := map[string][2]string{} // <plugin>_<server> → plugin, server
	for _, p := range cfg.Plugins {
		for _, s := range p.MCPServers {
			own[s.Name] = append(own[s.Name], p.Name)
			namespaced[agy.PluginServerName(p.Name, s.Name)] = [2]string{p.Name, s.Name}
		}
	}
	b := agy.BehaviourOf(agy.MCPPluginServerNames)
	for _, r := range d.mcpRefs {
		if top[r.server] {
			continue
		}
		if pn, ok := namespaced[r.server]; ok {
			d.newer(r.rng, agy.MCPPluginServerNames, "the name "+r.server+" for the server "+pn[1]+" of the plugin "+pn[0]+" in "+r.entry)
			continue
		}
		if ps, ok := own[r.server]; ok && d.agyVersion.Known() && d.agyVersion.AtLeast(b.Since) {
			names := make([]string, len(ps))
			for i, p := range ps {
				names[i] = agy.PluginServerName(p, r.server)
			}
			d.errorf(r.rng, "Plugin server named without its plugin", "%q names the MCP server %s of the plugin %s, which agy %s and newer call %s, so the entry would match nothing; write %q.",
				r.entry, r.server, strings.Join(ps, ", "), b.Since, strings.Join(names, ", "), "mcp("+names[0]+strings.TrimPrefix(strings.TrimPrefix(r.entry, "mcp("), r.server))
		}
	}
}
