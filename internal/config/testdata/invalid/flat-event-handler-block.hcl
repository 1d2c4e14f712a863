# A flat event block is one handler; handler blocks belong to matcher
# groups only.
hook "h" {
  stop {
    handler { # ERROR @5: Unsupported block type
      command = "a"
    }
  }
}
