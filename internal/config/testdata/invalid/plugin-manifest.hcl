# plugin.json is written as the CLI docs' schema has it: name and
# description. Enablement lives in config.json; other members only as
# extra, with allow_extra, and never one agyconf writes itself.
plugin "old" {
  disabled = true # ERROR @3: Unsupported argument
  logo     = "l.png" # ERROR @3: Unsupported argument
  enabled  = "yes" # ERROR @14: Wrong type
  rule "r" { body = "x" }
}

plugin "no-opt-in" {
  extra = { version = "1.0.0" } # ERROR @3: Extra needs allow_extra
  rule "r" { body = "x" }
}

plugin "nothing-to-allow" {
  allow_extra = true # ERROR @3: Nothing to allow
  rule "r" { body = "x" }
}

plugin "own-fields" {
  extra = {
    name        = "other" # ERROR @5: Known field in extra
    disabled    = true # ERROR @5: Known field in extra
    permissions = [] # ERROR @5: Known field in extra
    token       = secret_file("/run/secrets/t") # ERROR @19: Secret not allowed here
    "" = 1 # ERROR @5: Invalid key
    ok = { deep = [1, "two", false] }
  }
  allow_extra = true
  rule "r" { body = "x" }
}
