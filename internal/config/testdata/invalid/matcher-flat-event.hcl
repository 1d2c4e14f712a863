# Flat events have no matcher; agy ignores one there.
hook "h" {
  stop {
    matcher = "run_command" # ERROR @5: Matcher on a flat event
    command = "x"
  }
  pre_invocation {
    matcher = "*" # ERROR @5: Matcher on a flat event
    command = "y"
  }
}
