# A workspace setup: rules, skills and hooks committed with a project.
# Nothing machine-specific may appear here (no env(), abspath() or secrets):
# the rendered tree is committed and checked on other machines.
# Try it:  agyconf render --config examples/workspace --root "$(mktemp -d)"
# What it writes is committed in expected/ (a fake project tree, with the
# state in .agyconf/ as a project commits it); check it with
#          agyconf render --config examples/workspace --root examples/workspace/expected --check

agyconf {
  scope    = "workspace"
  product  = "both"
  instance = "example-workspace"
}

rule "go-style" {
  trigger = "glob"
  globs   = ["**/*.go", "go.mod"]
  body    = <<-EOT
    Format Go code with gofmt. Wrap errors with context: fmt.Errorf("reading %s: %w", path, err).
    Keep packages small, with one job each.
  EOT
}

rule "review-before-commit" {
  trigger     = "model_decision"
  description = "Apply when the user asks to commit or open a pull request"
  body        = "Run the tests and read the whole diff before committing."
}

skill "run-tests" {
  description = "Run this project's test suite and summarise the failures"
  body        = <<-EOT
    Run `go test ./...`. For each failing test, quote the first failure line
    and the file:line it points at. Do not retry flaky tests silently.
  EOT
}

workflow "release" {
  description = "Cut a release"
  body        = "1. Update CHANGELOG.md.\n2. Tag vX.Y.Z.\n3. Push the tag."
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
