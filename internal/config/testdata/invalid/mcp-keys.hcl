# env and header names are checked, and a key set twice is refused (a JSON
# decoder would keep the last one silently).
mcp_server "local" {
  command = "x"
  env = {
    "1ST"     = "a" # ERROR @5: Invalid key
    "WITH-DASH" = "b" # ERROR @5: Invalid key
    OK        = "c"
    "OK"      = "d" # ERROR @5: Duplicate key
  }
}

mcp_server "remote" {
  server_url = "https://example.com/mcp"
  headers = {
    "Bad Header" = "x" # ERROR @5: Invalid key
    "X-Ok"       = "y"
  }
}
