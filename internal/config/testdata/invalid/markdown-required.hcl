# Subagents need a description and a body; workflows a body.
agyconf {
  agy_version = "1.1.5"
}
agent "a" { # ERROR @11: Missing required argument # ERROR @11: Missing required argument
  model = "m"
}

workflow "w" { # ERROR @14: Missing required argument
  description = "d"
}

workflow "blank" {
  body = "   " # ERROR @10: Empty value
}
