# Nesting: blocks, one level past the limit of 128.
# Refused before parsing, at the token that passes it.
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b {
b { # ERROR @3: Nesting too deep
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
