# Layout paths and config_root become folders: the characters names may not
# hold, paths may not either (a division slash looks like a separator).
agyconf {
  layout {
    hooks = "conf∕hooks.json" # ERROR @13: Invalid path
  }
}
acp {
  auth_type   = "oauth-personal"
  config_root = "iso‮lated" # ERROR @17: Invalid path
}
