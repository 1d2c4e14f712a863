# WANT: No place for this block
agyconf {
  scope   = "workspace"
  product = "cli"
}
permissions {
  allow = ["command(git *)"]
}
