# Hooks on every event, including session_start and a prompt handler, which
# need agy_version; inline handlers and ordered handler blocks; a disabled
# hook; and "$${" escaping a template sequence in both syntaxes.

agyconf {
  agy_version = "1.1.25"
}

hook "audit" {
  pre_tool_use {
    matcher = "run_command"
    command = "/usr/local/bin/audit-cmd"
    timeout = 5
  }
  pre_tool_use {
    matcher = "write_to_file|replace_file_content"
    handler {
      command = "/usr/local/bin/lint"
      timeout = 10
    }
    handler {
      type    = "command"
      command = "/usr/local/bin/notify"
    }
    handler {
      type    = "prompt"
      prompt  = "Does this edit touch generated files? Answer deny if so."
      model   = "gemini-flash"
      timeout = 20
    }
  }
  post_tool_use {
    matcher = "*"
    command = "echo $${HOME} >> /tmp/post.log"
  }
  post_tool_use {
    matcher = ""
    handler { command = "/usr/local/bin/count" }
  }
  pre_invocation {
    command = "/usr/local/bin/pre-inv"
    timeout = 3
  }
  post_invocation {
    type   = "prompt"
    prompt = "Summarise the last step in one line."
  }
  stop {
    command = "/usr/local/bin/audit-stop"
  }
  stop {
    command = "/usr/local/bin/audit-stop-2"
    timeout = 60
  }
  session_start {
    command = "/usr/local/bin/session-banner"
  }
}

hook "paused" {
  enabled = false
  stop { command = "/usr/local/bin/never" }
}

hook "on" {
  enabled = true
  pre_tool_use {
    matcher = "^(view_file|list_dir)$"
    command = "/usr/local/bin/read-log"
  }
}
