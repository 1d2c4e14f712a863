# Option types of programs.agyconf (docs/nix.md): one submodule per block
# of agyconf's input (docs/config.md). MCP servers, agents and plugins are
# freeform, as programs.mcp's servers are: a key no option declares is
# written as it is (agyconf's `extra`), for a field agy reads that agyconf
# does not know yet. The plugin components are the top level's own types.
{
  lib,
  jsonFormat,
  facts,
}:
let
  inherit (lib) mkOption types;
  opt = type: default: description: mkOption { inherit type default description; };
  req = type: description: mkOption { inherit type description; };
  nullOr = t: opt (types.nullOr t) null;
  str = nullOr types.str;
  bool = nullOr types.bool;
  strs = opt (types.listOf types.str) [ ];
  named = t: opt (types.attrsOf t) { };
  freeform = options: types.submodule {
    freeformType = jsonFormat.type;
    inherit options;
  };

  # "24,000 bytes": a limit of agyconf's table of facts (../agy-facts.json).
  limit =
    id:
    let
      l = facts.limits.${id};
      s = toString l.max;
      n = builtins.stringLength s;
    in
    (if n > 3 then "${builtins.substring 0 (n - 3) s},${builtins.substring (n - 3) 3 s}" else s) + " ${l.unit}";

  # A literal string, or { file = "/run/secrets/x"; } read where the secret
  # is used. `file` is a string: a Nix path would copy the secret into the
  # world-readable store (refused by type, as is a path given for the set).
  secret = types.either types.str (
    types.addCheck (types.submodule {
      options.file = mkOption {
        type = types.str;
        example = "/run/secrets/github-token";
        description = ''
          Where the decrypted secret is on your machine, e.g.
          `config.sops.secrets.github.path` or `config.age.secrets.github.path`:
          an absolute path, or sops-nix's `%r/…` and agenix's
          `''${XDG_RUNTIME_DIR}/…` as they write them. Never a Nix path
          (`./token`), which would copy the secret into the world-readable store.
        '';
      };
    }) builtins.isAttrs
  );
  secretMode = types.enum [ "exec" "inline" ];

  handler = types.submodule {
    options = {
      type = opt (types.enum [ "command" "prompt" ]) "command" "`command` runs a shell command, `prompt` asks a model (agy 1.1.25 or newer).";
      command = str "The shell command. A bare name is looked up in `programs.agyconf.tools`, else on agy's `PATH`.";
      prompt = str "What a prompt handler asks.";
      model = str "The model a prompt handler asks.";
      timeout = nullOr types.ints.positive "Seconds agy waits for the handler (30 when unset).";
    };
  };
  group = types.submodule {
    options = {
      matcher = opt types.str "" "Which tools this group runs for: a regular expression over tool names, `\"\"` for all.";
      handlers = opt (types.listOf handler) [ ] "Run in this order.";
    };
  };
  # One list per event of agyconf's table of facts.
  hook = types.submodule {
    options = {
      enabled = opt types.bool true "Set to false to keep the hook but have agy skip it.";
    }
    // builtins.listToAttrs (
      map (e: {
        name = e.option;
        value =
          opt (types.listOf (if e.grouped then group else handler)) [ ]
            "${e.name} ${e.when}${lib.optionalString (e ? since) " (agy ${e.since} or newer)"}: what runs, in this order.";
      }) facts.events
    );
  };

  mcpServer = freeform {
    command = str "The program of a local server. Not with `url`.";
    args = opt (types.listOf (types.oneOf [ types.str types.int types.bool ])) [ ] "Its arguments.";
    env = named secret "Its environment: a string, or `{ file = …; }` for a secret.";
    cwd = str "The folder it runs in.";
    url = str "The address of a remote server. Not with `command`.";
    headers = named secret "HTTP headers for a remote server: a string, or `{ file = …; }` for a secret.";
    authProviderType = str "How a remote server authenticates; agy knows `google_credentials`.";
    oauth = nullOr (types.submodule {
      options = {
        clientId = req types.str "The OAuth client id.";
        clientSecret = nullOr secret "The OAuth client secret: a string or `{ file = …; }`.";
      };
    }) "An OAuth client for a remote server.";
    disabled = opt types.bool false "Keep the server but have agy leave it off.";
    disabledTools = strs "Tools agy must not offer.";
    enabledTools = strs "The only tools agy offers (agy 1.1.16 or newer: set `agyVersion`). Not with `disabledTools`.";
    timeoutSeconds = nullOr types.int "Seconds agy waits for the server to start; -1 waits forever (agy 1.0.7 or newer).";
    tools = named (types.submodule {
      options.eager = req types.bool "Load the tool at startup (`true`) or when first used (`false`).";
    }) "Per tool, whether agy loads it at startup (agy 1.1.16 or newer).";
    type = nullOr (types.enum [ "stdio" "http" "sse" ]) "`stdio`, `http` or `sse`, as `programs.mcp` writes it: checked against `command` and `url`, not written.";
    secretMode = nullOr secretMode ''
      How secrets reach the server: `exec` (read when agy starts it, written
      nowhere: agyhook reads a local server's `env`, and agy runs a remote
      server through agyhook-bridge, which reads its `headers` and speaks to
      the URL) or `inline` (written into agy's file, mode 0600, so agy
      sees the remote server itself); null follows
      `programs.agyconf.secretMode`. A remote server using agy's own
      sign-in (`oauth`, `authProviderType`) is always inline.
    '';
    # Set by the module on a server it took from programs.mcp or
    # programs.antigravity-cli, so messages name that option.
    origin = mkOption {
      type = types.nullOr types.str;
      default = null;
      internal = true;
      description = "The option this server was taken from.";
    };
  };

  skill = types.submodule {
    options = {
      description = str "What the skill is for: all the model sees before it loads the skill. Needed with `body`.";
      body = nullOr types.lines "The skill's text (at most ${limit "skill/body"}). Either this or `source`.";
      source = nullOr (types.either types.path types.str) "A folder with a `SKILL.md`, used as it is: a Nix path (`./skills/notes`) or a store path. Either this or `body`.";
      icon = str "An emoji for the skill (agy 1.1.20 or newer). Only with `body`.";
      disableSlashCommand = bool "Leave the skill out of the `/` menu; the model can still use it (agy 1.1.12 or newer). Only with `body`.";
    };
  };

  rule = types.submodule {
    options = {
      body = req types.lines "The rule's text. All rules share agy's budget of ${limit "rule/budget"}; agyconf warns when they are over it.";
      trigger = opt (types.enum [ "always_on" "glob" "model_decision" "manual" ]) "always_on" "When agy applies the rule.";
      description = str "When the model should apply it; needed with `trigger = \"model_decision\"`.";
      globs = strs "The files it applies to, with `trigger = \"glob\"` (no commas in a glob).";
    };
  };

  agent = freeform {
    description = req types.str "What the subagent is for.";
    body = req types.lines "Its instructions (the system prompt).";
    model = str "The model it runs on.";
    tools = strs "Tools it may use.";
    mcpServers = strs "MCP servers it may use.";
    skills = strs "Skills it may use (names or paths).";
    plugins = strs "Plugins it may use (names or paths).";
    rules = strs "Rule files it always applies (agy 1.1.15 or newer).";
    agents = strs "Subagents it calls on (agy 1.1.27 or newer).";
    hooks = strs "Its hooks (agy 1.3.1 or newer; see docs/reference.md).";
    mainAgent = bool "Whether it can be the main agent.";
    subagent = bool "Whether it can be a subagent.";
    commandExecutionPolicy = str "When it may run commands.";
    hidden = bool "Leave it out of agy's lists.";
    inheritMcp = bool "Whether it gets the caller's MCP servers.";
    inheritCustomizations = bool "Whether it gets your skills, rules, plugins, subagents and MCP servers (agy 1.1.14 or newer).";
    excludeDefaultComponents = bool "Leave out agy's default prompt sections and built-in tools (agy 1.2.1 or newer).";
  };

  workflow = types.submodule {
    options = {
      description = str "What the workflow does.";
      body = req types.lines "Its steps (at most ${limit "workflow/body"}).";
    };
  };

  # What the top level and a plugin both hold. A plugin's show in the
  # option list by name only: their options are the top level's.
  components =
    where:
    let
      shallow = o: if where == "plugin" then o // { visible = "shallow"; } else o;
      the = what: if where == "plugin" then "${what} of the plugin, as the top level's" else what;
    in
    lib.mapAttrs (_: shallow) {
      mcpServers = named mcpServer (the "MCP servers agy can start or reach");
      hooks = named hook (the "Hooks: commands or prompts agy runs on its events");
      skills = named skill (the "Skills, by name (lowercase words joined by hyphens)");
      rules = named rule (the "Rules agy follows");
      agents = named agent (the "Subagents");
    };

  plugin = freeform (
    components "plugin"
    // {
      description = str "What the plugin is for.";
      enabled = bool "Whether the plugin is on; null leaves it to agy, which turns a new plugin on.";
      allowExtra = opt types.bool false "Write the plugin's other keys into its `plugin.json`, though agy's documented schema has only `name` and `description`.";
    }
  );

  acp = types.submodule {
    options = {
      authType = req (types.enum [ "oauth-personal" "oauth-business" "gemini-api-key" "agent-platform" ]) "How agy's ACP server signs in.";
      gcpProject = str "Google Cloud project; needed with `oauth-business`.";
      gcpLocation = str "Google Cloud location; needed with `oauth-business`.";
      configRoot = str "A folder under your home holding the `.gemini` of an ACP server started with `GEMINI_HOME=$HOME/<configRoot>/.gemini`.";
    };
  };

  permissions =
    example: what:
    types.submodule {
      options = lib.genAttrs [ "allow" "ask" "deny" ] (
        list:
        mkOption {
          type = types.listOf types.str;
          default = [ ];
          inherit example;
          description = "${what} agy treats as `${list}`: `action` or `action(target)`.";
        }
      );
    };
in
{
  jsonValue = jsonFormat.type;
  inherit secretMode workflow acp permissions components plugin;
}
