# WANT: mcp/relative-command
agyconf {
  scope = "workspace"
}
mcp_server "local" {
  command = "./node_modules/.bin/server"
}
