# WANT: Two documents on one path
agyconf {
  scope = "global"
  layout {
    mcp_config = ".gemini/antigravity-cli/settings.json"
  }
}
mcp_server "a" {
  command = "/usr/bin/a"
}
permissions {
  allow = ["command(git *)"]
}
