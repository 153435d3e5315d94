#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs the tools the tests need, then runs every test with
# missing tools treated as failures rather than skips, and checks that the benchmarks still build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-test-tools.sh
export PATCHMAP_REQUIRE_TOOLS=1
# Fetches the published Cranelift crates into cargo's cache (tests/vendor.rs checks vendor/ against
# them) and checks that vendor/ is those crates plus vendor/patches.
scripts/vendor-cranelift.sh check
cargo test "$@"
# The vendored Cranelift's own tests of patchmap's delta (vendor/patches/).
scripts/vendor-cranelift.sh test stackmap
cargo test --benches --no-run --quiet
