# shellcheck shell=bash
# Sourced by the Home Manager activation snippets of nix/module/agyconf.nix.
# Home Manager's activation script provides `run`, `verboseEcho`, the
# `DRY_RUN` / `VERBOSE` variables and `newGenPath` (the generation being
# activated), and runs with `set -eu -o pipefail`. This file only defines
# functions: it never sets shell options, since it runs inside that script.
#
# A switch never stops half done:
#   agyconfCheck, before writeBoundary (beside Home Manager's own
#     checkLinkTargets), asks whether the render after linkGeneration would
#     be refused and stops the switch while nothing has changed.
#   agyconfActivate, after linkGeneration, renders. A secret not decrypted
#     yet is no failure (--defer-secrets: the module's re-render unit writes
#     it once it appears); any other failure is reported with the command to
#     run again, and fails the switch only when Home Manager's remaining
#     steps have run (an EXIT trap, chained to Home Manager's own).
#   agyconfDoctor, with programs.agyconf.doctor.enable, asks agy what it
#     loaded after the render and prints what it did not; never fails.
#   agyconfClean, with programs.agyconf.enable = false, has the previous
#     generation's agyconf let go of what the module's instance rendered.
# Quiet, as Home Manager's own steps are: a switch that goes well prints
# nothing of agyconf's but a secret still pending and the config's
# warnings; -v (VERBOSE) prints each command and its whole report.
# In a dry run (home-manager switch -n) nothing is written: the check prints
# what a switch would do, and a failure is printed with its exit status.

# _agyconfFlags ONCONFLICT: the render flags of programs.agyconf.onConflict,
# into the array _agyconfFlagList.
_agyconfFlags() {
  _agyconfFlagList=()
  case $1 in
  error) ;;
  adopt) _agyconfFlagList+=(--adopt) ;;
  force) _agyconfFlagList+=(--force) ;;
  *)
    echo "agyconf: unknown programs.agyconf.onConflict '$1' (expected error, adopt or force)" >&2
    return 2
    ;;
  esac
}

# agyconfCheck AGYCONF CONFIG ROOT [ONCONFLICT [OPTIONPATHS]]
#   AGYCONF      path of the agyconf executable
#   CONFIG       the validated config folder (a store path)
#   ROOT         the render root, "$HOME"
#   ONCONFLICT   error (default), adopt or force: programs.agyconf.onConflict
#   OPTIONPATHS  the config's option-paths map (messages in option terms)
# Returns 3 when the render would be refused: Home Manager's script stops
# before writeBoundary, as for its own collisions.
agyconfCheck() {
  local agyconf=${1:?agyconfCheck: missing AGYCONF} config=${2:?agyconfCheck: missing CONFIG}
  local root=${3:?agyconfCheck: missing ROOT} onConflict=${4:-error} optionPaths=${5:-}
  _agyconfFlags "$onConflict" || return
  local -a args=(render --dry-run --defer-secrets --config "$config" --root "$root" ${_agyconfFlagList[@]+"${_agyconfFlagList[@]}"})
  [[ -n $optionPaths ]] && args+=(--option-paths "$optionPaths")
  # The links of the generation being replaced are Home Manager's: gone
  # by the time the render runs (linkGeneration), so never conflicts.
  local newFiles=""
  if [[ -v newGenPath ]]; then
    newFiles=$(readlink -e "$newGenPath/home-files" 2>/dev/null) || newFiles=""
  fi
  [[ -n $newFiles ]] && args+=(--after-hm-link "$newFiles")

  verboseEcho "agyconf: $agyconf ${args[*]}"
  local out rc=0
  out=$("$agyconf" "${args[@]}" 2>&1) || rc=$?
  if [[ -v DRY_RUN ]]; then
    echo "agyconf: dry run, nothing rendered; a switch would do:"
    printf '%s\n' "$out"
    if ((rc != 0)); then
      echo "agyconf: the check failed with exit code $rc (messages above); the switch would stop or fail the same way. The dry run goes on." >&2
    fi
    return 0
  fi
  case $rc in
  0)
    if [[ -v VERBOSE ]]; then printf '%s\n' "$out"; fi
    return 0
    ;;
  3)
    {
      printf '%s\n' "$out"
      echo "agyconf: the switch stops here, before anything changed: the render would be refused (exit code 3)."
      if [[ $out == *"is linked by the Home Manager generation being activated"* ]]; then
        # The new generation links a file agyconf writes: adopting or
        # forcing it would make the next switch abort in checkLinkTargets.
        echo "  Another Home Manager option links a file agyconf writes (above): keep one of the two, since a file has"
        echo "  one writer. onConflict and --adopt do not settle this: replacing that link would make the next switch abort."
      else
        # As the switch renders: a secret not decrypted yet (likely on the
        # first switch) does not stop these.
        local render="agyconf render --defer-secrets --config $config --root $root${optionPaths:+ --option-paths $optionPaths}"
        echo "  ~/.config/agyconf is still the current generation's config: name the new one in what you run now."
        echo "    agyconf diff --defer-secrets --config $config --root $root${optionPaths:+ --option-paths $optionPaths}"
        echo "    $render --force   (overwrite what was edited since agyconf wrote it)"
        echo "    $render --adopt   (take over what agyconf did not write)"
        echo "  Both keep a backup; then switch again. Or set programs.agyconf.onConflict = \"force\" or \"adopt\" (now \"$onConflict\")."
        echo "  Entries of another config's instance: add --take-over NAME to that render (docs/nix.md, \"Coming from a CLI config\")."
      fi
    } >&2
    return 3
    ;;
  *)
    # Not a refusal: the render after linkGeneration says it again, and
    # fails the switch once Home Manager's remaining steps have run.
    printf '%s\n' "$out" >&2
    echo "agyconf: the check before the switch failed with exit code $rc (messages above); the switch goes on, and the render will report it." >&2
    return 0
    ;;
  esac
}

# agyconfActivate AGYCONF CONFIG ROOT [ONCONFLICT [OPTIONPATHS]]
#   as agyconfCheck. Renders through `run`; returns 0 whatever the render
#   did, so that Home Manager's remaining steps run, and fails the switch at
#   its end when the render failed.
agyconfActivate() {
  local agyconf=${1:?agyconfActivate: missing AGYCONF} config=${2:?agyconfActivate: missing CONFIG}
  local root=${3:?agyconfActivate: missing ROOT} onConflict=${4:-error} optionPaths=${5:-}
  _agyconfFlags "$onConflict" || return
  if [[ -v DRY_RUN ]]; then
    echo "agyconf: dry run, nothing rendered (the check above shows what a switch would do)."
    return 0
  fi
  local -a args=(render --defer-secrets --config "$config" --root "$root" ${_agyconfFlagList[@]+"${_agyconfFlagList[@]}"})
  [[ -n $optionPaths ]] && args+=(--option-paths "$optionPaths")
  # Quiet unless -v: then say what runs, and let render report all it did.
  [[ -v VERBOSE ]] || args+=(--quiet)
  verboseEcho "agyconf: $agyconf ${args[*]}"
  local rc=0
  run "$agyconf" "${args[@]}" || rc=$?
  ((rc == 0)) && return 0

  local rerun="agyconf render --defer-secrets --config $config --root $root${optionPaths:+ --option-paths $optionPaths}${_agyconfFlagList[*]:+ ${_agyconfFlagList[*]}}"
  {
    case $rc in
    3) echo "agyconf: render refused, exit code 3: a file above changed since the check before the switch (messages above)." ;;
    2) echo "agyconf: render failed, exit code 2: bad input or agyconf cannot run (messages above)." ;;
    *) echo "agyconf: render failed with exit code $rc (messages above)." ;;
    esac
    echo "  Home Manager's remaining steps run; the switch then fails. Once resolved, run:"
    echo "    $rerun"
  } >&2
  _agyconfFailAtExit "$rc" "$rerun"
  return 0
}

# _agyconfFailAtExit RC RERUN: make the activation script exit with RC once
# everything else ran, saying why; Home Manager's own EXIT trap (the
# temporary GC root) still runs first.
_agyconfFailAtExit() {
  _agyconfRC=$1
  _agyconfRerun=$2
  _agyconfPrevTrap=""
  local prev
  prev=$(trap -p EXIT)
  if [[ -n $prev ]]; then
    # trap -p prints `trap -- 'COMMAND' EXIT`, quoted for eval.
    eval "set -- $prev"
    _agyconfPrevTrap=$3
  fi
  trap _agyconfAtExit EXIT
}

_agyconfAtExit() {
  local status=$?
  if [[ -n ${_agyconfPrevTrap:-} ]]; then
    eval "$_agyconfPrevTrap" || true
  fi
  if ((status == 0)); then
    echo "agyconf: the switch failed: agyconf render exited with code $_agyconfRC; run: $_agyconfRerun" >&2
    exit "$_agyconfRC"
  fi
  exit "$status"
}

# agyconfDoctor AGYCONF CONFIG ROOT OPTIONPATHS [AGY]
#   AGY  the agy executable to ask; empty: agy on the activation's PATH
# With programs.agyconf.doctor.enable: after the render, asks agy what it
# loaded (agyconf doctor, read-only, each agy run bounded in time) and
# prints what it did not. Silent when everything checked is loaded, unless
# -v; never fails the switch, whatever doctor exits with.
agyconfDoctor() {
  local agyconf=${1:?agyconfDoctor: missing AGYCONF} config=${2:?agyconfDoctor: missing CONFIG}
  local root=${3:?agyconfDoctor: missing ROOT} optionPaths=${4:-} agy=${5:-}
  if [[ -v DRY_RUN ]]; then
    verboseEcho "agyconf: dry run, agy not asked what it loaded."
    return 0
  fi
  local -a args=(doctor --config "$config" --root "$root" --timeout 20s)
  [[ -n $optionPaths ]] && args+=(--option-paths "$optionPaths")
  [[ -n $agy ]] && args+=(--agy "$agy")
  [[ -v VERBOSE ]] || args+=(--quiet)
  verboseEcho "agyconf: $agyconf ${args[*]}"
  local rc=0
  "$agyconf" "${args[@]}" || rc=$?
  case $rc in
  0) ;;
  1) echo "agyconf doctor: agy did not load everything the config renders (listed above); the switch goes on." >&2 ;;
  *) echo "agyconf doctor: could not ask agy (said above, exit code $rc); the switch goes on." >&2 ;;
  esac
  return 0
}

# agyconfClean ROOT STATE CONFIG
#   STATE   the module's instance's state, relative to ROOT
#   CONFIG  where a generation holds the module's config, relative to it
#           (home-files/.config/agyconf)
# With programs.agyconf.enable = false: when the instance has a state and
# the generation being replaced had the module enabled, that generation's
# agyconf lets go of everything the instance owns, reading that
# generation's config (both stay rooted until the activation ends). The
# disabled module names no agyconf of its own, so importing it builds
# nothing; after one such switch the previous generation has none, and
# later switches do nothing. A failure is reported and the switch goes on.
agyconfClean() {
  local root=${1:?agyconfClean: missing ROOT} state=${2:?agyconfClean: missing STATE}
  local rel=${3:?agyconfClean: missing CONFIG}
  [[ -e "$root/$state" && -v oldGenPath ]] || return 0
  local agyconf="$oldGenPath/home-path/bin/agyconf" config="$oldGenPath/$rel"
  [[ -x $agyconf && -e $config ]] || return 0
  verboseEcho "agyconf: $agyconf clean --config $config --root $root"
  if [[ -v DRY_RUN ]]; then
    echo "agyconf: dry run; programs.agyconf is disabled, a switch would clean what it rendered:"
    local rc=0
    "$agyconf" clean --dry-run --config "$config" --root "$root" || rc=$?
    ((rc == 0)) || echo "agyconf: 'agyconf clean --dry-run' failed with exit code $rc. The dry run goes on." >&2
    return 0
  fi
  local rc=0 out
  out=$(run "$agyconf" clean --config "$config" --root "$root" 2>&1) || rc=$?
  if ((rc != 0)); then
    printf '%s\n' "$out" >&2
    echo "agyconf: clean failed with exit code $rc (messages above); the files stay as they are. Run: $agyconf clean --config $config --root $root" >&2
  elif [[ -v VERBOSE || ! $out =~ ^cleaned\ .*:\ nothing\ to\ do$ ]]; then
    echo "agyconf: programs.agyconf is disabled: let go of what it rendered (programs.agyconf.cleanOnDisable)"
    printf '%s\n' "$out"
  fi
  return 0
}
