#!/bin/sh
# The pruned search (`nimlab value … --search`): Cram start positions beside P.
# Beling's igsolve when it is installed (`RUSTFLAGS="-C target-cpu=native" cargo
# install igsolve`; set IGSOLVE to its path if it is not on PATH), and Node Kayles on
# the 3×n grid, n = 1…16 in one total. Wall and CPU seconds, peak memory, the value,
# and nimlab's CPU and wall time over igsolve's. nimlab's search runs on the pool's
# threads (RAYON_NUM_THREADS, default one per core; igsolve runs on one), so on an
# idle machine the wall ratio is the time a user waits; on a shared machine only the
# CPU ratio means something.
#
#   bench/search.sh [NIMLAB] [BOARDS]   (default: $CARGO_TARGET_DIR or target, release/nimlab;
#                                        BOARDS: "4x7 4x9 5x6 5x7 5x8")
#
# Needs GNU time (/usr/bin/time). Prints Markdown tables. A board that takes longer
# than $LIMIT seconds (default 600) is stopped and shown as such.
set -u
N=${1:-${CARGO_TARGET_DIR:-target}/release/nimlab}
BOARDS=${2:-"4x7 4x9 5x6 5x7 5x8"}
LIMIT=${LIMIT:-600}
TIME=/usr/bin/time
IG=${IGSOLVE:-$(command -v igsolve || true)}
[ -x "$N" ] || { echo "no binary $N (cargo build --release -p nimlab)"; exit 2; }
[ -x "$TIME" ] || { echo "needs GNU time at $TIME"; exit 2; }
OUT=$(mktemp)
trap 'rm -f "$OUT" "$OUT.time"' EXIT INT TERM

# Runs "$@" under GNU time and the limit; sets wall, cpu, mib (or fails).
timed() {
    "$TIME" -f '%e %U %S %M' -o "$OUT.time" timeout "$LIMIT" "$@" > "$OUT" 2>&1 || return 1
    read -r wall user sys kib < "$OUT.time"
    cpu=$(echo "$user $sys" | awk '{ printf "%.2f", $1 + $2 }')
    mib=$((kib / 1024))
}

echo "| Cram (start) | nimlab grundy | wall s | CPU s | MiB | igsolve nimber | wall s | CPU s | MiB | nimlab / igsolve (CPU) | (wall) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for b in $BOARDS; do
    r=${b%x*}
    c=${b#*x}
    if timed "$N" value "cram(rows=$r,cols=$c)" start --search; then
        g=$(sed -n 's/^grundy: *//p' "$OUT")
        line="| ${r}×${c} | $g | $wall | $cpu | $mib"
        ncpu=$cpu
        nwall=$wall
    else
        line="| ${r}×${c} | stopped after ${LIMIT} s | | |"
        ncpu=""
        nwall=""
    fi
    if [ -n "$IG" ] && timed "$IG" cram -r "$r" -c "$c"; then
        ig=$(sed -n 's/^Nimber of initial position: *//p' "$OUT")
        ratio=$([ -n "$ncpu" ] && echo "$ncpu $cpu" | awk '{ if ($2 > 0) printf "%.2f", $1 / $2; else print "—" }')
        wratio=$([ -n "$nwall" ] && echo "$nwall $wall" | awk '{ if ($2 > 0) printf "%.2f", $1 / $2; else print "—" }')
        echo "$line | $ig | $wall | $cpu | $mib | $ratio | $wratio |"
    else
        echo "$line | ${IG:+stopped or failed} | | | | | |"
    fi
done

echo
echo "| Node Kayles on the 3×n grid | values n = 1…16 | wall s in all | CPU s in all |"
echo "|---|---|---|---|"
values=""
total_wall=0
total_cpu=0
n=1
while [ $n -le 16 ]; do
    timed "$N" value "node-kayles(graph=grid(3,$n))" start --search ||
        { echo "| 3×$n | failed: $(tail -n 1 "$OUT") | | |"; exit 1; }
    values="$values$(sed -n 's/^grundy: *//p' "$OUT") "
    total_wall=$(echo "$total_wall $wall" | awk '{ print $1 + $2 }')
    total_cpu=$(echo "$total_cpu $cpu" | awk '{ print $1 + $2 }')
    n=$((n + 1))
done
echo "| search | $values| $total_wall | $total_cpu |"
echo "| OEIS A316632 | 2 1 1 0 3 3 2 2 2 3 3 5 2 4 1 3 | | |"
