package importer

import (
	"slices"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/model"
)

// pluginServerNames judges the imported permission entries naming a
// plugin's MCP server, as the decoder will (agy.MCPPluginServerNames): the
// name <plugin>_<server> raises agy_version to 1.2.2, the build that reads
// it; an entry naming the server by its own name, which matches nothing on
// 1.2.2 and newer, is left out when the tree needs such a build anyway,
// since the decoder would refuse it there.
func (im *importer) pluginServerNames() {
	top := map[string]bool{}
	for _, s := range im.cfg.MCPServers {
		top[s.Name] = true
	}
	own := map[string]string{}
	namespaced := map[string]bool{}
	for _, p := range im.cfg.Plugins {
		for _, s := range p.MCPServers {
			own[s.Name] = p.Name
			namespaced[agy.PluginServerName(p.Name, s.Name)] = true
		}
	}
	since := agy.BehaviourOf(agy.MCPPluginServerNames).Since
	server := func(entry string) (string, bool) {
		target, ok := strings.CutPrefix(entry, "mcp(")
		if !ok {
			return "", false
		}
		s, _, _ := strings.Cut(strings.TrimSuffix(target, ")"), "/")
		return s, !top[s]
	}
	perms := []*model.Permissions{im.cfg.Permissions, im.cfg.SharedPermissions}
	for _, p := range perms {
		if p == nil {
			continue
		}
		for _, l := range [][]string{p.Allow, p.Ask, p.Deny} {
			for _, e := range l {
				if s, ok := server(e); ok && namespaced[s] {
					im.needs(since)
				}
			}
		}
	}
	if !im.need.AtLeast(since) {
		return
	}
	for i, p := range perms {
		if p == nil {
			continue
		}
		file, at := "the CLI's settings.json", "permissions."
		if i == 1 {
			file, at = "~/.gemini/config/config.json", "userSettings.globalPermissionGrants."
		}
		for _, l := range []struct {
			name string
			list *[]string
		}{{"allow", &p.Allow}, {"ask", &p.Ask}, {"deny", &p.Deny}} {
			*l.list = slices.DeleteFunc(*l.list, func(e string) bool {
				s, ok := server(e)
				if !ok || own[s] == "" {
					return false
				}
				want := "mcp(" + agy.PluginServerName(own[s], s) + strings.TrimPrefix(strings.TrimPrefix(e, "mcp("), s)
				im.skip(file, at+l.name, "%q names the MCP server %s of the plugin %s, which agy %s and newer (what this tree needs) call %s: the entry matches nothing there; write %q", e, s, own[s], since, agy.PluginServerName(own[s], s), want)
				return true
			})
		}
	}
}
