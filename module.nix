# Home Manager module of agyconf without the flake (docs/nix.md): package and
# hookPackage default to null, set them yourself. Includes the compatibility
# names programs.xmsg.harnesses.agy and programs.mempalace.harnesses.agy.
{
  imports = [
    ./nix/module/agyconf.nix
    ./nix/module/compat.nix
  ];
}
