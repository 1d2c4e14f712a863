# Every option of docs/nix.md with a non-default value. Options the model
# does not read (package, hookPackage, configFiles, onConflict, the
# harnesses' package and service) are set too: the module consumes them,
# and the model must not trip over them. Literal ${…} and %{…} in user
# strings must survive into the rendered files.
let
  # Every handler field, on every event, so each appears in the model.
  handlers = [
    {
      type = "command";
      command = "echo \${HOME} >> /tmp/agy-hooks.log";
      prompt = null;
      model = null;
      timeout = 7;
    }
    {
      type = "prompt";
      command = null;
      prompt = "Answer deny when the %{x} marker appears.";
      model = "gemini-flash";
      timeout = 20;
    }
  ];
  # Every event of agyconf's table of facts has handlers (a grouped one, a
  # catch-all group), so a new event is covered without an edit here; the
  # two tool events have their own groups below.
  facts = builtins.fromJSON (builtins.readFile ../../../nix/agy-facts.json);
  everyEvent = builtins.listToAttrs (
    map (e: {
      name = e.option;
      value =
        if e.grouped then
          [
            {
              matcher = "";
              inherit handlers;
            }
          ]
        else
          handlers;
    }) facts.events
  );
  events = everyEvent // {
    enabled = true;
    preToolUse = [
      {
        matcher = "run_command";
        inherit handlers;
      }
      {
        matcher = "";
        handlers = [ { command = "/usr/local/bin/audit"; } ];
      }
    ];
    postToolUse = [
      {
        matcher = "^(write_to_file|replace_file_content)$";
        inherit handlers;
      }
    ];
  };
  localServer = {
    command = "github-mcp-server";
    args = [
      "stdio"
      "--port"
      8080
      true
      "--label=\${HOME}"
    ];
    env = {
      GITHUB_PERSONAL_ACCESS_TOKEN = {
        file = "/run/secrets/github-token";
      };
      GITHUB_HOST = "github.example.com";
      LITERAL = "\${NOT_EXPANDED} %{nor_this}";
    };
    cwd = "/srv/github-mcp";
    url = null;
    headers = { };
    authProviderType = null;
    oauth = null;
    disabled = true;
    disabledTools = [
      "delete_repository"
      "merge_pull_request"
    ];
    secretMode = "exec";
  };
  remoteServer = {
    command = null;
    args = [ ];
    env = { };
    cwd = null;
    url = "https://mcp.example.run.app/mcp";
    headers = {
      Authorization = {
        file = "/run/agenix/remote-token";
      };
      X-Team = "platform";
    };
    authProviderType = "google_credentials";
    oauth = {
      clientId = "agyconf-remote";
      clientSecret = {
        file = "/run/secrets/remote-client";
      };
    };
    disabled = false;
    disabledTools = [ "delete_issue" ];
    secretMode = "inline";
  };
  agent = {
    description = "Reviews diffs";
    body = "You review diffs. Leave %{if} and \${x} as they are.";
    model = "gemini-pro";
    tools = [
      "read_file"
      "grep"
    ];
    mcpServers = [ "github" ];
    skills = [ "release-notes" ];
    mainAgent = false;
    subagent = true;
    commandExecutionPolicy = "ask";
    hidden = true;
    inheritMcp = false;
    plugins = [ "team-tools" ];
    rules = [ "../../rules/style.md" ];
    agents = [ "librarian" ];
    hooks = [ "hooks.json" ];
    inheritCustomizations = false;
    excludeDefaultComponents = true;
  };
in
{
  cfg = {
    enable = true;
    package = null;
    hookPackage = null;
    product = "cli";
    # New enough for every event of the table (and at least 1.5.0).
    agyVersion = builtins.foldl' (a: b: if builtins.compareVersions a b >= 0 then a else b) "1.5.0" (
      map (e: e.since) (builtins.filter (e: e ? since) facts.events)
    );
    secretMode = "inline";
    layout = {
      mcp_config = ".config/agy/mcp_config.json";
      legacy_mcp_config = ".config/agy/legacy_mcp_config.json";
      hooks = ".config/agy/hooks.json";
      plugins = ".config/agy/plugins";
      skills = ".config/agy/skills";
      agents = ".config/agy/agents";
      rules = ".config/agy/rules";
      global_rules = ".config/agy/GEMINI.md";
      workflows = ".config/agy/workflows";
      settings = ".config/agy/settings.json";
      acp_settings = ".config/agy/acp-settings.json";
    };
    tools = {
      github-mcp-server = "/home/me/.nix-profile/bin/github-mcp-server";
    };
    mcpServers = {
      github = localServer;
      remote = remoteServer;
    };
    hooks = {
      audit = events;
      paused = {
        enabled = false;
        stop = [ { command = "/usr/local/bin/never"; } ];
      };
    };
    skills = {
      release-notes = {
        description = "Write release notes";
        body = "Collect merged PRs since \${LAST_TAG}; skip %{draft} ones.";
        source = null;
        icon = "📝";
        disableSlashCommand = true;
      };
      lookup = {
        description = "Look things up in the team docs";
        body = null;
        source = "skills/lookup";
      };
    };
    rules = {
      markdown = {
        body = "Wrap prose at 100 columns.";
        trigger = "glob";
        description = "Markdown style";
        globs = [
          "*.md"
          "docs/**/*.mdx"
        ];
      };
      security = {
        body = "Never print \${SECRETS}.";
        trigger = "model_decision";
        description = "When handling credentials";
        globs = [ ];
      };
    };
    agents.reviewer = agent;
    workflows.release = {
      description = "Cut a release";
      body = "1. Tag v\${VERSION}.\n2. Push.";
    };
    plugins.team-tools = {
      description = "Our shared tools";
      disabled = true;
      logo = "assets/logo.png";
      mcpServers = {
        docs = localServer;
        search = remoteServer;
      };
      hooks = {
        guard = events;
        paused = {
          enabled = false;
          stop = [ { command = "/usr/local/bin/never"; } ];
        };
      };
      skills = {
        triage = {
          description = "Team triage";
          body = "Label the issue.";
          source = null;
          icon = "🏷️";
          disableSlashCommand = false;
        };
        docs-lookup = {
          description = "Answer from the team docs";
          body = null;
          source = "skills/docs-lookup";
        };
      };
      rules.style = {
        body = "Use the team's %{style}.";
        trigger = "glob";
        description = "Team style";
        globs = [ "*.go" ];
      };
      agents.librarian = agent;
    };
    permissions = {
      allow = [
        "mcp(github/*)"
        "command(git *)"
      ];
      ask = [ "write_file" ];
      deny = [ "command(rm -rf \${HOME})" ];
    };
    settings = {
      toolPermission = "proceed-in-sandbox";
      artifactReviewPolicy = "agent-decides";
      agentMode = "accept-edits";
      enableTerminalSandbox = true;
      allowNonWorkspaceAccess = false;
      statusLine = {
        format = "\${model} %{cwd}";
        "\${key}" = [
          1
          true
          "x"
        ];
      };
      trustedWorkspaces = [ "/home/me/src" ];
      colorScheme = "dark";
      altScreenMode = "always";
      model = "gemini-pro";
      verbosity = "medium";
      runningLightSpeed = "slow";
      editor = "vim";
      notifications = true;
      showTips = false;
      showFeedbackSurvey = false;
      enableTelemetry = false;
      useG1Credits = false;
      copyOnSelect = false;
      pickerGrouping = "workspace";
      modelProvider = "gemini";
      queuedMessages = { whenIdle = true; };
    };
    acp = {
      authType = "oauth-business";
      gcpProject = "my-project";
      gcpLocation = "europe-west4";
      configRoot = ".local/share/agy-acp";
    };
    extraConfig = {
      mcp_server.extra = {
        command = "extra-mcp";
        env.TOKEN = "\${secret_file(\"/run/secrets/extra\")}";
      };
      settings.colorScheme = "light";
    };
    configFiles = [ "/etc/agyconf/extra.hcl" ];
    onConflict = "adopt";
    harnesses = {
      xmsg = {
        enable = true;
        package = null;
        agyExe = "/home/me/.nix-profile/bin/agy";
        replyOnly = true;
        legacyHooks = true;
        service.enable = true;
      };
      mempalace = {
        enable = true;
        package = null;
        mode = "loose";
        wake = false;
        save = true;
        saveInterval = 5;
        stateDir = "/home/me/.local/state/mempalace";
      };
    };
  };
  tools = {
    agyhook = "/home/me/.nix-profile/bin/agyhook";
    xmsg = "/home/me/.nix-profile/bin/xmsg";
    mempalace = "/home/me/.nix-profile/bin/mempalace";
    mempalace-mcp = "/home/me/.nix-profile/bin/mempalace-mcp";
  };
}
