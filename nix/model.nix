# The agyconf model of a `programs.agyconf` option set, in HCL's JSON syntax
# (docs/config.md), ready for builtins.toJSON. Builtins only, so it
# evaluates anywhere (tests/nix runs it with `nix-instantiate --store
# dummy://`).
#
#   cfg       the value of programs.agyconf; a missing attribute is its
#             option's default.
#   tools     `name = "/abs/path"` entries the module computes (profile
#             paths), merged over cfg.tools.
#   instance  agyconf.instance, the name of the config's state.
#   sources   JSON pointer -> option path of a value the options did not
#             write themselves (a server taken from programs.mcp), so a
#             refused secret names where it came from.
#
# Every string is taken literally: in HCL's JSON syntax every string value,
# and every key of an object value, is a template, so `${` and `%{` are
# written `$${` and `%%{`. Block names and the agyconf block (read before
# any function exists) are not templates. A secret `{ file = "/abs/path"; }`
# becomes `${secret_file("/abs/path")}`, its path escaped as any string.
# extraConfig is merged last, unescaped.
{
  cfg,
  tools ? { },
  instance ? "home-manager",
  sources ? { },
}:
let
  inherit (builtins)
    attrNames
    concatStringsSep
    elem
    filter
    head
    isAttrs
    isList
    isPath
    isString
    listToAttrs
    mapAttrs
    match
    replaceStrings
    split
    substring
    typeOf
    ;
  inherit (import ./option-paths.nix) sub upper lower;

  # Null, [] and {} members are left out.
  clean = a: removeAttrs a (filter (n: elem a.${n} [ null [ ] { } ]) (attrNames a));
  nullable = f: v: if v == null then null else f v;
  mapNamed = f: a: mapAttrs (n: f n) a;

  esc = replaceStrings [ "\${" "%{" ] [ "$\${" "%%{" ];
  # Strings escaped, in lists too; numbers and bools kept.
  escAny = v: if isString v then esc v else if isList v then map escAny v else v;
  # A JSON value: its strings, and the keys of its objects, escaped.
  escValue =
    v:
    if isAttrs v then
      listToAttrs (map (n: { name = esc n; value = escValue v.${n}; }) (attrNames v))
    else if isList v then
      map escValue v
    else
      escAny v;

  # camelCase option names as the input's snake_case attributes.
  snake =
    k:
    concatStringsSep "" (
      map (p: if isList p then "_" + replaceStrings upper lower (head p) else p) (split "([A-Z])" k)
    );
  # The options named, each under its attribute, escaped.
  fields = names: x: listToAttrs (map (n: { name = snake n; value = escAny (x.${n} or null); }) names);
  # A server's, agent's or plugin's members no option declares (the
  # module's freeform keys, or `extra`): agyconf's extra, written as given.
  extraOf = declared: x: escValue ((x.extra or { }) // removeAttrs x (declared ++ [ "extra" ]));

  # --- secrets -------------------------------------------------------------

  storeDir = "/nix/store";
  # The runtime folder as sops-nix (%r/…, %% a literal %) and agenix
  # (${XDG_RUNTIME_DIR}/…; on darwin $(<store>/bin/getconf
  # DARWIN_USER_TEMP_DIR)/…) name it: carried as written, expanded only
  # where agyconf reads the secret (internal/secretpath).
  runtimeOf =
    f:
    let
      hits = filter (h: h.m != null) [
        { m = match "%r/(.*)" f; percent = true; }
        { m = match "\\$\\{XDG_RUNTIME_DIR}/(.*)" f; percent = false; }
        { m = match "\\$\\((getconf|/[A-Za-z0-9+._?=/-]*/getconf) DARWIN_USER_TEMP_DIR\\)/(.*)" f; percent = false; }
      ];
      h = head hits;
    in
    if hits == [ ] then null else { rest = builtins.elemAt h.m (builtins.length h.m - 1); inherit (h) percent; };

  secretPath =
    path: spec:
    let
      f = spec.file or null;
      fail = why: throw "${path}: ${why}";
      others = filter (n: n != "file") (attrNames spec);
      runtime = if isString f then runtimeOf f else null;
      # What must be a clean path: the rest after a runtime prefix (%% is
      # one %), else the whole path without its leading /.
      rel = if runtime != null then replaceStrings [ "%%" ] [ "" ] runtime.rest else substring 1 (-1) f;
      segments = filter isString (split "/" rel);
      # Nothing a template, a JSON string or a shell would read otherwise.
      plain = if runtime != null && runtime.percent then "([^\"\\\\$%{}[:cntrl:]]|%%)*" else "[^\"\\\\$%{}[:cntrl:]]*";
    in
    if others != [ ] then
      fail "a secret is { file = \"/run/secrets/name\"; }, unexpected attribute ${concatStringsSep ", " others}"
    else if !(spec ? file) then
      fail "a secret is { file = \"/run/secrets/name\"; }, the attribute file is missing"
    else if isPath f then
      fail "secret file must be a string, not a Nix path: interpolating a path copies the secret into the world-readable Nix store; give its runtime path, e.g. config.sops.secrets.<name>.path or config.age.secrets.<name>.path"
    else if !isString f then
      fail "secret file must be a string holding an absolute path, got a value of type ${typeOf f}"
    else if runtime == null && substring 0 1 f != "/" then
      fail "secret file must be an absolute path, or start with the runtime folder as sops-nix (%r/…) or agenix (\${XDG_RUNTIME_DIR}/…) write it, got ${builtins.toJSON f}"
    else if match plain (if runtime != null then runtime.rest else f) == null then
      fail "secret file must not contain '\"', '\\', '$', '%', '{', '}' or control characters (beyond its runtime folder prefix; after %r/, %% stands for a %), got ${builtins.toJSON f}"
    else if rel == "" || elem "" segments || elem "." segments || elem ".." segments then
      fail "secret file must be a clean ${if runtime != null then "path below the runtime folder" else "absolute path"} (no empty, \".\" or \"..\" segment, no trailing \"/\"), got ${builtins.toJSON f}"
    else if runtime == null && (f == storeDir || substring 0 (builtins.stringLength storeDir + 1) f == "${storeDir}/") then
      fail "secret file \"${f}\" lies in the world-readable Nix store; point it at the decrypted runtime path instead (sops-nix, agenix)"
    else
      # The darwin form names getconf by its store path, whose context
      # would make the config depend on getconf: agyconf never runs it.
      builtins.unsafeDiscardStringContext f;

  # A string, or a secret: secret_file()'s argument is a template too.
  secretOr = path: v: if isAttrs v then "\${secret_file(\"${esc (secretPath path v)}\")}" else escAny v;
  secrets = path: mapNamed (k: secretOr (sub path k));

  # --- blocks --------------------------------------------------------------

  mcpServer =
    path: s:
    let
      declared = [ "command" "args" "cwd" "authProviderType" "disabledTools" "enabledTools" "timeoutSeconds" "secretMode" ];
    in
    clean (
      fields declared s
      // {
        env = secrets "${path}.env" (s.env or { });
        server_url = nullable esc (s.url or null);
        headers = secrets "${path}.headers" (s.headers or { });
        oauth = nullable (
          o:
          clean {
            client_id = nullable (secretOr "${path}.oauth.clientId") (o.clientId or null);
            client_secret = nullable (secretOr "${path}.oauth.clientSecret") (o.clientSecret or null);
          }
        ) (s.oauth or null);
        disabled = if s.disabled or false then true else null;
        tool = mapAttrs (_: t: { inherit (t) eager; }) (s.tools or { });
        extra = extraOf (declared ++ [ "env" "url" "headers" "oauth" "disabled" "tools" "type" "origin" ]) s;
      }
    );

  handler = h: clean (fields [ "command" "prompt" "model" "timeout" ] h // { type = if (h.type or "command") == "prompt" then "prompt" else null; });

  # The events come from agyconf's table of facts (internal/agy), as
  # generated into agy-facts.json.
  facts = builtins.fromJSON (builtins.readFile ./agy-facts.json);
  hook =
    h:
    clean (
      { enabled = if h.enabled or true then null else false; }
      // listToAttrs (
        map (e: {
          name = e.block;
          value = map (
            if e.grouped then g: { matcher = esc (g.matcher or ""); handler = map handler (g.handlers or [ ]); } else handler
          ) (h.${e.option} or [ ]);
        }) facts.events
      )
    );

  # A skill folder given as a Nix path is copied to the store: it is not a secret.
  skill = s: clean (fields [ "description" "body" "icon" "disableSlashCommand" ] s // { source = nullable (src: if isPath src then "${src}" else esc src) (s.source or null); });
  rule = r: clean (fields [ "body" "trigger" "description" "globs" ] r);
  agentFields = [ "description" "body" "model" "tools" "mcpServers" "skills" "plugins" "rules" "agents" "hooks" "mainAgent" "subagent" "commandExecutionPolicy" "hidden" "inheritMcp" "inheritCustomizations" "excludeDefaultComponents" ];
  agent = a: clean (fields agentFields a // { extra = extraOf agentFields a; });
  workflow = w: clean (fields [ "description" "body" ] w);

  # What a plugin shares with the top level. A top-level server taken from
  # elsewhere is named where it came from.
  components = path: c: {
    mcp_server = mapNamed (n: mcpServer (if path == root then sources."/mcp_server/${n}" or (sub "${path}.mcpServers" n) else sub "${path}.mcpServers" n)) (c.mcpServers or { });
    hook = mapAttrs (_: hook) (c.hooks or { });
    skill = mapAttrs (_: skill) (c.skills or { });
    rule = mapAttrs (_: rule) (c.rules or { });
    agent = mapAttrs (_: agent) (c.agents or { });
  };
  plugin =
    path: p:
    clean (
      components path p
      // fields [ "description" "enabled" ] p
      // {
        extra = extraOf [ "description" "enabled" "allowExtra" "mcpServers" "hooks" "skills" "rules" "agents" ] p;
        allow_extra = if p.allowExtra or false then true else null;
      }
    );

  permissions = p: clean (fields [ "allow" "ask" "deny" ] p);

  harnesses = cfg.harnesses or { };
  xmsg = harnesses.xmsg or { };
  mempalace = harnesses.mempalace or { };
  harness = clean {
    xmsg =
      if xmsg.enable or false then
        clean {
          reply_only = xmsg.replyOnly or false;
          legacy_hooks = xmsg.legacyHooks or false;
          agy_exe = nullable esc (xmsg.agyExe or null);
        }
      else
        null;
    mempalace =
      if mempalace.enable or false then
        clean {
          mode = esc (mempalace.mode or "plugin");
          wake = mempalace.wake or true;
          save = mempalace.save or true;
          save_interval = mempalace.saveInterval or 15;
          state_dir = nullable esc (mempalace.stateDir or null);
        }
      else
        null;
  };

  root = "programs.agyconf";
  model = clean (
    components root cfg
    // {
      # Read without an evaluation context: written as given.
      agyconf = clean {
        scope = "global";
        product = cfg.product or "both";
        inherit instance;
        agy_version = cfg.agyVersion or null;
        secret_mode = cfg.secretMode or null;
        layout = cfg.layout or { };
      };
      tools = mapAttrs (_: esc) ((cfg.tools or { }) // tools);
      workflow = mapAttrs (_: workflow) (cfg.workflows or { });
      plugin = mapNamed (n: plugin (sub "${root}.plugins" n)) (cfg.plugins or { });
      permissions = permissions (cfg.permissions or { });
      shared_permissions = permissions (cfg.sharedPermissions or { });
      settings = mapAttrs (_: escValue) (cfg.settings or { });
      acp = nullable (a: clean (fields [ "authType" "gcpProject" "gcpLocation" "configRoot" ] a)) (cfg.acp or null);
      inherit harness;
    }
  );

  # extraConfig: attrsets merge recursively, anything else replaces.
  merge = a: b: if isAttrs a && isAttrs b then a // mapAttrs (n: v: if a ? ${n} then merge a.${n} v else v) b else b;
in
merge model (cfg.extraConfig or { })
