# WANT: mcp/relative-command
agyconf {
  scope = "global"
}
plugin "p" {
  description = "d"
  mcp_server "s" {
    command = "./srv"
  }
}
