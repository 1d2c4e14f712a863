# What other Home Manager modules already say about agy, taken into
# programs.agyconf so that every file agy reads has one writer (docs/nix.md,
# "Servers from programs.mcp and programs.antigravity-cli").
#
# Their MCP servers become definitions of programs.agyconf.mcpServers.<name>
# at a low priority: the module system types them, each under a file name
# that says where it came from, and a server of your own of the same name
# wins, then programs.antigravity-cli's, then programs.mcp's. Their settings,
# permissions and GEMINI.md context are merged into the model (./model.nix),
# and programs.antigravity-cli's links over those files are switched off.
let
  # What the two modules hold, for this file and ./model.nix; either may be
  # missing from an older Home Manager.
  view =
    {
      config,
      lib,
      options,
      ...
    }:
    let
      cfg = config.programs.agyconf;
      mcpOn = options.programs ? mcp && config.programs.mcp.enable;
      exists = options.programs ? antigravity-cli;
      acli = config.programs.antigravity-cli;
      enabled = exists && acli.enable;
      package = if exists then acli.package or null else null;
      # With a gemini-cli package it writes gemini-cli's files, not agy's.
      legacy = (acli.useLegacyGeminiConfig or false) || (package != null && lib.getName package == "gemini-cli");
      fold = enabled && !legacy;
      settings = if fold then acli.settings or { } else { };
      servers = lib.recursiveUpdate (settings.mcpServers or { }) (if fold then acli.mcpServers or { } else { });
      mcpServers = if mcpOn then config.programs.mcp.servers else { };
      # programs.antigravity-cli's own enableMcpIntegration runs a server
      # with secret files through a wrapper script in the store, which
      # garbage collection can remove under a running agy: such a server is
      # taken from programs.mcp instead.
      wrapped = n: s: fold && (acli.enableMcpIntegration or false) && mcpServers ? ${n} && builtins.isAttrs s && lib.isDerivation (s.command or null);
      harnesses = lib.attrNames (lib.filterAttrs (_: h: h.enable) cfg.harnesses);
      picked = {
        "programs.mcp.servers" =
          if cfg.enableMcpIntegration then mcpServers else lib.filterAttrs (n: _: servers ? ${n} && wrapped n servers.${n}) mcpServers;
        "programs.antigravity-cli.mcpServers" = lib.filterAttrs (n: s: !(wrapped n s)) servers;
      };
    in
    {
      inherit enabled fold settings package;
      rawServers = servers;
      settingsFolded = fold && cfg.product != "ide";
      permissions = lib.recursiveUpdate (
        if fold && (acli.permissions or null) != null then acli.permissions else { }
      ) (settings.permissions or { });
      context = if fold then acli.context or { } else { };
      # By module, the servers taken: a harness writes its own server.
      taken = lib.mapAttrs (_: xs: removeAttrs xs harnesses) picked;
      shadowedByHarness = lib.unique (lib.filter (n: lib.elem n harnesses) (lib.concatMap lib.attrNames (lib.attrValues picked)));
      mcpIgnored = cfg.enableMcpIntegration && options.programs ? mcp && !mcpOn && config.programs.mcp.servers != { };
    };

  # Another module's server as programs.agyconf's: the url under any name
  # programs.antigravity-cli accepts, `enabled = false` as `disabled`, no
  # local fields on a remote server, nulls left out (as
  # programs.antigravity-cli does), `tools` only in agy's per-tool shape.
  # What is not an attribute set goes to the type check as it is.
  convert =
    lib: from: s0:
    let
      s = lib.filterAttrs (_: v: v != null) s0;
      url = s.url or s.httpUrl or s.serverUrl or null;
      tools = if builtins.isAttrs (s.tools or null) then s.tools else { };
    in
    if !builtins.isAttrs s0 then
      s0
    else
      removeAttrs s ([ "url" "httpUrl" "serverUrl" "enabled" "tools" ] ++ lib.optionals (url != null) [ "command" "args" "env" ])
      // lib.optionalAttrs (url != null) { inherit url; }
      // lib.optionalAttrs ((s.enabled or true) == false) { disabled = true; }
      // {
        tools = lib.mapAttrs (_: t: { inherit (t) eager; }) (lib.filterAttrs (_: t: builtins.isBool (t.eager or null)) tools);
        origin = from;
      };

  # The servers of one module, at a priority below your own definitions.
  serversOf =
    from: priority:
    { config, lib, ... }@args:
    {
      key = "agyconf:nix/module/fold.nix:${from}";
      _file = "${from} (taken into programs.agyconf.mcpServers)";
      config = lib.mkIf config.programs.agyconf.enable {
        programs.agyconf.mcpServers = lib.mapAttrs (
          n: s: lib.mkOverride priority (convert lib "${from}.${(import ../option-paths.nix).showName n}" s)
        ) (view args).taken.${from};
      };
    };

  links =
    { config, lib, ... }@args:
    let
      cfg = config.programs.agyconf;
      v = view args;
      # Servers taken from elsewhere that a server of your own shadows.
      ignored = lib.concatLists (
        lib.mapAttrsToList (
          from: xs: lib.mapAttrsToList (n: _: "${from}.${n}") (lib.filterAttrs (n: _: cfg.mcpServers.${n}.origin == null) xs)
        ) v.taken
      );
    in
    {
      key = "agyconf:nix/module/fold.nix";
      config = lib.mkIf cfg.enable {
        warnings =
          lib.optional (ignored != [ ]) "programs.agyconf: ${lib.concatStringsSep ", " ignored} ignored: programs.agyconf defines a server of that name."
          ++ map (n: "programs.agyconf: the MCP server ${n} of programs.mcp or programs.antigravity-cli ignored: programs.agyconf.harnesses.${n} writes its own.") v.shadowedByHarness
          ++ lib.optional v.mcpIgnored "programs.agyconf.enableMcpIntegration: programs.mcp.enable is false, so programs.mcp.servers are not taken in (as for every other integration).";
        assertions = [
          {
            assertion = !(v.settingsFolded && v.settings ? hooks);
            message = "programs.antigravity-cli.settings.hooks: agyconf writes agy's hooks; define them as programs.agyconf.hooks instead.";
          }
        ];
        # One writer per file: programs.antigravity-cli's links over what
        # agyconf writes go.
        home.file = lib.mkMerge [
          (lib.mkIf (v.fold && v.rawServers != { }) {
            ".gemini/config/mcp_config.json".enable = lib.mkForce false;
          })
          (lib.mkIf (v.settingsFolded && (removeAttrs v.settings [ "mcpServers" ] != { } || v.permissions != { })) {
            ".gemini/antigravity-cli/settings.json".enable = lib.mkForce false;
          })
          (lib.mkIf (v.fold && v.context ? GEMINI && cfg.rules != { }) {
            ".gemini/GEMINI.md".enable = lib.mkForce false;
          })
        ];
      };
    };
in
{
  inherit view;
  modules = [
    (serversOf "programs.mcp.servers" 1010)
    (serversOf "programs.antigravity-cli.mcpServers" 1000)
    links
  ];
}
