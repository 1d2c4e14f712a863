# A skill source is a folder holding SKILL.md, inside the config folder.
skill "no-skill-md" {
  source = "assets" # ERROR @12: Invalid source
}

skill "missing" {
  source = "assets/no-such-folder" # ERROR @12: Invalid source
}

skill "outside" {
  source = "../valid/assets/triage" # ERROR @12: Invalid source
}

skill "both" {
  description = "d"
  body        = "b"
  source      = "assets/skill" # ERROR @3: Conflicting arguments
}

skill "neither" { # ERROR @17: Missing required argument
  description = "d"
}

skill "no-description" { # ERROR @24: Missing required argument
  body = "b"
}
