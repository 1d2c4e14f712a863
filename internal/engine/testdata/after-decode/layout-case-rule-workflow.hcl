# WANT: Paths differ only in case
agyconf {
  scope = "workspace"
  layout {
    rules     = "shared"
    workflows = "shared"
  }
}
rule "Notes" {
  body = "b"
}
workflow "notes" {
  body = "b"
}
