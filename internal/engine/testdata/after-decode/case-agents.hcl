# WANT: Paths differ only in case
agyconf {
  scope = "workspace"
}
agent "Reviewer" {
  description = "a"
  body = "a"
}
agent "reviewer" {
  description = "b"
  body = "b"
}
