# Globs land on disk as one comma-joined string, so a glob with a comma
# would be split in two.
rule "web" {
  trigger = "glob"
  globs   = ["**/*.ts", "**/*.{js,jsx}"] # ERROR @25: Invalid glob
  body    = "x"
}
