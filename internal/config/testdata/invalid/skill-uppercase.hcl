# Skill names are lowercase words joined by single hyphens.
skill "Release-Notes" { # ERROR @7: Invalid name
  description = "d"
  body        = "b"
}

skill "under_score" { # ERROR @7: Invalid name
  description = "d"
  body        = "b"
}

skill "double--hyphen" { # ERROR @7: Invalid name
  description = "d"
  body        = "b"
}

plugin "p" {
  skill "Upper" { # ERROR @9: Invalid name
    description = "d"
    body        = "b"
  }
}
