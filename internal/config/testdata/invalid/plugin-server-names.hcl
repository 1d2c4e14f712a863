# agy 1.2.2 names a plugin's MCP server <plugin>_<server>: the server's own
# name in a permission entry matches nothing from that version on.
agyconf {
  agy_version = "1.2.2"
}

mcp_server "github" {
  command = "github-mcp-server"
}

plugin "tools" {
  description = "Team tools"
  mcp_server "search" {
    command = "search-mcp"
  }
  mcp_server "github" {
    command = "github-mcp-server"
  }
}

permissions {
  allow = ["mcp(github/*)", "mcp(tools_search/query)", "mcp(tools_github/*)"]
  deny  = ["mcp(search/delete_index)"] # ERROR @12: Plugin server named without its plugin
}
