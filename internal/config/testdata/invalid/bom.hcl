# ERROR @1: Byte order mark
mcp_server "a" {
  command = "x"
}
