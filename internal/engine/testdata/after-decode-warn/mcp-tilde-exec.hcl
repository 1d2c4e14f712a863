# WANT: mcp/tilde-command
agyconf {
  scope = "global"
}
mcp_server "home" {
  command = "~/bin/srv"
  env     = { TOKEN = secret_file("/run/secrets/t") }
}
