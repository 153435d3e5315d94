//! `anyregcc` patch points with LLVM's maximum argument counts (issue 11): 13 arguments on x86-64 and
//! 27 on AArch64, integers and doubles mixed, three values live across. At run time the checker harness
//! (`PATCHMAP_ANYREG`) rewrites the region with a jump to a handler written from the record: it reads
//! every argument from the register the record names (location 1 is the result, then the arguments,
//! then the live values), leaves the weighted sum `sum((2^(i%8) + 2^(8+i/8)) * arg[i])` (doubles
//! truncated) in the result register the record names and touches nothing else; the program prints the
//! result and a checksum of the live values. Both must be what this file computes, and the record's
//! shape must be llc-19's (the same location count; registers for the result and every argument).
//!
//! The handler and the expected values are first proved on llc-19's own binaries; patchmap's wait for
//! the patch point instruction (issue 11: today anyregcc takes at most 6 + 8 arguments on x86-64).

use crate::generator;
use crate::support;

use std::fmt::Write;

use patchmap::compile::Options;
use patchmap::stackmap::{object_file, LocationKind, StackMap};
use support::{checker, Arch, Toolchain};

const ID: u64 = 77;
const SEED: i64 = 3;

/// LLVM's anyregcc argument limit per target (llc-19 runs out of registers beyond).
fn nargs(arch: Arch) -> usize {
    match arch {
        Arch::X86_64 => 13,
        Arch::Aarch64 => 27,
    }
}

/// Argument i: a double when i % 3 == 2, else an i64; its value is `SEED + offset(i)`.
fn is_double(i: usize) -> bool {
    i % 3 == 2
}

fn offset(i: usize) -> i64 {
    (i as i64) * 37 - 100
}

fn weight(i: usize) -> i64 {
    (1 << (i % 8)) + (1 << (8 + i / 8))
}

/// The live values: `SEED * 1000003`, `SEED ^ 0x5555`, and `SEED * 2.5` as a double.
fn expected_output(n: usize) -> String {
    let sum: i64 = (0..n).map(|i| weight(i).wrapping_mul(SEED + offset(i))).fold(0, i64::wrapping_add);
    let live = (SEED * 1_000_003) + (SEED ^ 0x5555) + (SEED as f64 * 2.5) as i64;
    format!("{} {}\n", sum as u64, live as u64)
}

fn program(n: usize) -> String {
    let mut ir = String::new();
    writeln!(ir, "declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)").unwrap();
    writeln!(ir, "declare i32 @putchar(i32)\n@seed = internal global i64 {SEED}\n").unwrap();
    ir.push_str(generator::PRINT_U64);
    ir.push_str("define i32 @main() {\nentry:\n  %s = load volatile i64, ptr @seed\n");
    let mut args = Vec::new();
    for i in 0..n {
        writeln!(ir, "  %x{i} = add i64 %s, {}", offset(i)).unwrap();
        if is_double(i) {
            writeln!(ir, "  %d{i} = sitofp i64 %x{i} to double").unwrap();
            args.push(format!("double %d{i}"));
        } else {
            args.push(format!("i64 %x{i}"));
        }
    }
    ir.push_str("  %l0 = mul i64 %s, 1000003\n  %l1 = xor i64 %s, 21845\n  %lf0 = sitofp i64 %s to double\n");
    ir.push_str("  %lf = fmul double %lf0, 2.5\n");
    writeln!(
        ir,
        "  %r = call anyregcc i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 {ID}, i32 16, ptr null, i32 {n}, {}, i64 %l0, i64 %l1, double %lf)",
        args.join(", ")
    )
    .unwrap();
    ir.push_str(
        "  call void @print_u64(i64 %r)
  call i32 @putchar(i32 32)
  %lfi = fptosi double %lf to i64
  %k0 = add i64 %l0, %l1
  %k1 = add i64 %k0, %lfi
  call void @print_u64(i64 %k1)
  call i32 @putchar(i32 10)
  ret i32 0
}
",
    );
    ir
}

/// The record's shape: location count and the kinds of the result and the arguments.
fn shape(object: &[u8], n: usize) -> Result<(usize, Vec<LocationKind>), String> {
    let (maps, _) = object_file::read_models(object).map_err(|e| e.to_string())?;
    let map: &StackMap = maps.first().ok_or("no stack map")?;
    let record = map.records.iter().find(|r| r.id == ID).ok_or("no record")?;
    Ok((record.locations.len(), record.locations.iter().take(n + 1).map(|l| l.kind).collect()))
}

/// Runs `object` with the handler patched in: the program's stdout.
fn run_with_handler(object: &[u8], tc: &Toolchain, dir: &std::path::Path, name: &str, n: usize) -> String {
    let exe = checker::build_checked(object, tc, dir, name).unwrap();
    let spec = format!("{ID}:{n}:i:16");
    let (outcome, report) = checker::run_checked_report_with(&exe, tc, &[("PATCHMAP_ANYREG", &spec)])
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(report.warnings.iter().any(|w| w == "anyreg handler installed"), "{name}: {:?}", report.warnings);
    assert_eq!(outcome.status, 0, "{name}");
    outcome.stdout
}

fn llc19_object(arch: Arch, dir: &std::path::Path, text: &str) -> Option<Vec<u8>> {
    let llc = support::tool("llc-19")?;
    let ll = dir.join(format!("anyreg_{}.ll", text.len()));
    std::fs::write(&ll, text).unwrap();
    Some(support::llc_object(&llc, &ll, arch, "2", dir).unwrap())
}

/// The handler and the expected output, proved on llc-19's binaries.
#[test]
fn anyregcc_handler_reads_every_argument_in_llc19_binaries() {
    for arch in Arch::ALL {
        let Some(tc) = support::toolchain(arch) else { return };
        let dir = tempfile::tempdir().unwrap();
        let n = nargs(arch);
        let Some(object) = llc19_object(arch, dir.path(), &program(n)) else { return };
        let (count, kinds) = shape(&object, n).unwrap();
        assert_eq!(count, 1 + n + 3, "{arch:?}: llc-19's record");
        assert!(kinds.iter().all(|k| *k == LocationKind::Register), "{arch:?}: llc-19's kinds {kinds:?}");
        let out = run_with_handler(&object, &tc, dir.path(), &format!("anyreg-llc-{arch:?}"), n);
        assert_eq!(out, expected_output(n), "{arch:?}: llc-19's binary with the handler");
        // Unpatched, the region is nops and the result garbage: the handler made the difference.
        let plain = tc.link_and_run(&object, dir.path(), &format!("anyreg-llc-plain-{arch:?}")).unwrap();
        assert_ne!(plain.stdout, expected_output(n), "{arch:?}: the unpatched region gave the handler's result");
    }
}

/// patchmap's binaries with `n(arch)` arguments, at both optimization levels: the handler's result, and
/// llc-19's record shape.
fn patchmap_calls_the_handler(n: impl Fn(Arch) -> usize) {
    for arch in Arch::ALL {
        let Some(tc) = support::toolchain(arch) else { return };
        let dir = tempfile::tempdir().unwrap();
        let n = n(arch);
        let text = program(n);
        let module = patchmap::ir::parse("anyreg.ll", &text).unwrap();
        for opt in ["none", "speed"] {
            let options = Options::new(Some(arch.triple()), opt, 3).unwrap();
            let object =
                patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{arch:?} -O {opt}: {e}"));
            let (count, kinds) = shape(&object, n).unwrap();
            assert_eq!(count, 1 + n + 3, "{arch:?} -O {opt}: location count");
            assert!(kinds.iter().all(|k| *k == LocationKind::Register), "{arch:?} -O {opt}: kinds {kinds:?}");
            if let Some(reference) = llc19_object(arch, dir.path(), &text) {
                assert_eq!(shape(&reference, n).unwrap(), (count, kinds), "{arch:?}: llc-19's shape");
            }
            let out = run_with_handler(&object, &tc, dir.path(), &format!("anyreg-{opt}-{arch:?}"), n);
            assert_eq!(out, expected_output(n), "{arch:?} -O {opt}: patchmap's binary with the handler");
        }
    }
}

#[test]
fn anyregcc_with_llvms_maximum_arguments_calls_a_patched_handler() {
    patchmap_calls_the_handler(nargs);
}

/// Six arguments (four integers, two doubles) fit in the C argument registers patchmap uses for
/// anyregcc today: the same check passes before issue 11.
#[test]
fn anyregcc_with_six_arguments_calls_a_patched_handler() {
    patchmap_calls_the_handler(|_| 6);
}
