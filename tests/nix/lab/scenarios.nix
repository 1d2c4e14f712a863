# nixlab scenarios for module.nix (programs.agyconf and the compatibility
# names), evaluated inside the real Home Manager module system: run
# tests/nix/module/run.sh (see /work/shared/nixlab/README.md).
# bad-*: must fail, with each expect.<name> text in the error; the others must
# evaluate, with each expect.<name> text in the JSON check-module.nix prints
# (the model is the `builderInput` of the ~/.config/agyconf entry).
# `probe` turns a fact the lab does not print (is a home.file link enabled?)
# into a warning, which it does print.
let
  # The builder input of ~/.config/agyconf as check-module.nix prints it
  # (a JSON string inside its JSON): a CI golden of nix/model.nix, so the
  # module and the model CI checks agree byte for byte.
  golden =
    name:
    let
      s = builtins.toJSON (builtins.toJSON (builtins.fromJSON (builtins.readFile (../model + "/${name}.json"))));
    in
    ''"builderInput":${s}'';
  probe = file: config: "probe ${file} enabled=${if config.home.file.${file}.enable then "true" else "false"}";
in
{
  disabled = { };

  plain =
    { pkgs, ... }:
    {
      programs.agyconf = {
        enable = true;
        package = pkgs.agyconf;
        hookPackage = pkgs.agyhook;
        product = "cli";
        mcpServers.github = {
          command = "github-mcp-server";
          args = [
            "stdio"
            8080
            true
          ];
          env.GITHUB_PERSONAL_ACCESS_TOKEN.file = "/run/secrets/github";
          env.LITERAL = "a \${b} %{c}";
        };
        hooks.audit.preToolUse = [
          {
            matcher = "run_command";
            handlers = [ { command = "audit --tool"; } ];
          }
        ];
        rules.style.body = "Be terse.";
        permissions.allow = [ "command(git *)" ];
        settings.toolPermission = "proceed-in-sandbox";
        configFiles = [ ./extra.hcl ];
        onConflict = "adopt";
      };
    };

  # xmsg harness through the compatibility name, with programs.antigravity-cli
  xmsg =
    { pkgs, ... }:
    {
      programs.antigravity-cli.enable = true;
      programs.xmsg.harnesses.agy = {
        enable = true;
        replyOnly = true;
        service.enable = true;
      };
      programs.agyconf = {
        package = pkgs.agyconf;
        harnesses.xmsg.package = pkgs.xmsg;
      };
    };

  mempalace =
    { pkgs, ... }:
    {
      programs.antigravity-cli.enable = true;
      programs.mempalace.harnesses.agy = {
        enable = true;
        saveInterval = 7;
      };
      programs.agyconf = {
        package = pkgs.agyconf;
        hookPackage = pkgs.agyhook;
        harnesses.mempalace = {
          package = pkgs.mempalace;
          mode = "loose";
        };
        # raw model, merged over the options and not escaped
        extraConfig.settings.agentMode = "plan";
        extraConfig.mcp_server.mempalace-extra.command = "\${env(\"HOME\")}/bin/x";
      };
    };

  # programs.antigravity-cli's servers, settings and permissions folded in,
  # its mcp_config.json and settings.json links switched off, agyconf's own
  # definitions winning on a name clash.
  coexist =
    { pkgs, config, ... }:
    {
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
        skills.mine = "---\nname: mine\ndescription: d\n---\nbody";
      };
      programs.agyconf = {
        enable = true;
        package = pkgs.agyconf;
        mcpServers.github.command = "github-mcp-server";
        permissions.ask = [ "command(git *)" ];
        settings.toolPermission = "strict";
      };
      warnings = [
        (probe ".gemini/config/mcp_config.json" config)
        (probe ".gemini/antigravity-cli/settings.json" config)
        (probe ".gemini/AGENTS.md" config)
        (probe ".gemini/antigravity-cli/skills/mine/SKILL.md" config)
      ];
    };

  # context.GEMINI lands on ~/.gemini/GEMINI.md, where agyconf writes its rules
  coexist-rules =
    { pkgs, config, ... }:
    {
      programs.antigravity-cli = {
        enable = true;
        context.GEMINI = "Answer in English.";
      };
      programs.agyconf = {
        enable = true;
        package = pkgs.agyconf;
        rules.style.body = "Be terse.";
      };
      warnings = [ (probe ".gemini/GEMINI.md" config) ];
    };

  # product "ide": agyconf writes no CLI settings.json, so that link stays
  coexist-ide =
    { pkgs, config, ... }:
    {
      programs.antigravity-cli = {
        enable = true;
        mcpServers.demo.command = "demo";
        settings.artifactReviewPolicy = "agent-decides";
      };
      programs.agyconf = {
        enable = true;
        package = pkgs.agyconf;
        product = "ide";
      };
      warnings = [
        (probe ".gemini/config/mcp_config.json" config)
        (probe ".gemini/antigravity-cli/settings.json" config)
      ];
    };

  # gemini-cli's files (legacy config) are not agy's: nothing folded
  coexist-legacy-gemini =
    { pkgs, config, ... }:
    {
      programs.antigravity-cli = {
        enable = true;
        useLegacyGeminiConfig = true;
        mcpServers.demo.command = "demo";
      };
      programs.agyconf = {
        enable = true;
        package = pkgs.agyconf;
      };
      warnings = [ (probe ".gemini/settings.json" config) ];
    };

  # Home Manager before programs.antigravity-cli: the plain options evaluate,
  # nothing is folded, agyExe has no default.
  old-hm =
    { pkgs, ... }:
    {
      disabledModules = [ "programs/antigravity-cli.nix" ];
      programs.agyconf = {
        enable = true;
        package = pkgs.agyconf;
        harnesses.xmsg = {
          enable = true;
          package = pkgs.xmsg;
        };
        mcpServers.demo.command = "demo";
      };
    };

  bad-no-package = {
    programs.agyconf.enable = true;
  };

  bad-secret-nix-path =
    { pkgs, ... }:
    {
      programs.agyconf = {
        enable = true;
        package = pkgs.agyconf;
        mcpServers.github.env.TOKEN.file = ./token;
      };
    };

  bad-secret-path-not-attrs =
    { pkgs, ... }:
    {
      programs.agyconf = {
        enable = true;
        package = pkgs.agyconf;
        mcpServers.github.env.TOKEN = ./token;
      };
    };

  bad-secret-in-store =
    { pkgs, ... }:
    {
      programs.agyconf = {
        enable = true;
        package = pkgs.agyconf;
        mcpServers.github.headers.Authorization.file = "/nix/store/0000-token";
      };
    };

  bad-config-file-extension =
    { pkgs, ... }:
    {
      programs.agyconf = {
        enable = true;
        package = pkgs.agyconf;
        configFiles = [ ./extra.txt ];
      };
    };

  bad-xmsg-compat-without-antigravity-cli =
    { pkgs, ... }:
    {
      programs.xmsg.harnesses.agy.enable = true;
      programs.agyconf.package = pkgs.agyconf;
    };

  bad-compat-old-hm =
    { pkgs, ... }:
    {
      disabledModules = [ "programs/antigravity-cli.nix" ];
      programs.mempalace.harnesses.agy.enable = true;
      programs.agyconf.package = pkgs.agyconf;
    };

  bad-xmsg-service-without-agy =
    { pkgs, ... }:
    {
      disabledModules = [ "programs/antigravity-cli.nix" ];
      programs.agyconf = {
        enable = true;
        package = pkgs.agyconf;
        harnesses.xmsg = {
          enable = true;
          package = pkgs.xmsg;
          service.enable = true;
        };
      };
    };

  # The same options as tests/nix/model/harnesses.nix, through the module.
  harnesses-golden =
    { pkgs, ... }:
    {
      programs.agyconf = {
        enable = true;
        package = pkgs.agyconf;
        hookPackage = pkgs.agyhook;
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

  expect = {
    harnesses-golden = golden "harnesses";
    plain = [
      # the model: escaped literals, the secret as secret_file(), profile paths in tools
      ''"builderInput":"{\"agyconf\":{\"instance\":\"home-manager\",\"product\":\"cli\",\"scope\":\"global\"}''
      ''\"args\":[\"stdio\",8080,true],\"command\":\"github-mcp-server\"''
      ''\"GITHUB_PERSONAL_ACCESS_TOKEN\":\"''${secret_file(\\\"/run/secrets/github\\\")}\"''
      ''\"LITERAL\":\"a $${b} %%{c}\"''
      ''\"hook\":{\"audit\":{\"pre_tool_use\":[{\"handler\":[{\"command\":\"audit --tool\"}],\"matcher\":\"run_command\"}]}}''
      ''\"tools\":{\"agyhook\":\"/home/demo/.nix-profile/bin/agyhook\"}''
      # ~/.config/agyconf links the validated folder
      ''"/home/demo/.config/agyconf":{"builderInput":''
      ''"source":"/nix/store/00000000000000000000000000000000-agyconf-config"''
      # activation after writeBoundary and linkGeneration, with onConflict
      ''"activation":{"agyconf":{"after":["writeBoundary","linkGeneration"]''
      ''agyconfActivate /nix/store/00000000000000000000000000000000-agyconf-0.0.0/bin/agyconf /nix/store/00000000000000000000000000000000-agyconf-config \"$HOME\" adopt''
      ''"linkGeneration","agyconf"''
      ''"packages":["agyconf-0.0.0","agyhook-0.0.0",''
    ];
    xmsg = [
      ''\"harness\":{\"xmsg\":{\"agy_exe\":\"/nix/store/00000000000000000000000000000000-antigravity-cli-0.0.0/bin/agy\",\"legacy_hooks\":false,\"reply_only\":true}}''
      ''\"tools\":{\"xmsg\":\"/home/demo/.nix-profile/bin/xmsg\"}''
      ''"ExecStart":["/nix/store/00000000000000000000000000000000-xmsg-0.0.0/bin/xmsg serve --agy-exe /nix/store/00000000000000000000000000000000-antigravity-cli-0.0.0/bin/agy"]''
      ''"xmsg-0.0.0"''
    ];
    mempalace = [
      ''\"harness\":{\"mempalace\":{\"mode\":\"loose\",\"save\":true,\"save_interval\":7,\"wake\":true}}''
      ''\"tools\":{\"agyhook\":\"/home/demo/.nix-profile/bin/agyhook\",\"mempalace\":\"/home/demo/.nix-profile/bin/mempalace\",\"mempalace-mcp\":\"/home/demo/.nix-profile/bin/mempalace-mcp\"}''
      ''"mempalace-0.0.0"''
      ''\"settings\":{\"agentMode\":\"plan\"}''
      ''\"mcp_server\":{\"mempalace-extra\":{\"command\":\"''${env(\\\"HOME\\\")}/bin/x\"}}''
    ];
    coexist = [
      # servers folded (url → server_url, enabled = false → disabled), agyconf's github wins
      ''\"mcp_server\":{\"demo\":{\"args\":[\"--x\"],\"command\":\"demo\"},\"github\":{\"command\":\"github-mcp-server\"},\"legacy\":{\"command\":\"legacy-server\"},\"remote\":{\"disabled\":true,\"server_url\":\"https://mcp.example.com/\"}}''
      # permissions merged, agyconf's ask wins over the folded allow of the same entry
      ''\"permissions\":{\"allow\":[\"command(ls)\"],\"ask\":[\"command(git *)\"],\"deny\":[\"command(rm -rf)\"]}''
      ''\"settings\":{\"artifactReviewPolicy\":\"agent-decides\",\"toolPermission\":\"strict\"}''
      "probe .gemini/config/mcp_config.json enabled=false"
      "probe .gemini/antigravity-cli/settings.json enabled=false"
      "probe .gemini/AGENTS.md enabled=true"
      "probe .gemini/antigravity-cli/skills/mine/SKILL.md enabled=true"
      "programs.antigravity-cli.mcpServers github ignored"
      "programs.antigravity-cli.mcpServers.remote: trust not carried over"
    ];
    coexist-ide = [
      ''\"mcp_server\":{\"demo\":{\"command\":\"demo\"}}''
      "probe .gemini/config/mcp_config.json enabled=false"
      "probe .gemini/antigravity-cli/settings.json enabled=true"
    ];
    coexist-legacy-gemini = [
      ''"builderInput":"{\"agyconf\":{\"instance\":\"home-manager\",\"product\":\"both\",\"scope\":\"global\"}}"''
      "probe .gemini/settings.json enabled=true"
    ];
    coexist-rules = [
      ''\"rule\":{\"antigravity-cli-context\":{\"body\":\"Answer in English.\",\"trigger\":\"always_on\"}''
      "probe .gemini/GEMINI.md enabled=false"
    ];
    old-hm = [
      ''\"harness\":{\"xmsg\":{\"legacy_hooks\":false,\"reply_only\":false}}''
      ''\"mcp_server\":{\"demo\":{\"command\":\"demo\"}}''
    ];
    bad-no-package = [
      "programs.agyconf.package is null"
      "set programs.agyconf.package"
    ];
    bad-secret-nix-path = "programs.agyconf.mcpServers.github.env.TOKEN.file' is not of type `string'";
    bad-secret-path-not-attrs = "programs.agyconf.mcpServers.github.env.TOKEN' is not of type";
    bad-secret-in-store = [
      "a secret file lies in the world-readable Nix store"
      ''programs.agyconf.mcpServers.github.headers.Authorization.file = "/nix/store/0000-token"''
    ];
    bad-config-file-extension = "agyconf reads only .hcl and .json files, got: extra.txt";
    bad-xmsg-compat-without-antigravity-cli = [
      "programs.xmsg.harnesses.agy.enable: these names promise to wire"
      "programs.antigravity-cli.enable is false"
    ];
    bad-compat-old-hm = "has no programs.antigravity-cli module";
    bad-xmsg-service-without-agy = "harnesses.xmsg.service.enable needs harnesses.xmsg.package";
  };
}
