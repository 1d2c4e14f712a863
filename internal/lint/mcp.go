package lint

import (
	"github.com/agyconf/agyconf/internal/agy"
)

// mcpNewer reports the server fields only newer agy builds read, judged by
// since: url (1.0.5), timeoutSeconds (1.0.7), enabledTools and tools
// (1.1.16). An older build ignores each, so the server connects nowhere,
// launches with the default timeout, offers every tool, or loads its tools
// as before: nothing is dropped, but the file does not do what it says.
func (c *checker) mcpNewer(root any, loc *locator, addSince func(agy.Version, string, int, int, string, string)) {
	top, _ := root.(map[string]any)
	servers, _ := top["mcpServers"].(map[string]any)
	for _, name := range sortedMembers(servers) {
		s, ok := servers[name].(map[string]any)
		if !ok {
			continue
		}
		base := "/mcpServers/" + escape(name)
		for _, f := range []struct {
			key     string
			feature agy.Feature
			what    string
		}{
			{"url", agy.MCPURL, "url, a remote server's address (an older build reads only serverUrl, and the server connects nowhere)"},
			{"timeoutSeconds", agy.MCPTimeoutSeconds, "timeoutSeconds (an older build launches the server with its default timeout)"},
			{"enabledTools", agy.MCPEnabledTools, "enabledTools (an older build ignores it and offers every tool of the server)"},
			{"tools", agy.MCPToolLoading, "tools, per-tool settings (an older build ignores them)"},
		} {
			if _, has := s[f.key]; !has {
				continue
			}
			ptr := base + "/" + f.key
			l, col := loc.value(ptr)
			addSince(agy.BehaviourOf(f.feature).Since, "mcp/newer-agy", l, col, ptr, name+": "+f.what)
		}
	}
}

// mcpUnknown reports the members of each server agyconf does not know
// (mcp/unknown-field): a warning, since agy ignores them. Servers are
// visited in document order, as unknownFields' budget needs.
func (c *checker) mcpUnknown(root any, loc *locator, add func(string, int, int, string, string)) {
	top, _ := root.(map[string]any)
	servers, _ := top["mcpServers"].(map[string]any)
	for _, m := range loc.members([]string{"mcpServers"}) {
		if _, ok := servers[m.Name].(map[string]any); ok {
			c.unknownFields("mcp/unknown-field", "mcp_config", "/$defs/server", []string{"mcpServers", m.Name}, loc, add, "the server "+m.Name)
		}
	}
}
