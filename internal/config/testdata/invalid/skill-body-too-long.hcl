# The skill loader keeps only the first 24,000 bytes of SKILL.md.
skill "long" {
  description = "A skill too long to load whole"
  body        = file("assets/long-skill.md") # ERROR @17: Skill body too long
}
