#!/usr/bin/env bash
# Octal-games benchmark: nimlab against ogsolve (installed from crates.io into a local
# root) and the naive mex. Usage: bench/octal.sh   (NIMLAB_BENCH_GRUNDY24=1 adds 2^24)
set -euo pipefail
cd "$(dirname "$0")/.."
root="${OGSOLVE_ROOT:-/work/tools}"
if [ ! -x "$root/bin/ogsolve" ]; then
    cargo install ogsolve --version 0.0.7 --root "$root" --locked ||
        cargo install ogsolve --version 0.0.7 --root "$root"
fi
export OGSOLVE="$root/bin/ogsolve"
cargo bench -p nimlab-bench --bench octal
