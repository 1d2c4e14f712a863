# Home Manager module: programs.agyconf (docs/nix.md).
# Options become agyconf's JSON input (../model.nix), validated while the
# generation is built and rendered into $HOME during activation
# (../activate.sh).
{
  config,
  lib,
  options,
  pkgs,
  ...
}:
let
  inherit (lib) mkOption types literalExpression;

  cfg = config.programs.agyconf;
  jsonFormat = pkgs.formats.json { };
  agyFacts = builtins.fromJSON (builtins.readFile ../agy-facts.json);

  # --- option types -------------------------------------------------------

  nullOrStr =
    description:
    mkOption {
      type = types.nullOr types.str;
      default = null;
      inherit description;
    };

  # A secret: a literal string, or { file = "/run/secrets/x"; } read when
  # agyconf renders. `file` is a string, so a Nix path (which would copy the
  # secret into the world-readable store) is refused by type; a path given
  # instead of the attrset is refused too (a submodule would import it).
  secretFileType = types.addCheck (types.submodule {
    options.file = mkOption {
      type = types.str;
      example = "/run/secrets/github-token";
      description = ''
        Absolute path of the file holding the secret, read when agyconf
        renders (during activation), never copied into the Nix store. Use
        the runtime path of sops-nix or agenix, e.g.
        `config.sops.secrets.github.path`. A Nix path (`./token`) is
        refused: it would copy the secret into the world-readable store.
      '';
    };
  }) builtins.isAttrs;
  secretType = types.either types.str secretFileType;

  secretModeType = types.enum [
    "exec"
    "inline"
  ];

  handlerType = types.submodule {
    options = {
      type = mkOption {
        type = types.enum [
          "command"
          "prompt"
        ];
        default = "command";
        description = "Handler kind: `command` runs a shell command, `prompt` asks a model (agy 1.1.25 or newer).";
      };
      command = nullOrStr "Shell command run by agy (command handlers). Bare names are resolved through `programs.agyconf.tools`, else agy's PATH.";
      prompt = nullOrStr "Prompt text (prompt handlers only).";
      model = nullOrStr "Model used by a prompt handler.";
      timeout = mkOption {
        type = types.nullOr types.ints.positive;
        default = null;
        description = "Timeout in whole seconds; agyconf writes 30 when unset.";
      };
    };
  };

  matcherGroupType = types.submodule {
    options = {
      matcher = mkOption {
        type = types.str;
        default = "";
        example = "call_mcp_tool|mcp_github_.*";
        description = "Regular expression over tool names; `\"\"` (the default) matches every tool.";
      };
      handlers = mkOption {
        type = types.listOf handlerType;
        default = [ ];
        description = "Handlers of this matcher group, run in list order.";
      };
    };
  };

  handlerList =
    event:
    mkOption {
      type = types.listOf handlerType;
      default = [ ];
      description = "Handlers run on ${event}, in list order.";
    };

  groupList =
    event:
    mkOption {
      type = types.listOf matcherGroupType;
      default = [ ];
      description = "Matcher groups run on ${event}, in list order.";
    };

  hookType = types.submodule {
    options = {
      enabled = mkOption {
        type = types.bool;
        default = true;
        description = "Whether agy runs this hook.";
      };
    }
    # One option per event of agyconf's table of facts (internal/agy,
    # generated into ../agy-facts.json).
    // builtins.listToAttrs (
      map (e: {
        name = e.option;
        value = (if e.grouped then groupList else handlerList) (
          e.name + (if e ? since then " (agy ${e.since} or newer)" else "")
        );
      }) agyFacts.events
    );
  };

  mcpServerType = types.submodule {
    options = {
      command = nullOrStr "Executable of a local (stdio) server. Not together with `url`.";
      args = mkOption {
        type = types.listOf (
          types.oneOf [
            types.str
            types.int
            types.bool
          ]
        );
        default = [ ];
        description = "Arguments of a local server; numbers and bools are written as text.";
      };
      env = mkOption {
        type = types.attrsOf secretType;
        default = { };
        example = literalExpression ''{ GITHUB_TOKEN = { file = config.sops.secrets.github.path; }; }'';
        description = "Environment of a local server. A value is a literal string or `{ file = \"/run/secrets/x\"; }`, read when agyconf renders.";
      };
      cwd = nullOrStr "Working directory of a local server.";
      url = nullOrStr "URL of a remote (HTTP) server, written as `serverUrl`. Not together with `command`.";
      headers = mkOption {
        type = types.attrsOf secretType;
        default = { };
        description = "HTTP headers of a remote server. A value is a literal string or `{ file = …; }`.";
      };
      authProviderType = nullOrStr "Authentication provider of a remote server; agy accepts only `google_credentials`.";
      oauth = mkOption {
        type = types.nullOr (
          types.submodule {
            options = {
              clientId = mkOption {
                type = types.str;
                description = "OAuth client id.";
              };
              clientSecret = mkOption {
                type = types.nullOr secretType;
                default = null;
                description = "OAuth client secret: a string or `{ file = …; }`.";
              };
            };
          }
        );
        default = null;
        description = "OAuth client of a remote server.";
      };
      disabled = mkOption {
        type = types.bool;
        default = false;
        description = "Keep the server configured but switched off in agy.";
      };
      disabledTools = mkOption {
        type = types.listOf types.str;
        default = [ ];
        description = "Tools of this server agy must not offer.";
      };
      enabledTools = mkOption {
        type = types.listOf types.str;
        default = [ ];
        description = "The only tools of this server agy offers (`enabledTools`, agy 1.1.16 or newer: set `agyVersion`). Not together with `disabledTools`.";
      };
      timeoutSeconds = mkOption {
        type = types.nullOr types.int;
        default = null;
        description = "How long agy waits for the server to launch, in seconds; -1 for no limit (`timeoutSeconds`, agy 1.0.7 or newer: set `agyVersion`).";
      };
      tools = mkOption {
        type = types.attrsOf (
          types.submodule {
            options.eager = mkOption {
              type = types.bool;
              description = "Load the tool's declaration at startup (`true`) or on demand (`false`).";
            };
          }
        );
        default = { };
        example = {
          list_servers.eager = true;
        };
        description = "Per-tool settings, by tool name, written as `tools.<tool>.eager` (agy 1.1.16 or newer: set `agyVersion`).";
      };
      extra = mkOption {
        type = types.attrsOf jsonFormat.type;
        default = { };
        example = {
          trust = true;
        };
        description = "More members of the server's `mcp_config.json` entry, written as given: a field agy reads that agyconf does not know yet. Never one agyconf writes itself, never a secret.";
      };
      secretMode = mkOption {
        type = types.nullOr secretModeType;
        default = null;
        description = ''
          How this server's secrets reach it; null means `programs.agyconf.secretMode`
          for local servers. Remote servers' headers and OAuth secret are always
          `"inline"`, since agy sends them itself.
        '';
      };
    };
  };

  skillType = types.submodule {
    options = {
      description = nullOrStr "What the skill is for: all the model sees before loading it. Required with `body`.";
      body = mkOption {
        type = types.nullOr types.lines;
        default = null;
        description = "The SKILL.md text (at most 24,000 bytes). Either this or `source`.";
      };
      source = mkOption {
        type = types.nullOr (types.either types.path types.str);
        default = null;
        description = "A folder holding `SKILL.md`, copied as is. Either this or `body`.";
      };
    };
  };

  ruleType = types.submodule {
    options = {
      body = mkOption {
        type = types.lines;
        description = "The rule text (at most 12,000 characters).";
      };
      trigger = mkOption {
        type = types.enum [
          "always_on"
          "glob"
          "model_decision"
          "manual"
        ];
        default = "always_on";
        description = "When agy applies the rule.";
      };
      description = nullOrStr "Description; required when `trigger = \"model_decision\"`.";
      globs = mkOption {
        type = types.listOf types.str;
        default = [ ];
        description = "File globs; required for `trigger = \"glob\"`, refused otherwise. A glob may not contain a comma.";
      };
    };
  };

  strList =
    description:
    mkOption {
      type = types.listOf types.str;
      default = [ ];
      inherit description;
    };
  nullOrBool =
    description:
    mkOption {
      type = types.nullOr types.bool;
      default = null;
      inherit description;
    };

  agentType = types.submodule {
    options = {
      description = mkOption {
        type = types.str;
        description = "What the subagent is for.";
      };
      body = mkOption {
        type = types.lines;
        description = "The subagent's system prompt.";
      };
      model = nullOrStr "Model the subagent runs on.";
      tools = strList "Tools the subagent may use.";
      mcpServers = strList "MCP servers the subagent may use.";
      skills = strList "Skills the subagent may use.";
      mainAgent = nullOrBool "Whether the agent can be used as the main agent.";
      subagent = nullOrBool "Whether the agent can be used as a subagent.";
      commandExecutionPolicy = nullOrStr "Command execution policy of the agent.";
      hidden = nullOrBool "Hide the agent from agy's lists.";
      inheritMcp = nullOrBool "Whether the agent inherits the caller's MCP servers.";
      extra = mkOption {
        type = types.attrsOf jsonFormat.type;
        default = { };
        example = {
          effort = "high";
        };
        description = "More frontmatter keys, written as given: a key agy reads that agyconf does not know yet. Never one agyconf writes itself, never a secret.";
      };
    };
  };

  workflowType = types.submodule {
    options = {
      description = nullOrStr "What the workflow does.";
      body = mkOption {
        type = types.lines;
        description = "The workflow text (at most 12,000 characters).";
      };
    };
  };

  attrsOfOption =
    type: what:
    mkOption {
      type = types.attrsOf type;
      default = { };
      description = what;
    };

  pluginType = types.submodule {
    options = {
      description = nullOrStr "Plugin description.";
      enabled = nullOrBool "Whether the plugin is on, kept in `~/.gemini/config/config.json` (where agy reads enablement since 1.1.11); null leaves it to agy, which seeds it enabled when it first discovers the plugin.";
      extra = mkOption {
        type = types.attrsOf jsonFormat.type;
        default = { };
        example = {
          version = "1.2.0";
          logo = "assets/logo.png";
        };
        description = "More `plugin.json` members, written as given (needs `allowExtra`): the CLI docs' schema allows only `name` and `description`, agy discards what it does not read.";
      };
      allowExtra = mkOption {
        type = types.bool;
        default = false;
        description = "Write `extra` into `plugin.json` although the CLI docs' schema refuses keys other than `name` and `description`.";
      };
      mcpServers = attrsOfOption mcpServerType "MCP servers of the plugin, as `programs.agyconf.mcpServers`.";
      hooks = attrsOfOption hookType "Hooks of the plugin, as `programs.agyconf.hooks`.";
      skills = attrsOfOption skillType "Skills of the plugin, as `programs.agyconf.skills`.";
      rules = attrsOfOption ruleType "Rules of the plugin, as `programs.agyconf.rules`.";
      agents = attrsOfOption agentType "Subagents of the plugin, as `programs.agyconf.agents`.";
    };
  };

  acpType = types.submodule {
    options = {
      authType = mkOption {
        type = types.enum [
          "oauth-personal"
          "oauth-business"
          "gemini-api-key"
          "agent-platform"
        ];
        description = "How the ACP server authenticates (`auth.type`).";
      };
      gcpProject = nullOrStr "Google Cloud project; required for `oauth-business`.";
      gcpLocation = nullOrStr "Google Cloud location; required for `oauth-business`.";
      configRoot = nullOrStr "Folder, relative to `$HOME`, holding an isolated home's `.gemini` for an ACP server started with `GEMINI_HOME` there.";
    };
  };

  # --- programs.antigravity-cli (may be absent in older Home Manager) -------

  acliExists = options.programs ? antigravity-cli;
  acli = config.programs.antigravity-cli;
  acliEnabled = acliExists && acli.enable;
  acliPackage = if acliExists then acli.package or null else null;
  # With a gemini-cli package it writes gemini-cli's files, which agy does not read.
  acliLegacy =
    (acli.useLegacyGeminiConfig or false)
    || (acliPackage != null && lib.getName acliPackage == "gemini-cli");
  fold = acliEnabled && !acliLegacy;
  # agyconf writes settings.json of the CLI only for product cli or both.
  foldSettings = fold && cfg.product != "ide";

  acliSettings = if fold then acli.settings or { } else { };
  acliMcpRaw = lib.recursiveUpdate (acliSettings.mcpServers or { }) (
    if fold then acli.mcpServers or { } else { }
  );
  acliPermsRaw = lib.recursiveUpdate (
    if fold && (acli.permissions or null) != null then acli.permissions else { }
  ) (acliSettings.permissions or { });
  acliPlainSettings = removeAttrs acliSettings [
    "mcpServers"
    "permissions"
  ];
  # What programs.antigravity-cli would write as settings.json.
  acliWritesSettings = acliPlainSettings != { } || acliPermsRaw != { };
  acliContext = if fold then acli.context or { } else { };

  harnessServers =
    lib.optional cfg.harnesses.xmsg.enable "xmsg" ++ lib.optional cfg.harnesses.mempalace.enable "mempalace";

  knownMcpKeys = [
    "command"
    "args"
    "env"
    "cwd"
    "serverUrl"
    "url"
    "httpUrl"
    "headers"
    "authProviderType"
    "oauth"
    "disabled"
    "enabled"
    "disabledTools"
    "enabledTools"
    "timeoutSeconds"
    "tools"
    "type" # added by programs.mcp integration; agy does not need it
  ];

  # programs.antigravity-cli's JSON server shape → a full mcpServers.<name> value.
  convertServer =
    s:
    let
      # as programs.antigravity-cli: url over httpUrl over serverUrl
      remoteUrl = s.url or s.httpUrl or s.serverUrl or null;
      remote = remoteUrl != null;
      oauth = s.oauth or null;
    in
    {
      command = if remote then null else s.command or null;
      args = if remote then [ ] else s.args or [ ];
      env = if remote then { } else s.env or { };
      cwd = s.cwd or null;
      url = remoteUrl;
      headers = s.headers or { };
      authProviderType = s.authProviderType or null;
      oauth =
        if oauth == null then
          null
        else
          {
            clientId = oauth.clientId or "";
            clientSecret = oauth.clientSecret or null;
          };
      disabled = (s.disabled or false) || (s.enabled or true) == false;
      disabledTools = s.disabledTools or [ ];
      enabledTools = s.enabledTools or [ ];
      timeoutSeconds = s.timeoutSeconds or null;
      # Only the per-tool shape, tools.<tool>.eager, is carried over.
      tools = lib.mapAttrs (_: t: { inherit (t) eager; }) (
        lib.filterAttrs (_: t: builtins.isAttrs t && t ? eager) (s.tools or { })
      );
      secretMode = null;
    };

  acliMcpKept = lib.filterAttrs (
    n: _: !(cfg.mcpServers ? ${n}) && !(lib.elem n harnessServers)
  ) acliMcpRaw;
  acliMcpShadowed = lib.attrNames (removeAttrs acliMcpRaw (lib.attrNames acliMcpKept));

  ownPerms = cfg.permissions;
  ownPermEntries = ownPerms.allow ++ ownPerms.ask ++ ownPerms.deny;
  # agy applies deny over ask over allow; an entry may appear once overall.
  fDeny = lib.filter (e: !lib.elem e ownPermEntries) (acliPermsRaw.deny or [ ]);
  fAsk = lib.filter (e: !lib.elem e ownPermEntries && !lib.elem e fDeny) (acliPermsRaw.ask or [ ]);
  fAllow = lib.filter (e: !lib.elem e ownPermEntries && !lib.elem e fDeny && !lib.elem e fAsk) (
    acliPermsRaw.allow or [ ]
  );

  # ~/.gemini/GEMINI.md carries agyconf's global rules (a managed block): when
  # agyconf has rules there, programs.antigravity-cli's context.GEMINI moves in
  # as a rule instead of a read-only link over that file.
  foldGeminiMd = fold && acliContext ? GEMINI && cfg.rules != { };
  geminiMdText =
    let
      v = acliContext.GEMINI;
    in
    if lib.isPath v then builtins.readFile v else v;
  geminiMdRule = "antigravity-cli-context";

  # --- the model ------------------------------------------------------------

  profileBin = name: "${config.home.profileDirectory}/bin/${name}";

  computedTools =
    lib.optionalAttrs (cfg.hookPackage != null) { agyhook = profileBin "agyhook"; }
    // lib.optionalAttrs (cfg.harnesses.xmsg.package != null) { xmsg = profileBin "xmsg"; }
    // lib.optionalAttrs (cfg.harnesses.mempalace.package != null) {
      mempalace = profileBin "mempalace";
      mempalace-mcp = profileBin "mempalace-mcp";
    };

  modelCfg =
    cfg
    // {
      mcpServers = lib.mapAttrs (_: convertServer) acliMcpKept // cfg.mcpServers;
      rules = cfg.rules // lib.optionalAttrs (foldGeminiMd && !(cfg.rules ? ${geminiMdRule})) {
        ${geminiMdRule} = {
          body = geminiMdText;
          trigger = "always_on";
          description = null;
          globs = [ ];
        };
      };
    }
    // lib.optionalAttrs foldSettings {
      settings = lib.recursiveUpdate acliPlainSettings cfg.settings;
      permissions = {
        allow = lib.unique (ownPerms.allow ++ fAllow);
        ask = lib.unique (ownPerms.ask ++ fAsk);
        deny = lib.unique (ownPerms.deny ++ fDeny);
      };
    };

  model = import ../model.nix {
    cfg = modelCfg;
    tools = computedTools;
  };

  agyconfExe = "${cfg.package}/bin/agyconf";

  configFileName = f: baseNameOf (toString f);

  # The validated config folder: the generated agyconf.json plus configFiles.
  # Its output is what ~/.config/agyconf links to and activation renders, so a
  # bad option fails `home-manager build` with agyconf's own message.
  configDir =
    pkgs.runCommand "agyconf-config"
      {
        nativeBuildInputs = [ cfg.package ];
        # the JSON model, as pkgs.formats.json passes it
        value = builtins.toJSON model;
        passAsFile = [ "value" ];
      }
      ''
        mkdir "$out"
        cp "$valuePath" "$out/agyconf.json"
        ${lib.concatMapStrings (f: ''
          cp ${lib.escapeShellArg "${f}"} "$out"/${lib.escapeShellArg (configFileName f)}
        '') cfg.configFiles}
        agyconf validate --config "$out"
      '';

  # every { file = …; } of the options, with the option it came from
  secretRefs =
    let
      isRef = v: builtins.isAttrs v && v ? file;
      ofServer =
        where: s:
        lib.concatLists [
          (lib.mapAttrsToList (k: v: {
            where = "${where}.env.${k}";
            ref = v;
          }) s.env)
          (lib.mapAttrsToList (k: v: {
            where = "${where}.headers.${k}";
            ref = v;
          }) s.headers)
          (lib.optional (s.oauth != null) {
            where = "${where}.oauth.clientSecret";
            ref = s.oauth.clientSecret;
          })
        ];
      ofServers = where: servers: lib.concatLists (lib.mapAttrsToList (n: ofServer "${where}.${n}") servers);
    in
    lib.filter (r: isRef r.ref) (
      ofServers "programs.agyconf.mcpServers" cfg.mcpServers
      ++ lib.concatLists (
        lib.mapAttrsToList (
          p: v: ofServers "programs.agyconf.plugins.${p}.mcpServers" v.mcpServers
        ) cfg.plugins
      )
    );
  storeSecrets = lib.filter (r: lib.hasPrefix builtins.storeDir r.ref.file) secretRefs;

  configNames = map configFileName cfg.configFiles;
  xmsg = cfg.harnesses.xmsg;
  mempalace = cfg.harnesses.mempalace;
in
{
  options.programs.agyconf = {
    enable = lib.mkEnableOption "agyconf, declarative configuration of Google Antigravity (agy)";

    package = mkOption {
      type = types.nullOr types.package;
      default = null;
      defaultText = lib.literalMD "`null`; the flake's `homeManagerModules` set the flake's `agyconf`";
      description = ''
        The agyconf package, used to validate the configuration while the
        generation is built and to render it during activation. The flake's
        `homeManagerModules` set it; with the plain `module.nix` set it
        yourself.
      '';
    };

    hookPackage = mkOption {
      type = types.nullOr types.package;
      default = null;
      defaultText = lib.literalMD "`null`; the flake's `homeManagerModules` set the flake's `agyhook`";
      description = ''
        The agyhook package (hook helper used by the mempalace harness).
        Installed into the profile; its profile path is written as
        `tools.agyhook`.
      '';
    };

    product = mkOption {
      type = types.enum [
        "cli"
        "ide"
        "both"
      ];
      default = "both";
      description = "Which Antigravity product's files are written: the CLI (agy), the IDE, or both.";
    };

    agyVersion = mkOption {
      type = types.nullOr types.str;
      default = null;
      example = "1.1.25";
      description = "Oldest agy build (`X.Y.Z`) the output must load on; needed for `sessionStart` and prompt handlers.";
    };

    secretMode = mkOption {
      type = types.nullOr secretModeType;
      default = null;
      description = ''
        How local MCP servers' secrets reach them; null is agyconf's default, `"exec"`:
        the server's command becomes `agyhook exec-env … -- command`, which reads the
        secret files when agy starts the server, so no value is written anywhere (secrets
        then go through `env` only). `"inline"` writes the values into mcp_config.json,
        mode 0600.
      '';
    };

    layout = mkOption {
      type = types.attrsOf types.str;
      default = { };
      example = {
        skills = ".gemini/antigravity-cli/skills";
      };
      description = "Path overrides relative to `$HOME`, keyed by artifact (`mcp_config`, `hooks`, `plugins`, `skills`, `agents`, `rules`, `global_rules`, `workflows`, `settings`, `ide_settings`, `acp_settings`, `user_config`).";
    };

    tools = mkOption {
      type = types.attrsOf types.str;
      default = { };
      example = {
        github-mcp-server = "/etc/profiles/per-user/me/bin/github-mcp-server";
      };
      description = ''
        Absolute paths agyconf writes in place of bare command names. The
        module adds the profile paths of `hookPackage` and the harness
        packages; prefer profile paths to store paths, which garbage
        collection can remove under a running agy.
      '';
    };

    mcpServers = mkOption {
      type = types.attrsOf mcpServerType;
      default = { };
      example = literalExpression ''
        {
          github = {
            command = "github-mcp-server";
            args = [ "stdio" ];
            env.GITHUB_PERSONAL_ACCESS_TOKEN = { file = config.sops.secrets.github.path; };
          };
        }
      '';
      description = "MCP servers written to `~/.gemini/config/mcp_config.json` (merged with agy's own entries).";
    };

    hooks = mkOption {
      type = types.attrsOf hookType;
      default = { };
      description = "Named hooks of `hooks.json`; lists keep their order, which is the order agy runs them in.";
    };

    skills = mkOption {
      type = types.attrsOf skillType;
      default = { };
      description = "Skills (lowercase words joined by hyphens), from `description` and `body` or a `source` folder.";
    };

    rules = mkOption {
      type = types.attrsOf ruleType;
      default = { };
      description = "Global rules, written as agyconf's managed block of `~/.gemini/GEMINI.md`.";
    };

    agents = mkOption {
      type = types.attrsOf agentType;
      default = { };
      description = "Subagents.";
    };

    workflows = mkOption {
      type = types.attrsOf workflowType;
      default = { };
      description = "Global workflows.";
    };

    plugins = mkOption {
      type = types.attrsOf pluginType;
      default = { };
      description = "Plugins, each bundling MCP servers, hooks, skills, rules and agents.";
    };

    permissions = mkOption {
      type = types.submodule {
        options = lib.genAttrs [ "allow" "ask" "deny" ] (
          list:
          mkOption {
            type = types.listOf types.str;
            default = [ ];
            example = [ "command(git *)" ];
            description = "Permission entries agy treats as `${list}`: `action` or `action(target)`.";
          }
        );
      };
      default = { };
      description = "agy's permission lists; an entry may appear in only one (agy applies deny over ask over allow).";
    };

    sharedPermissions = mkOption {
      type = types.submodule {
        options = lib.genAttrs [ "allow" "ask" "deny" ] (
          list:
          mkOption {
            type = types.listOf types.str;
            default = [ ];
            example = [ "command(git status)" ];
            description = "Grants shared with Antigravity 2.0 that agy treats as `${list}`.";
          }
        );
      };
      default = { };
      description = "Permission grants shared with Antigravity 2.0, kept in `~/.gemini/config/config.json` (`userSettings.globalPermissionGrants`), which the CLI merges with its own `settings.json`; an entry may appear once across `permissions` and `sharedPermissions`.";
    };

    settings = mkOption {
      type = types.attrsOf jsonFormat.type;
      default = { };
      example = {
        toolPermission = "proceed-in-sandbox";
      };
      description = "Other keys of the CLI's `settings.json` (known keys are checked by agyconf; `permissions` and `hooks` belong in their own options).";
    };

    acp = mkOption {
      type = types.nullOr acpType;
      default = null;
      description = "Defaults of `~/.gemini/antigravity-acp/settings.json` for agy's ACP server.";
    };

    extraConfig = mkOption {
      type = types.attrsOf jsonFormat.type;
      default = { };
      example = literalExpression ''{ tools.node = "/run/current-system/sw/bin/node"; }'';
      description = ''
        Raw agyconf model in HCL's JSON syntax, merged recursively over what
        the options produce. Not escaped: templates and `secret_file()`
        work here, so a literal `''${` must be written `$''${`.
      '';
    };

    configFiles = mkOption {
      type = types.listOf types.path;
      default = [ ];
      description = "Extra agyconf config files (`.hcl` or `.json`) placed beside the generated `agyconf.json`; names must be unique across them.";
    };

    onConflict = mkOption {
      type = types.enum [
        "error"
        "adopt"
        "force"
      ];
      default = "error";
      description = ''
        What activation does with a file agyconf did not write (`adopt`:
        take it over) or that was edited since it wrote it (`force`:
        overwrite). Both keep a backup; `error` refuses and fails the switch.
      '';
    };

    harnesses.xmsg = {
      enable = lib.mkEnableOption "the xmsg harness (MCP server, registration hooks and skill of xmsg)";
      package = mkOption {
        type = types.nullOr types.package;
        default = null;
        description = "The xmsg package: installed, and its `bin/xmsg` profile path written as `tools.xmsg`.";
      };
      agyExe = mkOption {
        type = types.nullOr types.str;
        default =
          if acliEnabled && acliPackage != null then "${acliPackage}/bin/agy" else null;
        defaultText = lib.literalMD "`\"\${config.programs.antigravity-cli.package}/bin/agy\"` when that module exists, is enabled and has a package, else `null`";
        description = "Absolute path of the agy executable that `xmsg serve --agy-exe` trusts.";
      };
      replyOnly = mkOption {
        type = types.bool;
        default = false;
        description = "Run the xmsg MCP server with `--reply-only`.";
      };
      legacyHooks = mkOption {
        type = types.bool;
        default = false;
        description = "Write the one published registration hook (`xmsg register agy --hook`) instead of the per-event ones.";
      };
      service.enable = lib.mkEnableOption "a systemd user service running `xmsg serve --agy-exe <agyExe>`";
    };

    harnesses.mempalace = {
      enable = lib.mkEnableOption "the MemPalace harness (MCP server, wake and save hooks through agyhook, skill)";
      package = mkOption {
        type = types.nullOr types.package;
        default = null;
        description = "The MemPalace package: installed, and its `bin/mempalace` and `bin/mempalace-mcp` profile paths written to `tools`.";
      };
      mode = mkOption {
        type = types.enum [
          "plugin"
          "loose"
        ];
        default = "plugin";
        description = "Install as the `mempalace` plugin (as MemPalace does) or as loose entries.";
      };
      wake = mkOption {
        type = types.bool;
        default = true;
        description = "Wake-up hook on the first invocation.";
      };
      save = mkOption {
        type = types.bool;
        default = true;
        description = "Save hook on Stop.";
      };
      saveInterval = mkOption {
        type = types.ints.positive;
        default = 15;
        description = "Save every this many exchanges.";
      };
      stateDir = mkOption {
        type = types.nullOr types.str;
        default = null;
        description = "Absolute path of agyhook's state folder.";
      };
    };
  };

  config = lib.mkIf cfg.enable (
    lib.mkMerge [
      {
        assertions = [
          {
            assertion = cfg.package != null;
            message = ''
              programs.agyconf.enable is true but programs.agyconf.package is null.
              Import agyconf's flake module (homeManagerModules.default), which sets it,
              or set programs.agyconf.package (and hookPackage) to agyconf's packages.
            '';
          }
          {
            assertion = storeSecrets == [ ];
            message = ''
              programs.agyconf: a secret file lies in the world-readable Nix store:
              ${lib.concatMapStringsSep "\n" (r: "  ${r.where}.file = \"${r.ref.file}\"") storeSecrets}
              Point it at the runtime path of sops-nix or agenix
              (e.g. config.sops.secrets.<name>.path), never at a store path.
            '';
          }
          {
            assertion = lib.all (n: lib.hasSuffix ".hcl" n || lib.hasSuffix ".json" n) configNames;
            message = "programs.agyconf.configFiles: agyconf reads only .hcl and .json files, got: ${lib.concatStringsSep ", " configNames}";
          }
          {
            assertion = lib.allUnique (configNames ++ [ "agyconf.json" ]);
            message = "programs.agyconf.configFiles: file names must be unique and not agyconf.json (the generated file), got: ${lib.concatStringsSep ", " configNames}";
          }
          {
            assertion = !xmsg.service.enable || (xmsg.package != null && xmsg.agyExe != null);
            message = ''
              programs.agyconf.harnesses.xmsg.service.enable needs harnesses.xmsg.package
              and harnesses.xmsg.agyExe (the agy executable xmsg serve trusts; it defaults
              to programs.antigravity-cli.package's bin/agy when that module is enabled).
            '';
          }
          {
            assertion = !(acliSettings ? hooks);
            message = ''
              programs.antigravity-cli.settings.hooks cannot be carried over into agyconf's
              settings.json: define them as programs.agyconf.hooks instead.
            '';
          }
        ];

        warnings =
          lib.optional (acliMcpShadowed != [ ])
            "programs.agyconf: programs.antigravity-cli.mcpServers ${lib.concatStringsSep ", " acliMcpShadowed} ignored: programs.agyconf defines a server (or harness) of that name."
          ++ lib.concatLists (
            lib.mapAttrsToList (
              n: s:
              let
                unknown = lib.subtractLists knownMcpKeys (lib.attrNames s);
              in
              lib.optional (
                unknown != [ ]
              ) "programs.agyconf: programs.antigravity-cli.mcpServers.${n}: ${lib.concatStringsSep ", " unknown} not carried over (agyconf has no such server setting)."
            ) acliMcpKept
          );

        home.packages =
          lib.optional (cfg.package != null) cfg.package
          ++ lib.optional (cfg.hookPackage != null) cfg.hookPackage
          ++ lib.optional (xmsg.package != null) xmsg.package
          ++ lib.optional (mempalace.package != null) mempalace.package;
      }

      (lib.mkIf (cfg.package != null) {
        xdg.configFile."agyconf".source = configDir;

        # After linkGeneration too: Home Manager removes its old read-only
        # links there, which agyconf would otherwise refuse to touch.
        home.activation.agyconf = lib.hm.dag.entryAfter [ "writeBoundary" "linkGeneration" ] ''
          source ${../activate.sh}
          agyconfActivate ${lib.escapeShellArg agyconfExe} ${lib.escapeShellArg "${configDir}"} "$HOME" ${lib.escapeShellArg cfg.onConflict}
        '';
      })

      # One writer per file: the links programs.antigravity-cli would put
      # where agyconf writes are switched off, their content folded above.
      (lib.mkIf (fold && acliMcpRaw != { }) {
        home.file.".gemini/config/mcp_config.json".enable = lib.mkForce false;
      })
      (lib.mkIf (foldSettings && acliWritesSettings) {
        home.file.".gemini/antigravity-cli/settings.json".enable = lib.mkForce false;
      })
      (lib.mkIf foldGeminiMd {
        home.file.".gemini/GEMINI.md".enable = lib.mkForce false;
      })

      (lib.mkIf xmsg.service.enable {
        systemd.user.services.xmsg = {
          Unit.Description = "xmsg message server for agy";
          Service = {
            ExecStart = "${lib.getExe' xmsg.package "xmsg"} serve --agy-exe ${lib.escapeShellArg xmsg.agyExe}";
            Restart = "on-failure";
          };
          Install.WantedBy = [ "default.target" ];
        };
      })
    ]
  );
}
