# The agyconf block's arguments written at the top level are told where
# they belong; other stray arguments get HCL's plain message.
scope   = "workspace" # ERROR @1: Unsupported argument
product = "cli"       # ERROR @1: Unsupported argument
something = 1         # ERROR @1: Unsupported argument
