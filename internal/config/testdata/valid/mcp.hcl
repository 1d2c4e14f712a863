# MCP servers, local and remote, with every argument; secrets through
# secret_file() in args, env, headers and oauth; the tools block; and every
# layout override.

agyconf {
  scope   = "global"
  product = "cli"
  layout {
    mcp_config   = ".config/agy/mcp_config.json"
    hooks        = ".config/agy/hooks.json"
    plugins      = ".config/agy/plugins"
    skills       = ".config/agy/skills"
    agents       = ".config/agy/agents"
    rules        = ".config/agy/rules"
    global_rules = ".config/agy/GEMINI.md"
    workflows    = ".config/agy/workflows"
    settings     = ".config/agy/settings.json"
    acp_settings = ".config/agy/acp-settings.json"
  }
}

tools {
  agyhook       = "/home/me/.nix-profile/bin/agyhook"
  xmsg          = "/home/me/.nix-profile/bin/xmsg"
  mempalace     = "/home/me/.local/bin/mempalace"
  mempalace-mcp = "/home/me/.local/bin/mempalace-mcp"
}

mcp_server "github" {
  command = "github-mcp-server"
  args    = ["stdio", "--token", secret_file("/run/secrets/github"), "--port", 8080, true]
  env = {
    GITHUB_TOKEN = secret_file("/run/secrets/github")
    GITHUB_HOST  = "github.example.com"
    AUTH         = "token ${secret_file("/run/secrets/github")} (rotated)"
  }
  cwd            = "/srv/github-mcp"
  disabled_tools = ["delete_repository", "merge_pull_request"]
  secret_mode    = "inline" # a secret in args can only be written
}

mcp_server "archived" {
  command  = "archive-mcp"
  disabled = true
}

mcp_server "linear" {
  server_url = "https://mcp.linear.app/sse"
  headers = {
    Authorization = "Bearer ${secret_file("/run/secrets/linear")}"
    X-Team        = "platform"
  }
  disabled_tools = ["delete_issue"]
}

mcp_server "cloud-run" {
  server_url         = "https://mcp.example.run.app/mcp"
  auth_provider_type = "google_credentials"
  disabled           = false
}

mcp_server "notion" {
  server_url = "https://mcp.notion.com/mcp"
  oauth {
    client_id = "agyconf-notion"
  }
}
