# A Home Manager configuration using agyconf's module: the option values
# live in options.nix (so a test can evaluate exactly these), and
# agyconf.json beside it is the model the module generates from them.
#
# In your flake:
#   inputs.agyconf.url = "github:agyconf/agyconf";
#   modules = [ agyconf.homeManagerModules.default ./home.nix ];
#
# Try it:  home-manager build && agyconf diff --config result/home-files/.config/agyconf
# Without Home Manager, render the generated model into a scratch home:
#          agyconf render --config examples/nix-module --root "$(mktemp -d)"
# What that writes is committed in expected/; check it with
#          agyconf render --config examples/nix-module --root examples/nix-module/expected --check
#
# agyconf.json assumes programs.antigravity-cli declares no MCP servers,
# settings or permissions of its own: when it does, the module folds them
# into the model too (docs/nix.md, "Coexistence").
{ lib, pkgs, ... }:
let
  example = import ./options.nix;
in
{
  programs.antigravity-cli.enable = true; # installs agy

  programs.agyconf = lib.mkMerge [
    example.cfg
    {
      # The packages whose profile paths become options.nix's `tools`
      # (hookPackage, for agyhook, defaults to the flake's).
      harnesses.xmsg.package = pkgs.xmsg; # your xmsg package
      harnesses.mempalace.package = pkgs.mempalace; # provides mempalace and mempalace-mcp
    }
  ];
}
