# agy has no "enabled" on a server; the way to turn one off is disabled.
mcp_server "a" {
  command = "x"
  enabled = false # ERROR @3: Unsupported argument
}
