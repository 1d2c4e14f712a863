# Nesting: a chain of - operators, one level past the limit of 128.
# Refused before parsing, at the token that passes it.
settings {
  k = - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - 1 # ERROR @261: Nesting too deep
}
