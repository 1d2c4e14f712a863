# A source folder's SKILL.md is checked like a skill block: it needs a
# description, and a name in it must be the block's.
skill "no-description" {
  source = "assets/skill-no-description" # ERROR @12: Invalid source
}
skill "other-name" {
  source = "assets/skill-other-name" # ERROR @12: Invalid source
}
