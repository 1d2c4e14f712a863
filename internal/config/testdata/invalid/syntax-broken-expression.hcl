# An expression cut short by a syntax error is reported once, by the parser
# (at the token it could not use); the decoder adds no second message about
# the broken expression's unknown value.
rule "r" {
  body = jsonencode(
} # ERROR @1: Invalid expression
