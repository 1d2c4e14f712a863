# A Home Manager configuration using agyconf's module: the option values
# live in options.nix, and agyconf.json beside it is the model the module
# generates from this file, byte for byte (tests/nix evaluates it, with
# stub packages: the agy_exe store path there is a stub's, yours is your
# agy's).
#
# In your flake:
#   inputs.agyconf.url = "github:agyconf/agyconf";
#   modules = [ agyconf.homeManagerModules.default ./home.nix ];
# or, without flakes:
#   imports = [ "${agyconf}/module.nix" ];
#
# Try it:  home-manager build && agyconf diff --config result/home-files/.config/agyconf
# Without Home Manager, render the generated model into a scratch home:
#          agyconf render --config examples/nix-module --root "$(mktemp -d)"
# What that writes is committed in expected/; check it with
#          agyconf render --config examples/nix-module --root examples/nix-module/expected --check
#
# agyconf.json assumes programs.antigravity-cli declares no MCP servers,
# settings or permissions of its own: when it does, the module folds them
# into the model too (docs/nix.md, "Servers from `programs.mcp` and `programs.antigravity-cli`").
{ lib, pkgs, ... }:
let
  example = import ./options.nix;
in
{
  # xmsg and MemPalace may not be in nixpkgs: stand-ins from ./stub-packages.nix
  # (programs that say so when run) unless pkgs has them. Replace them by the
  # real packages, e.g. xmsg's from its own flake:
  #   programs.agyconf.harnesses.xmsg.package = inputs.xmsg.packages.''${pkgs.stdenv.hostPlatform.system}.default;
  nixpkgs.overlays = [ (import ./stub-packages.nix) ];

  programs.antigravity-cli.enable = true; # installs agy

  programs.agyconf = lib.mkMerge [
    example.cfg
    {
      # The packages whose profile paths become the model's tools
      # (hookPackage, for agyhook, defaults to agyconf's own).
      harnesses.xmsg.package = pkgs.xmsg;
      harnesses.mempalace.package = pkgs.mempalace; # provides mempalace and mempalace-mcp
    }
  ];
}
