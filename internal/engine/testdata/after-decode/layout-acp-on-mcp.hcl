# WANT: Two documents on one path
agyconf {
  scope = "global"
  layout {
    acp_settings = ".gemini/config/mcp_config.json"
  }
}
acp {
  auth_type = "oauth-personal"
}
mcp_server "a" {
  command = "/usr/bin/a"
}
