# A quoted timeout is refused, not converted: agy would drop the file.
hook "h" {
  stop {
    command = "x"
    timeout = "30" # ERROR @15: Invalid timeout
  }
  pre_invocation {
    command = "y"
    timeout = 0 # ERROR @15: Out of range
  }
  post_invocation {
    command = "z"
    timeout = -5 # ERROR @15: Out of range
  }
}
