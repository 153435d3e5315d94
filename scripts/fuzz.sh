#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time, one after the other, and reports what each one
# executed and found. Not part of CI (it needs nightly and takes as long as it is given).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET [TARGET...]]     default: 60 s, every target
#
# Corpora grow in fuzz/corpus/TARGET (git-ignored), seeded from ir-examples/*.ll, tests/ir-errors/*.ll
# and the llc-19 reference objects and sections in ../shared/reference when present. A crash, hang
# (FUZZ_TIMEOUT s per input, default 10) or OOM (FUZZ_RSS_MB, default 2048) leaves its input in
# fuzz/artifacts/TARGET and makes the script exit 1. FUZZ_SANITIZER (default none: the fuzzed paths
# have no unsafe code of ours, and AddressSanitizer halves the rate) goes to cargo fuzz, FUZZ_JOBS
# (default 1) to cargo as its build jobs.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ir_check ir_compile parse_section object_file)
sanitizer=${FUZZ_SANITIZER:-none}
timeout=${FUZZ_TIMEOUT:-10}
rss_mb=${FUZZ_RSS_MB:-2048}
reference=../shared/reference

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz
fi

# Seeds: copied under their own names, so a rerun adds nothing twice.
seed() {
    local dir=fuzz/corpus/$1 file
    shift
    mkdir -p "$dir"
    for file in "$@"; do
        [ -f "$file" ] && cp -n "$file" "$dir/seed-$(echo "$file" | tr / _)"
    done
    return 0
}
shopt -s nullglob globstar
ir_seeds=(ir-examples/*.ll tests/ir-errors/*.ll "$reference"/**/*.ll)
seed ir_check "${ir_seeds[@]}"
seed ir_compile "${ir_seeds[@]}"
seed parse_section "$reference"/**/*.stackmaps.bin
objects=("$reference"/**/*.o)
for file in "$reference"/llc19/linked/*; do
    # The linked executables: several blobs in one section.
    head -c 4 "$file" | grep -q ELF && objects+=("$file")
done
seed object_file "${objects[@]}"

export CARGO_BUILD_JOBS=${FUZZ_JOBS:-1}
for target in "${targets[@]}"; do
    cargo +nightly fuzz build -s "$sanitizer" "$target"
done

mkdir -p fuzz/logs
status=0
summary=()
total=0
for target in "${targets[@]}"; do
    case $target in
        ir_*) options=(-max_len=16384 -dict=fuzz/ir.dict) ;;
        object_file) options=(-max_len=65536) ;;
        *) options=(-max_len=4096) ;;
    esac
    log=fuzz/logs/$target.log
    mkdir -p "fuzz/artifacts/$target"
    before=$(ls "fuzz/artifacts/$target" | wc -l)
    echo "== $target: ${seconds} s"
    start=$SECONDS
    # A finding stops libFuzzer with a non-zero status; the next target still runs.
    cargo +nightly fuzz run -s "$sanitizer" "$target" -- -max_total_time="$seconds" -timeout="$timeout" \
        -rss_limit_mb="$rss_mb" -print_final_stats=1 "${options[@]}" >"$log" 2>&1 || true
    elapsed=$((SECONDS - start))
    executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    # Without final stats (a crash), the last progress line's count.
    [ -n "$executed" ] || executed=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    executed=${executed:-0}
    total=$((total + executed))
    findings=()
    while IFS= read -r file; do
        findings+=("fuzz/artifacts/$target/$file")
    done < <(ls -t "fuzz/artifacts/$target" | head -n $(($(ls "fuzz/artifacts/$target" | wc -l) - before)))
    if [ ${#findings[@]} -gt 0 ] || grep -qE '^==[0-9]+== ERROR|deadly signal|panicked at' "$log"; then
        status=1
        grep -E 'panicked at|ERROR: libFuzzer|SUMMARY' "$log" | head -3 || true
    fi
    summary+=("$(printf '%-14s %12s inputs %6s s  findings: %s' "$target" "$executed" "$elapsed" "${findings[*]:-none}")")
done
echo
printf '%s\n' "${summary[@]}"
echo "total: $total inputs (logs in fuzz/logs)"
exit $status
