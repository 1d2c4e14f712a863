# Home Manager scenarios of module.nix, one or more per item of issue 17
# and the older ones, each evaluated twice by tests/nix/module_test.go: in
# CI with this repository's stand-ins (./standin: module system, Home
# Manager options, pkgs), and in the nixlab with the real Home Manager and
# nixpkgs lib (./lab, when NIXLAB_DIR is set). Both print ./summary.nix.
#
# A scenario is { module; system ? "x86_64-linux"; packages ? (the stubs
# of ./packages.nix); } and what must hold:
#   error = [ texts ]         evaluation fails, stderr has each text
#   errorLacks = [ texts ]    … and none of these
#   eq.<JSON pointer> = v     the summary has v there
#   contains.<ptr> = [ t ]    the value there (a string, or its JSON text)
#                             has each text
#   lacks.<ptr> = [ t ]       … has none of them
#   absent = [ ptrs ]         nothing there
#   before = [ [ a b ] ]      activation step a runs before b
#   renders = true            module_test.go renders the generated model
#                             with agyconf and checks the files it names
#
# Modules get `secretModules.sops` and `secretModules.agenix`: the real
# sops-nix and agenix Home Manager modules in the nixlab, stand-ins written
# from their documented path formats in CI (./standin/programs).
let
  darwin = "aarch64-darwin";
  store = "/nix/store/00000000000000000000000000000000";
  # A remote server whose header agyconf writes into agy's file (by
  # default agyhook-bridge reads it instead: nothing to watch).
  inlineServer = {
    url = "https://mcp.linear.app/sse";
    headers.Authorization.file = "%r/secrets/linear";
    secretMode = "inline";
  };
in
{
  # --- 1. packages ----------------------------------------------------------

  # With agyconf's overlay, pkgs.agyconf and pkgs.agyhook are the defaults.
  packages-from-overlay = {
    module.programs.agyconf.enable = true;
    eq."/package" = "agyconf-0.0.0";
    eq."/hookPackage" = "agyhook-0.0.0";
    contains."/packages" = [
      "agyconf"
      "agyhook"
    ];
  };

  # module.nix alone: without the overlay, its own package.nix through
  # pkgs.callPackage (version from package.nix).
  packages-without-overlay = {
    packages = [ ];
    module.programs.agyconf.enable = true;
    eq."/package" = "agyconf-0.1.0";
    eq."/hookPackage" = "agyhook-0.1.0";
  };

  # Imported twice (home.nix and sharedModules, or default beside agyconf):
  # one module, no "defined multiple times".
  imported-twice = {
    module = {
      imports = [
        ../../module.nix
        ../../nix/module/agyconf.nix
        ../../nix/module/compat.nix
      ];
      programs.agyconf.enable = true;
    };
    eq."/package" = "agyconf-0.0.0";
  };

  # Anything that renders an agyhook command with no hookPackage is an
  # assertion naming the option.
  bad-no-hook-package-mempalace = {
    module.programs.agyconf = {
      enable = true;
      hookPackage = null;
      harnesses.mempalace.enable = true;
    };
    error = [
      "programs.agyconf.hookPackage is null, but agyhook runs what these write"
      "programs.agyconf.harnesses.mempalace"
    ];
  };
  bad-no-hook-package-exec-secret = {
    module.programs.agyconf = {
      enable = true;
      hookPackage = null;
      mcpServers.github = {
        command = "github-mcp-server";
        env.TOKEN.file = "/run/secrets/github";
      };
    };
    error = [ "programs.agyconf.mcpServers.github.env.TOKEN" ];
  };
  no-hook-package-with-tool = {
    module.programs.agyconf = {
      enable = true;
      hookPackage = null;
      tools.agyhook = "/opt/agyhook/bin/agyhook";
      harnesses.mempalace.enable = true;
    };
    eq."/generated/model/tools/agyhook" = "/opt/agyhook/bin/agyhook";
  };
  bad-no-package = {
    module.programs.agyconf = {
      enable = true;
      package = null;
    };
    error = [ "programs.agyconf.package is null" ];
  };

  # --- 2. a switch never stops half done -----------------------------------

  # The check runs before writeBoundary, beside Home Manager's own; the
  # render after linkGeneration; the re-render unit watches inline secrets.
  activation = {
    module.programs.agyconf = {
      enable = true;
      onConflict = "adopt";
      mcpServers.linear = inlineServer;
    };
    before = [
      [
        "checkLinkTargets"
        "agyconfCheck"
      ]
      [
        "agyconfCheck"
        "writeBoundary"
      ]
      [
        "linkGeneration"
        "agyconf"
      ]
      [
        "writeBoundary"
        "agyconf"
      ]
    ];
    contains."/activation/agyconfCheck/data" = [
      "agyconfCheck ${store}-agyconf-0.0.0/bin/agyconf ${store}-agyconf-config \"$HOME\" adopt ${store}-agyconf-config/option-paths"
    ];
    contains."/activation/agyconf/data" = [
      "agyconfActivate ${store}-agyconf-0.0.0/bin/agyconf ${store}-agyconf-config \"$HOME\" adopt ${store}-agyconf-config/option-paths"
    ];
    contains."/services/agyconf-secrets/Service/ExecStart" = [
      "${store}-agyconf-0.0.0/bin/agyconf render --defer-secrets --config ${store}-agyconf-config --root /home/demo --option-paths ${store}-agyconf-config/option-paths --quiet --adopt"
    ];
    eq."/services/agyconf-secrets/Service/Type" = "oneshot";
    contains."/paths/agyconf-secrets/Path/PathChanged" = [ "%t/secrets/linear" ];
    contains."/paths/agyconf-secrets/Path/Unit" = [ "agyconf-secrets.service" ];
    # The build's check judges the config alone: the builder is not the
    # machine that renders (its secrets, its home).
    contains."/configFile/agyconf/cmd" = [ "agyconf validate --offline --config \"$out\" --option-paths \"$out/option-paths\"" ];
    eq."/agents" = { };
  };

  # darwin: a launchd agent, WatchPaths for absolute paths; a runtime-folder
  # path (unknown to launchd) is looked for every five minutes.
  activation-darwin = {
    system = darwin;
    module.programs.agyconf = {
      enable = true;
      mcpServers.linear = inlineServer;
      mcpServers.notion = {
        url = "https://mcp.notion.com/mcp";
        headers.Authorization.file = "/Users/demo/.config/sops-nix/secrets/notion";
        secretMode = "inline";
      };
    };
    eq."/services" = { };
    eq."/paths" = { };
    eq."/agents/agyconf-secrets/enable" = true;
    eq."/agents/agyconf-secrets/config/WatchPaths" = [ "/Users/demo/.config/sops-nix/secrets/notion" ];
    eq."/agents/agyconf-secrets/config/StartInterval" = 300;
    eq."/agents/agyconf-secrets/config/RunAtLoad" = true;
    contains."/agents/agyconf-secrets/config/ProgramArguments" = [
      "render"
      "--defer-secrets"
      "/Users/demo"
    ];
    # What polling costs is said where it is chosen (issue 32, item 5).
    contains."/descriptions/watchSecrets" = [
      "every five minutes"
      "ms of CPU each time"
      "secrets.log"
      "absolute path"
    ];
  };

  # A remote server's header secret goes through agyhook-bridge by default
  # (issue 34): nothing inline to wait for, and agyhook must be there.
  bridge-default = {
    module.programs.agyconf = {
      enable = true;
      mcpServers.linear = {
        url = "https://mcp.linear.app/mcp";
        headers.Authorization.file = "%r/secrets/linear";
      };
    };
    eq."/paths" = { };
    eq."/generated/watched" = [ ];
    renders = true;
  };
  bad-bridge-without-agyhook = {
    module.programs.agyconf = {
      enable = true;
      hookPackage = null;
      mcpServers.linear = {
        url = "https://mcp.linear.app/mcp";
        headers.Authorization.file = "%r/secrets/linear";
      };
    };
    error = [
      "programs.agyconf.hookPackage is null, but agyhook runs what these write"
      "programs.agyconf.mcpServers.linear.headers.Authorization"
    ];
  };
  # agy's own sign-in keeps a server remote: its header stays inline.
  oauth-stays-inline = {
    module.programs.agyconf = {
      enable = true;
      mcpServers.corp = {
        url = "https://mcp.corp.example/mcp";
        headers.X-Team.file = "/run/secrets/team";
        authProviderType = "google_credentials";
      };
    };
    eq."/generated/watched" = [ "/run/secrets/team" ];
  };

  # Nothing inline to wait for, or the watch off: no unit.
  no-inline-secrets = {
    module.programs.agyconf = {
      enable = true;
      mcpServers.github = {
        command = "github-mcp-server";
        env.TOKEN.file = "%r/secrets/github";
      };
    };
    eq."/services" = { };
    eq."/paths" = { };
    eq."/generated/watched" = [ ];
  };
  watch-off = {
    module.programs.agyconf = {
      enable = true;
      watchSecrets = false;
      mcpServers.linear = inlineServer;
    };
    eq."/services" = { };
    eq."/paths" = { };
  };

  # --- 3. runtime secret paths ------------------------------------------------

  # The formats as sops-nix and agenix write them, carried escaped and
  # watched in systemd's terms (%t is the runtime folder).
  secret-path-formats = {
    module =
      { pkgs, ... }:
      {
        programs.agyconf = {
          enable = true;
          secretMode = "inline";
          mcpServers.sops = {
            command = "sops-server";
            env.TOKEN.file = "%r/secrets/100%%-token";
          };
          mcpServers.agenix = {
            url = "https://agenix.example.com/mcp";
            headers.Authorization.file = "\${XDG_RUNTIME_DIR}/agenix/header";
          };
          mcpServers.plain = {
            url = "https://plain.example.com/mcp";
            headers.Authorization.file = "/run/secrets/plain-header";
          };
        };
      };
    contains."/generated/json" = [
      ''"TOKEN": "''${secret_file(\"%r/secrets/100%%-token\")}"''
      ''"Authorization": "''${secret_file(\"$''${XDG_RUNTIME_DIR}/agenix/header\")}"''
    ];
    eq."/paths/agyconf-secrets/Path/PathChanged" = [
      "%t/agenix/header"
      "/run/secrets/plain-header"
      "%t/secrets/100%%-token"
    ];
    renders = true;
  };
  bad-secret-other-placeholder = {
    module.programs.agyconf = {
      enable = true;
      mcpServers.github = {
        command = "github-mcp-server";
        env.TOKEN.file = "%h/secrets/github";
      };
    };
    error = [
      "programs.agyconf.mcpServers.github.env.TOKEN: secret file must be an absolute path, or start with the runtime folder"
    ];
  };

  # docs/nix.md's recipes (the files examples/nix-module/recipes/ hold, and
  # module_test.go checks that docs/nix.md quotes them), with the real
  # sops-nix and agenix modules in the nixlab.
  recipe-sops-nix = {
    module =
      { secretModules, ... }:
      {
        imports = [
          secretModules.sops
          ../../examples/nix-module/recipes/sops-nix.nix
        ];
      };
    contains."/generated/json" = [
      ''secret_file(\"/home/demo/.config/sops-nix/secrets/github-token\")''
      ''secret_file(\"%r/linear-header\")''
    ];
    # The header is read by agyhook-bridge when agy starts the server:
    # nothing inline, nothing to watch.
    eq."/paths" = { };
    eq."/generated/watched" = [ ];
    renders = true;
  };
  recipe-agenix = {
    module =
      { secretModules, ... }:
      {
        imports = [
          secretModules.agenix
          ../../examples/nix-module/recipes/agenix.nix
        ];
      };
    contains."/generated/json" = [
      ''secret_file(\"$''${XDG_RUNTIME_DIR}/agenix/github-token\")''
      ''secret_file(\"$''${XDG_RUNTIME_DIR}/agenix/linear-header\")''
    ];
    eq."/paths" = { };
    eq."/generated/watched" = [ ];
    renders = true;
  };
  recipe-agenix-darwin = {
    system = darwin;
    module =
      { secretModules, ... }:
      {
        imports = [
          secretModules.agenix
          ../../examples/nix-module/recipes/agenix.nix
        ];
      };
    contains."/generated/json" = [
      ''secret_file(\"$(${store}-getconf-0.0.0/bin/getconf DARWIN_USER_TEMP_DIR)/agenix/linear-header\")''
    ];
    # No inline secret: no agent polling every five minutes either.
    absent = [ "/agents/agyconf-secrets" ];
    eq."/generated/watched" = [ ];
    renders = true;
  };

  # --- 4. programs.mcp and programs.antigravity-cli's servers --------------

  mcp-integration = {
    module = {
      programs.mcp = {
        enable = true;
        servers = {
          github = {
            command = "github-mcp-server";
            args = [ "stdio" ];
            env.GITHUB_TOKEN.file = "/run/secrets/github";
            type = "stdio";
          };
          context7 = {
            url = "https://mcp.context7.com/mcp";
            headers.CONTEXT7_API_KEY = "key";
          };
          off = {
            command = "off-server";
            enabled = false;
          };
        };
      };
      programs.agyconf = {
        enable = true;
        enableMcpIntegration = true;
        # agyconf's own definition wins a name clash
        mcpServers.context7.command = "context7-local";
      };
    };
    eq."/generated/model/mcp_server/github/env/GITHUB_TOKEN" = "\${secret_file(\"/run/secrets/github\")}";
    eq."/generated/model/mcp_server/context7" = {
      command = "context7-local";
    };
    eq."/generated/model/mcp_server/off/disabled" = true;
    eq."/generated/paths/~1mcp_server~1github~1args~10" = "programs.mcp.servers.github.args[0]";
    contains."/warnings" = [ "programs.mcp.servers.context7 ignored: programs.agyconf defines a server" ];
    renders = true;
  };

  # programs.antigravity-cli's own MCP integration wraps a server with
  # secret files in a script (a derivation): agyconf reads it from
  # programs.mcp instead, never from the wrapper.
  mcp-through-antigravity-cli = {
    module = {
      programs.mcp = {
        enable = true;
        servers.github = {
          command = "github-mcp-server";
          env.GITHUB_TOKEN.file = "/run/secrets/github";
        };
      };
      programs.antigravity-cli = {
        enable = true;
        enableMcpIntegration = true;
        mcpServers.own.command = "own-server";
      };
      programs.agyconf.enable = true;
    };
    eq."/generated/model/mcp_server/github/command" = "github-mcp-server";
    eq."/generated/model/mcp_server/github/env/GITHUB_TOKEN" = "\${secret_file(\"/run/secrets/github\")}";
    eq."/generated/model/mcp_server/own/command" = "own-server";
    lacks."/generated/json" = [ "wrapper" ];
    eq."/files/.gemini~1config~1mcp_config.json/enable" = false;
    renders = true;
  };

  bad-antigravity-cli-server-type = {
    module = {
      programs.antigravity-cli = {
        enable = true;
        mcpServers.broken = {
          command = "x";
          args = "--not-a-list";
        };
      };
      programs.agyconf.enable = true;
    };
    # Typed by the module system as programs.agyconf's own, the error
    # naming both the option and where the server came from.
    error = [
      "programs.agyconf.mcpServers.broken.args' is not of type"
      "programs.antigravity-cli.mcpServers (taken into programs.agyconf.mcpServers)"
    ];
  };

  bad-type-mismatch = {
    module.programs.agyconf = {
      enable = true;
      mcpServers.x = {
        type = "stdio";
        url = "https://x.example/mcp";
      };
    };
    error = [ "programs.agyconf.mcpServers.x.type = \"stdio\", but the server has url" ];
  };

  # agyconf doctor after the render (issue 31), asking the agy of
  # programs.antigravity-cli; off by default.
  doctor = {
    packages = [
      "agyconf"
      "agyhook"
      "antigravity-cli"
    ];
    module = {
      programs.antigravity-cli.enable = true;
      programs.agyconf = {
        enable = true;
        doctor.enable = true;
      };
    };
    before = [
      [
        "agyconf"
        "agyconfDoctor"
      ]
    ];
    contains."/activation/agyconfDoctor/data" = [
      "agyconfDoctor ${store}-agyconf-0.0.0/bin/agyconf ${store}-agyconf-config \"$HOME\" ${store}-agyconf-config/option-paths ${store}-antigravity-cli-0.0.0/bin/agy"
    ];
  };
  doctor-off = {
    module.programs.agyconf.enable = true;
    absent = [ "/activation/agyconfDoctor" ];
  };

  # --- 5. xmsg as xmsg documents it --------------------------------------

  xmsg-one-liner = {
    module = {
      programs.antigravity-cli.enable = true;
      programs.xmsg.harnesses.agy.enable = true;
    };
    contains."/packages" = [ "xmsg" ];
    eq."/generated/model/tools/xmsg" = "/home/demo/.nix-profile/bin/xmsg";
    eq."/generated/model/harness/xmsg/agy_exe" = "${store}-antigravity-cli-0.0.0/bin/agy";
    contains."/services/xmsg/Service/ExecStart" = [
      "${store}-xmsg-0.0.0/bin/xmsg serve --agy-exe ${store}-antigravity-cli-0.0.0/bin/agy"
    ];
    # xmsg's default endpoint on both sides: no socket or address of the
    # service's own that the hooks would not know.
    lacks."/services/xmsg/Service/ExecStart" = [
      "--listen"
      "sock"
    ];
    contains."/services/xmsg/Install/WantedBy" = [ "default.target" ];
    renders = true;
  };
  xmsg-one-liner-darwin = {
    system = darwin;
    module = {
      programs.antigravity-cli.enable = true;
      programs.xmsg.harnesses.agy.enable = true;
    };
    eq."/services" = { };
    eq."/agents/xmsg/enable" = true;
    eq."/agents/xmsg/config/ProgramArguments" = [
      "${store}-xmsg-0.0.0/bin/xmsg"
      "serve"
      "--agy-exe"
      "${store}-antigravity-cli-0.0.0/bin/agy"
    ];
    eq."/agents/xmsg/config/KeepAlive" = true;
  };
  xmsg-service-opt-out = {
    module = {
      programs.antigravity-cli.enable = true;
      programs.xmsg.harnesses.agy = {
        enable = true;
        service.enable = false;
      };
    };
    eq."/services" = { };
  };
  # xmsg from its own flake: no pkgs.xmsg, the package passed in.
  xmsg-flake-package = {
    packages = [
      "agyconf"
      "agyhook"
      "antigravity-cli"
    ];
    module =
      { pkgs, ... }:
      {
        programs.antigravity-cli.enable = true;
        programs.xmsg.harnesses.agy = {
          enable = true;
          package = pkgs.stub.fakeDrv "xmsg-flake-1.2.0" { meta.mainProgram = "xmsg"; };
        };
      };
    contains."/services/xmsg/Service/ExecStart" = [ "${store}-xmsg-flake-1.2.0/bin/xmsg serve" ];
  };
  bad-xmsg-no-package = {
    packages = [
      "agyconf"
      "agyhook"
      "antigravity-cli"
    ];
    module = {
      programs.antigravity-cli.enable = true;
      programs.xmsg.harnesses.agy.enable = true;
    };
    error = [
      "programs.xmsg.harnesses.agy.package is null: there is no pkgs.xmsg"
      "inputs.xmsg.packages"
    ];
    errorLacks = [ "programs.agyconf.harnesses.xmsg" ];
  };
  # One message, naming the options the user set (issue 32, item 4).
  bad-xmsg-no-agy = {
    module.programs.xmsg.harnesses.agy.enable = true;
    error = [
      "programs.xmsg.harnesses.agy runs `xmsg serve --agy-exe <agy>`, and no agy is known"
      "or programs.xmsg.harnesses.agy.service.enable = false"
    ];
    errorLacks = [
      "programs.agyconf.harnesses.xmsg.service.enable"
      "package is null"
    ];
  };
  bad-xmsg-direct-no-agy = {
    module =
      { pkgs, ... }:
      {
        programs.agyconf = {
          enable = true;
          harnesses.xmsg = {
            enable = true;
            package = pkgs.xmsg;
            service.enable = true;
          };
        };
      };
    error = [
      "programs.agyconf.harnesses.xmsg runs `xmsg serve --agy-exe <agy>`, and no agy is known"
      "or programs.agyconf.harnesses.xmsg.service.enable = false"
    ];
    errorLacks = [ "programs.xmsg" ];
  };
  # A harness writes its own server: one of the same name from elsewhere
  # is left out, saying so.
  harness-shadows-server = {
    module = {
      programs.antigravity-cli = {
        enable = true;
        mcpServers.xmsg.command = "another-xmsg";
      };
      programs.xmsg.harnesses.agy.enable = true;
    };
    absent = [ "/generated/model/mcp_server/xmsg" ];
    contains."/warnings" = [ "the MCP server xmsg of programs.mcp or programs.antigravity-cli ignored: programs.agyconf.harnesses.xmsg writes its own" ];
  };
  bad-xmsg-direct-no-package = {
    module.programs.agyconf = {
      enable = true;
      harnesses.xmsg = {
        enable = true;
        service.enable = true;
        agyExe = "/home/demo/.nix-profile/bin/agy";
      };
    };
    error = [ "programs.agyconf.harnesses.xmsg.package is null, and the xmsg service runs it" ];
    errorLacks = [
      "programs.xmsg"
      "no agy is known"
    ];
  };
  # MemPalace is Antigravity's, not Home Manager's agy's: no antigravity-cli
  # needed, and nothing to warn about on every switch.
  mempalace-without-agy = {
    module.programs.mempalace.harnesses.agy.enable = true;
    eq."/generated/model/harness/mempalace/save_interval" = 15;
    eq."/generated/model/tools/mempalace" = "/home/demo/.nix-profile/bin/mempalace";
    eq."/warnings" = [ ];
    renders = true;
  };

  # --- 6. errors in option terms --------------------------------------------

  option-paths = {
    module.programs.agyconf = {
      enable = true;
      mcpServers.github = {
        command = "github-mcp-server";
        args = [
          "stdio"
          "--read-only"
        ];
        url = "https://api.github.example/mcp";
      };
      extraConfig.mcp_server.raw.args = [
        "a"
        "\${nope}"
      ];
      extraConfig.mcp_server.raw.command = "raw-server";
    };
    eq."/generated/paths/~1mcp_server~1github~1args~11" = "programs.agyconf.mcpServers.github.args[1]";
    eq."/generated/paths/~1mcp_server~1github~1server_url" = "programs.agyconf.mcpServers.github.url";
    eq."/generated/paths/~1mcp_server~1raw~1args~11" = "programs.agyconf.extraConfig.mcp_server.raw.args[1]";
    eq."/generated/paths/~1tools~1agyhook" = "programs.agyconf.hookPackage";
    # module_test.go runs agyconf validate on it, as the build does.
    contains."/generated/json" = [ "\n      \"args\": [\n        \"stdio\",\n        \"--read-only\"\n      ],\n" ];
  };

  # --- 8. what the build can read -----------------------------------------

  bad-skill-source-string = {
    module.programs.agyconf = {
      enable = true;
      skills.notes.source = "/home/demo/skills/notes";
    };
    error = [
      "programs.agyconf.skills.notes.source = \"/home/demo/skills/notes\": a string outside the Nix store"
      "Give a Nix path instead"
    ];
  };
  skill-source-path = {
    module.programs.agyconf = {
      enable = true;
      skills.notes.source = ./model;
    };
    contains."/generated/model/skill/notes/source" = [
      "/nix/store/"
      "-agyconf-skill-source"
    ];
  };
  bad-config-file-string = {
    module.programs.agyconf = {
      enable = true;
      configFiles = [ "/home/demo/extra.hcl" ];
    };
    error = [ "programs.agyconf.configFiles: \"/home/demo/extra.hcl\": a string outside the" ];
  };
  config-file-path = {
    module.programs.agyconf = {
      enable = true;
      configFiles = [ ./lab/extra.hcl ];
    };
    contains."/configFile/agyconf/cmd" = [
      "-extra.hcl"
      "\"$out\"/extra.hcl"
    ];
  };
  bad-secret-in-store = {
    module.programs.agyconf = {
      enable = true;
      mcpServers.github.headers.Authorization.file = "/nix/store/0000-token";
      mcpServers.github.url = "https://x.example/mcp";
    };
    error = [
      "a secret file lies in the world-readable Nix store"
      "programs.agyconf.mcpServers.github.headers.Authorization.file = \"/nix/store/0000-token\""
    ];
  };
  bad-secret-nix-path = {
    module.programs.agyconf = {
      enable = true;
      mcpServers.github.env.TOKEN.file = ./model/secrets.nix;
    };
    error = [ "programs.agyconf.mcpServers.github.env.TOKEN.file' is not of type" ];
  };

  # --- 9. switched off, rollbacks, coming from the CLI -------------------

  # Imported but disabled: the next activation lets go of what the
  # instance rendered (when it has a state), with the previous generation's
  # agyconf and config; opt out with cleanOnDisable. Nothing names an
  # agyconf of this generation: importing the module builds nothing
  # (issue 32, item 1).
  disabled-cleans = {
    module.programs.agyconf.enable = false;
    contains."/activation/agyconfClean/data" = [
      "agyconfClean \"$HOME\" .local/state/agyconf/home-manager.json home-files/.config/agyconf"
    ];
    before = [
      [
        "linkGeneration"
        "agyconfClean"
      ]
    ];
    absent = [
      "/activation/agyconf"
      "/configFile/agyconf"
    ];
    eq."/mentions" = [ ];
  };
  # Imported and never enabled, as through home-manager.sharedModules: no
  # package, no config, nothing that would build agyconf or agyhook.
  imported-only = {
    packages = [
      "antigravity-cli"
      "xmsg"
      "mempalace"
    ];
    module = { };
    eq."/mentions" = [ ];
    lacks."/packages" = [
      "agyconf"
      "agyhook"
    ];
    eq."/files" = { };
    eq."/services" = { };
    lacks."/activation" = [
      "agyconf-config"
      "/bin/agyconf"
    ];
  };
  disabled-keeps = {
    module.programs.agyconf.cleanOnDisable = false;
    eq."/activation" = { };
  };

  # --- 10. the example --------------------------------------------------------

  # examples/nix-module/home.nix as it is, stub packages from its own
  # overlay; examples/examples_test.go compares its model with
  # examples/nix-module/agyconf.json.
  example-nix-module = {
    packages = [
      "agyconf"
      "agyhook"
      "antigravity-cli"
    ];
    module =
      { lib, ... }:
      {
        imports = [ ../../examples/nix-module/home.nix ];
        home.username = lib.mkForce "me";
        home.homeDirectory = lib.mkForce "/home/me";
      };
    eq."/generated/model/tools/xmsg" = "/home/me/.nix-profile/bin/xmsg";
    contains."/packages" = [
      "xmsg"
      "mempalace"
    ];
    renders = true;
  };

  # The module's model of model/harnesses.nix's options is that golden, byte
  # for byte: the module and the model tests agree.
  harnesses-golden = {
    module =
      { pkgs, ... }:
      {
        programs.agyconf = {
          enable = true;
          product = "cli";
          harnesses.xmsg = {
            enable = true;
            package = pkgs.xmsg;
            agyExe = "/home/demo/.nix-profile/bin/agy";
          };
          harnesses.mempalace = {
            enable = true;
            package = pkgs.mempalace;
          };
        };
      };
    eq."/generated/json" = builtins.readFile ./model/harnesses.json;
  };

  # --- coexistence with programs.antigravity-cli (earlier issues) ----------

  # Its servers, settings and permissions folded in, its mcp_config.json
  # and settings.json links switched off, agyconf's own definitions winning.
  coexist = {
    module = {
      programs.antigravity-cli = {
        enable = true;
        mcpServers = {
          demo = {
            command = "demo";
            args = [ "--x" ];
          };
          remote = {
            httpUrl = "https://mcp.example.com/";
            enabled = false;
            trust = true;
            note = null;
          };
          github.command = "from-antigravity-cli";
        };
        settings = {
          artifactReviewPolicy = "agent-decides";
          mcpServers.legacy.command = "legacy-server";
        };
        permissions = {
          allow = [
            "command(ls)"
            "command(git *)"
          ];
          deny = [ "command(rm -rf)" ];
        };
        context.AGENTS = "untouched";
      };
      programs.agyconf = {
        enable = true;
        mcpServers.github.command = "github-mcp-server";
        permissions.ask = [ "command(git *)" ];
        settings.toolPermission = "strict";
      };
    };
    eq."/generated/model/mcp_server" = {
      demo = {
        args = [ "--x" ];
        command = "demo";
      };
      github.command = "github-mcp-server";
      legacy.command = "legacy-server";
      remote = {
        disabled = true;
        extra.trust = true;
        server_url = "https://mcp.example.com/";
      };
    };
    eq."/generated/model/permissions" = {
      allow = [ "command(ls)" ];
      ask = [ "command(git *)" ];
      deny = [ "command(rm -rf)" ];
    };
    eq."/generated/model/settings" = {
      artifactReviewPolicy = "agent-decides";
      toolPermission = "strict";
    };
    eq."/generated/paths/~1settings~1artifactReviewPolicy" = "programs.antigravity-cli.settings.artifactReviewPolicy";
    eq."/files/.gemini~1config~1mcp_config.json/enable" = false;
    eq."/files/.gemini~1antigravity-cli~1settings.json/enable" = false;
    eq."/files/.gemini~1AGENTS.md/enable" = true;
    # A null field is left out as programs.antigravity-cli itself leaves
    # it out, without a warning.
    contains."/warnings" = [ "programs.antigravity-cli.mcpServers.github ignored" ];
    lacks."/warnings" = [ "note" ];
  };
  coexist-rules = {
    module = {
      programs.antigravity-cli = {
        enable = true;
        context.GEMINI = "Answer in English.";
      };
      programs.agyconf = {
        enable = true;
        rules.style.body = "Be terse.";
      };
    };
    eq."/generated/model/rule/antigravity-cli-context" = {
      body = "Answer in English.";
      trigger = "always_on";
    };
    eq."/generated/paths/~1rule~1antigravity-cli-context~1body" = "programs.antigravity-cli.context.GEMINI.body";
    eq."/files/.gemini~1GEMINI.md/enable" = false;
  };
  coexist-ide = {
    module = {
      programs.antigravity-cli = {
        enable = true;
        mcpServers.demo.command = "demo";
        settings.artifactReviewPolicy = "agent-decides";
      };
      programs.agyconf = {
        enable = true;
        product = "ide";
      };
    };
    eq."/generated/model/mcp_server" = {
      demo.command = "demo";
    };
    eq."/files/.gemini~1config~1mcp_config.json/enable" = false;
    eq."/files/.gemini~1antigravity-cli~1settings.json/enable" = true;
  };
  coexist-legacy-gemini = {
    module = {
      programs.antigravity-cli = {
        enable = true;
        useLegacyGeminiConfig = true;
        mcpServers.demo.command = "demo";
      };
      programs.agyconf.enable = true;
    };
    absent = [ "/generated/model/mcp_server" ];
    eq."/files/.gemini~1settings.json/enable" = true;
  };
  # Home Manager before programs.antigravity-cli: the options evaluate,
  # nothing is folded, agyExe has no default.
  old-hm = {
    module = {
      disabledModules = [ "programs/antigravity-cli.nix" ];
      programs.agyconf = {
        enable = true;
        harnesses.xmsg = {
          enable = true;
          package = null;
        };
        mcpServers.demo.command = "demo";
      };
    };
    eq."/generated/model/harness/xmsg" = {
      legacy_hooks = false;
      reply_only = false;
    };
  };
  bad-compat-old-hm = {
    module = {
      disabledModules = [ "programs/antigravity-cli.nix" ];
      programs.xmsg.harnesses.agy.enable = true;
    };
    error = [ "this Home Manager has no programs.antigravity-cli module" ];
  };
  bad-config-file-extension = {
    module.programs.agyconf = {
      enable = true;
      configFiles = [ ./lab/extra.txt ];
    };
    error = [ "agyconf reads only .hcl and .json files, got: extra.txt" ];
  };

  # --- files two modules write (issue 32, item 2) ---------------------------

  # Known at evaluation: an assertion naming both options, as Home
  # Manager's own for its file collisions, never a switch-time refusal
  # whose way out breaks the next switch.
  bad-collision-skill = {
    module = {
      programs.antigravity-cli = {
        enable = true;
        skills.notes = "Take notes.";
      };
      programs.agyconf = {
        enable = true;
        skills.notes = {
          description = "Take notes";
          body = "Write them down.";
        };
      };
    };
    error = [
      "programs.agyconf writes where another Home Manager option writes too"
      "~/.gemini/antigravity-cli/skills/notes: programs.agyconf.skills.notes and programs.antigravity-cli.skills.notes"
      "onConflict cannot settle this"
    ];
    errorLacks = [ "~/.gemini/config/skills/notes" ];
  };
  bad-collision-home-file = {
    module = {
      home.file.".gemini/config/hooks.json".text = "{}";
      programs.agyconf = {
        enable = true;
        hooks.audit.stop = [ { command = "audit"; } ];
      };
    };
    error = [ "~/.gemini/config/hooks.json: programs.agyconf.hooks and home.file.\".gemini/config/hooks.json\"" ];
  };
  # A folder linked whole holds what agyconf would write into it.
  bad-collision-folder = {
    module = {
      home.file.".gemini/config/agents".source = ./model;
      programs.agyconf = {
        enable = true;
        agents.reviewer = {
          description = "Reviews";
          body = "Review.";
        };
      };
    };
    error = [ "~/.gemini/config/agents/reviewer: programs.agyconf.agents.reviewer and home.file.\".gemini/config/agents\"" ];
  };
  # A target as Home Manager keeps it ("./", "/." , "..", "//" and a
  # trailing slash as written) names the same file: still a collision.
  bad-collision-spelled = {
    module = {
      home.file."./.gemini/config/".source = ./model;
      home.file.".local/../.gemini//antigravity-cli/./settings.json".text = "{}";
      programs.agyconf = {
        enable = true;
        mcpServers.github.command = "github-mcp-server";
        settings.toolPermission = "strict";
      };
    };
    error = [
      "~/.gemini/config/mcp_config.json: programs.agyconf.mcpServers and home.file.\"./.gemini/config/\""
      "~/.gemini/antigravity-cli/settings.json: programs.agyconf.settings and home.file.\".local/../.gemini//antigravity-cli/./settings.json\""
    ];
  };
  # darwin's file names ignore case: ~/.Gemini is ~/.gemini there.
  bad-collision-case-darwin = {
    system = darwin;
    module = {
      home.file.".Gemini/config/mcp_config.json".text = "{}";
      programs.agyconf = {
        enable = true;
        mcpServers.github.command = "github-mcp-server";
      };
    };
    error = [ "~/.gemini/config/mcp_config.json: programs.agyconf.mcpServers and home.file.\".Gemini/config/mcp_config.json\"" ];
  };
  # A folder linked file by file (recursive) from a Nix path: its files
  # are known while evaluating, and one of them is a file agyconf writes.
  bad-collision-recursive = {
    module = {
      home.file.".gemini/config" = {
        source = ./collision;
        recursive = true;
      };
      programs.agyconf = {
        enable = true;
        mcpServers.github.command = "github-mcp-server";
      };
    };
    error = [ "~/.gemini/config/mcp_config.json: programs.agyconf.mcpServers and home.file.\".gemini/config\"" ];
  };
  # What a harness writes is named by the harness.
  bad-collision-harness = {
    module = {
      programs.antigravity-cli = {
        enable = true;
        skills.xmsg = "Another xmsg skill.";
      };
      programs.xmsg.harnesses.agy.enable = true;
    };
    error = [ "~/.gemini/antigravity-cli/skills/xmsg: programs.agyconf.harnesses.xmsg and programs.antigravity-cli.skills.xmsg" ];
  };
  # Side by side where the paths differ: the IDE's skills folder is not the
  # CLI's, a hooks.json link is no collision while agyconf writes no hooks,
  # ~/.Gemini is not ~/.gemini on Linux, and a folder Home Manager links
  # file by file (recursive) holding none of agyconf's items is Home
  # Manager's files among agyconf's.
  no-collision = {
    module = {
      programs.antigravity-cli = {
        enable = true;
        skills.notes = "Take notes.";
      };
      home.file.".gemini/config/hooks.json".text = "{}";
      home.file.".Gemini/config/mcp_config.json".text = "{}";
      home.file.".gemini/config/agents" = {
        source = ./model;
        recursive = true;
      };
      programs.agyconf = {
        enable = true;
        product = "ide";
        mcpServers.github.command = "github-mcp-server";
        skills.notes = {
          description = "Take notes";
          body = "Write them down.";
        };
        agents.reviewer = {
          description = "Reviews";
          body = "Review.";
        };
      };
    };
    eq."/generated/model/skill/notes/description" = "Take notes";
    eq."/files/.gemini~1antigravity-cli~1skills~1notes~1SKILL.md/enable" = true;
  };
}
