# The agyconf model of a `programs.agyconf` option set, in HCL's JSON syntax
# (docs/config.md), ready for builtins.toJSON. Builtins only: no nixpkgs lib,
# no pkgs, so it evaluates anywhere (tests/nix runs it with
# `nix-instantiate --store dummy://`).
#
#   cfg       the value of programs.agyconf (docs/nix.md). Attributes may be
#             missing: each falls back to the option's default.
#   tools     extra `name = "/abs/path"` entries (the profile paths the module
#             computes), merged over cfg.tools.
#   instance  agyconf.instance, the name of the config's state.
#   sources   JSON pointer -> option path of a server the options did not
#             write themselves (one folded from programs.mcp or
#             programs.antigravity-cli), so that a refused secret names the
#             option it came from (../option-paths.nix reads the same map).
#
# Every string the user gives is taken literally. In HCL's JSON syntax every
# string is a template, so `${` and `%{` are written `$${` and `%%{` —
# everywhere a string is evaluated as one: values, and the keys of object
# values (env, headers, nested settings objects). Block attribute names and
# labels are not templates, and neither is anything in the agyconf block,
# which the decoder reads before any function exists: those are written as
# given. A secret `{ file = "/abs/path"; }` becomes
# `${secret_file("/abs/path")}`, its path escaped as any string (agenix's
# `${XDG_RUNTIME_DIR}/…` is written `$${XDG_RUNTIME_DIR}/…`, which
# secret_file() receives as given). extraConfig is merged last, unescaped.
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
    isAttrs
    isList
    isPath
    isString
    listToAttrs
    mapAttrs
    match
    removeAttrs
    replaceStrings
    substring
    stringLength
    typeOf
    ;

  # --- helpers -------------------------------------------------------------

  isEmpty = v: v == null || v == [ ] || v == { };

  # clean drops null, empty-list and empty-attrset members.
  clean = attrs: removeAttrs attrs (filter (n: isEmpty attrs.${n}) (attrNames attrs));

  mapNullable = f: v: if v == null then null else f v;

  mapToAttrs =
    f: attrs:
    listToAttrs (
      map (n: {
        name = n;
        value = f n attrs.${n};
      }) (attrNames attrs)
    );

  # Option paths for messages: programs.agyconf.mcpServers."my.server".env.X
  inherit (import ./option-paths.nix) showName sub;

  # --- escaping ------------------------------------------------------------

  esc = s: replaceStrings [ "\${" "%{" ] [ "$\${" "%%{" ] s;

  # escScalar escapes a string and keeps numbers and bools as JSON types.
  escScalar = v: if isString v then esc v else v;

  # escValue escapes every string of a JSON value, and the keys of its
  # objects (object values are expressions, whose keys are templates).
  escValue =
    v:
    if isString v then
      esc v
    else if isList v then
      map escValue v
    else if isAttrs v then
      listToAttrs (
        map (n: {
          name = esc n;
          value = escValue v.${n};
        }) (attrNames v)
      )
    else
      v;

  # A server's, agent's or plugin's members no option declares (the
  # module's freeform keys, or `extra`): agyconf's extra, written as given.
  extraOf = declared: x: escValue ((x.extra or { }) // removeAttrs x (declared ++ [ "extra" ]));

  # --- secrets -------------------------------------------------------------

  storeDir = "/nix/store";

  # A secret's path: absolute, or naming the runtime folder the way
  # sops-nix (%r/…, %% for a literal %) and agenix (${XDG_RUNTIME_DIR}/…,
  # on darwin $(<store>/bin/getconf DARWIN_USER_TEMP_DIR)/…) write it —
  # carried as written and expanded only where agyconf reads the secret
  # (internal/secretpath accepts the same forms, and more).
  runtimePrefixes = [
    {
      re = "%r/(.*)";
      percent = true;
    }
    {
      re = "\\$\\{XDG_RUNTIME_DIR}/(.*)";
      percent = false;
    }
    {
      re = "\\$\\((getconf|/[A-Za-z0-9+._?=/-]*/getconf) DARWIN_USER_TEMP_DIR\\)/(.*)";
      percent = false;
    }
  ];

  # The first runtime prefix f starts with: { rest; percent; } or null.
  runtimeOf =
    f:
    let
      hits = filter (x: x.m != null) (
        map (p: {
          m = match p.re f;
          inherit (p) percent;
        }) runtimePrefixes
      );
      h = builtins.head hits;
    in
    if hits == [ ] then
      null
    else
      {
        rest = builtins.elemAt h.m (builtins.length h.m - 1);
        inherit (h) percent;
      };

  secretPath =
    path: spec:
    let
      f = spec.file or null;
      fail = why: throw "${path}: ${why}";
      extra = filter (n: n != "file") (attrNames spec);
      runtime = if isString f then runtimeOf f else null;
      # What must be a clean path: the rest after a runtime prefix (a %%
      # stands for one %), else the whole path without its leading /.
      rel = if runtime != null then replaceStrings [ "%%" ] [ "" ] runtime.rest else substring 1 (-1) f;
      segments = filter isString (builtins.split "/" rel);
      # No character that a template, a JSON string or a shell would read
      # otherwise; a % only as %% after %r.
      plain = if runtime != null && runtime.percent then "([^\"\\\\$%{}[:cntrl:]]|%%)*" else "[^\"\\\\$%{}[:cntrl:]]*";
    in
    if extra != [ ] then
      fail "a secret is { file = \"/run/secrets/name\"; }, unexpected attribute ${concatStringsSep ", " extra}"
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
    else if runtime == null && (f == storeDir || substring 0 (stringLength storeDir + 1) f == "${storeDir}/") then
      fail "secret file \"${f}\" lies in the world-readable Nix store; point it at the decrypted runtime path instead (sops-nix, agenix)"
    else
      # The darwin form names getconf by its store path: the string's
      # context would make the config depend on getconf, which agyconf
      # never runs (it asks the system's own).
      builtins.unsafeDiscardStringContext f;

  # A string, or a secret { file = …; }: secret_file()'s argument is a
  # template too, so agenix's ${XDG_RUNTIME_DIR} is written $${…}.
  secretOr =
    path: v:
    if isAttrs v then "\${secret_file(\"${esc (secretPath path v)}\")}" else escScalar v;

  # --- blocks --------------------------------------------------------------

  mcpServer =
    path: s:
    clean {
      command = mapNullable esc (s.command or null);
      args = map escScalar (s.args or [ ]);
      env = mapToAttrs (k: v: secretOr (sub "${path}.env" k) v) (s.env or { });
      cwd = mapNullable esc (s.cwd or null);
      server_url = mapNullable esc (s.url or null);
      headers = mapToAttrs (k: v: secretOr (sub "${path}.headers" k) v) (s.headers or { });
      auth_provider_type = mapNullable esc (s.authProviderType or null);
      oauth = mapNullable (
        o:
        clean {
          client_id = mapNullable (secretOr "${path}.oauth.clientId") (o.clientId or null);
          client_secret = mapNullable (secretOr "${path}.oauth.clientSecret") (o.clientSecret or null);
        }
      ) (s.oauth or null);
      disabled = if s.disabled or false then true else null;
      disabled_tools = map esc (s.disabledTools or [ ]);
      enabled_tools = map esc (s.enabledTools or [ ]);
      timeout_seconds = s.timeoutSeconds or null;
      tool = mapAttrs (_: t: { inherit (t) eager; }) (s.tools or { });
      extra = extraOf [ "command" "args" "env" "cwd" "url" "headers" "authProviderType" "oauth" "disabled" "disabledTools" "enabledTools" "timeoutSeconds" "tools" "type" "secretMode" "origin" ] s;
      secret_mode = s.secretMode or null;
    };

  handler =
    h:
    clean {
      type = if (h.type or "command") == "prompt" then "prompt" else null;
      command = mapNullable esc (h.command or null);
      prompt = mapNullable esc (h.prompt or null);
      model = mapNullable esc (h.model or null);
      timeout = h.timeout or null;
    };

  matcherGroup = g: {
    matcher = esc (g.matcher or "");
    handler = map handler (g.handlers or [ ]);
  };

  # The events come from agyconf's table of facts (internal/agy), as
  # generated into agy-facts.json: an event's option name and block name.
  facts = builtins.fromJSON (builtins.readFile ./agy-facts.json);

  hook =
    h:
    clean (
      {
        enabled = if h.enabled or true then null else false;
      }
      // builtins.listToAttrs (
        map (e: {
          name = e.block;
          value = map (if e.grouped then matcherGroup else handler) (h.${e.option} or [ ]);
        }) facts.events
      )
    );

  skill =
    s:
    clean {
      description = mapNullable esc (s.description or null);
      body = mapNullable esc (s.body or null);
      # A path is copied to the store: a skill folder is not a secret.
      source = mapNullable (src: if isPath src then "${src}" else esc src) (s.source or null);
      icon = mapNullable esc (s.icon or null);
      disable_slash_command = s.disableSlashCommand or null;
    };

  rule =
    r:
    clean {
      body = mapNullable esc (r.body or null);
      trigger = mapNullable esc (r.trigger or null);
      description = mapNullable esc (r.description or null);
      globs = map esc (r.globs or [ ]);
    };

  agent =
    a:
    clean {
      description = mapNullable esc (a.description or null);
      body = mapNullable esc (a.body or null);
      model = mapNullable esc (a.model or null);
      tools = map esc (a.tools or [ ]);
      mcp_servers = map esc (a.mcpServers or [ ]);
      skills = map esc (a.skills or [ ]);
      plugins = map esc (a.plugins or [ ]);
      rules = map esc (a.rules or [ ]);
      agents = map esc (a.agents or [ ]);
      hooks = map esc (a.hooks or [ ]);
      main_agent = a.mainAgent or null;
      subagent = a.subagent or null;
      command_execution_policy = mapNullable esc (a.commandExecutionPolicy or null);
      hidden = a.hidden or null;
      inherit_mcp = a.inheritMcp or null;
      inherit_customizations = a.inheritCustomizations or null;
      exclude_default_components = a.excludeDefaultComponents or null;
      extra = extraOf [ "description" "body" "model" "tools" "mcpServers" "skills" "plugins" "rules" "agents" "hooks" "mainAgent" "subagent" "commandExecutionPolicy" "hidden" "inheritMcp" "inheritCustomizations" "excludeDefaultComponents" ] a;
    };

  workflow =
    w:
    clean {
      description = mapNullable esc (w.description or null);
      body = mapNullable esc (w.body or null);
    };

  # The labelled blocks a plugin shares with the top level.
  # A top-level server folded from elsewhere is named where it came from.
  serverPath = path: n: if path == root then sources."/mcp_server/${n}" or (sub "${path}.mcpServers" n) else sub "${path}.mcpServers" n;

  components = path: c: {
    mcp_server = mapToAttrs (n: mcpServer (serverPath path n)) (c.mcpServers or { });
    hook = mapAttrs (_: hook) (c.hooks or { });
    skill = mapAttrs (_: skill) (c.skills or { });
    rule = mapAttrs (_: rule) (c.rules or { });
    agent = mapAttrs (_: agent) (c.agents or { });
  };

  plugin =
    path: p:
    clean (
      components path p
      // {
        description = mapNullable esc (p.description or null);
        enabled = p.enabled or null;
        extra = extraOf [ "description" "enabled" "allowExtra" "mcpServers" "hooks" "skills" "rules" "agents" ] p;
        allow_extra = if p.allowExtra or false then true else null;
      }
    );

  permissions =
    p:
    clean {
      allow = map esc (p.allow or [ ]);
      ask = map esc (p.ask or [ ]);
      deny = map esc (p.deny or [ ]);
    };

  acp =
    a:
    clean {
      auth_type = mapNullable esc (a.authType or null);
      gcp_project = mapNullable esc (a.gcpProject or null);
      gcp_location = mapNullable esc (a.gcpLocation or null);
      config_root = mapNullable esc (a.configRoot or null);
    };

  harnesses = cfg.harnesses or { };
  xmsg = harnesses.xmsg or { };
  mempalace = harnesses.mempalace or { };

  harness = clean {
    xmsg =
      if xmsg.enable or false then
        clean {
          reply_only = xmsg.replyOnly or false;
          legacy_hooks = xmsg.legacyHooks or false;
          agy_exe = mapNullable esc (xmsg.agyExe or null);
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
          state_dir = mapNullable esc (mempalace.stateDir or null);
        }
      else
        null;
  };

  # Not templates: the decoder reads the agyconf block without an
  # evaluation context, so its strings are written as given.
  agyconfBlock = clean {
    scope = "global";
    product = cfg.product or "both";
    inherit instance;
    agy_version = cfg.agyVersion or null;
    secret_mode = cfg.secretMode or null;
    layout = cfg.layout or { };
  };

  root = "programs.agyconf";

  model = clean (
    components root cfg
    // {
      agyconf = agyconfBlock;
      tools = mapAttrs (_: esc) ((cfg.tools or { }) // tools);
      workflow = mapAttrs (_: workflow) (cfg.workflows or { });
      plugin = mapToAttrs (n: plugin (sub "${root}.plugins" n)) (cfg.plugins or { });
      permissions = permissions (cfg.permissions or { });
      shared_permissions = permissions (cfg.sharedPermissions or { });
      settings = mapAttrs (_: escValue) (cfg.settings or { });
      acp = mapNullable acp (cfg.acp or null);
      inherit harness;
    }
  );

  # extraConfig: attrsets merge recursively, anything else replaces.
  merge =
    a: b:
    if isAttrs a && isAttrs b then
      a // mapAttrs (n: v: if a ? ${n} then merge a.${n} v else v) b
    else
      b;
in
merge model (cfg.extraConfig or { })
