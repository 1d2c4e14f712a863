# Home Manager module: programs.agyconf (docs/nix.md).
# Options become agyconf's JSON input (../model.nix), validated while the
# generation is built and rendered into $HOME during activation
# (../activate.sh): checked before anything changes, rendered after
# linkGeneration, rendered again when a secret appears.
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
  # "at most 24,000 bytes", from the limits table agyconf's checks use.
  limitText = id:
    let
      l = agyFacts.limits.${id};
      digits = toString l.max;
      n = builtins.stringLength digits;
      grouped = if n > 3 then "${builtins.substring 0 (n - 3) digits},${builtins.substring (n - 3) 3 digits}" else digits;
    in
    "${grouped} ${l.unit}";
  json = import ../json.nix;
  optionPaths = import ../option-paths.nix;
  isDarwin = pkgs.stdenv.hostPlatform.isDarwin;

  # agyconf's own package.nix, for a pkgs without agyconf's overlay: the
  # module file alone is enough.
  ownPackage = component: pkgs.callPackage ../../package.nix { inherit component; };

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
        Path of the file holding the secret, read where agyconf reads the
        secret (while it renders, or when agy starts the server), never
        copied into the Nix store: the runtime path of sops-nix or agenix,
        e.g. `config.sops.secrets.github.path`. An absolute path, or one
        naming the runtime folder as they write it: sops-nix's `%r/…`,
        agenix's `''${XDG_RUNTIME_DIR}/…` (on darwin `$(…/getconf
        DARWIN_USER_TEMP_DIR)/…`), expanded on the machine that reads it. A
        Nix path (`./token`) is refused: it would copy the secret into the
        world-readable store.
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
      type = mkOption {
        type = types.nullOr (
          types.enum [
            "stdio"
            "http"
            "sse"
          ]
        );
        default = null;
        description = "The transport, as `programs.mcp` writes it: `stdio` needs `command`, `http` and `sse` need `url`. agy tells them apart by those, so it is checked and not written.";
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
        description = "The SKILL.md text (at most ${limitText "skill/body"}). Either this or `source`.";
      };
      source = mkOption {
        type = types.nullOr (types.either types.path types.str);
        default = null;
        description = "A folder holding `SKILL.md`, copied as is: a Nix path (`./skills/notes`, copied into the store) or a store path. Either this or `body`.";
      };
      icon = nullOrStr "An emoji for the skill (`metadata.icon`; agy 1.1.20 and newer, so `agyVersion` must say so). Only with `body`.";
      disableSlashCommand = nullOrBool "Hide the skill from the `/` menu; the model can still use it (`disable-slash-command`; agy 1.1.12 and newer). Only with `body`.";
    };
  };

  ruleType = types.submodule {
    options = {
      body = mkOption {
        type = types.lines;
        description = "The rule text. Rules share agy's budget of ${limitText "rule/budget"}; what is over it is cut, and agyconf warns.";
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
      skills = strList "Skills the subagent may use (names or paths).";
      plugins = strList "Plugins the subagent may use (names or paths).";
      rules = strList "Rule files the subagent always applies (agy 1.1.15 and newer, so `agyVersion` must say so).";
      agents = strList "Subagents this agent depends on (agy 1.1.27 and newer).";
      hooks = strList "Hooks of the subagent (agy 1.3.1 and newer; the value's shape is a third-party reading, see docs/config.md).";
      mainAgent = nullOrBool "Whether the agent can be used as the main agent.";
      subagent = nullOrBool "Whether the agent can be used as a subagent.";
      commandExecutionPolicy = nullOrStr "Command execution policy of the agent.";
      hidden = nullOrBool "Hide the agent from agy's lists.";
      inheritMcp = nullOrBool "Whether the agent inherits the caller's MCP servers.";
      inheritCustomizations = nullOrBool "Whether the agent adopts your skills, rules, plugins, subagents and MCP servers (agy 1.1.14 and newer).";
      excludeDefaultComponents = nullOrBool "Opt the agent out of agy's default prompt sections and built-in tools (agy 1.2.1 and newer).";
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

  # allow, ask and deny: lists of permission entries.
  permissionListsType =
    example: describe:
    types.submodule {
      options = lib.genAttrs [ "allow" "ask" "deny" ] (
        list:
        mkOption {
          type = types.listOf types.str;
          default = [ ];
          inherit example;
          description = describe list;
        }
      );
    };

  workflowType = types.submodule {
    options = {
      description = nullOrStr "What the workflow does.";
      body = mkOption {
        type = types.lines;
        description = "The workflow text (at most ${limitText "workflow/body"}).";
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
      configRoot = nullOrStr "Folder, relative to `$HOME`, holding an isolated home's `.gemini` for an ACP server started with `GEMINI_HOME=$HOME/<configRoot>/.gemini`, which the server honours as its Gemini home.";
    };
  };

  # --- servers from elsewhere ------------------------------------------------
  # programs.mcp (programs.agyconf.enableMcpIntegration) and
  # programs.antigravity-cli (when both are enabled) are folded in from their
  # own definitions; agyconf's own servers win a name clash, then
  # programs.antigravity-cli's, then programs.mcp's. Either module may be
  # absent in an older Home Manager.

  mcpExists = options.programs ? mcp;
  mcpOn = mcpExists && config.programs.mcp.enable;
  mcpServers = if mcpOn then config.programs.mcp.servers else { };

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
  # programs.antigravity-cli's own enableMcpIntegration puts programs.mcp's
  # servers there, a server with secret files as Home Manager's wrapper
  # script (a derivation, whose store path garbage collection can remove
  # under a running agy): such a server is read from programs.mcp instead.
  acliIntegration = fold && (acli.enableMcpIntegration or false) && mcpOn;
  wrapped = n: s: acliIntegration && mcpServers ? ${n} && builtins.isAttrs s && lib.isDerivation (s.command or null);
  acliMcpOwn = lib.filterAttrs (n: s: !(wrapped n s)) acliMcpRaw;
  mcpFolded =
    if cfg.enableMcpIntegration then
      mcpServers
    else
      lib.filterAttrs (n: _: acliMcpRaw ? ${n} && wrapped n acliMcpRaw.${n}) mcpServers;

  harnessServers =
    lib.optional cfg.harnesses.xmsg.enable "xmsg" ++ lib.optional cfg.harnesses.mempalace.enable "mempalace";

  # Every folded server, by name: where it came from and its definition.
  foreign =
    lib.mapAttrs (n: s: {
      from = "programs.mcp.servers.${optionPaths.showName n}";
      server = s;
    }) mcpFolded
    // lib.mapAttrs (n: s: {
      from = "programs.antigravity-cli.mcpServers.${optionPaths.showName n}";
      server = s;
    }) acliMcpOwn;
  foreignKept = lib.filterAttrs (n: _: !(cfg.mcpServers ? ${n}) && !(lib.elem n harnessServers)) foreign;
  foreignShadowed = lib.attrNames (removeAttrs foreign (lib.attrNames foreignKept));

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
    "type"
  ];

  # What a folded server's fields must be, checked before anything reads
  # them: a wrong type is an error naming the option it was defined at,
  # never a stack trace from nix/model.nix.
  isSecretRef = v: builtins.isAttrs v && v ? file && builtins.isString v.file && builtins.attrNames v == [ "file" ];
  isSecretish = v: builtins.isString v || isSecretRef v;
  isArg = v: builtins.isString v || builtins.isInt v || builtins.isBool v;
  fieldChecks = {
    command = {
      ok = v: v == null || builtins.isString v;
      want = "a string";
    };
    args = {
      ok = v: builtins.isList v && lib.all isArg v;
      want = "a list of strings, numbers or bools";
    };
    env = {
      ok = v: builtins.isAttrs v && lib.all isSecretish (lib.attrValues v);
      want = "an attribute set of strings or { file = \"…\"; }";
    };
    headers = fieldChecks.env;
    cwd = fieldChecks.command;
    url = fieldChecks.command;
    httpUrl = fieldChecks.command;
    serverUrl = fieldChecks.command;
    authProviderType = fieldChecks.command;
    oauth = {
      ok =
        v:
        v == null
        || (builtins.isAttrs v && builtins.isString (v.clientId or null) && (v.clientSecret or null == null || isSecretish v.clientSecret));
      want = "{ clientId = \"…\"; clientSecret = \"…\" or { file = \"…\"; }; }";
    };
    disabled = {
      ok = v: v == null || builtins.isBool v;
      want = "a bool";
    };
    enabled = fieldChecks.disabled;
    disabledTools = {
      ok = v: builtins.isList v && lib.all builtins.isString v;
      want = "a list of strings";
    };
    enabledTools = fieldChecks.disabledTools;
    timeoutSeconds = {
      ok = v: v == null || builtins.isInt v;
      want = "a whole number of seconds, -1 for no limit";
    };
    tools = {
      ok = builtins.isAttrs;
      want = "an attribute set of { eager = true|false; }, by tool name";
    };
    type = {
      ok = v: v == null || lib.elem v [ "stdio" "http" "sse" ];
      want = "\"stdio\", \"http\" or \"sse\"";
    };
  };
  typeOfValue = v: if lib.isDerivation v then "a package" else builtins.typeOf v;
  serverErrors =
    from: s:
    if !(builtins.isAttrs s) then
      [ "${from}: an attribute set (a server), got ${typeOfValue s}" ]
    else
      lib.concatLists (
        lib.mapAttrsToList (
          k: c: lib.optional (s ? ${k} && !(c.ok s.${k})) "${from}.${k}: ${c.want}, got ${typeOfValue s.${k}}"
        ) fieldChecks
      );
  foreignErrors = lib.concatLists (lib.mapAttrsToList (_: f: serverErrors f.from f.server) foreignKept);

  # A folded server as a full mcpServers.<name> value; a field of the wrong
  # type reads as its default (the assertion above names it).
  field = s: k: d: if s ? ${k} && fieldChecks.${k}.ok s.${k} then s.${k} else d;
  convertServer =
    s0:
    let
      s = if builtins.isAttrs s0 then s0 else { };
      # as programs.antigravity-cli: url over httpUrl over serverUrl
      remoteUrl = field s "url" (field s "httpUrl" (field s "serverUrl" null));
      remote = remoteUrl != null;
      oauth = field s "oauth" null;
    in
    {
      command = if remote then null else field s "command" null;
      args = if remote then [ ] else field s "args" [ ];
      env = if remote then { } else field s "env" { };
      cwd = field s "cwd" null;
      url = remoteUrl;
      headers = field s "headers" { };
      authProviderType = field s "authProviderType" null;
      oauth =
        if oauth == null then
          null
        else
          {
            inherit (oauth) clientId;
            clientSecret = oauth.clientSecret or null;
          };
      disabled = field s "disabled" false == true || field s "enabled" true == false;
      disabledTools = field s "disabledTools" [ ];
      enabledTools = field s "enabledTools" [ ];
      timeoutSeconds = field s "timeoutSeconds" null;
      # Only the per-tool shape, tools.<tool>.eager, is carried over.
      tools = lib.mapAttrs (_: t: { inherit (t) eager; }) (
        lib.filterAttrs (_: t: builtins.isAttrs t && t ? eager && builtins.isBool t.eager) (field s "tools" { })
      );
      # Fields agyconf does not know go through as they are (extra);
      # a null, which extra cannot hold, is left out (a warning says so).
      extra = lib.filterAttrs (k: v: !(lib.elem k knownMcpKeys) && v != null) s;
      secretMode = null;
    };

  ownPerms = cfg.permissions;
  ownPermEntries = ownPerms.allow ++ ownPerms.ask ++ ownPerms.deny;
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

  # --- skill folders and config files: what the build can read --------------
  # A Nix path is copied into the store; a string must already be a store
  # path, since the sandboxed build reads nothing else.
  inStore = s: builtins.isString s && lib.hasPrefix "${builtins.storeDir}/" s;
  skillSource =
    src:
    if lib.isPath src then
      builtins.path {
        path = src;
        name = "agyconf-skill-source";
      }
    else
      src;
  withSources = skills: lib.mapAttrs (_: s: s // { source = if s.source == null then null else skillSource s.source; }) skills;
  badSkillSources =
    let
      of =
        where: skills:
        lib.mapAttrsToList (n: s: {
          where = "${where}.${optionPaths.showName n}.source";
          inherit (s) source;
        }) (lib.filterAttrs (_: s: s.source != null && !lib.isPath s.source && !inStore s.source) skills);
    in
    of "programs.agyconf.skills" cfg.skills
    ++ lib.concatLists (
      lib.mapAttrsToList (p: v: of "programs.agyconf.plugins.${optionPaths.showName p}.skills" v.skills) cfg.plugins
    );
  badConfigFiles = lib.filter (f: !lib.isPath f && !inStore f) cfg.configFiles;

  # --- the model ------------------------------------------------------------

  instance = "home-manager";
  profileBin = name: "${config.home.profileDirectory}/bin/${name}";

  computedTools =
    lib.optionalAttrs (cfg.hookPackage != null) { agyhook = profileBin "agyhook"; }
    // lib.optionalAttrs (cfg.harnesses.xmsg.package != null) { xmsg = profileBin "xmsg"; }
    // lib.optionalAttrs (cfg.harnesses.mempalace.package != null) {
      mempalace = profileBin "mempalace";
      mempalace-mcp = profileBin "mempalace-mcp";
    };

  # Where the values the options did not write themselves came from, for
  # messages (../model.nix) and the option-paths map (../option-paths.nix).
  sources =
    lib.mapAttrs' (n: f: lib.nameValuePair "/mcp_server/${n}" f.from) foreignKept
    // lib.optionalAttrs (computedTools ? agyhook) { "/tools/agyhook" = "programs.agyconf.hookPackage"; }
    // lib.optionalAttrs (computedTools ? xmsg) { "/tools/xmsg" = "programs.agyconf.harnesses.xmsg.package"; }
    // lib.optionalAttrs (computedTools ? mempalace) {
      "/tools/mempalace" = "programs.agyconf.harnesses.mempalace.package";
      "/tools/mempalace-mcp" = "programs.agyconf.harnesses.mempalace.package";
    }
    // lib.optionalAttrs (foldGeminiMd && !(cfg.rules ? ${geminiMdRule})) {
      "/rule/${geminiMdRule}" = "programs.antigravity-cli.context.GEMINI";
    }
    // lib.optionalAttrs foldSettings (
      lib.mapAttrs' (k: _: lib.nameValuePair "/settings/${k}" "programs.antigravity-cli.settings.${optionPaths.showName k}") (
        removeAttrs acliPlainSettings (lib.attrNames cfg.settings)
      )
    );

  modelCfg =
    cfg
    // {
      mcpServers = lib.mapAttrs (_: f: convertServer f.server) foreignKept // cfg.mcpServers;
      skills = withSources cfg.skills;
      plugins = lib.mapAttrs (_: p: p // { skills = withSources p.skills; }) cfg.plugins;
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

  modelArgs = {
    tools = computedTools;
    inherit instance sources;
  };
  model = import ../model.nix (modelArgs // { cfg = modelCfg; });
  modelJSON = json.pretty model;
  paths = optionPaths.of {
    inherit model sources;
    base = import ../model.nix (modelArgs // { cfg = modelCfg // { extraConfig = { }; }; });
    inherit (cfg) extraConfig;
  };

  agyconfExe = "${cfg.package}/bin/agyconf";

  configFileName = f: baseNameOf (toString f);

  # The validated config folder: the generated agyconf.json (one value a
  # line) plus configFiles, and option-paths, which names the option of each
  # value for agyconf's messages. Its output is what ~/.config/agyconf links
  # to and activation renders, so a bad option fails `home-manager build`
  # with agyconf's own message, led by the option path.
  configDir =
    pkgs.runCommand "agyconf-config"
      {
        nativeBuildInputs = [ cfg.package ];
        model = modelJSON;
        optionPaths = builtins.toJSON { "agyconf.json" = paths; };
        passAsFile = [
          "model"
          "optionPaths"
        ];
      }
      ''
        mkdir "$out"
        cp "$modelPath" "$out/agyconf.json"
        cp "$optionPathsPath" "$out/option-paths"
        ${lib.concatMapStrings (f: ''
          cp ${lib.escapeShellArg "${f}"} "$out"/${lib.escapeShellArg (configFileName f)}
        '') cfg.configFiles}
        agyconf validate --config "$out" --option-paths "$out/option-paths"
      '';

  # Every server the model has, with the option it came from.
  allServers =
    lib.mapAttrsToList (n: s: {
      where = sources."/mcp_server/${n}" or "programs.agyconf.mcpServers.${optionPaths.showName n}";
      server = s;
    }) modelCfg.mcpServers
    ++ lib.concatLists (
      lib.mapAttrsToList (
        p: v:
        lib.mapAttrsToList (n: s: {
          where = "programs.agyconf.plugins.${optionPaths.showName p}.mcpServers.${optionPaths.showName n}";
          server = s;
        }) v.mcpServers
      ) cfg.plugins
    );
  isRef = v: builtins.isAttrs v && v ? file;
  modeOf = s: if s.secretMode != null then s.secretMode else if cfg.secretMode != null then cfg.secretMode else "exec";
  isRemote = s: s.url != null;

  # every { file = …; } of the servers, with its option and whether agyconf
  # reads it while rendering (inline) or agyhook exec-env when agy starts
  # the server (exec).
  secretRefs = lib.concatMap (
    { where, server }:
    let
      s = server;
      inline = isRemote s || modeOf s == "inline";
    in
    lib.filter (r: isRef r.ref) (
      lib.mapAttrsToList (k: v: {
        where = "${where}.env.${k}";
        ref = v;
        inherit inline;
      }) s.env
      ++ lib.mapAttrsToList (k: v: {
        where = "${where}.headers.${k}";
        ref = v;
        inline = true;
      }) s.headers
      ++ lib.optional (s.oauth != null) {
        where = "${where}.oauth.clientSecret";
        ref = s.oauth.clientSecret;
        inline = true;
      }
    )
  ) allServers;
  storeSecrets = lib.filter (r: builtins.isString r.ref.file && lib.hasPrefix builtins.storeDir r.ref.file) secretRefs;

  # agyhook runs the MemPalace hooks and starts local servers whose
  # secrets are read when agy starts them (exec-env).
  agyhookUsers =
    lib.optional (mempalace.enable && (mempalace.wake || mempalace.save)) "programs.agyconf.harnesses.mempalace"
    ++ map (r: r.where) (lib.filter (r: !r.inline) secretRefs);

  # The inline secrets, which the re-render unit watches.
  watched = lib.unique (map (r: r.ref.file) (lib.filter (r: r.inline) secretRefs));
  # systemd names the runtime folder %t in a user unit, and reads %% as %,
  # as sops-nix does after %r (../model.nix refuses a % anywhere else).
  systemdPath =
    p:
    if lib.hasPrefix "%r/" p then
      "%t/" + lib.removePrefix "%r/" p
    else if lib.hasPrefix "\${XDG_RUNTIME_DIR}/" p then
      "%t/" + lib.removePrefix "\${XDG_RUNTIME_DIR}/" p
    else
      p;
  linuxWatched = map systemdPath (lib.filter (p: !(lib.hasPrefix "$(" p)) watched);
  # launchd watches only paths it is given: the runtime folder of darwin is
  # known only on the machine, so such secrets are looked for every few
  # minutes instead.
  darwinWatched = lib.filter (lib.hasPrefix "/") watched;
  darwinPolls = lib.any (p: !(lib.hasPrefix "/" p)) watched;

  conflictFlags =
    {
      error = [ ];
      adopt = [ "--adopt" ];
      force = [ "--force" ];
    }
    .${cfg.onConflict};
  optionPathsFile = "${configDir}/option-paths";
  # The re-render: what activation runs, for when a secret appears later.
  rerenderArgv = [
    agyconfExe
    "render"
    "--defer-secrets"
    "--config"
    "${configDir}"
    "--root"
    config.home.homeDirectory
    "--option-paths"
    optionPathsFile
  ]
  ++ conflictFlags;

  activateArgs = lib.escapeShellArgs [
    agyconfExe
    "${configDir}"
  ];
  activateTail = lib.escapeShellArgs [
    cfg.onConflict
    optionPathsFile
  ];

  # What `enable = false` cleans: an instance with no entries, so clean lets
  # go of everything the module's instance owns.
  cleanConfig = pkgs.writeTextDir "agyconf.json" (
    json.pretty {
      agyconf = {
        scope = "global";
        inherit instance;
      };
    }
  );
  # The instance's state under the root (internal/layout.StateDir; tests/nix
  # checks the two agree).
  statePath = ".local/state/agyconf/${instance}.json";

  xmsg = cfg.harnesses.xmsg;
  mempalace = cfg.harnesses.mempalace;
  xmsgArgv = [
    (lib.getExe' xmsg.package "xmsg")
    "serve"
    "--agy-exe"
    xmsg.agyExe
  ];
  configNames = map configFileName cfg.configFiles;
in
{
  # Imported twice (the flake's homeManagerModules.agyconf beside module.nix,
  # or from two places), it is still one module.
  key = "agyconf:nix/module/agyconf.nix";

  options.programs.agyconf = {
    enable = lib.mkEnableOption "agyconf, declarative configuration of Google Antigravity (agy)";

    package = mkOption {
      type = types.nullOr types.package;
      default = pkgs.agyconf or (ownPackage "agyconf");
      defaultText = literalExpression ''pkgs.agyconf or (pkgs.callPackage "''${agyconf}/package.nix" { })'';
      description = ''
        The agyconf package, used to validate the configuration while the
        generation is built and to render it during activation: `pkgs.agyconf`
        when agyconf's overlay provides it, else this repository's
        `package.nix` built with `pkgs.callPackage`.
      '';
    };

    hookPackage = mkOption {
      type = types.nullOr types.package;
      default = pkgs.agyhook or (ownPackage "agyhook");
      defaultText = literalExpression ''pkgs.agyhook or (pkgs.callPackage "''${agyconf}/package.nix" { component = "agyhook"; })'';
      description = ''
        The agyhook package, which runs the MemPalace hooks and starts local
        MCP servers whose secrets are read when agy starts them
        (`secretMode = "exec"`). Installed into the profile; its profile path
        is written as `tools.agyhook`. null only with `tools.agyhook` set, or
        when nothing needs it (an assertion says what does).
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
      description = "Path overrides relative to `$HOME`, keyed by artifact (`mcp_config`, `hooks`, `plugins`, `skills`, `agents`, `rules`, `global_rules`, `workflows`, `settings`, `acp_settings`, `user_config`; `ide_settings` is retired and refused).";
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

    enableMcpIntegration = mkOption {
      type = types.bool;
      default = false;
      description = ''
        Whether to fold {option}`programs.mcp.servers` into agyconf's MCP
        servers (when `programs.mcp.enable` is set), read from their own
        definitions: `env.<VAR>.file` becomes a secret read when agy starts
        the server, never Home Manager's wrapper script. A server of the same
        name in {option}`programs.agyconf.mcpServers` or
        `programs.antigravity-cli.mcpServers` wins.
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
      type = permissionListsType [ "command(git *)" ] (list: "Permission entries agy treats as `${list}`: `action` or `action(target)`.");
      default = { };
      description = "agy's permission lists; an entry may appear in only one (agy applies deny over ask over allow).";
    };

    sharedPermissions = mkOption {
      type = permissionListsType [ "command(git status)" ] (list: "Grants shared with Antigravity 2.0 that agy treats as `${list}`.");
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
      description = "Extra agyconf config files (`.hcl` or `.json`) placed beside the generated `agyconf.json`: Nix paths (copied into the store) or store paths, names unique across them.";
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
        overwrite). Both keep a backup. With `error` the switch stops
        before anything changes, as Home Manager's own collision check
        does, naming each file and how to resolve it.
      '';
    };

    watchSecrets = mkOption {
      type = types.bool;
      default = true;
      description = ''
        Render again when an inline secret (a remote server's header, an
        OAuth client secret, a server with `secretMode = "inline"`) appears
        or changes: a systemd path unit on Linux, a launchd agent watching
        the files on darwin. So a secret sops-nix or agenix decrypt after
        the switch reaches its file without another switch.
      '';
    };

    cleanOnDisable = mkOption {
      type = types.bool;
      default = true;
      description = ''
        With `enable = false` while this module is still imported, let go of
        everything the module's instance rendered at the next activation
        (`agyconf clean`: what agyconf created and nobody edited is removed,
        what it found or took over is given back), when that instance has a
        state. Set it to false to keep the files as they are (and not build
        agyconf for a disabled module).
      '';
    };

    generated = mkOption {
      internal = true;
      type = types.nullOr types.attrs;
      default = null;
      description = "What the module generated (the model, its text, the option-paths map, the secrets the re-render watches), for tests.";
    };

    harnesses.xmsg = {
      enable = lib.mkEnableOption "the xmsg harness (MCP server, registration hooks and skill of xmsg)";
      package = mkOption {
        type = types.nullOr types.package;
        default = null;
        description = "The xmsg package: installed, its `bin/xmsg` profile path written as `tools.xmsg`, and the service's executable.";
      };
      agyExe = mkOption {
        type = types.nullOr types.str;
        default = if acliEnabled && acliPackage != null then lib.getExe acliPackage else null;
        defaultText = lib.literalMD "`lib.getExe config.programs.antigravity-cli.package` when that module exists, is enabled and has a package, else `null`";
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
      service.enable = lib.mkEnableOption ''
        a user service running `xmsg serve --agy-exe <agyExe>` (systemd on
        Linux, launchd on darwin), on xmsg's default endpoint, the one the
        rendered registration hooks use'';
    };

    harnesses.mempalace = {
      enable = lib.mkEnableOption "the MemPalace harness (MCP server, wake and save hooks through agyhook, skill)";
      package = mkOption {
        type = types.nullOr types.package;
        default = null;
        description = "The MemPalace package: installed, and its `bin/mempalace` and `bin/mempalace-mcp` profile paths written to `tools`. With null they run from agy's `PATH`.";
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

  config = lib.mkMerge [
    (lib.mkIf cfg.enable (
      lib.mkMerge [
        {
          assertions = [
            {
              assertion = cfg.package != null;
              message = ''
                programs.agyconf.package is null: agyconf validates the configuration while
                the generation is built and renders it during activation. Leave the default
                (pkgs.agyconf, or agyconf's own package.nix) or set it to an agyconf package.
              '';
            }
            {
              assertion = cfg.hookPackage != null || cfg.tools ? agyhook || agyhookUsers == [ ];
              message = ''
                programs.agyconf.hookPackage is null, but agyhook runs what these write:
                ${lib.concatMapStringsSep "\n" (w: "  ${w}") agyhookUsers}
                Leave programs.agyconf.hookPackage at its default, or set programs.agyconf.tools.agyhook
                to where agyhook is; a bare `agyhook` would fail when agy runs it.
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
              assertion = foreignErrors == [ ];
              message = ''
                programs.agyconf folds these MCP servers in, but a field has the wrong type:
                ${lib.concatMapStringsSep "\n" (e: "  ${e}") foreignErrors}
              '';
            }
            {
              assertion = badSkillSources == [ ];
              message = ''
                ${lib.concatMapStringsSep "\n" (
                  b: "${b.where} = ${builtins.toJSON b.source}: a string outside the Nix store, which the build cannot read."
                ) badSkillSources}
                Give a Nix path instead (source = ./skills/notes; it is copied into the store), or a store path.
              '';
            }
            {
              assertion = badConfigFiles == [ ];
              message = ''
                programs.agyconf.configFiles: ${lib.concatMapStringsSep ", " builtins.toJSON badConfigFiles}: a string outside the
                Nix store, which the build cannot read. Give Nix paths (./extra.hcl, copied into the store) or store paths.
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
                to programs.antigravity-cli.package's executable when that module is enabled).
              '';
            }
            {
              assertion = !(acliSettings ? hooks);
              message = ''
                programs.antigravity-cli.settings.hooks cannot be carried over into agyconf's
                settings.json: define them as programs.agyconf.hooks instead.
              '';
            }
          ]
          ++ map (
            { where, server }:
            {
              assertion =
                server.type == null || (server.type == "stdio") == (server.command != null && server.url == null);
              message = "${where}.type = \"${toString server.type}\", but the server has ${
                if server.url != null then "url" else "command"
              }: \"stdio\" is a local server (command), \"http\" and \"sse\" remote ones (url).";
            }
          ) (lib.filter (x: x.server ? type) allServers);

          warnings =
            lib.optional (foreignShadowed != [ ])
              "programs.agyconf: ${
                lib.concatMapStringsSep ", " (n: foreign.${n}.from) foreignShadowed
              } ignored: programs.agyconf defines a server (or harness) of that name."
            ++ lib.concatLists (
              lib.mapAttrsToList (
                _: f:
                let
                  # Unknown fields go through in extra; a null cannot.
                  dropped =
                    if builtins.isAttrs f.server then
                      lib.filter (k: f.server.${k} == null) (lib.subtractLists knownMcpKeys (lib.attrNames f.server))
                    else
                      [ ];
                in
                lib.optional (
                  dropped != [ ]
                ) "programs.agyconf: ${f.from}: ${lib.concatStringsSep ", " dropped} not carried over (null, which a server's extra cannot hold)."
              ) foreignKept
            )
            ++ lib.optional (
              cfg.enableMcpIntegration && mcpExists && !config.programs.mcp.enable && config.programs.mcp.servers != { }
            ) "programs.agyconf.enableMcpIntegration: programs.mcp.enable is false, so programs.mcp.servers are not folded in (as for every other integration).";

          programs.agyconf.generated = {
            inherit model paths watched;
            json = modelJSON;
          };

          home.packages =
            lib.optional (cfg.package != null) cfg.package
            ++ lib.optional (cfg.hookPackage != null) cfg.hookPackage
            ++ lib.optional (xmsg.package != null) xmsg.package
            ++ lib.optional (mempalace.package != null) mempalace.package;
        }

        (lib.mkIf (cfg.package != null) {
          xdg.configFile."agyconf".source = configDir;

          # Before anything changes, as checkLinkTargets: would the render
          # after linkGeneration be refused? Then the switch stops here.
          home.activation.agyconfCheck = lib.hm.dag.entryBetween [ "writeBoundary" ] [ "checkLinkTargets" ] ''
            source ${../activate.sh}
            agyconfCheck ${activateArgs} "$HOME" ${activateTail}
          '';
          # After linkGeneration too: Home Manager removes its old read-only
          # links there, which agyconf would otherwise refuse to touch. A
          # failure fails the switch only once Home Manager's remaining steps
          # have run.
          home.activation.agyconf = lib.hm.dag.entryAfter [ "writeBoundary" "linkGeneration" ] ''
            source ${../activate.sh}
            agyconfActivate ${activateArgs} "$HOME" ${activateTail}
          '';
        })

        # A secret decrypted after the switch (sops-nix, agenix) reaches its
        # file without another switch: the files are watched, and agyconf
        # renders again when one appears or changes.
        (lib.mkIf (cfg.package != null && cfg.watchSecrets && watched != [ ] && !isDarwin) {
          systemd.user.services.agyconf-secrets = {
            Unit.Description = "agyconf: render again once a secret can be read";
            Service = {
              Type = "oneshot";
              ExecStart = lib.escapeShellArgs rerenderArgv;
            };
          };
          systemd.user.paths.agyconf-secrets = {
            Unit.Description = "agyconf: watch the secret files it writes into Antigravity's files";
            Path = {
              PathChanged = linuxWatched;
              Unit = "agyconf-secrets.service";
            };
            Install.WantedBy = [ "paths.target" ];
          };
        })
        (lib.mkIf (cfg.package != null && cfg.watchSecrets && watched != [ ] && isDarwin) {
          launchd.agents.agyconf-secrets = {
            enable = true;
            config = {
              ProgramArguments = rerenderArgv;
              WatchPaths = darwinWatched;
              RunAtLoad = true;
              ProcessType = "Background";
              StandardErrorPath = "${config.home.homeDirectory}/Library/Logs/agyconf/secrets.log";
            }
            // lib.optionalAttrs darwinPolls { StartInterval = 300; };
          };
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

        (lib.mkIf (xmsg.service.enable && !isDarwin) {
          systemd.user.services.xmsg = {
            Unit.Description = "xmsg message server for agy";
            Service = {
              ExecStart = lib.escapeShellArgs xmsgArgv;
              Restart = "on-failure";
            };
            Install.WantedBy = [ "default.target" ];
          };
        })
        (lib.mkIf (xmsg.service.enable && isDarwin) {
          launchd.agents.xmsg = {
            enable = true;
            config = {
              ProgramArguments = xmsgArgv;
              KeepAlive = true;
              RunAtLoad = true;
              ProcessType = "Background";
              StandardErrorPath = "${config.home.homeDirectory}/Library/Logs/xmsg/stderr.log";
            };
          };
        })
      ]
    ))

    # Switched off while the module is still imported: the instance lets go
    # of what it rendered, once (clean leaves no state behind).
    (lib.mkIf (!cfg.enable && cfg.cleanOnDisable && cfg.package != null) {
      home.activation.agyconfClean = lib.hm.dag.entryAfter [ "writeBoundary" "linkGeneration" ] ''
        source ${../activate.sh}
        agyconfClean ${
          lib.escapeShellArgs [
            agyconfExe
            "${cleanConfig}"
          ]
        } "$HOME" ${lib.escapeShellArg statePath}
      '';
    })
  ];
}
