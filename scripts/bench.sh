#!/usr/bin/env bash
# agyconf's performance table (docs/benchmarks.md, issue "Performance"):
# every row is a ratio of two (or three) commands run ALTERNATELY in this
# one run, medians of RUNS each, so that a change in the machine's load
# lands on both sides. Wall time is measured around each process; CPU is
# its user + system time and RSS its peak, both from GNU time.
#
#   scripts/bench.sh [RUNS]     (default 7; the median counts)
#
# Each command is timed by scripts/measure: wall time around its process
# alone, CPU in microseconds. HARNESS=gtime times it as the first three
# passes did instead, from outside GNU time with date(1): about 3 ms more
# on each side of every ratio, CPU in hundredths of a second
# (the fourth pass in docs/benchmarks.md's history compares the two).
#
# The configs: N MCP servers + N/5 skills + N/10 hooks ("1k" is the
# 1,000 + 200 + 100 of the targets, "10k" ten times that). The floor is
# scripts/floor: the same tree written with agyconf's durability rules
# (temporary file, fsync, rename, folder fsync, 16 writers) and nothing
# else.
#
# No tree is deleted while the table is measured: every run writes into a
# folder of its own, and all of them go when the script ends (only the
# cache file is removed before each uncached check, and a render's
# renames free the inodes of the few files they replace). On ext4
# without a journal (these machines' disks), creating a file skips every
# inode freed in the last 60 s (300 s while its inode table block is
# dirty) in the group it allocates from, one by one, so a tree created
# right after `rm -rf` of the last one paid for that deletion: the
# floor's own CPU grew 14-26x from 1k to 10k (the fourth pass in
# docs/benchmarks.md's history). Leave five minutes after deleting large trees on the same disk
# before a run whose figures count.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
harness=${HARNESS:-measure}
gtime=/usr/bin/time
case $harness in
measure) ;;
gtime) [ -x "$gtime" ] || { echo "HARNESS=gtime needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; } ;;
*) echo "HARNESS=$harness: use measure or gtime" >&2; exit 2 ;;
esac

go build -o "$work/agyconf" ./cmd/agyconf
go build -o "$work/floor" ./scripts/floor
go build -o "$work/measure" ./scripts/measure
mkdir -p "$work/hello"
cat >"$work/hello/main.go" <<'EOF'
package main

import "fmt"

func main() { fmt.Println("hello") }
EOF
(cd "$work/hello" && GO111MODULE=off GOFLAGS= go build -o "$work/hello-bin" main.go)

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
gen 1000 "$work/1k.hcl"
gen 10000 "$work/10k.hcl"
A=$work/agyconf

# Reference trees: the rendered output of each config, and a copy.
for s in 1k 10k; do
  mkdir -p "$work/tree-$s"
  "$A" render -q --config "$work/$s.hcl" --root "$work/tree-$s" --instance bench
  cp -a "$work/tree-$s" "$work/copy-$s"
  find "$work/tree-$s/.gemini" -type f | sort >"$work/files-$s"
done

# timed NAME CMD…: runs CMD once, appending wall ns, CPU ns (user +
# system), user ns and peak RSS KiB to $work/NAME.{wall,cpu,user,rss}.
timed() {
  local name=$1 t0 t1 u s m w
  shift
  if [ "$harness" = measure ]; then
    "$work/measure" "$work/t.out" "$@" 2>"$work/t.err" || { cat "$work/t.err" >&2; echo "failed: $*" >&2; exit 1; }
    read -r w u s m <"$work/t.out"
    echo "$w" >>"$work/$name.wall"
    echo $((u + s)) >>"$work/$name.cpu"
    echo "$u" >>"$work/$name.user"
    echo "$m" >>"$work/$name.rss"
    return
  fi
  t0=$(date +%s%N)
  "$gtime" -f '%U %S %M' -o "$work/t.out" "$@" >/dev/null 2>"$work/t.err" || { cat "$work/t.err" >&2; echo "failed: $*" >&2; exit 1; }
  t1=$(date +%s%N)
  read -r u s m <"$work/t.out"
  echo $((t1 - t0)) >>"$work/$name.wall"
  awk -v u="$u" -v s="$s" 'BEGIN {printf "%.0f\n", (u + s) * 1e9}' >>"$work/$name.cpu"
  awk -v u="$u" 'BEGIN {printf "%.0f\n", u * 1e9}' >>"$work/$name.user"
  echo "$m" >>"$work/$name.rss"
}
median() { sort -n "$1" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { awk -v ns="$1" 'BEGIN {printf "%.1f ms", ns / 1e6}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f×", a / b}'; }
# fresh: a new, empty root in $root (nothing is deleted before the end).
fresh() { root=$work/roots/$((++roots)); mkdir -p "$root"; }
roots=0

# Each round runs every measurement once, in this order; RUNS rounds.
for ((r = 0; r < runs; r++)); do
  fresh; timed render1k "$A" render -q --config "$work/1k.hcl" --root "$root" --instance bench
  timed validate1k "$A" validate -q --config "$work/1k.hcl"
  fresh; timed floor1k "$work/floor" "$work/tree-1k" "$root"
  fresh; timed render10k "$A" render -q --config "$work/10k.hcl" --root "$root" --instance bench
  fresh; timed floor10k "$work/floor" "$work/tree-10k" "$root"
  # The 10k trees' metadata is still being written back (ext4 without a
  # journal flushes inode tables in the background): without this the
  # short rows below shared the two cores with the flusher, which cost
  # the parallel side of a ratio (validate PATH, import) more than its
  # single-threaded baseline (cat). The seventh pass in docs/benchmarks.md's history.
  sync
  # --check with and without the cache of the last render (its cache file
  # removed before each run), against diff -r of the tree and a copy.
  rm -rf "$work/tree-1k/.local/state/agyconf/cache"
  timed checknocache "$A" render -q --check --config "$work/1k.hcl" --root "$work/tree-1k" --instance bench
  "$A" render -q --config "$work/1k.hcl" --root "$work/tree-1k" --instance bench
  timed checkcache "$A" render -q --check --config "$work/1k.hcl" --root "$work/tree-1k" --instance bench
  timed diff1k diff -r -x lock -x cache "$work/tree-1k" "$work/copy-1k"
  timed validatepath "$A" validate -q "$work/tree-1k/.gemini"
  timed cat1k xargs -a "$work/files-1k" cat
  timed import10k "$A" import --root "$work/tree-10k"
  timed cat10k xargs -a "$work/files-10k" cat
  timed version "$A" version
  timed hello "$work/hello-bin"
done

m() { median "$work/$1.$2"; }
echo "| operation | agyconf | compared with | ratio | target |"
echo "|---|---|---|---|---|"
r=$(m render1k wall) v=$(m validate1k wall) f=$(m floor1k wall)
echo "| fresh render, 1k | $(ms "$r") | validate --config $(ms "$v") + floor $(ms "$f") | $(ratio "$r" $((v + f))) | ≤ 1.20× |"
echo "| growth 1k → 10k, fresh render, CPU | $(ms "$(m render10k cpu)") | $(ms "$(m render1k cpu)") | $(ratio "$(m render10k cpu)" "$(m render1k cpu)") | ≤ 10.50× |"
echo "| growth 1k → 10k, fresh render, wall | $(ms "$(m render10k wall)") | $(ms "$r") | $(ratio "$(m render10k wall)" "$r") | |"
echo "| growth 1k → 10k, fresh render, user CPU | $(ms "$(m render10k user)") | $(ms "$(m render1k user)") | $(ratio "$(m render10k user)" "$(m render1k user)") | |"
echo "| growth 1k → 10k, the floor's CPU (the filesystem's own) | $(ms "$(m floor10k cpu)") | $(ms "$(m floor1k cpu)") | $(ratio "$(m floor10k cpu)" "$(m floor1k cpu)") | |"
echo "| render --check without the cache, 1k | $(ms "$(m checknocache wall)") | validate --config $(ms "$v") | $(ratio "$(m checknocache wall)" "$v") | ≤ 1.50× |"
echo "| render --check with the cache, 1k | $(ms "$(m checkcache wall)") | diff -r $(ms "$(m diff1k wall)") | $(ratio "$(m checkcache wall)" "$(m diff1k wall)") | ≤ 1.20× |"
echo "| validate PATH of the 1k tree ($(wc -l <"$work/files-1k") files) | $(ms "$(m validatepath wall)") | cat $(ms "$(m cat1k wall)") | $(ratio "$(m validatepath wall)" "$(m cat1k wall)") | ≤ 5.00× |"
echo "| import of the 10k tree ($(wc -l <"$work/files-10k") files) | $(ms "$(m import10k wall)") | cat $(ms "$(m cat10k wall)") | $(ratio "$(m import10k wall)" "$(m cat10k wall)") | ≤ 10.00× |"
echo "| agyconf version | $(ms "$(m version wall)") | Go hello-world $(ms "$(m hello wall)") | $(ratio "$(m version wall)" "$(m hello wall)") | (measured) |"
echo "| peak RSS, fresh render of 10k | $(awk -v k="$(m render10k rss)" 'BEGIN {printf "%.0f MB", k / 1024}') | output $(du -sm "$work/tree-10k/.gemini" | cut -f1) MB | | ≤ 200 MB |"
echo
echo "Runs: $runs rounds, medians, timed by $harness. Machine: $(nproc) cores, $(uname -sr), $(go version | cut -d' ' -f3). agyhook: scripts/bench-agyhook.sh."
