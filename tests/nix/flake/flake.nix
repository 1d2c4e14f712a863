# The nixpkgs stand-in as a flake, for `nix eval --override-input nixpkgs
# path:tests/nix/flake` (tests/nix/flake_test.go, TestFlakeNixEval): Nix's
# own flake machinery then supplies `self`, in pure evaluation.
{
  description = "builtins-only stand-in for nixpkgs (tests only)";
  outputs = _: import ./fake-pkgs.nix;
}
