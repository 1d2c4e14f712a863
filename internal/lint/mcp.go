package lint

import (
	"encoding/json"
	"fmt"

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

// mcpIgnored reports what a server holds that agy loads and ignores, each
// a warning naming what agy does (agy's severity policy): enabled, which
// agy does not read; httpUrl, Gemini CLI's field; type beside command or
// serverUrl, measured only in the url shape; a field of the other shape
// (args on a remote server, headers on a local one); two connection
// fields, of which agy uses one.
func (c *checker) mcpIgnored(root any, loc *locator, add func(string, int, int, string, string)) {
	top, _ := root.(map[string]any)
	servers, _ := top["mcpServers"].(map[string]any)
	for _, name := range sortedMembers(servers) {
		s, ok := servers[name].(map[string]any)
		if !ok {
			continue
		}
		base := "/mcpServers/" + escape(name)
		at := func(rule, key, msg string) {
			ptr := base + "/" + escape(key)
			l, col := loc.key(ptr)
			add(rule, l, col, ptr, name+": "+msg)
		}
		_, local := s["command"]
		_, server := s["serverUrl"]
		_, url := s["url"]
		if e, has := s["enabled"]; has {
			at("mcp/enabled", "enabled", fmt.Sprintf("agy does not read enabled on an MCP server, so the server runs whatever it says (%s)", jsonText(e)))
		}
		if _, has := s["httpUrl"]; has {
			at("mcp/ignored-field", "httpUrl", "httpUrl is Gemini CLI's field, which agy ignores — write the address as serverUrl")
		}
		switch {
		case server && local:
			at("mcp/url-and-command", "command", "agy connects to serverUrl and ignores command")
		case url && local:
			at("mcp/url-and-command", "command", "a server with both url and command, of which no source says which agy uses")
		}
		if server && url {
			at("mcp/ignored-field", "url", "agy reads serverUrl first and ignores url — keep one of them")
		}
		if _, has := s["type"]; has && (local || server) {
			at("mcp/ignored-field", "type", "type beside command or serverUrl, where no source gives it a meaning (agy was measured to read it with url only), so it does nothing")
		}
		if server || url {
			for _, k := range []string{"args", "env", "cwd"} {
				if _, has := s[k]; has && !local {
					at("mcp/ignored-field", k, k+" on a remote server, which agy reaches at its URL and starts nothing, so it is ignored")
				}
			}
		}
		if local && !server && !url {
			for _, k := range []string{"headers", "authProviderType", "oauth"} {
				if _, has := s[k]; has {
					at("mcp/ignored-field", k, k+" on a server started by command, which agy sends nothing, so it has no use for it")
				}
			}
		}
	}
}

// jsonText is v as JSON, for a message.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
