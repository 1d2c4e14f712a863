package lint

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/jsonmerge"
)

// serverIndex holds the MCP servers validate was shown, for the permission
// entries that name one: agy 1.2.2 and newer call a plugin's server
// <plugin>_<server> (agy.MCPPluginServerNames).
type serverIndex struct {
	// plugins lists, by a plugin server's own name, the plugins declaring it.
	plugins map[string][]string
	// namespaced maps <plugin>_<server> to the plugin and the server.
	namespaced map[string][2]string
	// user are the servers of mcp_config.json files outside plugins: an
	// entry naming one of them is about that server, whatever plugins hold.
	user map[string]bool
}

// indexServers reads the servers of every mcp_config.json among files. A
// file that does not read is left out here; its own check reports it.
func indexServers(files []found, plugins *pluginDirs) *serverIndex {
	ix := &serverIndex{plugins: map[string][]string{}, namespaced: map[string][2]string{}, user: map[string]bool{}}
	for _, f := range files {
		if f.kind != kindMCP {
			continue
		}
		names := serverNames(f.path)
		dir := filepath.Dir(f.path)
		if !plugins.is(dir) {
			for _, n := range names {
				ix.user[n] = true
			}
			continue
		}
		plugin := pluginName(dir)
		for _, n := range names {
			if !slices.Contains(ix.plugins[n], plugin) {
				ix.plugins[n] = append(ix.plugins[n], plugin)
			}
			ix.namespaced[agy.PluginServerName(plugin, n)] = [2]string{plugin, n}
		}
	}
	for _, ps := range ix.plugins {
		slices.Sort(ps)
	}
	return ix
}

func readTree(path, schemaName string) *jsonmerge.Tree {
	data, _, err := readLimited(path, false)
	if err != nil {
		return nil
	}
	t, err := jsonmerge.Read(data, jsonmerge.AgySyntax(schemaName))
	if err != nil {
		return nil
	}
	return t
}

func serverNames(path string) []string {
	t := readTree(path, "mcp_config")
	if t == nil {
		return nil
	}
	var out []string
	for _, m := range t.Members([]string{"mcpServers"}) {
		out = append(out, m.Name)
	}
	return out
}

// pluginName is the name in the folder's plugin.json, else the folder's.
func pluginName(dir string) string {
	if t := readTree(filepath.Join(dir, "plugin.json"), "plugin"); t != nil {
		if m, ok := t.Value().(map[string]any); ok {
			if n, ok := m["name"].(string); ok && n != "" {
				return n
			}
		}
	}
	return filepath.Base(dir)
}

// permissionServers judges the mcp(…) entries of the permission lists at
// at (settings/plugin-server-name): one naming a plugin's server by its
// own name matches nothing on agy 1.2.2 and newer, one naming it
// <plugin>_<server> nothing before.
func (c *checker) permissionServers(root any, loc *locator, at []string, add func(string, int, int, string, string), addSince func(agy.Version, string, int, int, string, string)) {
	if c.servers == nil {
		return
	}
	servers := c.servers()
	obj, _ := root.(map[string]any)
	for _, seg := range at {
		obj, _ = obj[seg].(map[string]any)
	}
	since := agy.BehaviourOf(agy.MCPPluginServerNames).Since
	base := "/" + strings.Join(at, "/")
	for _, list := range []string{"allow", "ask", "deny"} {
		items, _ := obj[list].([]any)
		for i, it := range items {
			entry, _ := it.(string)
			target, ok := strings.CutPrefix(entry, "mcp(")
			if !ok || !strings.HasSuffix(target, ")") {
				continue
			}
			server, _, _ := strings.Cut(strings.TrimSuffix(target, ")"), "/")
			if servers.user[server] {
				continue
			}
			ptr := base + "/" + list + "/" + strconv.Itoa(i)
			if ps, ok := servers.plugins[server]; ok && (!c.version.Known() || c.version.AtLeast(since)) {
				names := make([]string, len(ps))
				for j, p := range ps {
					names[j] = agy.PluginServerName(p, server)
				}
				note := ""
				if !c.version.Known() {
					note = fmt.Sprintf(" (older builds know it as %s: --agy-version judges for one)", server)
				}
				l, col := loc.value(ptr)
				add("settings/plugin-server-name", l, col, ptr, fmt.Sprintf("%q names the MCP server %s of the plugin %s, which agy %s and newer call %s, so it matches nothing there — write %q%s",
					shortName(entry), server, strings.Join(ps, ", "), since, strings.Join(names, ", "), "mcp("+names[0]+strings.TrimPrefix(target, server), note))
			}
			if pn, ok := servers.namespaced[server]; ok {
				l, col := loc.value(ptr)
				addSince(since, "settings/plugin-server-name", l, col, ptr, fmt.Sprintf("%q names the MCP server %s of the plugin %s as %s", shortName(entry), pn[1], pn[0], server))
			}
		}
	}
}
