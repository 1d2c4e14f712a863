# Only the harnesses agyconf knows; a near miss gets a suggestion.
harness "mempalce" {} # ERROR @9: Unknown harness
harness "slack" {}    # ERROR @9: Unknown harness
