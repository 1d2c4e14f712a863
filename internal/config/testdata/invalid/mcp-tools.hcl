# What a server says about its tools and its launch, checked.
agyconf {
  agy_version = "1.2.0"
}

mcp_server "lists" {
  command        = "a"
  enabled_tools  = ["x"]
  disabled_tools = ["y"] # ERROR @3: Conflicting arguments
}

mcp_server "timeouts" {
  command         = "b"
  timeout_seconds = 0 # ERROR @21: Invalid timeout
}

mcp_server "timeout-range" {
  command         = "b"
  timeout_seconds = -2 # ERROR @21: Out of range
}

mcp_server "timeout-type" {
  command         = "b"
  timeout_seconds = "30" # ERROR @21: Wrong type
}

mcp_server "spelling" {
  command = "c"
  timeout = 30 # ERROR @3: Unsupported argument
  tools   = {} # ERROR @3: Unsupported argument
}

mcp_server "tool-blocks" {
  command = "d"
  tool "" { # ERROR @8: Invalid name
    eager = true
  }
  tool "a" {
    eager = "yes" # ERROR @13: Wrong type
  }
  tool "b" { # ERROR @12: Missing required argument
  }
  tool "c" {
    eager = true
  }
  tool "c" { # ERROR @8: Duplicate tool
    eager = false
  }
  tool "d" {
    background = "always" # ERROR @5: Unsupported argument
    eager      = true
  }
}
