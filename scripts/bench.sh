#!/usr/bin/env bash
# Render benchmark: agyconf render of generated configs into a fresh root,
# against `cp -r` of the same output tree, measured in one run so that the
# ratios hold on a noisy machine. Prints a markdown table for
# docs/benchmarks.md.
#
#   scripts/bench.sh [RUNS]     (default 7 runs per measurement; the median counts)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/agyconf" ./cmd/agyconf

# gen N: N MCP servers, N/5 skills, N/10 hooks (the issue's 1,000/200/100 at N=1000).
gen() {
  local n=$1 f=$2 i
  {
    echo 'agyconf {'
    echo '  scope = "global"'
    echo '}'
    for ((i = 0; i < n; i++)); do
      printf 'mcp_server "srv-%05d" {\n  command = "server-%d"\n  args    = ["--port", "%d", "--verbose"]\n}\n' "$i" "$i" "$((8000 + i))"
    done
    for ((i = 0; i < n / 5; i++)); do
      printf 'skill "skill-%05d" {\n  description = "Skill number %d"\n  body        = "Step one.\\nStep two.\\nStep three for skill %d.\\n"\n}\n' "$i" "$i" "$i"
    done
    for ((i = 0; i < n / 10; i++)); do
      printf 'hook "hook-%05d" {\n  pre_tool_use {\n    matcher = "run_command"\n    command = "/usr/local/bin/check-%d"\n    timeout = 5\n  }\n  stop {\n    command = "/usr/local/bin/stop-%d"\n  }\n}\n' "$i" "$i" "$i"
    done
  } >"$f"
}

# now_ns prints a monotonic-enough timestamp in nanoseconds.
now_ns() { date +%s%N; }

# median of the numbers on stdin.
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# measure CFG: render CFG into a fresh root, then cp -r the rendered tree
# into a fresh place, alternately, RUNS times each; prints the two medians
# in nanoseconds. Alternating keeps a change in the machine's load from
# landing on one side only.
measure() {
  local cfg=$1 i t0 t1
  : >"$work/render.ns"
  : >"$work/cp.ns"
  for ((i = 0; i < runs; i++)); do
    rm -rf "$work/root" "$work/copy"
    mkdir -p "$work/root"
    t0=$(now_ns)
    "$work/agyconf" render --config "$cfg" --root "$work/root" >/dev/null || exit 1
    t1=$(now_ns)
    echo $((t1 - t0)) >>"$work/render.ns"
    t0=$(now_ns)
    cp -r "$work/root" "$work/copy"
    t1=$(now_ns)
    echo $((t1 - t0)) >>"$work/cp.ns"
  done
  echo "$(median <"$work/render.ns") $(median <"$work/cp.ns")"
}

ms() { awk -v ns="$1" 'BEGIN {printf "%.1f", ns / 1e6}'; }

echo "| entries (MCP servers + skills + hooks) | files written | agyconf render | cp -r of the output | ratio |"
echo "|---|---|---|---|---|"
declare -A render_ns
for n in 10 100 1000 10000; do
  cfg="$work/gen-$n.hcl"
  gen "$n" "$cfg"
  read -r r c < <(measure "$cfg")
  render_ns[$n]=$r
  files=$(find "$work/root" -type f | wc -l)
  ratio=$(awk -v a="$r" -v b="$c" 'BEGIN {printf "%.2f", a / b}')
  echo "| $n + $((n / 5)) + $((n / 10)) | $files | $(ms "$r") ms | $(ms "$c") ms | ${ratio}× |"
done
# A no-op check: `render --check` of an up-to-date 1,000-entry tree,
# against `diff -r` of that tree and a copy, alternately.
cfg="$work/gen-1000.hcl"
rm -rf "$work/root" "$work/copy"
mkdir -p "$work/root"
"$work/agyconf" render --config "$cfg" --root "$work/root" --instance bench >/dev/null
cp -r "$work/root" "$work/copy"
: >"$work/check.ns"
: >"$work/diff.ns"
for ((i = 0; i < runs; i++)); do
  t0=$(now_ns)
  "$work/agyconf" render --config "$cfg" --root "$work/root" --instance bench --check >/dev/null || exit 1
  t1=$(now_ns)
  echo $((t1 - t0)) >>"$work/check.ns"
  t0=$(now_ns)
  diff -r -x lock "$work/root" "$work/copy" >/dev/null || exit 1
  t1=$(now_ns)
  echo $((t1 - t0)) >>"$work/diff.ns"
done
ck=$(median <"$work/check.ns")
df=$(median <"$work/diff.ns")
echo
echo "| no-op check, 1000 + 200 + 100 | render --check | diff -r against a copy | ratio |"
echo "|---|---|---|---|"
echo "| $(find "$work/root" -type f | wc -l) files | $(ms "$ck") ms | $(ms "$df") ms | $(awk -v a="$ck" -v b="$df" 'BEGIN {printf "%.2f", a / b}')× |"

# validate of a 1,000-file tree (1,000 skills) against cat-ing the same
# files, alternately.
{
  echo 'agyconf {'
  echo '  scope = "global"'
  echo '}'
  for ((i = 0; i < 1000; i++)); do
    printf 'skill "v-%04d" {\n  description = "Skill %d"\n  body        = "Step one.\\nStep two.\\n"\n}\n' "$i" "$i"
  done
} >"$work/gen-validate.hcl"
rm -rf "$work/vroot"
mkdir -p "$work/vroot"
"$work/agyconf" render --config "$work/gen-validate.hcl" --root "$work/vroot" --instance bench >/dev/null
find "$work/vroot/.gemini" -type f >"$work/vfiles"
: >"$work/validate.ns"
: >"$work/cat.ns"
for ((i = 0; i < runs; i++)); do
  t0=$(now_ns)
  "$work/agyconf" validate "$work/vroot/.gemini" >/dev/null || exit 1
  t1=$(now_ns)
  echo $((t1 - t0)) >>"$work/validate.ns"
  t0=$(now_ns)
  xargs cat <"$work/vfiles" >/dev/null
  t1=$(now_ns)
  echo $((t1 - t0)) >>"$work/cat.ns"
done
va=$(median <"$work/validate.ns")
ca=$(median <"$work/cat.ns")
echo
echo "| validate | agyconf validate | cat of the same files | ratio |"
echo "|---|---|---|---|"
echo "| $(wc -l <"$work/vfiles") files | $(ms "$va") ms | $(ms "$ca") ms | $(awk -v a="$va" -v b="$ca" 'BEGIN {printf "%.2f", a / b}')× |"

echo
echo "Scaling: 10,000-entry render / 1,000-entry render = $(awk -v a="${render_ns[10000]}" -v b="${render_ns[1000]}" 'BEGIN {printf "%.2f", a / b}')× (target: within 12×)."
echo "Runs per measurement: $runs (median). Machine: $(nproc) cores, $(uname -sr)."
