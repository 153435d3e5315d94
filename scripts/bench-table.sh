#!/usr/bin/env bash
# The whole benchmark table in one go: patchmap against llc-19 and llvm-readobj-19 on this machine.
#
#   compile time      cargo bench --bench compile_vs_llc     patchmap compile vs llc-19 -O0 / -O2
#   run time          cargo bench --bench run_vs_llc         benches/kernels/*.ll, our code vs llc-19 -O2's (x86-64)
#   code size         cargo bench --bench stackmap_overhead  .text bytes per stack map / live value vs llc-19 -O2
#   section parsing   scripts/bench-dump.sh                  patchmap dump vs llvm-readobj-19 --stackmap
#
# Each prints its own table (shown as it runs) and `TABLE|what|ours|theirs|ratio` lines, collected here
# into one markdown table. Ratios are patchmap / reference: below 1, patchmap is faster or smaller.
# In-process throughput has criterion benches of its own, not included here:
#   cargo bench --bench compile          (parse, verify, lower, compile, emit)
#   cargo bench --bench stackmap_parse   (section parsing and the address index, GiB/s)
#
# Usage: scripts/bench-table.sh    (about 2-3 minutes on 2 cores, after the build)
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in llc-19 llvm-readobj-19 cc; do
    command -v "$tool" >/dev/null || { echo "bench-table: $tool not found" >&2; exit 1; }
done
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

cargo bench --bench compile_vs_llc --bench run_vs_llc --bench stackmap_overhead 2>&1 | tee -a "$LOG"
scripts/bench-dump.sh 2>&1 | tee -a "$LOG"

cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
os=$( (. /etc/os-release && echo "$PRETTY_NAME") 2>/dev/null || uname -s)
llc=$(llc-19 --version | awk '/LLVM version/ { print $NF; exit }')
echo
echo "Machine: $cpu, $(nproc) cores, $os (Linux $(uname -r)), $(rustc --version | cut -d' ' -f1-2), llc-19 $llc; $(date -u +%Y-%m-%d)"
echo
echo "| measurement | patchmap | llc-19 / llvm-readobj-19 | ratio (patchmap / reference) |"
echo "| --- | ---: | ---: | ---: |"
grep '^TABLE|' "$LOG" | awk -F'|' '{ printf "| %s | %s | %s | %s |\n", $2, $3, $4, $5 }'
