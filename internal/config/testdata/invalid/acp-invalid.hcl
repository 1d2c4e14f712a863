# auth_type decides which other arguments the ACP settings take.
acp { # ERROR @5: Missing required argument # ERROR @5: Missing required argument
  auth_type   = "oauth-business"
  config_root = "../outside" # ERROR @17: Invalid path
}
