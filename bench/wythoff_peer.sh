#!/bin/sh
# Wythoff's table [0,N)^2 (default N = 8192): nimlab's line kernel against a plain C
# bitset program (bench/peers/wythoff_bitset.c: row, column and diagonal bitsets with
# least-unused pointers, the symmetric half, anti-diagonals split between THREADS
# OpenMP threads). Both write the whole table to a file; the values are compared byte
# for byte. Prints each one's wall and CPU seconds (GNU time) and nimlab's share.
#
#   bench/wythoff_peer.sh [N] [THREADS]     (needs cc with OpenMP and /usr/bin/time;
#                                            NIMLAB: the binary, default target/release/nimlab)
set -eu
cd "$(dirname "$0")/.."
N=${1:-8192}
T=${2:-2}
NIMLAB=${NIMLAB:-target/release/nimlab}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
cc -O3 -march=native -fopenmp -o "$dir/peer" bench/peers/wythoff_bitset.c
grep -o 'avx512[a-z]*\|avx2' /proc/cpuinfo 2>/dev/null | sort -u | tr '\n' ' ' | sed 's/^/CPU: /;s/$/\n/'
/usr/bin/time -f "nimlab: %e s wall, %U+%S s CPU, %M KB" \
    "$NIMLAB" table wythoff --size "$N" --format npy -o "$dir/nimlab.npy"
/usr/bin/time -f "C bitset ($T threads): %e s wall, %U+%S s CPU, %M KB" \
    "$dir/peer" "$N" "$T" "$dir/peer.raw"
bytes=$((N * N * 4))
if tail -c "$bytes" "$dir/nimlab.npy" | cmp -s - "$dir/peer.raw"; then
    echo "tables: identical ($bytes bytes)"
else
    echo "tables: DIFFER"
    exit 1
fi
