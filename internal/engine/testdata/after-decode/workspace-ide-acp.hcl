# WANT: No place for this block
agyconf {
  scope   = "workspace"
  product = "ide"
}
acp {
  auth_type = "oauth-personal"
}
