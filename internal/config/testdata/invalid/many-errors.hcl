# One pass reports every problem of a file, in every block.
agyconf {
  scope = "everywhere" # ERROR @11: Invalid scope
}

mcp_server "a/b" { # ERROR @12: Invalid name
  command = ""     # ERROR @13: Empty value
  enabled = true   # ERROR @3: Unsupported argument
}

hook "h" {
  stop {
    matcher = "*"  # ERROR @5: Matcher on a flat event
    command = "x"
    timeout = 2.5  # ERROR @15: Invalid timeout
  }
}

skill "Bad" { # ERROR @7: Invalid name
  description = "d"
  body        = "b"
}

rule "r" {
  trigger = "glob"
  globs   = ["a,b"] # ERROR @14: Invalid glob
  body    = "x"
}

settings {
  permissions = {} # ERROR @3: Use the permissions block
}

harness "slack" {} # ERROR @9: Unknown harness
