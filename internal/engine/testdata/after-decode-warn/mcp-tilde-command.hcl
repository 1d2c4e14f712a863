# WANT: mcp/tilde-command
agyconf {
  scope = "global"
}
mcp_server "home" {
  command = "~/bin/srv"
}
