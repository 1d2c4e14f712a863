# A global setup: what one person wants in every Antigravity session —
# a local MCP server whose token is read when agy starts it, a remote one
# with an inline header, hooks, a skill, a subagent, permissions, settings,
# a global rule and the MemPalace harness.
# Try it:  agyconf render --config examples/global --root "$(mktemp -d)"
# What it writes is committed in expected/ (a fake $HOME); check it with
#          agyconf render --config examples/global --root examples/global/expected --check

agyconf {
  scope       = "global" # renders into $HOME
  product     = "both"   # the agy CLI and the IDE
  agy_version = "1.5.0"  # the oldest agy you run; gates newer hook features
  instance    = "example-global" # names the state file, whatever path the config is read from
}

# Every executable path agyconf may write. Commands not listed here are
# written as bare names, resolved through PATH when agy runs them.
tools {
  agyhook = "/home/me/.nix-profile/bin/agyhook"
}

mcp_server "github" {
  command = "github-mcp-server"
  args    = ["stdio"]
  # secret_mode "exec" (the default for local servers): the file is read by
  # `agyhook exec-env` each time agy starts the server, and its value is
  # written nowhere; mcp_config.json holds only the path. A file missing at
  # render time is a warning (sops-nix and agenix decrypt late), not an error.
  env = { GITHUB_PERSONAL_ACCESS_TOKEN = secret_file("/run/secrets/github-token") }
}

# A remote server whose header holds a secret: agy starts `agyhook bridge`,
# which reads the key when agy starts it, sends the header and relays MCP
# (secret_mode "exec", the default), so the key is written nowhere.
mcp_server "linear" {
  server_url     = "https://mcp.linear.app/sse"
  headers        = { Authorization = "Bearer ${secret_file("/run/secrets/linear-key")}" }
  disabled_tools = ["delete_issue"]
}

hook "audit" {
  # One matcher group with its handler written inline…
  pre_tool_use {
    matcher = "run_command"
    command = "/usr/local/bin/audit-cmd"
    timeout = 5
  }
  # …or several handlers, run in the order written.
  pre_tool_use {
    matcher = "write_to_file|replace_file_content|multi_replace_file_content"
    handler {
      command = "/usr/local/bin/lint"
      timeout = 10
    }
    handler {
      command = "/usr/local/bin/notify"
    }
  }
  stop {
    command = "/usr/local/bin/audit-stop"
  }
}

skill "release-notes" {
  description = "Write release notes from the pull requests merged since the last tag"
  body        = file("skills/release-notes.md")
}

agent "reviewer" {
  description = "Reviews a diff for correctness and style before it is committed"
  body        = "You review diffs. Point at the line, say what is wrong, suggest the fix."
  model       = "inherit"
}

permissions {
  allow = ["command(git *)", "command(go test *)", "mcp(github/*)"]
  ask   = ["command(git push *)"]
  deny  = ["command(rm -rf *)"]
}

settings {
  toolPermission = "request-review"
  agentMode      = "default"
}

rule "house-style" {
  body = "Answer briefly. Quote file:line when pointing at code."
}

# MemPalace's memory in every session: its plugin (MCP server, skill, and
# the save and wake-up hooks run by agyhook). Save every 15th stop.
harness "mempalace" {
  save_interval = 15
}
