# Home Manager module: programs.agyconf (docs/nix.md). The options (types
# in ./types.nix) become agyconf's input (./model.nix), checked while the
# generation is built and rendered into your home during a switch
# (./activation.nix); ./fold.nix takes in what programs.mcp and
# programs.antigravity-cli say about agy.
{
  config,
  lib,
  options,
  pkgs,
  ...
}@args:
let
  inherit (lib) mkOption types literalExpression;
  cfg = config.programs.agyconf;
  facts = builtins.fromJSON (builtins.readFile ../agy-facts.json);
  t = import ./types.nix { inherit lib facts; jsonFormat = pkgs.formats.json { }; };
  fold = import ./fold.nix;
  view = fold.view args;
  gen = import ./model.nix (args // { inherit view facts; });
  opt = type: default: description: mkOption { inherit type default description; };
  ex = type: default: example: description: mkOption { inherit type default example description; };
  # pkgs.NAME (agyconf's overlay), else agyconf's own package.nix.
  own =
    name: description:
    mkOption {
      type = types.nullOr types.package;
      default = pkgs.${name} or (pkgs.callPackage ../../package.nix { component = name; });
      defaultText = literalExpression ''pkgs.${name} or (pkgs.callPackage "''${agyconf}/package.nix" { component = "${name}"; })'';
      inherit description;
    };
  xmsg = cfg.harnesses.xmsg;
  mempalace = cfg.harnesses.mempalace;
  lines = lib.concatMapStrings (l: "\n  ${l}");
  # Anything that runs agyhook: the MemPalace hooks, a local server whose
  # secrets agyhook reads when agy starts it.
  agyhookUsers =
    lib.optional (mempalace.enable && (mempalace.wake || mempalace.save)) "programs.agyconf.harnesses.mempalace"
    ++ map (r: r.where) (lib.filter (r: !r.inline) gen.secrets);
  configNames = map (f: baseNameOf (toString f)) cfg.configFiles;
in
{
  # Imported twice (the flake's homeManagerModules.agyconf beside
  # module.nix, or from two places), it is still one module.
  key = "agyconf:nix/module/agyconf.nix";
  imports = fold.modules;

  options.programs.agyconf = t.components "top" // {
    enable = lib.mkEnableOption "agyconf: agy's MCP servers, hooks, skills, rules, subagents and settings from Nix, merged into the files agy also writes";

    package = own "agyconf" "The agyconf that checks your configuration while it is built and writes agy's files during a switch.";
    hookPackage = own "agyhook" ''
      agyhook, which runs the MemPalace hooks and starts local servers with
      secrets (`secretMode = "exec"`); installed, and named in agy's files by
      its profile path. null only with `tools.agyhook` set or nothing that
      needs it.
    '';
    product = opt (types.enum [ "cli" "ide" "both" ]) "both" "Which Antigravity to configure: the CLI (agy), the IDE, or both.";
    agyVersion = ex (types.nullOr types.str) null "1.1.25" "The oldest agy (`X.Y.Z`) your files must work with; needed for what only newer ones read, such as `sessionStart` hooks and prompt handlers.";
    secretMode = opt (types.nullOr t.secretMode) null ''
      How servers get their secrets: `exec` (the default) has agyhook read
      the files each time agy starts the server (a remote server through
      agyhook-bridge), so no value is written anywhere; `inline` writes the
      values into agy's file, mode 0600.
    '';
    layout = ex (types.attrsOf types.str) { } { skills = ".gemini/antigravity-cli/skills"; } "Where a kind of file goes instead of its usual place, relative to your home, by kind: `mcp_config`, `hooks`, `plugins`, `skills`, `agents`, `rules`, `global_rules`, `workflows`, `settings`, `acp_settings`, `user_config`.";
    tools = ex (types.attrsOf types.str) { } { github-mcp-server = "/etc/profiles/per-user/me/bin/github-mcp-server"; } "Absolute paths written in place of bare command names. The module adds its packages' profile paths (never store paths, which garbage collection can remove under a running agy).";
    enableMcpIntegration = opt types.bool false ''
      Whether to use {option}`programs.mcp.servers` too (with
      `programs.mcp.enable`). A `env.<VAR>.file` secret is read when agy starts
      the server, never through Home Manager's wrapper script. Your own
      server of the same name wins.
    '';
    permissions = opt (t.permissions [ "command(git *)" ] "Permissions") { } "What agy may do without asking, must ask for, or must never do; an entry goes in one list only.";
    sharedPermissions = opt (t.permissions [ "command(git status)" ] "Grants shared with Antigravity 2.0") { } "Permissions shared with Antigravity 2.0 (`~/.gemini/config/config.json`); an entry goes in one list, here or in `permissions`.";
    settings = ex (types.attrsOf t.jsonValue) { } { toolPermission = "proceed-in-sandbox"; } "agy's other settings (`settings.json`); agyconf checks the keys it knows. Permissions and hooks have options of their own.";
    workflows = opt (types.attrsOf t.workflow) { } "Workflows, by name.";
    plugins = opt (types.attrsOf t.plugin) { } "Plugins, each a bundle of MCP servers, hooks, skills, rules and subagents.";
    acp = opt (types.nullOr t.acp) null "Defaults for agy's ACP server.";
    extraConfig = ex (types.attrsOf t.jsonValue) { } { tools.node = "/run/current-system/sw/bin/node"; } "agyconf's own configuration language (its JSON form), merged over what the options say. Not escaped: `secret_file()` and templates work, and a literal `\${` is written `$\${`.";
    configFiles = opt (types.listOf types.path) [ ] "More agyconf configuration files (`.hcl` or `.json`, names unique) used with the options: Nix paths or store paths.";
    onConflict = opt (types.enum [ "error" "adopt" "force" ]) "error" ''
      What a switch does with a file agyconf did not write (`adopt`: take
      it over) or that was edited since it wrote it (`force`: overwrite it).
      Both keep a backup. With `error` the switch stops before anything
      changes, naming each file and what resolves it.
    '';
    watchSecrets = opt types.bool true ''
      Write a secret into agy's files once sops-nix or agenix has decrypted
      it, without another switch: agyconf renders again when such a secret
      (a server with `secretMode = "inline"`, an OAuth client secret, the
      header of a server on agy's own sign-in) appears or changes. On Linux a systemd path
      unit watches the files. On darwin a launchd agent watches the absolute
      paths; a secret in the runtime folder (`%r/…`, agenix's default there)
      cannot be watched, so the agent then runs agyconf every five minutes,
      for as long as it is installed: 10–20 ms of CPU each time, writing
      nothing while nothing changed, and a few lines to
      `~/Library/Logs/agyconf/secrets.log` while the secret is still
      missing. Give such a secret an absolute path to avoid that.
    '';
    cleanOnDisable = opt types.bool true ''
      With `enable = false` while this module is still imported, have the
      next switch take away what the module wrote into agy's files (what you
      edited since stays; what was there before comes back). It uses the
      previous generation's agyconf: a disabled module builds nothing.
    '';
    doctor = {
      enable = lib.mkEnableOption "a check after each switch that asks agy what it loaded (`agyconf doctor`) and prints what it did not; it never fails the switch and prints nothing when everything is loaded";
      agy = mkOption {
        type = types.nullOr types.str;
        default = if view.enabled && view.package != null then lib.getExe view.package else null;
        defaultText = lib.literalMD "the executable of `programs.antigravity-cli.package` when that module is enabled, else `null` (agy on the activation's `PATH`)";
        description = "The agy to ask.";
      };
    };
    generated = mkOption {
      internal = true;
      type = types.attrs;
      default = { };
      description = "What the module generated (the model, its text, the option paths, the secrets the re-render watches), for tests.";
    };

    harnesses.xmsg = {
      enable = lib.mkEnableOption "xmsg in agy: its MCP server, registration hooks and skill";
      package = opt (types.nullOr types.package) null "The xmsg package: installed, named in agy's files by its profile path, and run by the service.";
      agyExe = mkOption {
        type = types.nullOr types.str;
        default = if view.enabled && view.package != null then lib.getExe view.package else null;
        defaultText = lib.literalMD "the executable of `programs.antigravity-cli.package` when that module is enabled, else `null`";
        description = "The agy executable `xmsg serve --agy-exe` trusts.";
      };
      replyOnly = opt types.bool false "Run xmsg's MCP server with `--reply-only`.";
      legacyHooks = opt types.bool false "Write xmsg's one published registration hook instead of one per event.";
      service.enable = lib.mkEnableOption "a user service running `xmsg serve --agy-exe <agyExe>` on xmsg's default endpoint, the one its hooks use";
      via = mkOption {
        type = types.str;
        default = "programs.agyconf.harnesses.xmsg";
        internal = true;
        description = "The options you set xmsg up with, for messages.";
      };
    };
    harnesses.mempalace = {
      enable = lib.mkEnableOption "MemPalace in agy: its MCP server, wake and save hooks (through agyhook) and skill";
      package = opt (types.nullOr types.package) null "The MemPalace package: installed, and named in agy's files by its profile paths. With null, agy finds `mempalace` and `mempalace-mcp` on its `PATH`.";
      mode = opt (types.enum [ "plugin" "loose" ]) "plugin" "As the `mempalace` plugin (as MemPalace installs itself) or as separate pieces.";
      wake = opt types.bool true "Load the memory on the first message of a session.";
      save = opt types.bool true "Save to memory when agy stops.";
      saveInterval = opt types.ints.positive 15 "Save every this many exchanges.";
      stateDir = opt (types.nullOr types.str) null "Where agyhook keeps its state (an absolute path).";
    };
  };

  config = lib.mkMerge [
    (lib.mkIf cfg.enable {
      assertions = [
        {
          assertion = cfg.package != null;
          message = "programs.agyconf.package is null: agyconf checks your configuration while it is built and writes agy's files during a switch. Leave the default or set an agyconf package.";
        }
        {
          assertion = cfg.hookPackage != null || cfg.tools ? agyhook || agyhookUsers == [ ];
          message = "programs.agyconf.hookPackage is null, but agyhook runs what these write:${lines agyhookUsers}\nLeave programs.agyconf.hookPackage at its default, or set programs.agyconf.tools.agyhook to where agyhook is.";
        }
        {
          assertion = gen.storeSecrets == [ ];
          message = "programs.agyconf: a secret file lies in the world-readable Nix store:${
            lines (map (r: "${r.where}.file = \"${r.file}\"") gen.storeSecrets)
          }\nGive the runtime path of sops-nix or agenix instead (e.g. config.sops.secrets.<name>.path).";
        }
        {
          assertion = gen.badSkillSources == [ ];
          message = "${lib.concatMapStringsSep "\n" (s: "${s}: a string outside the Nix store, which the build cannot read.") gen.badSkillSources}\nGive a Nix path instead (source = ./skills/notes; it is copied into the store), or a store path.";
        }
        {
          assertion = gen.badConfigFiles == [ ];
          message = "programs.agyconf.configFiles: ${lib.concatMapStringsSep ", " builtins.toJSON gen.badConfigFiles}: a string outside the Nix store, which the build cannot read. Give Nix paths (./extra.hcl) or store paths.";
        }
        {
          assertion = lib.all (n: lib.hasSuffix ".hcl" n || lib.hasSuffix ".json" n) configNames;
          message = "programs.agyconf.configFiles: agyconf reads only .hcl and .json files, got: ${lib.concatStringsSep ", " configNames}";
        }
        {
          assertion = lib.allUnique (configNames ++ [ "agyconf.json" ]);
          message = "programs.agyconf.configFiles: names must be unique and not agyconf.json (the generated one), got: ${lib.concatStringsSep ", " configNames}";
        }
        {
          assertion = gen.collisions == [ ];
          message = "programs.agyconf writes where another Home Manager option writes too:${lib.concatMapStrings (c: "\n${c}") gen.collisions}\nKeep one of each pair: a file has one writer. (onConflict cannot settle this: agyconf replacing Home Manager's link would make the next switch abort.)";
        }
        # xmsg: one message each, naming the options you set it up with.
        {
          assertion = xmsg.package != null || !xmsg.enable || !xmsg.service.enable && xmsg.via == "programs.agyconf.harnesses.xmsg";
          message = "${xmsg.via}.package is null${
            if xmsg.via == "programs.agyconf.harnesses.xmsg" then ", and the xmsg service runs it (or set service.enable = false)" else ": there is no pkgs.xmsg"
          }. xmsg ships from its own flake: pass its package, e.g. ${xmsg.via}.package = inputs.xmsg.packages.\${pkgs.stdenv.hostPlatform.system}.default; (or add xmsg's overlay).";
        }
        {
          assertion = !xmsg.enable || !xmsg.service.enable || xmsg.package == null || xmsg.agyExe != null;
          message = "${xmsg.via} runs `xmsg serve --agy-exe <agy>`, and no agy is known: ${
            if options.programs ? antigravity-cli then "programs.antigravity-cli.enable is false" else "this Home Manager has no programs.antigravity-cli module (it is too old)"
          }. Set ${lib.optionalString (options.programs ? antigravity-cli) "programs.antigravity-cli.enable = true (which installs agy), or "}programs.agyconf.harnesses.xmsg.agyExe to the agy executable, or ${xmsg.via}.service.enable = false to run xmsg serve yourself.";
        }
      ]
      ++ map (x: {
        assertion = x.server.type == null || (x.server.type == "stdio") == (x.server.command != null && x.server.url == null);
        message = "${x.where}.type = \"${toString x.server.type}\", but the server has ${if x.server.url != null then "url" else "command"}: \"stdio\" is a local server (command), \"http\" and \"sse\" remote ones (url).";
      }) gen.servers;

      programs.agyconf.generated = {
        inherit (gen) model paths watched;
        json = gen.text;
      };
      home.packages = lib.filter (p: p != null) [
        cfg.package
        cfg.hookPackage
        xmsg.package
        mempalace.package
      ];
    })
    (import ./activation.nix (args // { inherit gen; }))
  ];
}
