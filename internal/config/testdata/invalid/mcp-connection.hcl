# A server needs exactly one way to connect, and a usable address.
mcp_server "none" { # ERROR @1: Missing connection
  disabled_tools = ["x"]
}

mcp_server "relative" {
  server_url = "/mcp" # ERROR @16: Invalid URL
}

mcp_server "ftp" {
  server_url = "ftp://example.com/mcp" # ERROR @16: Invalid URL
}

mcp_server "aliases" {
  url       = "https://example.com/a" # ERROR @3: Unsupported argument
  serverUrl = "https://example.com/b" # ERROR @3: Unsupported argument
  httpUrl   = "https://example.com/c" # ERROR @3: Unsupported argument
  http_url  = "https://example.com/d" # ERROR @3: Unsupported argument
  command   = "x"
}
