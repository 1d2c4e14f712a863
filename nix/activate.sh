# shellcheck shell=bash
# Sourced by the Home Manager activation snippet `home.activation.agyconf`
# (nix/module/agyconf.nix). Home Manager's activation script provides `run`,
# `verboseEcho` and the `DRY_RUN` / `VERBOSE` variables, and runs with
# `set -eu -o pipefail`. This file only defines a function: it never sets
# shell options, since it runs inside that script.

# agyconfActivate AGYCONF CONFIG ROOT [ONCONFLICT]
#   AGYCONF     path of the agyconf executable
#   CONFIG      the validated config folder (a store path)
#   ROOT        the render root, "$HOME"
#   ONCONFLICT  error (default), adopt or force: programs.agyconf.onConflict
# A dry run (home-manager switch -n) prints `agyconf diff`, which never writes,
# and renders nothing. Otherwise it renders through `run`. A non-zero exit of
# agyconf is returned after a message, so the switch reports the failure.
agyconfActivate() {
  local agyconf=${1:?agyconfActivate: missing AGYCONF} config=${2:?agyconfActivate: missing CONFIG}
  local root=${3:?agyconfActivate: missing ROOT} onConflict=${4:-error}
  local -a flags=()
  case $onConflict in
  error) ;;
  adopt) flags+=(--adopt) ;;
  force) flags+=(--force) ;;
  *)
    echo "agyconf: unknown programs.agyconf.onConflict '$onConflict' (expected error, adopt or force)" >&2
    return 2
    ;;
  esac

  local rc=0
  if [[ -v DRY_RUN ]]; then
    echo "agyconf: dry run, nothing rendered; a switch would change:"
    verboseEcho "agyconf: $agyconf diff --config $config --root $root"
    "$agyconf" diff --config "$config" --root "$root" || rc=$?
    if ((rc != 0)); then
      echo "agyconf: 'agyconf diff' failed with exit code $rc (messages above); a switch would fail too." >&2
    fi
    return "$rc"
  fi

  # agyconf render has no verbose flag: with -v, say what runs.
  verboseEcho "agyconf: $agyconf render --config $config --root $root${flags[*]:+ ${flags[*]}}"
  run "$agyconf" render --config "$config" --root "$root" ${flags[@]+"${flags[@]}"} || rc=$?
  case $rc in
  0) return 0 ;;
  3)
    {
      echo "agyconf: render refused, exit code 3: a file above was not written by agyconf or was edited since it was."
      echo "  See what differs:  agyconf diff --config $config --root $root"
      echo "  Then move those edits into programs.agyconf, or set programs.agyconf.onConflict to"
      echo "  \"adopt\" (take over files agyconf did not write) or \"force\" (overwrite edits); both keep a backup."
      echo "  programs.agyconf.onConflict is \"$onConflict\" now."
    } >&2
    ;;
  2)
    {
      echo "agyconf: render failed, exit code 2: bad input or cannot run (messages above)."
      echo "  A secret file named with { file = ...; } must exist and be readable when the switch runs."
      echo "  Check with:  agyconf diff --config $config --root $root"
    } >&2
    ;;
  *)
    echo "agyconf: render failed with exit code $rc (messages above). Check with: agyconf diff --config $config --root $root" >&2
    ;;
  esac
  return "$rc"
}
