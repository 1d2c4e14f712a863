agyconf {
  scope   = "workspace"
  product = "ide"
}
workflow "release" { body = "Tag and push." }
