# Prompt handlers are unknown to older agy builds.
hook "h" {
  stop {
    type   = "prompt" # ERROR @14: Needs a newer agy_version
    prompt = "Should the agent continue?"
  }
  pre_tool_use {
    matcher = "*"
    handler {
      type   = "prompt" # ERROR @16: Needs a newer agy_version
      prompt = "Allow?"
    }
  }
}
