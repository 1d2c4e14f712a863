# A server is local or remote, not both: agy would silently use server_url.
mcp_server "a" {
  command    = "x"
  server_url = "https://example.com/mcp" # ERROR @3: Conflicting arguments
}
