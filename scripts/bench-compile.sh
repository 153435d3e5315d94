#!/usr/bin/env bash
# patchmap compile vs llc-19 -O0 / -O2 on the same files, alternating runs; prints minimums and ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench --bench compile_vs_llc
