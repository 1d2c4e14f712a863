# A relative file() path must stay inside the config's folder.
rule "r" {
  body = file("../valid/assets/reviewer.md") # ERROR @10: Error in function call
}
