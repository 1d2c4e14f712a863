# Secrets in every place the module accepts { file = …; }: env, headers and
# oauth.clientSecret, next to plain strings in the same attrsets, at the top
# level and inside a plugin. Paths are sops-nix and agenix runtime paths.
{
  cfg = {
    enable = true;
    mcpServers = {
      github = {
        command = "github-mcp-server";
        args = [ "stdio" ];
        env = {
          GITHUB_PERSONAL_ACCESS_TOKEN = {
            file = "/run/secrets/github-token";
          };
          GITHUB_HOST = "github.example.com";
        };
      };
      linear = {
        url = "https://mcp.linear.app/sse";
        headers = {
          Authorization = {
            file = "/run/agenix/linear";
          };
          X-Team = "platform";
        };
      };
      notion = {
        url = "https://mcp.notion.com/mcp";
        oauth = {
          clientId = "agyconf-notion";
          clientSecret = {
            file = "/run/user/1000/secrets/notion-client";
          };
        };
      };
    };
    plugins.team = {
      mcpServers.search = {
        url = "https://search.example.com/mcp";
        headers.Authorization = {
          file = "/run/secrets/search";
        };
      };
    };
  };
  tools = { };
}
