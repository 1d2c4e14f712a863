# What would break .antigravityignore or agyconf's block in it is refused;
# nothing about what a pattern means is judged (its syntax is undocumented).
agyconf {
  scope = "workspace"
}
ignore {
  patterns = [
    "dist/",
    "two\nlines", # ERROR @5: Invalid ignore pattern
    "  ",         # ERROR @5: Invalid ignore pattern
    "# END agyconf", # ERROR @5: Invalid ignore pattern
    "*.log ",     # WARNING @5: ignore/trailing-space
    "dist/",
  ]
}
ignore { # ERROR @1: Duplicate ignore
  patterns = []
}
