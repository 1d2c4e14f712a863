# WANT: Two documents on one path
agyconf {
  scope = "global"
  layout {
    mcp_config = ".gemini/config/plugins/p/mcp_config.json"
  }
}
mcp_server "a" {
  command = "/usr/bin/a"
}
plugin "p" {
  description = "d"
  mcp_server "b" {
    command = "/usr/bin/b"
  }
}
