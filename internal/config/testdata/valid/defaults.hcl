# An empty config is valid: the agyconf block defaults to scope = "global"
# and product = "both".
