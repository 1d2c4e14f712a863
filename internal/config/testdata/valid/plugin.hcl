# A plugin with every attribute and every kind of nested block, next to
# top-level entries of the same names: a plugin is its own namespace.

agyconf {
  agy_version = "1.2.0"
}

mcp_server "docs" {
  command = "docs-mcp"
}

plugin "team-tools" {
  description = "Our shared tools"
  enabled     = true
  extra       = { logo = "assets/logo.png", version = "1.2.0", author = { name = "Team" } }
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
      command = "./bin/guard"
      timeout = 10
    }
    session_start {
      type   = "prompt"
      prompt = "Remind the user of the team conventions."
    }
  }
  skill "docs-lookup" {
    source = "assets/plugin-skill"
  }
  skill "triage" {
    description = "Team triage"
    body        = "Label the issue."
  }
  rule "style" {
    trigger = "glob"
    globs   = ["*.md"]
    body    = "Wrap prose at 100 columns."
  }
  agent "librarian" {
    description = "Finds team docs"
    body        = "You search the docs server first."
    mcp_servers = ["docs"]
  }
}

plugin "off" {
  enabled = false
  rule "noop" { body = "Nothing." }
}
