# Command rules: an entry with no command word is refused (agy 1.1.11 and
# newer match it against nothing, older builds against everything); a
# regex: rule must compile and needs agy 1.0.13; a literal rule that reads
# like a pattern and a deprecated unsandboxed rule are warnings.
permissions {
  allow = [
    "command(time)",                 # ERROR @5: Command rule without a command
    "command(# only a note)",        # ERROR @5: Command rule without a command
    "command(())",                   # ERROR @5: Command rule without a command
    "command(time make)",
    "command(regex:^git (push|pull)$)", # ERROR @5: Needs a newer agy_version
    "command(npm run (build|test))", # WARNING @5: settings/literal-pattern
    "unsandboxed(make)",             # WARNING @5: settings/deprecated-action
  ]
  deny = [
    "command(regex:git (push)",      # ERROR @5: Invalid pattern
    "unsandboxed",                   # WARNING @5: settings/deprecated-action
  ]
}
