#!/bin/sh
# Evaluate every scenario of tests/nix/scenarios.nix inside the real Home
# Manager module system, with the real nixpkgs lib and stub packages (the
# nixlab: ../shared/nixlab beside the repository, see its README.md), and
# the real sops-nix and agenix Home Manager modules for the secret
# recipes. CI evaluates the same scenarios with this repository's
# stand-ins (tests/nix/standin); this is the developer's second opinion.
# Prints one line per scenario (go test -v) and a PASS/FAIL count.
#
#   NIXLAB_DIR=/path/to/lab-workdir        set up by the lab's setup.sh
#   AGYCONF_LAB_SOPS_NIX=/path/to/sops-nix  a sops-nix tree (its modules/home-manager/sops.nix)
#   AGYCONF_LAB_AGENIX=/path/to/agenix      an agenix tree (its modules/age-home.nix)
#
# All three stay outside any git work tree: nothing of Home Manager,
# nixpkgs, sops-nix or agenix belongs in this repository.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
: "${NIXLAB_DIR:?set NIXLAB_DIR to the nixlab's work dir (HM_GIT=… LIB_GIT=… NIXLAB_DIR=… ../shared/nixlab/setup.sh)}"
: "${AGYCONF_LAB_SOPS_NIX:?set AGYCONF_LAB_SOPS_NIX to a sops-nix tree}"
: "${AGYCONF_LAB_AGENIX:?set AGYCONF_LAB_AGENIX to an agenix tree}"
if [ ! -d "$NIXLAB_DIR/hm/modules" ]; then
  echo "tests/nix/lab/run.sh: $NIXLAB_DIR has no hm/modules; run the nixlab's setup.sh first" >&2
  exit 2
fi
# The lab's sparse nixpkgs (lib link, stand-ins) as its runner keeps it.
lab=${NIXLAB:-$(cd "$repo/.." && pwd)/shared/nixlab}
[ -x "$lab/sync-sparse.sh" ] && NIXLAB_DIR=$NIXLAB_DIR "$lab/sync-sparse.sh"
cat "$NIXLAB_DIR/VERSIONS" 2>/dev/null || true
cd "$repo"
export NIXLAB_DIR AGYCONF_LAB_SOPS_NIX AGYCONF_LAB_AGENIX
go test -count=1 -v -run '^TestModuleScenariosLab$' ./tests/nix/ | grep -E '^ {4,8}--- (PASS|FAIL)|scenarios:|^(ok|FAIL)'
