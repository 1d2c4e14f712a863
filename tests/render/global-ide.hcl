agyconf {
  scope   = "global"
  product = "ide"
}
mcp_server "docs" { command = "docs-mcp" }
workflow "w" { body = "Go." }
agent "a" {
  description = "An IDE agent"
  body        = "Help."
}

harness "xmsg" {
  legacy_hooks = true
}
