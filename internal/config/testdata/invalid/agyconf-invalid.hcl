# Every argument of the agyconf block is checked.
agyconf {
  scope       = "user"  # ERROR @17: Invalid scope
  product     = "web"   # ERROR @17: Invalid product
  agy_version = "1.2"   # ERROR @17: Invalid agy_version
  instance    = "../up" # ERROR @17: Invalid instance
  layout {
    hooks     = "../hooks.json"  # ERROR @17: Invalid path
    skills    = "/abs/skills"    # ERROR @17: Invalid path
    rules     = "a//b"           # ERROR @17: Invalid path
    workflows = ""               # ERROR @17: Empty value
    unknown   = "x"              # ERROR @5: Unsupported argument
  }
  layout {} # ERROR @3: Duplicate layout
}
