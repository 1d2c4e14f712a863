# An agy_version older than the probed one refuses SessionStart too.
agyconf {
  agy_version = "1.1.24"
}

hook "h" {
  session_start { # ERROR @3: Needs a newer agy_version
    command = "x"
  }
}
