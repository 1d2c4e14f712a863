# WANT: No place for this block
agyconf {
  scope   = "global"
  product = "ide"
}
permissions {
  allow = ["command(git *)"]
}
