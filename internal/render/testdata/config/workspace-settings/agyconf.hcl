agyconf {
  scope   = "workspace"
  product = "ide"
}

permissions {
  allow = ["command(go test *)"]
}
