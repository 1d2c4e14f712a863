# The proto spelling of the auth provider silently drops the server.
mcp_server "a" {
  server_url         = "https://example.com/mcp"
  auth_provider_type = "MCP_AUTH_PROVIDER_TYPE_GOOGLE_CREDENTIALS" # ERROR @24: Invalid auth_provider_type
}

mcp_server "b" {
  server_url         = "https://example.com/mcp"
  auth_provider_type = "oauth" # ERROR @24: Invalid auth_provider_type
}
