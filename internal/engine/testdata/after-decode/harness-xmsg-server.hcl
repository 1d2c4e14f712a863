# WANT: Declared twice
agyconf {
  scope = "global"
}
harness "xmsg" {}
mcp_server "xmsg" {
  command = "/usr/bin/xmsg"
}
