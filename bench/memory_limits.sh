#!/bin/sh
# Peak resident memory of the heaviest commands under one --max-memory: every command
# must stay within the limit + 10 % (answer, or refuse with one line and exit 2).
#
#   bench/memory_limits.sh [LIMIT_MIB] [NIMLAB]     (defaults: 100, target/release/nimlab)
#
# Needs GNU time (/usr/bin/time -v). Prints a Markdown table; exits 1 if a command
# went over.
set -u
LIMIT=${1:-100}
N=${2:-${CARGO_TARGET_DIR:-target}/release/nimlab}
TIME=/usr/bin/time
[ -x "$N" ] || { echo "no binary $N (cargo build --release)"; exit 2; }
[ -x "$TIME" ] || { echo "needs GNU time at $TIME"; exit 2; }
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT INT TERM

ONES=$(awk 'BEGIN { for (i = 0; i < 20001; i++) printf (i ? ",1" : "1") }')
DISTINCT=$(awk 'BEGIN { for (i = 1; i <= 3000; i++) printf (i > 1 ? ",%d" : "%d"), i }')
# A census file of a million lines (about 250 MB).
awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "{\"index\":%d,\"code\":\"0.%d\",\"game\":\"octal(code=0.%d)\",\"base\":8,\"up_to\":64,\"status\":\"unsolved\",\"preperiod\":null,\"period\":null,\"sha256\":null,\"computed\":64,\"rare\":0,\"max_value\":1}\n", i, i % 8, i % 8 }' > "$DIR/census.jsonl"

limit_kib=$((LIMIT * 1024))
over=0
echo "| command | exit | peak RSS (MiB) | of the limit |"
echo "|---|---|---|---|"
run() {
    label=$1
    shift
    "$TIME" -v -o "$DIR/time" "$N" --max-memory "${LIMIT}M" "$@" > /dev/null 2> "$DIR/err"
    code=$?
    kib=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$DIR/time")
    pct=$((kib * 100 / limit_kib))
    printf '| `%s` | %s | %s | %s %% |\n' "$label" "$code" "$((kib / 1024))" "$pct"
    [ "$kib" -le $((limit_kib * 110 / 100)) ] || over=1
}
run "value nim <20,001 ones>" value nim "$ONES"
run "moves nim <20,001 ones>" moves nim "$ONES"
run "moves misere(nim) <20,001 ones>" moves 'misere(nim)' "$ONES"
run "moves octal(code=0.137) <20,001 ones>" moves 'octal(code=0.137)' "$ONES"
run "moves nim 1,2,…,3000" moves nim "$DISTINCT"
run "wythoff-pairs --count 1000000 --format json" wythoff-pairs --count 1000000 --format json
run "census merge <1M lines>" census merge "$DIR/census.jsonl"
run "certify /dev/zero" certify /dev/zero
run "guess --from-table /dev/zero" guess --from-table /dev/zero
run "value nplayer(octal(code=0.77),n=3) 100" value 'nplayer(octal(code=0.77),n=3)' 100
run "table wythoff --size 4096 --format json" table wythoff --size 4096 --format json
run "check wythoff --formula 'x xor y' --size 4096" check wythoff --formula 'x xor y' --size 4096
run "value ryuoh(p=1024) 3,5" value 'ryuoh(p=1024)' 3,5
# The formula search: its trees are de-duplicated in slices of 8 MiB and counted.
run "guess wythoff --size 64 --verify-size 4096" guess wythoff --size 64 --verify-size 4096
WELTER=$(awk 'BEGIN { for (i = 1; i <= 20001; i++) printf (i > 1 ? ",%d" : "%d"), i }')
run "value welter 1,2,…,20001" value welter "$WELTER"
run "sweep subtraction --max 40 --set-size 4 --format json" sweep subtraction --max 40 --set-size 4 --format json
run "census octal --digits 2 --up-to 1048576" census octal --digits 2 --up-to 1048576
# The prover's automata count against the limit (a quarter of it for one automaton).
run "prove ryuoh(p=1024) Theorem 3.1" prove 'ryuoh(p=1024)' --formula '(x+y)%1024 + 1024*((x/1024) xor (y/1024))'
run "prove ryuoh(p=256) Theorem 3.1" prove 'ryuoh(p=256)' --formula '(x+y)%256 + 256*((x/256) xor (y/256))'
run "prove takeaway C^[2,3..] m=3" prove 'takeaway(dim=3, moves=Cbeta(beta=[2,3..]))' --formula 'sigma(beta=[2,3..], x0, x1, x2)' --numeration 'mixed([2,3..])'
# Misère quotients: the heaps' option lists and the candidates (their tables, the
# sums checked against them) count against the limit.
run "misere-quotient octal(code=0.fff,base=16) --max-heap 1000" misere-quotient 'octal(code=0.fff,base=16)' --max-heap 1000
run "misere-quotient grundy-game --max-heap 40" misere-quotient grundy-game --max-heap 40
run "misere-quotient octal(code=0.007) --max-heap 300" misere-quotient 'octal(code=0.007)' --max-heap 300
run "misere-quotient octal(code=0.37) --max-heap 300" misere-quotient 'octal(code=0.37)' --max-heap 300
exit $over
