#!/usr/bin/env bash
# Frontier benchmark (docs/frontier.md): Grundy's game to 2^24 and 2^26 (the growth
# ratio, ideally near 4), and the dense codes .007, .04, .06 against ogsolve on the same
# n, each timed as a whole process with /usr/bin/time.
#
# Usage: bench/frontier.sh            (Grundy 2^24, 2^26; .007/.04/.06 to 2^16 and 2^18)
#   NIMLAB=path/to/nimlab  OGSOLVE=path/to/ogsolve  (defaults: target/release/nimlab,
#   ogsolve on PATH or in $OGSOLVE_ROOT/bin, else the dense rows print nimlab alone)
#   FRONTIER_DENSE_N="65536 262144"  FRONTIER_GRUNDY="24 26"  to change the sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
nimlab="${NIMLAB:-${CARGO_TARGET_DIR:-target}/release/nimlab}"
[ -x "$nimlab" ] || cargo build --release -p nimlab
ogsolve="${OGSOLVE:-$(command -v ogsolve || echo "${OGSOLVE_ROOT:-/work/tools}/bin/ogsolve")}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Wall and CPU seconds and peak KB of one command, as "wall cpu kb".
timed() {
    /usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$@" >"$tmp/out" 2>&1 || {
        echo "failed: $*" >&2
        cat "$tmp/out" >&2
        return 1
    }
    awk '{printf "%.2f %.2f %d\n", $1, $2 + $3, $4}' "$tmp/t"
}

echo "## Grundy's game (nimlab census run grundy --up-to 2^k)"
echo "| n | wall s | CPU s | peak MB | wall ratio to previous |"
echo "| ---: | ---: | ---: | ---: | ---: |"
prev=""
for k in ${FRONTIER_GRUNDY:-24 26}; do
    read -r wall cpu kb < <(timed "$nimlab" --force census run grundy --up-to $((1 << k)))
    ratio=""
    [ -n "$prev" ] && ratio=$(awk -v a="$wall" -v b="$prev" 'BEGIN{printf "%.2f", a/b}')
    echo "| 2^$k | $wall | $cpu | $((kb / 1024)) | $ratio |"
    prev="$wall"
done

echo
echo "## Dense codes: nimlab census run CODE --up-to n vs ogsolve (best of naive, rc2)"
echo "| code | n | nimlab wall s | nimlab CPU s | ogsolve method | ogsolve wall s | ratio (wall) |"
echo "| :--- | ---: | ---: | ---: | :--- | ---: | ---: |"
for code in .007 .04 .06; do
    for n in ${FRONTIER_DENSE_N:-65536 262144}; do
        read -r wall cpu _ < <(timed "$nimlab" --force census run "$code" --up-to "$n")
        best="" bestm=""
        if [ -x "$ogsolve" ]; then
            # ogsolve -n N computes positions 0..N (N + 1 terms).
            for m in naive rc2; do
                read -r ow _ _ < <(timed "$ogsolve" "0$code" -m "$m" -n $((n - 1)))
                if [ -z "$best" ] || awk -v a="$ow" -v b="$best" 'BEGIN{exit !(a < b)}'; then
                    best="$ow" bestm="$m"
                fi
            done
        fi
        ratio=""
        [ -n "$best" ] && ratio=$(awk -v a="$wall" -v b="$best" 'BEGIN{printf "%.2f", a/b}')
        echo "| $code | $n | $wall | $cpu | $bestm | $best | $ratio |"
    done
done
