# agy silently discards env, cwd, name and background on a handler.
hook "h" {
  stop {
    command    = "x"
    env        = { A = "b" } # ERROR @5: Unsupported argument
    cwd        = "/tmp"      # ERROR @5: Unsupported argument
  }
  pre_tool_use {
    matcher = "*"
    handler {
      command    = "y"
      name       = "named"   # ERROR @7: Unsupported argument
      background = true      # ERROR @7: Unsupported argument
    }
  }
}
