# Markdown artifacts: skills with a body read by file() and with a source
# folder, a rule for each trigger, a subagent with every field, a workflow.

agyconf {
  agy_version = "1.1.6" # model (1.1.5) and the 1.1.6 subagent keys
}

skill "release-notes" {
  description = "Write release notes from merged PRs"
  body        = file("assets/release-notes.md")
}

skill "triage" {
  description = "Sort new issues"
  source      = "assets/triage"
}

skill "inline-2" {
  description = "A skill written inline"
  body        = <<-EOT
    # Inline

    Say hello.
  EOT
}

rule "always" {
  trigger = "always_on"
  body    = "Answer in English."
}

rule "default-trigger" {
  body = "No trigger means always_on."
}

rule "go-style" {
  trigger     = "glob"
  globs       = ["**/*.go", "go.mod"]
  description = "Go files"
  body        = "Run gofmt."
}

rule "security" {
  trigger     = "model_decision"
  description = "When the change touches authentication"
  body        = "Ask before weakening any check."
}

rule "release" {
  trigger = "manual"
  body    = "Follow RELEASING.md step by step."
}

agent "reviewer" {
  description              = "Reviews diffs"
  body                     = file("assets/reviewer.md")
  model                    = "gemini-pro"
  tools                    = ["view_file", "grep_search"]
  mcp_servers              = ["github"]
  skills                   = ["release-notes", "triage"]
  main_agent               = false
  subagent                 = true
  command_execution_policy = "never"
  hidden                   = false
  inherit_mcp              = true
}

agent "minimal" {
  description = "Only what is required"
  body        = "You help."
}

workflow "ship" {
  description = "Tag and publish a release"
  body        = "1. Run the tests.\n2. Tag.\n3. Push the tag."
}

workflow "bare" {
  body = "Do the thing."
}
