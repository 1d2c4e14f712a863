agyconf {
  scope   = "workspace"
  product = "both"
}
rule "go-style" {
  trigger     = "glob"
  globs       = ["**/*.go", "go.mod"]
  description = "Go files"
  body        = "Run gofmt."
}
rule "review" {
  trigger     = "model_decision"
  description = "Apply when the user asks to commit"
  body        = "Run the tests first."
}
rule "manual" {
  trigger = "manual"
  body    = "Only when asked."
}
rule "always" {
  trigger = "always_on"
  body    = "Answer briefly."
}
skill "run-tests" {
  description = "Run the test suite"
  body        = "Run go test ./...."
}
workflow "release" {
  description = "Cut a release"
  body        = "Tag it."
}
mcp_server "docs" {
  command = "docs-mcp"
  args    = ["--root", "."]
}
hook "format-on-write" {
  post_tool_use {
    matcher = "^(write_to_file|replace_file_content)$"
    command = "gofmt -l ."
    timeout = 10
  }
}
agent "helper" {
  description = "Helps"
  body        = "Help."
  tools       = []
}
plugin "local" {
  skill "lint" {
    description = "Lint"
    body        = "Run the linter."
  }
}

harness "mempalace" {}
