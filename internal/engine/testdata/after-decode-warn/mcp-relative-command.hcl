# WANT: mcp/relative-command
agyconf {
  scope = "global"
}
mcp_server "local" {
  command = "./bin/my-server"
}
