# With agy_version 1.0.13 or newer a regex: rule is written; its pattern
# still has to compile.
agyconf {
  agy_version = "1.0.13"
}

permissions {
  allow = ["command(regex:^git (push|pull)$)"]
  ask   = ["command(regex:*)"] # ERROR @12: Invalid pattern
}
