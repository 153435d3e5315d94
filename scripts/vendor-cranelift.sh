#!/usr/bin/env bash
# vendor/cranelift-codegen and vendor/cranelift-codegen-meta (the published 0.135.8 crates) and
# vendor/regalloc2 (the published 0.15.2 crate) are upstream plus the numbered patches in vendor/patches,
# and nothing else. This script rebuilds that tree, turns edits of it
# into a patch, and checks it (the check tests/cli/vendor.rs makes). Workflow: vendor/patches/README.md.
set -euo pipefail

usage() {
    cat >&2 <<'EOF'
usage: scripts/vendor-cranelift.sh rebuild [--force] [--into DIR]
           Fetch the three crates (cranelift-codegen{,-meta} 0.135.8, regalloc2 0.15.2) with cargo,
           check them against vendor/upstream-crates.sha256 and vendor/upstream.sha256, apply
           vendor/patches/*.patch in order, and replace vendor/cranelift-codegen{,-meta} and
           vendor/regalloc2 with the result (or write it to DIR instead).
           Without --force, refuses to replace a vendor tree that fails `check` (unsaved edits).
       scripts/vendor-cranelift.sh refresh N [NAME]     (alias: diff)
           Write patch N, vendor/patches/NNNN-NAME.patch, as the difference between upstream plus
           patches 1..N-1 and the current vendor tree, keeping the patch's header text. NAME is
           required for a new patch (and renames an existing one). No patch above N may exist.
       scripts/vendor-cranelift.sh fetch
           Download the three published archives into cargo's cache (CARGO_HOME), check them
           against vendor/upstream-crates.sha256 and print their paths. tests/cli/vendor.rs reads
           them there; cargo never downloads them for patchmap's build (vendor/ replaces them).
       scripts/vendor-cranelift.sh check
           Check that the vendor tree is upstream plus the patches and nothing else.
       scripts/vendor-cranelift.sh test [CARGO TEST ARGS...]
           Run the vendored cranelift-codegen's own unit tests (x64 and aarch64), built against the
           vendored cranelift-codegen-meta and regalloc2, then regalloc2's own unit tests and its
           smoke tests of random functions through its checker (feature fuzzing), each on a
           copy of the vendor tree, in target/vendor-tests (\$CARGO_TARGET_DIR/vendor-tests if that
           is set). The arguments go to the cranelift-codegen run only.
EOF
    exit 2
}

die() {
    echo "vendor-cranelift: $*" >&2
    exit 1
}

# Each vendored crate and its published version, in the same order.
CRATES=(cranelift-codegen cranelift-codegen-meta regalloc2)
VERSIONS=(0.135.8 0.135.8 0.15.2)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENDOR=$ROOT/vendor
PATCHES=$VENDOR/patches
export LC_ALL=C

# git must see neither the user's configuration (apply.whitespace=fix, diff.noprefix, ...) nor this
# repository: `git apply` run inside a work tree takes the patch's paths relative to the top of the work
# tree and silently skips, with exit status 0, every file outside the current directory. So every git
# command below runs in a fresh temporary directory, with repository discovery stopped at its parent.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_COMMON_DIR GIT_PREFIX GIT_OBJECT_DIRECTORY GIT_NAMESPACE
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
command -v git >/dev/null || die "git not found"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TMP=$(cd "$TMP" && pwd -P)
GIT_CEILING_DIRECTORIES=$(dirname "$TMP")
export GIT_CEILING_DIRECTORIES

# The lines of a patch before its first diff: before the first "diff --git " line, or the first "--- "
# line directly followed by a "+++ " line. git apply skips them.
header_of() {
    awk '{ l[NR] = $0 }
         END { for (i = 1; i <= NR; i++) {
                   if (l[i] ~ /^diff --git / || (l[i] ~ /^--- / && l[i + 1] ~ /^\+\+\+ /)) break
                   print l[i] } }' "$1"
}

# "cranelift-codegen 0.135.8, ...": the vendored crates and their versions, for messages.
crate_versions() {
    local i out=
    for i in "${!CRATES[@]}"; do out+="${out:+, }${CRATES[i]} ${VERSIONS[i]}"; done
    echo "$out"
}

# Sets PATCH_FILES to the patches in apply order, after checking that vendor/patches holds only
# README.md and 0001-*.patch, 0002-*.patch, ... without gaps, each with a header and a diff.
load_patches() {
    local expect=1 f base
    PATCH_FILES=()
    [ -d "$PATCHES" ] || return 0
    for f in "$PATCHES"/*; do
        [ -e "$f" ] || continue
        base=${f##*/}
        [ "$base" != README.md ] || continue
        [[ $base =~ ^[0-9]{4}-[A-Za-z0-9._-]+\.patch$ ]] && [ -f "$f" ] ||
            die "vendor/patches/$base: neither README.md nor a NNNN-name.patch file"
        [ "$((10#${base:0:4}))" -eq "$expect" ] ||
            die "vendor/patches/$base: expected number $(printf %04d "$expect") here (patches are numbered 0001, 0002, ... without gaps or repeats)"
        [ -n "$(header_of "$f" | tr -d '[:space:]')" ] ||
            die "vendor/patches/$base: no header text before the first diff (say what the change is and why)"
        grep -q '^diff --git ' "$f" || die "vendor/patches/$base: contains no diff"
        PATCH_FILES+=("$f")
        expect=$((expect + 1))
    done
}

# Runs `git apply [ARGS] PATCH` in DIR, a directory under $TMP (see above).
apply_in() {
    local dir=$1 patch=$2
    shift 2
    (cd "$dir" && git apply --whitespace=nowarn "$@" "$patch") ||
        die "${patch##*/} does not apply${*:+ with $*} to ${dir#"$TMP"/}/"
}

# Copies the vendored crates into DIR.
copy_vendor_to() {
    local c
    for c in "${CRATES[@]}"; do
        [ -d "$VENDOR/$c" ] || die "vendor/$c is missing"
        cp -R "$VENDOR/$c" "$1/$c"
    done
}

# Checks that DIR/<each crate> hold exactly the files of vendor/upstream.sha256, with
# those contents. WHAT names DIR in messages.
verify_upstream() {
    local dir=$1 what=$2 odd bad=
    odd=$(cd "$dir" && find "${CRATES[@]}" ! -type d ! -type f -print -quit)
    [ -z "$odd" ] || die "$what: $odd is not a regular file"
    (cd "$dir" && find "${CRATES[@]}" -type f | sort) >"$TMP/actual.list"
    sed -E 's/^[0-9a-f]{64} [ *]//' "$VENDOR/upstream.sha256" | sort >"$TMP/expected.list"
    if ! cmp -s "$TMP/expected.list" "$TMP/actual.list"; then
        diff "$TMP/expected.list" "$TMP/actual.list" | sed -nE \
            -e "s|^< (.*)|$what: \1 is missing (it is in vendor/upstream.sha256)|p" \
            -e "s|^> (.*)|$what: \1 is extra (it is not in vendor/upstream.sha256)|p" >&2 || true
        bad=1
    fi
    (cd "$dir" && sha256sum --check --strict --quiet --ignore-missing "$VENDOR/upstream.sha256") >&2 ||
        bad=1
    [ -z "$bad" ] || die "$what: not the files of vendor/upstream.sha256 (see above)"
}

# Downloads the crate archives into cargo's cache (cargo fetch in a throwaway project: patchmap's own
# build never downloads them, since [patch.crates-io] points at vendor/), checks each against
# upstream-crates.sha256, and sets ARCHIVES to their paths, in the order of CRATES.
fetch_archives() {
    local proj=$TMP/fetch i c want f got found
    local cargo_home=${CARGO_HOME:-$HOME/.cargo}
    command -v cargo >/dev/null || die "cargo not found"
    ARCHIVES=()
    rm -rf "$proj"
    mkdir -p "$proj/src"
    : >"$proj/src/lib.rs"
    cat >"$proj/Cargo.toml" <<EOF2
[package]
name = "vendor-cranelift-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
EOF2
    for i in "${!CRATES[@]}"; do
        echo "${CRATES[i]} = { version = \"=${VERSIONS[i]}\", default-features = false }" >>"$proj/Cargo.toml"
    done
    printf '\n[workspace]\n' >>"$proj/Cargo.toml"
    if ! (cd "$proj" && cargo fetch --quiet); then
        echo "vendor-cranelift: cargo fetch failed; retrying with --offline (local cache only)" >&2
        (cd "$proj" && cargo fetch --quiet --offline) || die "cargo fetch failed"
    fi
    for i in "${!CRATES[@]}"; do
        c=${CRATES[i]}-${VERSIONS[i]}
        want=$(awk -v n="$c.crate" '$2 == n { print $1 }' "$VENDOR/upstream-crates.sha256")
        [ -n "$want" ] || die "vendor/upstream-crates.sha256 has no line for $c.crate"
        found=
        for f in "$cargo_home"/registry/cache/*/"$c.crate"; do
            [ -f "$f" ] || continue
            got=$(sha256sum <"$f" | cut -d' ' -f1)
            if [ "$got" = "$want" ]; then
                found=$f
                break
            fi
            echo "vendor-cranelift: $f has sha256 $got, not $want: ignored" >&2
        done
        [ -n "$found" ] || die "cargo fetch left no $c.crate with sha256 $want under $cargo_home/registry/cache"
        ARCHIVES+=("$found")
    done
}

# Fetches the crate archives (fetch_archives) and extracts them to DIR/<each crate>.
fetch_upstream_to() {
    local dest=$1 i c v found
    fetch_archives
    for i in "${!CRATES[@]}"; do
        c=${CRATES[i]}
        v=${VERSIONS[i]}
        found=${ARCHIVES[i]}
        mkdir "$TMP/x"
        tar -xzf "$found" -C "$TMP/x" --no-same-owner
        [ -d "$TMP/x/$c-$v" ] || die "$found has no $c-$v/ directory"
        mv "$TMP/x/$c-$v" "$dest/$c"
        rmdir "$TMP/x" 2>/dev/null || die "$found holds more than $c-$v/"
    done
    # Also check the extracted files, so vendor/upstream.sha256, which tests/cli/vendor.rs trusts, cannot
    # drift from the archives.
    verify_upstream "$dest" "the extracted crates"
}

cmd_fetch() {
    [ $# -eq 0 ] || usage
    fetch_archives
    printf '%s\n' "${ARCHIVES[@]}"
}

cmd_check() {
    local i
    [ $# -eq 0 ] || usage
    load_patches
    mkdir "$TMP/check"
    copy_vendor_to "$TMP/check"
    for ((i = ${#PATCH_FILES[@]} - 1; i >= 0; i--)); do
        (cd "$TMP/check" && git apply --whitespace=nowarn -R "${PATCH_FILES[i]}") ||
            die "${PATCH_FILES[i]##*/} does not reverse-apply to the vendor tree (with the later patches reversed): it is not upstream plus the patches (edited after the last refresh?)"
    done
    verify_upstream "$TMP/check" "vendor/ with the patches reversed"
    echo "vendor/ is $(crate_versions) plus ${#PATCH_FILES[@]} patch(es)"
}

cmd_rebuild() {
    local force= into= p c
    while [ $# -gt 0 ]; do
        case $1 in
            --force) force=1 ;;
            --into)
                [ $# -ge 2 ] || usage
                into=$2
                shift
                ;;
            *) usage ;;
        esac
        shift
    done
    load_patches
    mkdir "$TMP/build"
    fetch_upstream_to "$TMP/build"
    for p in "${PATCH_FILES[@]}"; do
        echo "applying ${p##*/}" >&2
        apply_in "$TMP/build" "$p"
    done
    if [ -n "$into" ]; then
        mkdir -p "$into"
        for c in "${CRATES[@]}"; do
            [ ! -e "$into/$c" ] || die "$into/$c exists: give an empty or new directory"
        done
        for c in "${CRATES[@]}"; do cp -R "$TMP/build/$c" "$into/$c"; done
        echo "wrote ${CRATES[*]/#/$into/}" >&2
        return
    fi
    if [ -z "$force" ] && ! (cmd_check >/dev/null 2>"$TMP/check.err"); then
        cat "$TMP/check.err" >&2
        die "the vendor tree holds changes that are not in vendor/patches: save them with 'refresh N' first, or pass --force to discard them"
    fi
    for c in "${CRATES[@]}"; do
        rm -rf "$VENDOR/.$c.new" "$VENDOR/.$c.old"
        cp -R "$TMP/build/$c" "$VENDOR/.$c.new"
        if [ -e "$VENDOR/$c" ]; then mv "$VENDOR/$c" "$VENDOR/.$c.old"; fi
        mv "$VENDOR/.$c.new" "$VENDOR/$c"
        rm -rf "$VENDOR/.$c.old"
    done
    echo "rebuilt vendor/: $(crate_versions) plus ${#PATCH_FILES[@]} patch(es)" >&2
}

cmd_refresh() {
    local n num name p pnum existing= target rc=0
    [ $# -ge 1 ] && [ $# -le 2 ] || usage
    [[ $1 =~ ^[0-9]{1,4}$ ]] && [ "$((10#$1))" -ge 1 ] || die "N must be a patch number from 1 to 9999, not '$1'"
    n=$((10#$1))
    num=$(printf %04d "$n")
    name=${2:-}
    [ -z "$name" ] || [[ $name =~ ^[A-Za-z0-9._-]+$ ]] || die "NAME may hold only letters, digits, '.', '_' and '-'"
    load_patches
    for p in "${PATCH_FILES[@]}"; do
        pnum=$((10#$(basename "$p" | cut -c1-4)))
        [ "$pnum" -ne "$n" ] || existing=$p
        [ "$pnum" -le "$n" ] ||
            die "${p##*/} exists. Patch $num can only be refreshed while it is the last: a later patch was made against the old patch $num, and this script does not rebase patches. Move the later patches away (or fold them into $num) and refresh again."
    done
    if [ -z "$existing" ]; then
        [ "$n" -eq $((${#PATCH_FILES[@]} + 1)) ] ||
            die "patch $num would leave a gap: the next new patch is $(printf %04d $((${#PATCH_FILES[@]} + 1)))"
        [ -n "$name" ] || die "patch $num is new: give it a NAME, e.g. 'refresh $n stackmap-instruction'"
        target=$PATCHES/$num-$name.patch
    elif [ -n "$name" ]; then
        target=$PATCHES/$num-$name.patch
    else
        target=$existing
    fi

    # a/: upstream plus the patches before N. b/: the vendor tree now.
    mkdir "$TMP/a" "$TMP/b"
    fetch_upstream_to "$TMP/a"
    for p in "${PATCH_FILES[@]}"; do
        [ "$p" != "$existing" ] || break
        apply_in "$TMP/a" "$p"
    done
    copy_vendor_to "$TMP/b"
    # With --no-prefix, the trees' names a/ and b/ are the prefixes. Exit status 1 means "differ".
    (cd "$TMP" && git -c core.quotePath=false diff --no-index --no-prefix --binary --no-renames \
        --no-color --no-ext-diff --no-textconv a b) >"$TMP/diff" || rc=$?
    case $rc in
        0) die "the vendor tree equals upstream plus the patches before $num: patch $num would be empty (not written)" ;;
        1) ;;
        *) die "git diff failed" ;;
    esac
    # An added file's line reads "diff --git b/X b/X" and a deleted one's "diff --git a/X a/X":
    # write them as git does for a repository.
    sed -i -E -e 's#^diff --git b/(.*) b/\1$#diff --git a/\1 b/\1#' \
        -e 's#^diff --git a/(.*) a/\1$#diff --git a/\1 b/\1#' "$TMP/diff"
    # The new patch must turn a/ into exactly the vendor tree.
    apply_in "$TMP/a" "$TMP/diff"
    diff -r "$TMP/a" "$TMP/b" >/dev/null ||
        die "internal error: the generated patch does not reproduce the vendor tree"

    if [ -n "$existing" ]; then
        header_of "$existing" >"$TMP/header"
    else
        printf '%s\n' \
            "$num-$name: TODO: say what this change to Cranelift is and why patchmap needs it." \
            "" \
            "(The text before the first diff line is this patch's description: git apply ignores it," \
            "and 'scripts/vendor-cranelift.sh refresh $n' keeps it.)" \
            "" >"$TMP/header"
    fi
    mkdir -p "$PATCHES"
    cat "$TMP/header" "$TMP/diff" >"$TMP/patch"
    cp "$TMP/patch" "$target.tmp"
    mv "$target.tmp" "$target"
    if [ -n "$existing" ] && [ "$existing" != "$target" ]; then rm -f "$existing"; fi
    echo "wrote vendor/patches/${target##*/} ($(grep -c '^diff --git ' "$target") file(s))" >&2
    [ -n "$existing" ] || echo "now replace the TODO header of the new patch with what it does and why" >&2
}

# Each crate is its own workspace with its own lock file; a copy keeps the vendor tree untouched
# (cargo rewrites the lock for the patched dependencies).
cmd_test() {
    local target_dir=${CARGO_TARGET_DIR:-$ROOT/target}/vendor-tests
    cp -r "$VENDOR/cranelift-codegen" "$TMP/cranelift-codegen"
    cp -r "$VENDOR/regalloc2" "$TMP/regalloc2"
    cargo test --manifest-path "$TMP/cranelift-codegen/Cargo.toml" \
        --config "patch.crates-io.cranelift-codegen-meta.path=\"$VENDOR/cranelift-codegen-meta\"" \
        --config "patch.crates-io.regalloc2.path=\"$VENDOR/regalloc2\"" \
        --target-dir "$target_dir" --features x86,arm64 --lib "$@"
    # `fuzzing` adds regalloc2's smoke tests: a second of random functions each for the allocators,
    # every allocation validated by regalloc2's checker.
    cargo test --manifest-path "$TMP/regalloc2/Cargo.toml" --target-dir "$target_dir" --features fuzzing --lib
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
    rebuild) cmd_rebuild "$@" ;;
    refresh | diff) cmd_refresh "$@" ;;
    fetch) cmd_fetch "$@" ;;
    check) cmd_check "$@" ;;
    test) cmd_test "$@" ;;
    *) usage ;;
esac
