# Antigravity reads at most 12,000 characters of a workflow file. A rule
# has no limit of its own: rules share a token budget agy cuts to, which
# is a warning judged over the rendered plan, never a refusal.
rule "long" {
  body = file("assets/long-skill.md")
}

workflow "long" {
  body = file("assets/long-skill.md") # ERROR @10: Body too long
}
