# The model: programs.agyconf, with what ./fold.nix took in, as agyconf's
# JSON input (../model.nix), the map naming each value's option
# (../option-paths.nix), and the config folder the generation links and
# activation renders, which agyconf checks while it is built. Also what
# the module checks at evaluation time: where secrets are, what the build
# can read, and the files another Home Manager option writes too.
{
  config,
  lib,
  pkgs,
  view,
  facts,
  ...
}:
let
  cfg = config.programs.agyconf;
  inherit (import ../option-paths.nix) showName;
  instance = "home-manager";

  # Profile paths, never store paths, which garbage collection can remove
  # under a running agy.
  bin = n: "${config.home.profileDirectory}/bin/${n}";
  tool = n: from: { ${n} = { path = bin n; inherit from; }; };
  packageTools =
    lib.optionalAttrs (cfg.hookPackage != null) (tool "agyhook" "programs.agyconf.hookPackage")
    // lib.optionalAttrs (cfg.harnesses.xmsg.package != null) (tool "xmsg" "programs.agyconf.harnesses.xmsg.package")
    // lib.optionalAttrs (cfg.harnesses.mempalace.package != null) (
      tool "mempalace" "programs.agyconf.harnesses.mempalace.package"
      // tool "mempalace-mcp" "programs.agyconf.harnesses.mempalace.package"
    );

  # programs.antigravity-cli's GEMINI.md is where agyconf writes its rules:
  # when there are some, that text becomes one of them.
  geminiRule = "antigravity-cli-context";
  foldGemini = view.fold && view.context ? GEMINI && cfg.rules != { } && !(cfg.rules ? ${geminiRule});
  gemini = view.context.GEMINI;
  # Its settings and permissions: yours win a key, and an entry appears in
  # one list only (agy applies deny over ask over allow).
  settings = removeAttrs view.settings [ "mcpServers" "permissions" ];
  own = cfg.permissions.allow ++ cfg.permissions.ask ++ cfg.permissions.deny;
  theirs = lib.foldl' (
    acc: list: acc // { ${list} = lib.filter (e: !lib.elem e (own ++ lib.concatLists (lib.attrValues acc))) (view.permissions.${list} or [ ]); }
  ) { } [ "deny" "ask" "allow" ];

  # A skill folder given as a Nix path is copied into the store.
  withSources = lib.mapAttrs (
    _: s: s // lib.optionalAttrs (lib.isPath s.source) { source = builtins.path { path = s.source; name = "agyconf-skill-source"; }; }
  );

  # Where the values the options did not write came from, by JSON pointer.
  sources =
    lib.mapAttrs' (n: s: lib.nameValuePair "/mcp_server/${n}" s.origin) (lib.filterAttrs (_: s: s.origin != null) cfg.mcpServers)
    // lib.mapAttrs' (n: t: lib.nameValuePair "/tools/${n}" t.from) packageTools
    // lib.optionalAttrs foldGemini { "/rule/${geminiRule}" = "programs.antigravity-cli.context.GEMINI"; }
    // lib.optionalAttrs view.settingsFolded (
      lib.mapAttrs' (k: _: lib.nameValuePair "/settings/${k}" "programs.antigravity-cli.settings.${showName k}") (
        removeAttrs settings (lib.attrNames cfg.settings)
      )
    );

  modelCfg =
    cfg
    // {
      skills = withSources cfg.skills;
      plugins = lib.mapAttrs (_: p: p // { skills = withSources p.skills; }) cfg.plugins;
      rules = cfg.rules // lib.optionalAttrs foldGemini {
        ${geminiRule} = {
          body = if lib.isPath gemini then builtins.readFile gemini else gemini;
          trigger = "always_on";
        };
      };
    }
    // lib.optionalAttrs view.settingsFolded {
      settings = lib.recursiveUpdate settings cfg.settings;
      permissions = lib.mapAttrs (list: entries: lib.unique (entries ++ theirs.${list})) {
        inherit (cfg.permissions) allow ask deny;
      };
    };
  args = {
    tools = lib.mapAttrs (_: t: t.path) packageTools;
    inherit instance sources;
  };
  model = import ../model.nix (args // { cfg = modelCfg; });
  text = (import ../json.nix).pretty model;
  paths = (import ../option-paths.nix).of {
    inherit model sources;
    base = import ../model.nix (args // { cfg = modelCfg // { extraConfig = { }; }; });
    inherit (cfg) extraConfig;
  };

  # The config folder: the generated agyconf.json (one value a line) and
  # configFiles, beside option-paths, which names the option of each value
  # in agyconf's messages. A bad option fails the build with agyconf's own
  # message, led by the option. --offline: the builder is not the machine
  # that renders, so its secrets and home are not looked at.
  configDir =
    pkgs.runCommand "agyconf-config"
      {
        nativeBuildInputs = [ cfg.package ];
        model = text;
        optionPaths = builtins.toJSON { "agyconf.json" = paths; };
        passAsFile = [ "model" "optionPaths" ];
      }
      ''
        mkdir "$out"
        cp "$modelPath" "$out/agyconf.json"
        cp "$optionPathsPath" "$out/option-paths"
        ${lib.concatMapStrings (f: ''
          cp ${lib.escapeShellArg "${f}"} "$out"/${lib.escapeShellArg (baseNameOf (toString f))}
        '') cfg.configFiles}
        agyconf validate --offline --config "$out" --option-paths "$out/option-paths"
      '';

  # Every server, with its option.
  servers =
    lib.mapAttrsToList (n: s: {
      where = if s.origin != null then s.origin else "programs.agyconf.mcpServers.${showName n}";
      server = s;
    }) cfg.mcpServers
    ++ lib.concatLists (
      lib.mapAttrsToList (
        p: v:
        lib.mapAttrsToList (n: s: {
          where = "programs.agyconf.plugins.${showName p}.mcpServers.${showName n}";
          server = s;
        }) v.mcpServers
      ) cfg.plugins
    );

  # Every { file = …; } secret: its option, and whether agyconf reads it
  # while it renders (inline) or agyhook when agy starts the server (exec:
  # agyhook exec-env for a local server's env, agyhook-bridge for a remote
  # server's headers). A server on agy's own sign-in (oauth,
  # authProviderType) stays remote, so its headers are inline.
  secrets = lib.concatMap (
    x:
    let
      s = x.server;
      mode = if s.secretMode != null then s.secretMode else if cfg.secretMode != null then cfg.secretMode else "exec";
      agySignIn = s.oauth != null || s.authProviderType != null;
      ref = where: inline: v: lib.optional (builtins.isAttrs v && v ? file) { inherit where inline; inherit (v) file; };
    in
    lib.concatLists (lib.mapAttrsToList (k: ref "${x.where}.env.${k}" (s.url != null || mode == "inline")) s.env)
    ++ lib.concatLists (lib.mapAttrsToList (k: ref "${x.where}.headers.${k}" (mode == "inline" || agySignIn)) s.headers)
    ++ lib.optionals (s.oauth != null) (ref "${x.where}.oauth.clientSecret" true s.oauth.clientSecret)
  ) servers;

  # A string a build in the sandbox could not read.
  unreadable = s: !lib.isPath s && !(builtins.isString s && lib.hasPrefix "${builtins.storeDir}/" s);
  skillSources =
    where: skills:
    lib.mapAttrsToList (n: s: "${where}.${showName n}.source = ${builtins.toJSON s.source}") (
      lib.filterAttrs (_: s: s.source != null && unreadable s.source) skills
    );

  # The files and folders a render writes into (global scope; the places
  # from agyconf's table of facts, or layout's), each with the option that
  # makes it: a harness's items are expanded by agyconf, named here by
  # the harness.
  layout = model.agyconf.layout or { };
  product = model.agyconf.product or "both";
  places = kind: if layout ? ${kind} then [ layout.${kind} ] else facts.kinds.${kind}.places.${product} or [ ];
  xmsg = cfg.harnesses.xmsg.enable;
  mp = cfg.harnesses.mempalace;
  loose = mp.enable && mp.mode == "loose";
  file = kind: what: on: lib.optionals on (map (path: { inherit path what; }) (places kind));
  items =
    kind: block: extra:
    lib.concatMap (
      dir:
      map (n: {
        path = "${dir}/${if lib.hasPrefix "NAME/" facts.kinds.${kind}.item then n else "${n}.md"}";
        what = paths."/${block}/${n}" or "programs.agyconf.harnesses.${n}";
      }) (lib.attrNames (model.${block} or { }) ++ extra)
    ) (places kind);
  name = ptrs: lib.head (lib.filter (x: x != null) (map (p: paths.${p} or null) ptrs) ++ [ "programs.agyconf.harnesses" ]);
  written =
    file "mcp_config" (name [ "/mcp_server" ]) (model ? mcp_server || xmsg || loose)
    ++ file "hooks" (name [ "/hook" ]) (model ? hook || xmsg || loose && (mp.wake || mp.save))
    ++ file "global_rules" (name [ "/rule" ]) (model ? rule)
    ++ file "settings" (name [ "/settings" "/permissions" ]) (model ? settings || model ? permissions)
    ++ file "user_config" (name [ "/shared_permissions" "/plugin" ]) (model ? shared_permissions || lib.any (p: p ? enabled) (lib.attrValues (model.plugin or { })))
    ++ file "acp_settings" (name [ "/acp" ]) (model ? acp)
    ++ items "skills" "skill" (lib.optional xmsg "xmsg" ++ lib.optional loose "mempalace")
    ++ items "agents" "agent" [ ]
    ++ items "workflows" "workflow" [ ]
    ++ items "plugins" "plugin" (lib.optional (mp.enable && !loose) "mempalace");

  # Another enabled home.file over, inside, or (as a link to a folder
  # linked whole) around one of them. Home Manager's links there would be
  # read-only files agyconf refuses to write over, and replacing one would
  # make the next switch abort in checkLinkTargets.
  acli = config.programs.antigravity-cli;
  hmOption =
    f:
    let
      skill = builtins.match "\\.gemini/antigravity-cli/skills/([^/]+).*" f.target;
      context = builtins.match "\\.gemini/([^/]+)\\.md" f.target;
    in
    if view.enabled && skill != null && builtins.isAttrs acli.skills && acli.skills ? ${lib.head skill} then
      "programs.antigravity-cli.skills.${showName (lib.head skill)}"
    else if view.enabled && skill != null then
      "programs.antigravity-cli.skills or .commands"
    else if view.enabled && context != null && acli.context ? ${lib.head context} then
      "programs.antigravity-cli.context.${showName (lib.head context)}"
    else
      "home.file.${showName f.name} (another module, or yours)";
  # A target as the file system reads it: Home Manager keeps "./", "..",
  # "//" and a trailing "/" as written, and darwin's names ignore case.
  norm = p: lib.concatStringsSep "/" (lib.foldl' (acc: s: if s == ".." && acc != [ ] then lib.init acc else acc ++ lib.optional (s != "" && s != ".") s) [ ]
    (lib.splitString "/" (if pkgs.stdenv.hostPlatform.isDarwin then lib.toLower p else p)));
  # A folder linked file by file holds w if it has w's file (known for a Nix path).
  collides = f: t: p: t == p || lib.hasPrefix "${p}/" t || lib.hasPrefix "${t}/" p && (!f.recursive || lib.isPath f.source && builtins.pathExists (f.source + lib.removePrefix t p));
  collisions = lib.concatLists (
    lib.mapAttrsToList (
      name: f: map (w: "  ~/${w.path}: ${w.what} and ${hmOption (f // { inherit name; })}") (lib.filter (w: collides f (norm f.target) (norm w.path)) written)
    ) (lib.filterAttrs (_: f: f.enable) config.home.file)
  );
in
{
  inherit
    model
    text
    paths
    configDir
    servers
    secrets
    collisions
    instance
    ;
  storeSecrets = lib.filter (r: lib.hasPrefix builtins.storeDir r.file) secrets;
  badSkillSources =
    skillSources "programs.agyconf.skills" cfg.skills
    ++ lib.concatLists (lib.mapAttrsToList (p: v: skillSources "programs.agyconf.plugins.${showName p}.skills" v.skills) cfg.plugins);
  badConfigFiles = lib.filter unreadable cfg.configFiles;
  # The inline secrets: the re-render watches them.
  watched = lib.unique (map (r: r.file) (lib.filter (r: r.inline) secrets));
}
