# The package stubs the scenarios use, as an overlay on either pkgs
# stand-in (./standin/pkgs.nix, or the nixlab's stub pkgs): fake
# derivations, nothing builds. `names` picks which exist, so that a scenario
# can leave agyconf out of pkgs (the module then falls back to package.nix).
{
  names ? [
    "agyconf"
    "agyhook"
    "antigravity-cli"
    "xmsg"
    "mempalace"
    "getconf"
  ],
}:
_final: prev:
let
  mains = {
    antigravity-cli = "agy";
  };
in
builtins.listToAttrs (
  map (n: {
    name = n;
    value = prev.stub.fakeDrv "${n}-0.0.0" { meta.mainProgram = mains.${n} or n; };
  }) names
)
