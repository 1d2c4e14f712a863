# enabled_tools, timeout_seconds and tool blocks are read only by newer agy
# builds; with agy_version unknown each is refused where it is written.
mcp_server "github" {
  command         = "github-mcp-server"
  enabled_tools   = ["get_issue"] # ERROR @3: Needs a newer agy_version
  timeout_seconds = 120 # ERROR @3: Needs a newer agy_version
  tool "get_issue" { # ERROR @3: Needs a newer agy_version
    eager = true
  }
}
