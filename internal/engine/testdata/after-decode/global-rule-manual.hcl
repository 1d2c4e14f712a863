# WANT: Trigger not possible here
agyconf {
  scope = "global"
}
rule "release" {
  trigger = "manual"
  body    = "Steps."
}
