# Handler types are lowercase; each type takes its own arguments.
agyconf {
  agy_version = "1.1.25"
}

hook "h" {
  stop {
    type    = "COMMAND" # ERROR @15: Invalid handler type
    command = "x"
  }
  pre_invocation {
    command = "x"
    prompt  = "p" # ERROR @5: Conflicting arguments
    model   = "m" # ERROR @5: Conflicting arguments
  }
  post_invocation {
    type    = "prompt"
    command = "x" # ERROR @5: Conflicting arguments
    prompt  = "p"
  }
  session_start { # ERROR @17: Missing required argument
    type  = "prompt"
    model = "m"
  }
}
