# The files of a folder are one config: the agyconf block in b.json makes
# this file's env() a workspace-scope refusal.
mcp_server "github" {
  command = env("GITHUB_MCP") # ERROR @13: Error in function call
}
