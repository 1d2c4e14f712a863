# agy reads timeout as an int32 and drops the whole hooks.json otherwise.
hook "h" {
  stop {
    command = "x"
    timeout = 1.5 # ERROR @15: Invalid timeout
  }
  pre_tool_use {
    matcher = "*"
    handler {
      command = "y"
      timeout = 30.0001 # ERROR @17: Invalid timeout
    }
  }
}
