# WANT: Declared twice
agyconf {
  scope = "global"
}
harness "mempalace" {}
mcp_server "mempalace" {
  command = "/usr/bin/mempalace-mcp"
}
