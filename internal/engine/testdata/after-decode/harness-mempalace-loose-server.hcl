# WANT: Declared twice
agyconf {
  scope = "global"
}
harness "mempalace" {
  mode = "loose"
}
mcp_server "mempalace" {
  command = "/usr/bin/x"
}
