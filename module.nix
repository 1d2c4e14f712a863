# Home Manager module of agyconf: programs.agyconf plus the compatibility
# names programs.xmsg.harnesses.agy and programs.mempalace.harnesses.agy
# (docs/nix.md). Importing this file alone is enough: the packages default
# to pkgs.agyconf and pkgs.agyhook (agyconf's overlay), else to
# ./package.nix built with pkgs.callPackage. Importing it twice, or beside
# nix/module/agyconf.nix, is harmless (each module has a key).
{
  key = "agyconf:module.nix";
  imports = [
    ./nix/module/agyconf.nix
    ./nix/module/compat.nix
  ];
}
