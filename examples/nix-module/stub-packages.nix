# Stand-ins for xmsg and MemPalace, which nixpkgs may not have, so that
# home.nix evaluates and builds as it is: each program only says what to
# install instead. pkgs' own packages win when they exist.
final: prev:
let
  standIn =
    name: what:
    final.writeShellScriptBin name ''
      echo "${name}: a stand-in from agyconf's examples/nix-module; install ${what}" >&2
      exit 1
    '';
in
{
  xmsg = prev.xmsg or (standIn "xmsg" "xmsg (its flake: github:sini/xmsg)");
  mempalace =
    prev.mempalace or (final.symlinkJoin {
      name = "mempalace-stand-in";
      paths = [
        (standIn "mempalace" "MemPalace (github:MemPalace/mempalace)")
        (standIn "mempalace-mcp" "MemPalace (github:MemPalace/mempalace)")
      ];
    });
}
