agyconf {
  scope   = "global"
  product = "cli"
}
mcp_server "docs" { command = "docs-mcp" }
hook "h" {
  stop { command = "/bin/true" }
}
workflow "w" {
  description = "A CLI workflow"
  body        = "Go."
}
permissions { deny = ["command(rm *)"] }

harness "xmsg" {
  reply_only = true
}

harness "mempalace" {
  mode = "loose"
  wake = false
}
acp {
  auth_type   = "oauth-personal"
  config_root = "isolated"
}
