# WANT: No place for this block
agyconf {
  scope   = "global"
  product = "ide"
}
acp {
  auth_type = "oauth-personal"
}
