# WANT: No place for this block
agyconf {
  scope = "workspace"
}
acp {
  auth_type = "oauth-personal"
}
