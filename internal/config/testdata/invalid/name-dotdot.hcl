# ".." anywhere in a name is refused, not only as a whole path element.
hook "a..b" { # ERROR @6: Invalid name
  stop { command = "x" }
}

workflow ".." { # ERROR @10: Invalid name
  body = "x"
}
