# Permissions, settings, both harnesses with every option, and the ACP
# server's settings.

permissions {
  allow = ["command(git *)", "read_file", "mcp(github)"]
  ask   = ["write_file(/etc/*)", "read_url(https://*)"]
  deny  = ["command(rm -rf *)", "read_file(/root/*)", "execute_url"]
}

settings {
  toolPermission          = "request-review"
  artifactReviewPolicy    = "agent-decides"
  agentMode               = "plan"
  enableTerminalSandbox   = true
  allowNonWorkspaceAccess = false
  statusLine              = { type = "command", command = "agy-status", padding = 1 }
  trustedWorkspaces       = ["/home/me/src", "/home/me/work"]
  colorScheme             = "dark"
  altScreenMode           = "always"
  model                   = "gemini-pro"
  futureKnob              = { nested = [1, 2.5, "three", null, false] }
  description             = jsonencode({ b = 1, a = [true] })
}

harness "mempalace" {
  mode          = "loose"
  wake          = true
  save          = false
  save_interval = 30
  state_dir     = "/home/me/.local/state/mempalace"
}

harness "xmsg" {
  reply_only   = true
  legacy_hooks = false
  agy_exe      = "/home/me/.local/bin/agy"
}

acp {
  auth_type    = "agent-platform"
  gcp_project  = "my-project"
  gcp_location = "europe-west4"
  config_root  = "isolated/acp"
}
