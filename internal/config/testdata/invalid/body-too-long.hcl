# Antigravity reads at most 12,000 characters of a rule or workflow file.
rule "long" {
  body = file("assets/long-skill.md") # ERROR @10: Body too long
}

workflow "long" {
  body = file("assets/long-skill.md") # ERROR @10: Body too long
}
