# WANT: Trigger not possible here
agyconf {
  scope = "global"
}
rule "style" {
  trigger     = "model_decision"
  description = "When writing prose"
  body        = "Short sentences."
}
