# Events use the input language's snake_case; the hooks.json spelling is
# answered with it.
hook "h" {
  PreToolUse { # ERROR @3: Unsupported block type
    matcher = "*"
    command = "x"
  }
  Stop { command = "y" } # ERROR @3: Unsupported block type
  stop { command = "z" }
}
