# An ignore block without patterns is refused: it says nothing.
ignore { # ERROR @8: Missing required argument
}
