# Secret paths as sops-nix and agenix hand them out when they name the
# user's runtime folder: sops-nix's "%r/<name>" (%% a literal %), agenix's
# Linux default "${XDG_RUNTIME_DIR}/agenix/<name>" and its darwin default
# "$(<store path>/bin/getconf DARWIN_USER_TEMP_DIR)/agenix/<name>". The
# model carries each as written, ${ escaped so that HCL's template syntax
# leaves it alone; agyconf expands it only where the secret is read.
{
  cfg = {
    enable = true;
    mcpServers = {
      github = {
        command = "github-mcp-server";
        env.GITHUB_PERSONAL_ACCESS_TOKEN.file = "%r/secrets/github-token";
        env.PERCENT.file = "%r/secrets/100%%-real";
      };
      linear = {
        url = "https://mcp.linear.app/sse";
        headers.Authorization.file = "\${XDG_RUNTIME_DIR}/agenix/linear";
      };
      notion = {
        url = "https://mcp.notion.com/mcp";
        headers.Authorization.file = "$(/nix/store/00000000000000000000000000000000-getconf-glibc-2.40/bin/getconf DARWIN_USER_TEMP_DIR)/agenix/notion";
      };
    };
  };
  tools = { };
}
