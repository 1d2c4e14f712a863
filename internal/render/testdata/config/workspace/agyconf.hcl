# Every block that has a place in workspace scope.
agyconf {
  scope = "workspace"
}

mcp_server "docs" {
  command = "docs-mcp"
  args    = ["--root", "."]
}

hook "format" {
  post_tool_use {
    matcher = "^(write_to_file|replace_file_content)$"
    command = "gofmt -l ."
    timeout = 10
  }
}

skill "run-tests" {
  description = "Run the test suite"
  body        = "Run `go test ./...`."
}

rule "go-style" {
  trigger = "glob"
  globs   = ["**/*.go", "go.mod"]
  body    = "Use gofmt."
}

rule "commit" {
  trigger     = "model_decision"
  description = "When committing"
  body        = "Run the tests first."
}

rule "manual-only" {
  trigger = "manual"
  body    = "Only when asked."
}

agent "tester" {
  description = "Writes tests"
  body        = "You write table-driven tests."
}

workflow "release" {
  body = "Tag and push."
}

plugin "project-tools" {
  skill "lint" {
    description = "Lint the project"
    body        = "Run the linters."
  }
}
