#!/usr/bin/env bash
# Times `patchmap dump` against `llvm-readobj-19 --stackmap` on a large llc-19 object.
#
# Generates an IR module with FUNCS functions of SITES stackmaps each (5 live values, one of them a
# pool constant), compiles it with llc-19, checks both tools print the same text, then runs the two
# dumpers alternately RUNS times each and prints the median times and their ratio, and a
# `TABLE|what|ours|theirs|ratio` line for scripts/bench-table.sh.
#
# Usage: scripts/bench-dump.sh [FUNCS] [SITES] [RUNS]    (defaults: 4000 100 5)
set -euo pipefail

FUNCS=${1:-4000}
SITES=${2:-100}
RUNS=${3:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for tool in llc-19 llvm-readobj-19; do
    command -v "$tool" >/dev/null || { echo "bench-dump: $tool not found" >&2; exit 1; }
done

cargo build --release --manifest-path "$ROOT/Cargo.toml" --bin patchmap >&2
PATCHMAP="$ROOT/target/release/patchmap"

awk -v funcs="$FUNCS" -v sites="$SITES" 'BEGIN {
    print "declare void @llvm.experimental.stackmap(i64, i32, ...)"
    id = 0
    for (f = 0; f < funcs; f++) {
        printf "define i64 @f%d(i64 %%a, i64 %%b, ptr %%p) {\nentry:\n  %%x = add i64 %%a, %%b\n", f
        for (s = 0; s < sites; s++) {
            printf "  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 %d, i32 0, i64 %%a, i64 %%b, i64 %%x, i64 4294967296, ptr %%p)\n", id++
        }
        print "  ret i64 %x\n}"
    }
}' > "$WORK/big.ll"
llc-19 -O2 -filetype=obj "$WORK/big.ll" -o "$WORK/big.o"
size=$(( 0x$(llvm-readelf-19 -S -W "$WORK/big.o" | awk '{ for (i = 1; i < NF; i++) if ($i == ".llvm_stackmaps") print $(i + 4) }') ))
echo "object: $FUNCS functions x $SITES stackmaps, .llvm_stackmaps = $size bytes"

"$PATCHMAP" dump "$WORK/big.o" > "$WORK/ours.txt"
llvm-readobj-19 --stackmap "$WORK/big.o" | sed -n '/^LLVM StackMap Version/,$p' > "$WORK/theirs.txt"
cmp -s "$WORK/ours.txt" "$WORK/theirs.txt" || { echo "bench-dump: outputs differ" >&2; exit 1; }

now() { date +%s%N; }
ours=(); theirs=()
for ((i = 0; i < RUNS; i++)); do
    t0=$(now); "$PATCHMAP" dump "$WORK/big.o" > /dev/null; t1=$(now)
    llvm-readobj-19 --stackmap "$WORK/big.o" > /dev/null; t2=$(now)
    ours+=($(( (t1 - t0) / 1000 ))); theirs+=($(( (t2 - t1) / 1000 )))
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mo=$(median "${ours[@]}"); mt=$(median "${theirs[@]}")
echo "patchmap dump:           median ${mo} us  (runs: ${ours[*]})"
echo "llvm-readobj-19 --stackmap: median ${mt} us  (runs: ${theirs[*]})"
awk -v o="$mo" -v t="$mt" 'BEGIN { printf "ratio llvm-readobj / patchmap = %.2f (above 1: patchmap is faster)\n", t / o }'
awk -v o="$mo" -v t="$mt" -v what="stack map dump: $FUNCS x $SITES records" -v size="$size" \
    'BEGIN { printf "TABLE|%s, %.1f MB section (ms)|%.1f|%.1f|%.2f\n", what, size / 1e6, o / 1000, t / 1000, o / t }'
