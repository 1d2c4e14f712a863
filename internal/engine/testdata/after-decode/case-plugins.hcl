# WANT: Paths differ only in case
agyconf {
  scope = "global"
}
plugin "Tools" {
  description = "a"
  skill "s" {
    description = "d"
    body = "b"
  }
}
plugin "tools" {
  description = "b"
  skill "s" {
    description = "d"
    body = "b"
  }
}
