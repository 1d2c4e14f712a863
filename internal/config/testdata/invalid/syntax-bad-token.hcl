# An argument without "=" parses as a block header without a body.
agyconf {
  scope "global" # ERROR @3: Unsupported block type # ERROR @18: Invalid block definition
}
