#!/bin/sh
# Boards and graphs through the planner's route (the memoized solver with regions/
# components + symmetry up to 30 squares or vertices, the pruned search beyond): wall and
# CPU seconds and peak memory of the start positions of Cram 4×7 and 5×7 and Node
# Kayles on the 3×10 and 3×16 grids.
#
#   bench/boards.sh [NIMLAB]      (default: $CARGO_TARGET_DIR or target, release/nimlab)
#
# Needs GNU time (/usr/bin/time). Prints a Markdown table.
set -u
N=${1:-${CARGO_TARGET_DIR:-target}/release/nimlab}
TIME=/usr/bin/time
[ -x "$N" ] || { echo "no binary $N (cargo build --release -p nimlab)"; exit 2; }
[ -x "$TIME" ] || { echo "needs GNU time at $TIME"; exit 2; }
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT INT TERM
echo "| game (start) | grundy | wall s | CPU s (user+sys) | peak RSS MiB |"
echo "|---|---|---|---|---|"
for game in 'cram(rows=4,cols=7)' 'cram(rows=5,cols=7)' \
    'node-kayles(graph=grid(3,10))' 'node-kayles(graph=grid(3,16))'; do
    "$TIME" -f '%e %U %S %M' -o "$OUT.time" "$N" value "$game" start > "$OUT" 2>&1 ||
        { echo "| $game | failed: $(tail -n 1 "$OUT") | | | |"; continue; }
    g=$(sed -n 's/^grundy: *//p' "$OUT")
    read -r wall user sys kib < "$OUT.time"
    echo "| $game | $g | $wall | $(echo "$user $sys" | awk '{ printf "%.2f", $1 + $2 }') | $((kib / 1024)) |"
done
rm -f "$OUT.time"
