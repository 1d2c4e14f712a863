# Every block that has a place in global scope.
agyconf {
  scope       = "global"
  agy_version = "1.5.0"
}

tools {
  github-mcp-server = "/opt/bin/github-mcp-server"
  audit             = "/opt/audit tools/audit"
}

mcp_server "github" {
  command     = "github-mcp-server"
  args        = ["stdio", "--token", secret_file("/run/secrets/gh-arg")]
  env         = { GITHUB_TOKEN = secret_file("/run/secrets/github"), LOG = "info" }
  secret_mode = "inline"
}

# The default, exec: the secret reaches the server's environment through
# agyhook exec-env and is written nowhere.
mcp_server "gitlab" {
  command = "gitlab-mcp"
  args    = ["stdio"]
  env     = { GITLAB_TOKEN = secret_file("/run/secrets/gitlab"), AUTH = "Bearer ${secret_file("/run/secrets/gitlab")}", LOG = "info" }
}

mcp_server "linear" {
  server_url         = "https://mcp.linear.app/sse"
  headers            = { Authorization = "Bearer ${secret_file("/run/secrets/linear")}" }
  auth_provider_type = "google_credentials"
  disabled_tools     = ["delete_issue"]
  oauth {
    client_id     = "linear-client"
    client_secret = secret_file("/run/secrets/linear-oauth")
  }
}

# Its headers hold secrets and agy's own OAuth is not used: agy starts
# agyhook-bridge, which reads them (secret_mode "exec", the default).
mcp_server "bridged" {
  server_url = "https://mcp.example.com/mcp"
  headers = {
    Authorization = "Bearer ${secret_file("/run/secrets/bridged")}"
    X-Json        = jsonencode({ k = secret_file("%r/k") })
    X-Plain       = "team-blue"
  }
  timeout_seconds = 20
}

# The same, inline: agy connects and sends the headers itself.
mcp_server "inline-remote" {
  server_url  = "https://mcp.example.com/other"
  headers     = { Authorization = secret_file("/run/secrets/inline-remote") }
  secret_mode = "inline"
}

mcp_server "off" {
  command  = "off-mcp"
  disabled = true
}

# Read by newer builds only: agy_version says this one has them.
mcp_server "coolify" {
  command         = "coolify-mcp"
  extra           = { trust = true, "x-limits" = { rate = 10, tags = ["a", "$${NOT_A_TEMPLATE}"] } }
  enabled_tools   = ["list_servers"]
  timeout_seconds = 180
  tool "list_servers" {
    eager = true
  }
}

hook "audit" {
  pre_tool_use {
    matcher = "run_command"
    command = "audit --event pre"
    timeout = 5
  }
  pre_tool_use {
    matcher = "write_to_file|replace_file_content"
    handler {
      command = "/usr/local/bin/lint"
      timeout = 10
    }
    handler {
      command = "notify-send 'file written'"
    }
  }
  post_tool_use {
    matcher = "*"
    command = "audit --event post"
  }
  pre_invocation {
    command = "audit --event invocation"
    timeout = 2
  }
  post_invocation {
    type    = "prompt"
    prompt  = "Did the last step follow the plan?"
    model   = "flash"
  }
  stop {
    command = "audit --event stop"
  }
  session_start {
    command = "audit --event start"
  }
}

hook "paused" {
  enabled = false
  stop {
    command = "true"
  }
}

skill "release-notes" {
  description = "Write release notes: the \"what changed\" of a release, yes or no"
  body        = "1. Find the last tag.\n2. List merged pull requests.\n\n"
  icon                  = "📝"
  disable_slash_command = true
}

skill "pdf-tools" {
  source = "skills/pdf-tools"
}

rule "house-style" {
  body = "Prefer small functions."
}

rule "security" {
  trigger = "always_on"
  body    = "Never print secrets."
}

agent "extended" {
  description = "Uses keys newer agy builds read"
  body        = "You help."
  extra = {
    effort  = "high"
    weird   = "yes: no\n  # not a comment"
    routing = { prefer = ["pro", "flash"], fallback = true, budget = 1.5, none = null }
  }
}

agent "reviewer" {
  description              = "Reviews diffs"
  body                     = "You review diffs."
  model                    = "inherit"
  tools                    = ["view_file", "grep_search"]
  mcp_servers              = ["github"]
  skills                   = ["release-notes"]
  plugins                  = ["team-tools"]
  rules                    = ["../../rules/house-style.md"]
  agents                   = ["helper"]
  hooks                    = ["hooks.json"]
  main_agent               = false
  subagent                 = true
  command_execution_policy = "sandbox"
  hidden                   = false
  inherit_mcp              = true
  inherit_customizations   = false
  exclude_default_components = true
}

workflow "release" {
  description = "Cut a release"
  body        = "1. Tag.\n2. Push."
}

permissions {
  allow = ["command(git *)", "mcp(github/*)", "read_file"]
  ask   = ["command(git push *)"]
  deny  = ["command(rm -rf *)"]
}

shared_permissions {
  allow = ["command(ls)"]
  ask   = ["mcp(github/create_issue)"]
}

settings {
  toolPermission = "request-review"
  statusLine     = { enabled = true, format = "{model}" }
}

plugin "team-tools" {
  description = "Our shared tools"
  enabled     = false
  extra       = { logo = "logo.png", license = "Apache-2.0" }
  allow_extra = true
  mcp_server "docs" {
    command = "docs-mcp"
  }
  hook "team-audit" {
    stop {
      command = "team-audit"
    }
  }
  skill "triage" {
    description = "Triage an issue"
    body        = "Label it."
  }
  rule "team-rule" {
    trigger = "glob"
    globs   = ["**/*.go", "*.mod"]
    body    = "Go rules."
  }
  agent "helper" {
    description = "Helps"
    body        = "You help."
  }
}
