# WANT: No place for this block
agyconf {
  scope   = "global"
  product = "ide"
}
settings {
  model = "gemini-3-pro"
}
