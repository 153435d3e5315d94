//! Vectors (issue 27, item 1): `tests/vectors/programs/*.ll`, built by patchmap and by llc-19,
//! linked and run on x86-64 and AArch64 (under qemu-aarch64), print the same lanes and exit with the
//! same status; on an x86-64 host the JIT and the reference interpreter print the same. `lanes.ll` covers every lane-wise operation at edge values on 128-bit, 64-bit,
//! wider, odd and mask shapes; `memory.ll` LLVM's memory layout, bitcasts, run-time lane indices
//! and vectors in phis and structs. `tests/vectors/abi/` crosses the C ABI in all four pairings.

use crate::support;

use std::path::Path;

fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors")
}

#[test]
fn vector_programs_run_as_llc_19_builds_them() {
    let programs = support::ll_files(&dir().join("programs"));
    assert!(programs.len() >= 2, "the lanes and memory programs");
    support::programs_run_as_llc19_builds_them(&programs, 8);
}

/// `tests/vectors/abi/`: 128-bit vectors in XMM/Q registers, `<2 x float>` in one register's low
/// half or a D register, `<8 x i32>` split, narrow vectors widened or promoted, masks promoted,
/// the ninth and tenth vector on the stack: each pairing prints what llc-19's pair prints.
#[test]
fn vectors_cross_the_c_abi_both_ways() {
    support::halves_cross_the_c_abi(&dir().join("abi"), 20, |_| ());
}

/// What the ABI refuses it says, at the function: one-lane vectors (a scalar to LLVM) and lanes
/// that are not whole bytes.
#[test]
fn unsupported_vector_shapes_are_refused_with_a_position() {
    for (ir, wanted, archs) in [
        ("define <1 x i64> @f(<1 x i64> %v) {\n  ret <1 x i64> %v\n}\n", "one-lane vectors", &support::Arch::ALL[..]),
        // x86-64 widens it to a <16 x i8> like any narrow vector; AArch64 would widen and promote.
        (
            "define <3 x i8> @f(<3 x i8> %v) {\n  ret <3 x i8> %v\n}\n",
            "in ways not modelled here",
            &[support::Arch::Aarch64],
        ),
    ] {
        for &arch in archs {
            let error = support::compile_for(arch, ir).expect_err(ir);
            assert!(error.contains("input.ll:1:") && error.contains(wanted), "{arch:?}: {error}");
        }
    }
    let error = support::compile_for(
        support::Arch::X86_64,
        "define void @f(ptr %p) {\n  %v = load <2 x i12>, ptr %p\n  ret void\n}\n",
    )
    .expect_err("i12 lanes in memory");
    assert!(error.contains("input.ll:2:") && error.contains("its lanes are not whole bytes"), "{error}");
}

/// The x86-64 code assumes SSE2 only (clang's default CPU): no instruction of SSE3, SSSE3, SSE4.1,
/// SSE4.2 or AVX appears in the vector programs' code, as `llvm-objdump-19` decodes it.
#[test]
fn x86_64_vector_code_needs_sse2_only() {
    let Some(objdump) = support::tool("llvm-objdump-19") else { return };
    const LATER: [&str; 22] = [
        "pshufb",
        "palignr",
        "phadd",
        "pabs",
        "psign",
        "pmaddubsw",
        "pinsrb",
        "pinsrd",
        "pinsrq",
        "pextrb",
        "pextrd",
        "pextrq",
        "pblend",
        "blendv",
        "ptest",
        "pmulld",
        "pminsd",
        "pmaxsd",
        "pminud",
        "roundps",
        "movddup",
        "haddp",
    ];
    let temp = tempfile::tempdir().unwrap();
    let programs = support::ll_files(&dir().join("programs"));
    assert!(programs.len() >= 2);
    for ll in &programs {
        let object = support::compile_for(support::Arch::X86_64, &std::fs::read_to_string(ll).unwrap()).unwrap();
        let path = temp.path().join("vectors.o");
        std::fs::write(&path, object).unwrap();
        let (code, text, err) =
            support::run(std::process::Command::new(&objdump).args(["-d", "--no-show-raw-insn"]).arg(&path));
        assert_eq!(code, 0, "{err}");
        let mnemonics: Vec<&str> = text.lines().filter_map(|l| l.split('\t').nth(1)).map(str::trim).collect();
        assert!(mnemonics.contains(&"movdqu"), "{ll:?}: the vector moves of the C ABI are there");
        let later: Vec<&&str> =
            mnemonics.iter().filter(|m| LATER.iter().any(|l| m.starts_with(l)) || m.starts_with('v')).collect();
        assert!(later.is_empty(), "{ll:?}: instructions beyond SSE2: {later:?}");
    }
}
