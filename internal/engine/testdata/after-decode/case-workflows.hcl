# WANT: Paths differ only in case
agyconf {
  scope = "workspace"
}
workflow "Release" {
  body = "a"
}
workflow "release" {
  body = "b"
}
