# A plugin: one folder under ~/.gemini/config/plugins/ holding plugin.json
# and its components — an MCP server, a hook, a skill, a rule and a
# subagent. agy merges a plugin's servers and hooks with the user's, and a
# plugin's hooks run with the plugin folder as their working folder.
# Try it:  agyconf render --config examples/plugin --root "$(mktemp -d)"
#          agyconf validate "$(mktemp -d)"   # after a render: lint the tree as agy would load it
# What it writes is committed in expected/ (a fake $HOME); check it with
#          agyconf render --config examples/plugin --root examples/plugin/expected --check

agyconf {
  scope    = "global"
  product  = "cli"
  instance = "example-plugin"
}

plugin "team-tools" {
  description = "Issue triage for the team: the tracker's MCP server, a guard hook, a skill, a rule and a subagent"

  mcp_server "tracker" {
    command = "/opt/team-tools/bin/tracker-mcp"
    args    = ["--stdio", "--project", "web"]
  }

  hook "guard" {
    pre_tool_use {
      matcher = "run_command"
      command = "/opt/team-tools/bin/guard --deny-push-to-main"
      timeout = 5
    }
  }

  skill "triage" {
    description = "Triage a new issue: label it, find duplicates, ask for what is missing"
    body        = <<-EOT
      # Triage

      1. Read the issue and search the tracker for duplicates.
      2. Label it: bug, feature or question; add the component.
      3. If a reproduction is missing, ask for one in a comment.
    EOT
  }

  rule "issue-references" {
    body = "Reference the tracker issue (WEB-123) in every commit message and pull request title."
  }

  agent "triager" {
    description = "Triages issues in the tracker; use it when asked to go through new issues"
    body        = "You triage issues. Use the tracker tools; never close an issue without a comment saying why."
    mcp_servers = ["tracker"]
    skills      = ["triage"]
  }
}
