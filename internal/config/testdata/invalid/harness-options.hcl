# Harness options are checked like any argument.
harness "mempalace" { # ERROR @1: Nothing to wire
  mode          = "global"   # ERROR @19: Invalid value
  wake          = false
  save          = false
  save_interval = 0          # ERROR @19: Out of range
  state_dir     = "state"    # ERROR @19: Invalid path
  unknown       = 1          # ERROR @3: Unsupported argument
}

harness "xmsg" {
  reply_only = "yes"   # ERROR @16: Wrong type
  agy_exe    = "agy"   # ERROR @16: Invalid path
}
