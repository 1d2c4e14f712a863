# Nesting: a chain of ! operators, one level past the limit of 128.
# Refused before parsing, at the token that passes it.
settings {
  k = !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!true # ERROR @134: Nesting too deep
}
