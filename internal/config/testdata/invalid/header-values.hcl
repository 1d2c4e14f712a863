# No HTTP client sends a header whose value holds a line break or another
# control character, and two names that differ in case are one header:
# agy (inline) or agyhook-bridge (exec) could not reach the server.
mcp_server "a" {
  server_url = "https://example.com/mcp"
  headers    = { X-Note = "two\nlines" } # ERROR @16: Invalid header value
}

mcp_server "b" {
  server_url = "https://example.com/mcp"
  headers    = { X-Api-Key = "a", x-api-key = "b" } # ERROR @16: Duplicate header
}

mcp_server "c" {
  server_url = "https://example.com/mcp"
  headers    = { X-Tab = "a\tb", X-Ok = "plain" }
}
