#!/usr/bin/env bash
# The whole test suite, as CI runs it, on a machine that has never built the project: installs the tools
# the tests need, downloads what they read, then runs every step with missing tools treated as failures
# rather than skips. A failing step does not stop the later ones (nor a failing test binary the other
# binaries: --no-fail-fast); the script fails at the end, naming every step that failed.
# Extra arguments go to the main `cargo test` (for example a test name filter).
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
# Runs one step; records its name if it fails.
step() {
    local name=$1
    shift
    echo "==> $name: $*" >&2
    local start=$SECONDS
    if "$@"; then
        echo "==> $name: ok ($((SECONDS - start)) s)" >&2
    else
        echo "==> $name: FAILED ($((SECONDS - start)) s)" >&2
        failed+=("$name")
    fi
}

# Without the tools nothing below means anything: stop here if they cannot be installed.
scripts/install-test-tools.sh || {
    echo "test.sh: installing the test tools failed" >&2
    exit 1
}
export PATCHMAP_REQUIRE_TOOLS=1

step fmt cargo fmt --all --check
# The published Cranelift and regalloc2 archives that tests/cli/vendor.rs checks vendor/ against: cargo never
# downloads them for patchmap's build, since [patch.crates-io] points at vendor/.
step fetch scripts/vendor-cranelift.sh fetch
# vendor/ is exactly those crates plus vendor/patches.
step vendor-check scripts/vendor-cranelift.sh check
step test cargo test --no-fail-fast "$@"
# The C API (capi/, a workspace member `cargo test` at the root does not run): header, C programs
# against both libraries, valgrind, malformed sections.
# The C libraries are built into the target directory's debug/ first, sharing the main build's
# dependencies (the target directory is CARGO_TARGET_DIR when set: the README's empty-cache run).
step capi-libraries cargo build --quiet -p patchmap-capi --lib
step capi env PATCHMAP_CAPI_LIBRARIES="$(realpath -m "${CARGO_TARGET_DIR:-target}")/debug" cargo test -p patchmap-capi --no-fail-fast
# The vendored Cranelift's and regalloc2's whole library suites: upstream's tests (that patchmap's
# delta changes nothing they check) and the unit tests vendor/patches/ adds beside them.
step vendor-test scripts/vendor-cranelift.sh test
step benches cargo test --benches --no-run --quiet
step clippy cargo clippy --workspace --all-targets --quiet -- -D warnings
step doc env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet

if [ ${#failed[@]} -gt 0 ]; then
    echo "test.sh: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "test.sh: every step passed" >&2
