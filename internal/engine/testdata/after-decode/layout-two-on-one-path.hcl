# WANT: Two documents on one path
agyconf {
  scope = "global"
  layout {
    hooks      = "x/config.json"
    mcp_config = "x/config.json"
  }
}
mcp_server "a" {
  command = "/usr/bin/a"
}
hook "h" {
  stop {
    command = "/bin/true"
  }
}
