# An empty command loads in agy and runs nothing; whitespace is as empty.
mcp_server "a" {
  command = "" # ERROR @13: Empty value
}

hook "h" {
  pre_tool_use {
    matcher = "*"
    command = "  " # ERROR @15: Empty value
  }
  pre_tool_use {
    matcher = "*"
    handler { command = "x" }
    handler { command = "" } # ERROR @25: Empty value
  }
  stop { command = "" } # ERROR @20: Empty value
}
