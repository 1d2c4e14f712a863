# WANT: mcp/relative-command
agyconf {
  scope = "global"
}
mcp_server "github" {
  command = "bin/github-mcp-server"
  env     = { GITHUB_TOKEN = secret_file("/run/secrets/github") }
}
