agyconf {
  scope       = "global"
  product     = "both"
  agy_version = "1.5.0"
}
tools {
  agyhook       = "/home/me/.nix-profile/bin/agyhook"
  mempalace     = "/home/me/.local/bin/mempalace"
  mempalace-mcp = "/home/me/.local/bin/mempalace-mcp"
  xmsg          = "/home/me/bin/x msg"
}
mcp_server "github" {
  command        = "github-mcp-server"
  args           = ["stdio", "--token", secret_file("/run/secrets/github"), 8080, true]
  env            = { GITHUB_TOKEN = secret_file("/run/secrets/github"), HOST = "github.example.com" }
  cwd            = "/srv/github"
  disabled_tools = ["delete_repository"]
  secret_mode    = "inline"
}
mcp_server "gitlab" {
  command = "gitlab-mcp"
  args    = ["stdio"]
  env     = { GITLAB_TOKEN = secret_file("/run/secrets/gitlab"), AUTH = "Bearer ${secret_file("/run/secrets/gitlab")}", HOST = "gitlab.example.com" }
}
mcp_server "off" {
  command  = "xmsg"
  disabled = true
}
mcp_server "coolify" {
  command         = "coolify-mcp"
  extra           = { trust = true }
  enabled_tools   = ["list_servers", "get_application_logs"]
  timeout_seconds = -1
  tool "list_servers" {
    eager = true
  }
  tool "get_application_logs" {
    eager = false
  }
}
mcp_server "linear" {
  server_url     = "https://mcp.linear.app/sse"
  headers        = { Authorization = "Bearer ${secret_file("/run/secrets/linear")}" }
  disabled_tools = ["delete_issue"]
}
mcp_server "cloud" {
  server_url         = "https://mcp.example.run.app/mcp"
  auth_provider_type = "google_credentials"
}
mcp_server "notion" {
  server_url = "https://mcp.notion.com/mcp"
  oauth {
    client_id     = "agyconf"
    client_secret = secret_file("/run/secrets/notion")
  }
}
mcp_server "notion-public" {
  server_url = "https://mcp.notion.com/public"
  oauth { client_id = "agyconf-public" }
}
hook "audit" {
  pre_tool_use {
    matcher = "run_command"
    command = "agyhook audit"
    timeout = 5
  }
  pre_tool_use {
    matcher = "write_to_file|replace_file_content"
    handler { command = "/usr/local/bin/lint" }
    handler {
      type    = "prompt"
      prompt  = "Does this touch generated files?"
      model   = "gemini-flash"
      timeout = 20
    }
  }
  post_tool_use {
    matcher = ""
    command = "xmsg notify"
  }
  pre_invocation { command = "xmsg register agy --hook" }
  post_invocation {
    type   = "prompt"
    prompt = "Summarise the last step."
  }
  stop { command = "/usr/local/bin/audit-stop" }
  session_start { command = "/usr/local/bin/banner" }
}
hook "paused" {
  enabled = false
  stop { command = "/usr/local/bin/never" }
}
skill "release-notes" {
  description = "Write release notes"
  body        = "Read the merged pull requests."
}
skill "yes" {
  description = "yes"
  body        = "A description YAML would read as a bool unless quoted."
}
rule "answer-in-english" {
  body = "Answer in English."
}
agent "reviewer" {
  description              = "Reviews diffs"
  body                     = "You review diffs."
  model                    = "inherit"
  tools                    = ["view_file", "grep_search"]
  mcp_servers              = ["github"]
  skills                   = ["release-notes"]
  main_agent               = false
  subagent                 = true
  command_execution_policy = "sandbox"
  hidden                   = false
  inherit_mcp              = true
}
agent "extended" {
  description = "Uses keys newer agy builds read"
  body        = "You help."
  extra       = { effort = "high", routing = { prefer = ["pro"] } }
}
agent "minimal" {
  description = "1.0"
  body        = "You help."
}
workflow "ship" {
  description = "Tag and publish"
  body        = "1. Test.\n2. Tag."
}
workflow "bare" {
  body = "Do the thing."
}
permissions {
  allow = ["command(git *)", "read_file", "mcp(github/*)"]
  ask   = ["command(git push *)", "write_file(/etc/*)"]
  deny  = ["command(rm -rf *)", "read_file(/root/*)", "execute_url"]
}

shared_permissions {
  allow = ["command(ls)", "read_url(https://go.dev/*)"]
  deny  = ["command(git push --force *)"]
}
settings {
  toolPermission          = "request-review"
  artifactReviewPolicy    = "agent-decides"
  agentMode               = "plan"
  enableTerminalSandbox   = true
  allowNonWorkspaceAccess = false
  statusLine              = { type = "command", command = "agy-status" }
  trustedWorkspaces       = ["/home/me/src"]
  colorScheme             = "dark"
  altScreenMode           = "always"
  model                   = "gemini-pro"
  futureKnob              = { nested = [1, 2.5, "three", false] }
}
plugin "team-tools" {
  description = "Our shared tools"
  enabled     = true
  extra       = { logo = "assets/logo.png", version = "1.2.0" }
  allow_extra = true
  mcp_server "docs" {
    command = "docs-mcp"
    args    = ["--index", "team"]
  }
  mcp_server "search" {
    server_url = "https://search.example.com/mcp"
    headers    = { Authorization = "Bearer ${secret_file("/run/secrets/search")}" }
  }
  hook "guard" {
    pre_tool_use {
      matcher = "run_command"
      command = "/opt/team-tools/bin/guard"
      timeout = 10
    }
    session_start {
      type   = "prompt"
      prompt = "Remind the user of the conventions."
    }
  }
  skill "triage" {
    description = "Team triage"
    body        = "Label the issue."
  }
  rule "style" {
    trigger = "glob"
    globs   = ["*.md", "docs/**"]
    body    = "Wrap prose at 100 columns."
  }
  rule "security" {
    trigger     = "model_decision"
    description = "When the change touches authentication"
    body        = "Ask before weakening a check."
  }
  rule "release" {
    trigger = "manual"
    body    = "Follow RELEASING.md."
  }
  rule "always" {
    body = "Be brief."
  }
  agent "librarian" {
    description = "Finds team docs"
    body        = "Search the docs server first."
    mcp_servers = ["docs"]
  }
}
plugin "off" {
  enabled = false
  rule "noop" { body = "Nothing." }
}
harness "mempalace" {
  save_interval = 10
  state_dir     = "/home/me/mem palace/state"
}
acp {
  auth_type    = "oauth-business"
  gcp_project  = "my-project"
  gcp_location = "us-central1"
}
