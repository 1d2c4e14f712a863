# SessionStart is unknown to older agy builds; without agy_version saying
# the build has it, it is refused.
hook "h" {
  session_start { # ERROR @3: Needs a newer agy_version
    command = "x"
  }
}
