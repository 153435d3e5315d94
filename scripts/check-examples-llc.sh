#!/usr/bin/env bash
# Developer aid: checks that every ir-examples/*.ll program means the same under llc-19 at -O0 and -O2
# (x86-64) and on aarch64 under qemu. Expected outputs are never stored: llc-19 is the oracle at test time.
# Examples keep their exit status below 124 so that a timeout (124) or a signal (128+n) stands out.
# Usage: scripts/check-examples-llc.sh [files...]   (default: all of ir-examples/*.ll)
set -u
cd "$(dirname "$0")/.."
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(ir-examples/*.ll)

have_arm=1
for t in aarch64-linux-gnu-gcc qemu-aarch64; do
    command -v "$t" >/dev/null || { echo "note: $t not found, aarch64 runs skipped"; have_arm=0; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# build_run NAME TRIPLE OPT: compiles, links and runs; leaves "<status>" in $tmp/NAME.rc and stdout in $tmp/NAME.out.
build_run() {
    local name=$1 triple=$2 opt=$3 f=$4
    # PIC because cc links a PIE by default, and llc's default static model emits absolute jump-table
    # relocations (R_X86_64_32S) that a PIE cannot hold.
    if ! llc-19 "$opt" -relocation-model=pic -filetype=obj -mtriple="$triple" "$f" -o "$tmp/$name.o" 2>"$tmp/$name.err"; then
        echo "FAIL $f: llc-19 $opt $triple: $(head -3 "$tmp/$name.err")"; return 1
    fi
    local run=()
    if [ "$triple" = x86_64-unknown-linux-gnu ]; then
        cc "$tmp/$name.o" -o "$tmp/$name" -lm 2>"$tmp/$name.err" || { echo "FAIL $f: link $name: $(head -3 "$tmp/$name.err")"; return 1; }
        run=("$tmp/$name")
    else
        aarch64-linux-gnu-gcc -static "$tmp/$name.o" -o "$tmp/$name" -lm 2>"$tmp/$name.err" || { echo "FAIL $f: link $name: $(head -3 "$tmp/$name.err")"; return 1; }
        run=(qemu-aarch64 "$tmp/$name")
    fi
    timeout 10 "${run[@]}" >"$tmp/$name.out"
    echo $? >"$tmp/$name.rc"
}

for f in "${files[@]}"; do
    base=$(basename "$f" .ll)
    variants=("x86-O0 x86_64-unknown-linux-gnu -O0" "x86-O2 x86_64-unknown-linux-gnu -O2")
    [ $have_arm = 1 ] && variants+=("a64-O0 aarch64-unknown-linux-gnu -O0" "a64-O2 aarch64-unknown-linux-gnu -O2")
    ok=1
    for v in "${variants[@]}"; do
        set -- $v
        build_run "$base.$1" "$2" "$3" "$f" || { ok=0; break; }
    done
    if [ $ok = 1 ]; then
        ref="$tmp/$base.x86-O2"
        rc=$(cat "$ref.rc")
        # 124 is timeout(1); >128 is a signal: both mean the program itself is broken.
        if [ "$rc" -ge 124 ]; then echo "FAIL $f: x86-O2 exit status $rc (timeout or signal)"; ok=0; fi
        size=$(wc -c <"$ref.out")
        if [ "$size" -gt 2048 ]; then echo "FAIL $f: output is $size bytes (> 2 KB)"; ok=0; fi
        for v in "${variants[@]}"; do
            set -- $v
            [ "$1" = x86-O2 ] && continue
            if ! cmp -s "$ref.out" "$tmp/$base.$1.out" || [ "$rc" != "$(cat "$tmp/$base.$1.rc")" ]; then
                echo "FAIL $f: $1 differs from x86-O2 (status $(cat "$tmp/$base.$1.rc") vs $rc)"
                diff "$ref.out" "$tmp/$base.$1.out" | head -5
                ok=0
            fi
        done
    fi
    if [ $ok = 1 ]; then
        printf 'ok   %-40s status %3s, %4s bytes of output\n' "$f" "$rc" "$size"
    else
        fail=1
    fi
done
exit $fail
