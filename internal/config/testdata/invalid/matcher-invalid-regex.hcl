# agy does not compile matchers at load time, so a broken one would never
# match; agyconf compiles it. "*" and "" are the documented catch-alls.
hook "h" {
  pre_tool_use {
    matcher = "run_command|(write" # ERROR @15: Invalid matcher
    command = "x"
  }
  post_tool_use {
    matcher = "[a-" # ERROR @15: Invalid matcher
    command = "y"
  }
  post_tool_use {
    matcher = "*"
    command = "z"
  }
}
