#!/usr/bin/env bash
# Installs the external tools the tests compare against and run with: llc-19, llvm-readobj-19 and
# llvm-objdump-19 (the oracle, all in the llvm-19 package), clang-19 (the C and C++ front end of
# tests/programs/clang_corpus and cxx_corpus), an AArch64 cross toolchain (C and C++) and qemu-user (to run AArch64 code on an
# x86-64 host), valgrind (the C API's memory check), pkg-config (its
# patchmap.pc) and clang-19's libFuzzer runtime (its fuzz target).
set -euo pipefail
need=()
command -v llc-19 >/dev/null || need+=(llvm-19)
command -v clang-19 >/dev/null || need+=(clang-19)
command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
command -v aarch64-linux-gnu-gcc >/dev/null || need+=(gcc-aarch64-linux-gnu)
[ -e /usr/aarch64-linux-gnu/lib/libc.a ] || need+=(libc6-dev-arm64-cross)
# The C++ corpus links AArch64 programs against the cross libstdc++ (tests/programs/cxx_corpus.rs).
command -v aarch64-linux-gnu-g++ >/dev/null || need+=(g++-aarch64-linux-gnu)
command -v cc >/dev/null || need+=(gcc)
# The C API's programs run under valgrind (capi/tests/c_api.rs).
command -v valgrind >/dev/null || need+=(valgrind)
# The C API's pkg-config file is checked by building a C program with its flags.
command -v pkg-config >/dev/null || need+=(pkg-config)
# The C API's fuzz target links clang-19's libFuzzer runtime.
[ -n "$(find /usr/lib/llvm-19/lib/clang -name 'libclang_rt.fuzzer-*.a' 2>/dev/null)" ] || need+=(libclang-rt-19-dev)
if [ ${#need[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${need[@]}"
fi
