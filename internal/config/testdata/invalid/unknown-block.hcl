# Unknown blocks at every level, each with HCL's "Did you mean".
mcp_servers "github" { # ERROR @1: Unsupported block type
  command = "github-mcp-server"
}

hook "audit" {
  pre_tool_uses { # ERROR @3: Unsupported block type
    matcher = "*"
    command = "audit"
  }
  stop { command = "x" }
}

plugin "p" {
  skil "s" { # ERROR @3: Unsupported block type
    body = "x"
  }
  rule "r" { body = "x" }
}
