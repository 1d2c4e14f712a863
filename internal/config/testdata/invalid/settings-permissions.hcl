# Permissions have one place, the permissions block; hooks are not read from
# settings.json at all.
settings {
  permissions = { allow = ["command(git *)"] } # ERROR @3: Use the permissions block
  hooks       = {}                             # ERROR @3: Use hook blocks
}
