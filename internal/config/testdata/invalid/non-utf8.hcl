# A byte that is not UTF-8 is named with its position.
rule "r" {
  body = "café" # ERROR @14: Invalid UTF-8
}
