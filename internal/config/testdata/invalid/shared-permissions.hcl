# Grants shared with Antigravity 2.0 are entries like the CLI's own; the
# CLI merges both files, so an entry belongs to one list of one block.
permissions {
  allow = ["command(git *)"]
}

shared_permissions {
  allow = ["read_file", "git status"] # ERROR @25: Invalid permission
  deny  = ["command(git *)"]          # ERROR @12: Duplicate permission
  ask   = ["read_file"]               # ERROR @12: Duplicate permission
}

shared_permissions { # ERROR @1: Duplicate shared_permissions
}
