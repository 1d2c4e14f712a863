agyconf { # ERROR @1: Duplicate agyconf
  scope = "global"
}
