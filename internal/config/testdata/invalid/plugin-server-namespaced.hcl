# The namespaced name needs an agy_version that has it (1.2.2): older
# builds know the server by its own name.
plugin "tools" {
  description = "Team tools"
  mcp_server "search" {
    command = "search-mcp"
  }
}

mcp_server "x" {
  command = "x"
}

shared_permissions {
  ask = ["mcp(search)", "mcp(x/*)", "mcp(tools_search)"] # ERROR @37: Needs a newer agy_version
}
