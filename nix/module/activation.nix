# What a switch runs (../activate.sh keeps the runtime): with the module
# enabled, a check before anything changes and the render after
# linkGeneration, and a user unit that renders again when an inline secret
# appears; with it disabled, the previous generation's agyconf lets go of
# what it rendered. A disabled module refers to no package: importing it
# builds nothing.
{
  config,
  lib,
  pkgs,
  gen,
  ...
}:
let
  cfg = config.programs.agyconf;
  isDarwin = pkgs.stdenv.hostPlatform.isDarwin;
  agyconf = "${cfg.package}/bin/agyconf";
  optionPaths = "${gen.configDir}/option-paths";
  flags = { error = [ ]; adopt = [ "--adopt" ]; force = [ "--force" ]; }.${cfg.onConflict};
  snippet = fn: ''
    source ${../activate.sh}
    ${fn} ${lib.escapeShellArgs [ agyconf "${gen.configDir}" ]} "$HOME" ${lib.escapeShellArgs [ cfg.onConflict optionPaths ]}
  '';
  # The activation's render, for when a secret appears later.
  rerender = [
    agyconf
    "render"
    "--defer-secrets"
    "--config"
    "${gen.configDir}"
    "--root"
    config.home.homeDirectory
    "--option-paths"
    optionPaths
    "--quiet"
  ]
  ++ flags;
  # systemd names the runtime folder %t in a user unit and reads %% as %,
  # as sops-nix writes it after %r (../model.nix refuses a % elsewhere).
  systemdPath =
    p:
    let
      rest = lib.removePrefix "\${XDG_RUNTIME_DIR}/" (lib.removePrefix "%r/" p);
    in
    if rest != p then "%t/${rest}" else p;
  watch = cfg.watchSecrets && gen.watched != [ ];
  # launchd watches only the paths it is given; darwin's runtime folder is
  # known only on the machine, so such a secret is looked for every five
  # minutes instead (programs.agyconf.watchSecrets says what that costs).
  darwinPolls = lib.any (p: !(lib.hasPrefix "/" p)) gen.watched;
  xmsg = cfg.harnesses.xmsg;
  xmsgArgv = [
    (lib.getExe' xmsg.package "xmsg")
    "serve"
    "--agy-exe"
    xmsg.agyExe
  ];
  log = what: "${config.home.homeDirectory}/Library/Logs/${what}";
in
lib.mkMerge [
  (lib.mkIf cfg.enable {
    xdg.configFile."agyconf".source = gen.configDir;
    # Before writeBoundary, beside Home Manager's own checkLinkTargets:
    # would the render after linkGeneration be refused? Then the switch
    # stops while nothing has changed.
    home.activation.agyconfCheck = lib.hm.dag.entryBetween [ "writeBoundary" ] [ "checkLinkTargets" ] (snippet "agyconfCheck");
    # After linkGeneration, which removes Home Manager's old links there.
    # A failure fails the switch once Home Manager's other steps have run.
    home.activation.agyconf = lib.hm.dag.entryAfter [ "writeBoundary" "linkGeneration" ] (snippet "agyconfActivate");
  })
  # After the render: what agy loaded of it. Never fails the switch.
  (lib.mkIf (cfg.enable && cfg.doctor.enable) {
    home.activation.agyconfDoctor = lib.hm.dag.entryAfter [ "agyconf" ] ''
      source ${../activate.sh}
      agyconfDoctor ${lib.escapeShellArgs [ agyconf "${gen.configDir}" ]} "$HOME" ${
        lib.escapeShellArgs [ optionPaths (toString cfg.doctor.agy) ]
      }
    '';
  })

  # A secret sops-nix or agenix decrypts after the switch reaches its file
  # without another switch.
  (lib.mkIf (cfg.enable && watch && !isDarwin) {
    systemd.user.services.agyconf-secrets = {
      Unit.Description = "agyconf: render again once a secret can be read";
      Service = {
        Type = "oneshot";
        ExecStart = lib.escapeShellArgs rerender;
      };
    };
    systemd.user.paths.agyconf-secrets = {
      Unit.Description = "agyconf: watch the secrets it writes into agy's files";
      Path = {
        PathChanged = map systemdPath (lib.filter (p: !(lib.hasPrefix "$(" p)) gen.watched);
        Unit = "agyconf-secrets.service";
      };
      Install.WantedBy = [ "paths.target" ];
    };
  })
  (lib.mkIf (cfg.enable && watch && isDarwin) {
    launchd.agents.agyconf-secrets = {
      enable = true;
      config = {
        ProgramArguments = rerender;
        WatchPaths = lib.filter (lib.hasPrefix "/") gen.watched;
        RunAtLoad = true;
        ProcessType = "Background";
        StandardErrorPath = log "agyconf/secrets.log";
      }
      // lib.optionalAttrs darwinPolls { StartInterval = 300; };
    };
  })

  (lib.mkIf (cfg.enable && xmsg.service.enable && !isDarwin) {
    systemd.user.services.xmsg = {
      Unit.Description = "xmsg message server for agy";
      Service = {
        ExecStart = lib.escapeShellArgs xmsgArgv;
        Restart = "on-failure";
      };
      Install.WantedBy = [ "default.target" ];
    };
  })
  (lib.mkIf (cfg.enable && xmsg.service.enable && isDarwin) {
    launchd.agents.xmsg = {
      enable = true;
      config = {
        ProgramArguments = xmsgArgv;
        KeepAlive = true;
        RunAtLoad = true;
        ProcessType = "Background";
        StandardErrorPath = log "xmsg/stderr.log";
      };
    };
  })

  # Switched off while still imported: the previous generation's agyconf,
  # with that generation's config, lets go of what the instance rendered
  # (once: its clean leaves nothing to let go of). Both are still rooted
  # during activation; a generation without them had nothing rendered.
  (lib.mkIf (!cfg.enable && cfg.cleanOnDisable) {
    home.activation.agyconfClean = lib.hm.dag.entryAfter [ "writeBoundary" "linkGeneration" ] ''
      source ${../activate.sh}
      agyconfClean "$HOME" ${
        lib.escapeShellArgs [
          ".local/state/agyconf/${gen.instance}.json"
          "home-files/${lib.removePrefix "${config.home.homeDirectory}/" config.xdg.configHome}/agyconf"
        ]
      }
    '';
  })
]
