//! Frames realigned for over-aligned allocas (issue 26, item 2; Cranelift patch 0007). The program
//! `tests/realigned/recursive_overaligned.ll` (allocas aligned to 64, 128 and 4096 bytes, ten
//! arguments, values live across a recursive call, six realigned frames at once) compiled by
//! patchmap, linked with the location checker (`tests/checker/harness.c`) and run on x86-64
//! (natively) and AArch64 (qemu): at every execution of its stack map each alloca's location is
//! `Direct`, its address is aligned as the alloca asks, and the checker reads there what the program
//! stored; the other locations hold their values. The records agree with llc-19's in kind, size and
//! base register (SP), and the program exits as llc-19's build does. Two broken builds are caught:
//! the realigning `and` turned into a plain move (addresses no longer aligned) and an epilogue that
//! does not restore SP from the frame pointer.

use crate::support;

use std::path::{Path, PathBuf};

use patchmap::compile::Options;
use patchmap::stackmap::{object_file, LocationKind, StackMap, Version, DYNAMIC_STACK_SIZE};
use support::checker::{self, LocationValue, Report};
use support::{Arch, Outcome, Toolchain};

/// The recursion's depth at the outermost call: one stack map execution per level, 0 to 5.
const LEVELS: u64 = 6;

/// The alignments of the three allocas the stack map records first.
const ALIGNMENTS: [u64; 3] = [64, 128, 4096];

fn program() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/realigned/recursive_overaligned.ll")
}

fn compile(arch: Arch, opt: &str, version: Version) -> Vec<u8> {
    let module = patchmap::ir::parse_file(&program()).unwrap_or_else(|e| panic!("{e}"));
    let options = Options::new(Some(arch.triple()), opt, 3).unwrap().with_stackmap_version(version);
    patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"))
}

/// What the stack map must show at depth `d`: the three objects' first words, then the integers
/// `depth`, `x = 2 * depth`, `a9` and `a10`.
fn expected(d: u64) -> ([u64; 3], [u64; 4]) {
    ([900 + d, 1000 + d, 7 * d], [d, 2 * d, 900, 1000])
}

/// Checks one run's report: six executions of record 1, innermost (depth 0) first, each as
/// [`expected`], the allocas `Direct` at aligned addresses, distinct in every frame.
fn check_report(report: &Report) -> Result<(), String> {
    let hits: Vec<&[LocationValue]> = report.hits.iter().filter(|h| h.id == 1).map(|h| &h.values[..]).collect();
    if hits.len() as u64 != LEVELS {
        return Err(format!("{} executions of stack map 1, expected {LEVELS}", hits.len()));
    }
    let mut addresses = Vec::new();
    for (d, values) in hits.iter().enumerate() {
        let (objects, integers) = expected(d as u64);
        if values.len() != 7 {
            return Err(format!("depth {d}: {} locations, expected 7", values.len()));
        }
        for ((value, align), stored) in values.iter().zip(ALIGNMENTS).zip(objects) {
            let address = value.value.ok_or(format!("depth {d}: unreadable location {value:?}"))?;
            if value.kind != 'D' {
                return Err(format!("depth {d}: the align {align} alloca is recorded as {value:?}, not Direct"));
            }
            if address % align != 0 {
                return Err(format!("depth {d}: the align {align} alloca is at {address:#x}, not aligned"));
            }
            if value.stored != Some(stored) {
                return Err(format!(
                    "depth {d}: the align {align} alloca at {address:#x} holds {value:?}, not {stored}"
                ));
            }
            addresses.push(address);
        }
        for (value, want) in values[3..].iter().zip(integers) {
            if value.value != Some(want) || !matches!(value.kind, 'R' | 'I') {
                return Err(format!("depth {d}: {value:?}, expected a register or slot holding {want}"));
            }
        }
    }
    addresses.sort_unstable();
    addresses.dedup();
    if addresses.len() as u64 != 3 * LEVELS {
        return Err(format!("the levels' objects share addresses: {addresses:x?}"));
    }
    Ok(())
}

/// Builds `object` with the checker, runs it and checks the outcome against `reference` and the
/// report with [`check_report`].
fn run_checked(object: &[u8], tc: &Toolchain, dir: &Path, name: &str, reference: &Outcome) -> Result<(), String> {
    let exe = checker::build_checked(object, tc, dir, name)?;
    let (outcome, report) = checker::run_checked_report(&exe, tc)?;
    if outcome != *reference {
        return Err(format!("{name}: ran as {outcome:?}, llc-19's build as {reference:?}"));
    }
    check_report(&report).map_err(|e| format!("{name}: {e}"))
}

/// llc-19's build of the program: its object and how it runs.
fn llc19_reference(arch: Arch, dir: &Path) -> Option<(Vec<u8>, Toolchain, Outcome)> {
    let (Some(llc), Some(tc)) = (support::tool("llc-19"), support::toolchain(arch)) else { return None };
    let object = support::llc_object(&llc, &program(), arch, "2", dir).unwrap();
    let outcome = tc.link_and_run(&object, dir, "llc19").unwrap();
    assert_eq!(outcome.status, 91, "llc-19's build on {arch:?}");
    Some((object, tc, outcome))
}

fn only_map(object: &[u8]) -> StackMap {
    let (mut models, _) = object_file::read_models(object).unwrap();
    assert_eq!(models.len(), 1);
    models.remove(0)
}

fn objects_hold_what_the_program_stored(arch: Arch) {
    let dir = tempfile::tempdir().unwrap();
    let Some((llc_object, tc, reference)) = llc19_reference(arch, dir.path()) else { return };
    // llc-19's own map passes the same checks: they describe LLVM's semantics, not patchmap's.
    run_checked(&llc_object, &tc, dir.path(), "llc19-checked", &reference).unwrap();
    let theirs = only_map(&llc_object);
    for opt in ["speed", "none"] {
        let object = compile(arch, opt, Version::V3);
        run_checked(&object, &tc, dir.path(), &format!("patchmap-{opt}"), &reference).unwrap();
        let ours = only_map(&object);
        assert_eq!(ours.functions.len(), 1);
        assert_eq!(ours.functions[0].stack_size, DYNAMIC_STACK_SIZE, "a realigned frame's size is unknown");
        assert_eq!(theirs.functions[0].stack_size, DYNAMIC_STACK_SIZE);
        let shape = |map: &StackMap| -> Vec<(LocationKind, u16, Option<u16>)> {
            map.records[0]
                .locations
                .iter()
                .map(|l| (l.kind, l.size, (l.kind == LocationKind::Direct).then_some(l.dwarf_reg)))
                .collect()
        };
        // Where the allocator keeps the integers is its own choice (-O none spills one that llc-19
        // keeps in a register): exact agreement at -O speed, and register-or-slot at -O none.
        let (ours_shape, theirs_shape) = (shape(&ours), shape(&theirs));
        if opt == "speed" {
            assert_eq!(ours_shape, theirs_shape, "{arch:?} -O {opt}: kinds, sizes and Direct bases against llc-19's");
        }
        assert_eq!(ours_shape[..3], theirs_shape[..3], "{arch:?} -O {opt}: the allocas against llc-19's");
        for (a, b) in ours_shape[3..].iter().zip(&theirs_shape[3..]) {
            let register_or_slot = |k| matches!(k, LocationKind::Register | LocationKind::Indirect);
            assert!(
                a.1 == b.1 && register_or_slot(a.0) && register_or_slot(b.0),
                "{arch:?} -O {opt}: {a:?} against {b:?}"
            );
        }
        assert!(shape(&ours)[..3]
            .iter()
            .all(|&(k, _, base)| k == LocationKind::Direct && base == Some(arch.stack_pointer())));
    }
}

#[test]
fn overaligned_allocas_are_direct_sp_locations_on_x86_64() {
    objects_hold_what_the_program_stored(Arch::X86_64);
}

#[test]
fn overaligned_allocas_are_direct_sp_locations_on_aarch64() {
    objects_hold_what_the_program_stored(Arch::Aarch64);
}

/// The frame table says the frame is realigned, and the prologue saves callee-saved registers
/// (values live across the recursive call) below the frame pointer, where the unwind information
/// puts them.
#[test]
fn frame_table_flags_realignment() {
    for arch in Arch::ALL {
        let map = only_map(&compile(arch, "speed", Version::FrameTable));
        let frame = map.functions[0].frame.as_ref().expect("a frame-table function has its frame");
        assert!(frame.has_frame && frame.has_stack_realignment, "{arch:?}: {frame:?}");
        assert_eq!(frame.base_register, arch.frame_pointer());
        let saved: Vec<_> = frame.registers.iter().filter(|r| r.offset < 0).collect();
        assert!(!saved.is_empty(), "{arch:?}: no callee-saved register saved: {frame:?}");
    }
}

/// `object` with the first occurrence of `from` replaced by `to` (same length): in `@f`, the first
/// function of the object (`@main` also ends with `mov %rbp, %rsp` on x86-64, but realigns nothing).
fn patched(object: &[u8], from: &[u8], to: &[u8], what: &str) -> Vec<u8> {
    let at = object.windows(from.len()).position(|w| w == from).unwrap_or_else(|| panic!("{what}: no {from:02x?}"));
    let mut object = object.to_vec();
    object[at..at + to.len()].copy_from_slice(to);
    object
}

/// A 32-bit AArch64 instruction word of the code, little-endian.
fn a64(word: u32) -> [u8; 4] {
    word.to_le_bytes()
}

/// The two broken builds of each target: (name, object). The realigning instruction becomes one that
/// moves SP without rounding it; the epilogue's restore of SP from the frame pointer becomes a nop.
fn broken_builds(arch: Arch) -> Vec<(&'static str, Vec<u8>)> {
    let object = compile(arch, "speed", Version::V3);
    match arch {
        // `and $-4096, %rsp` (48 81 e4 00 f0 ff ff) -> a 7-byte nop; `mov %rbp, %rsp` -> 3 nops.
        Arch::X86_64 => vec![
            (
                "unaligned",
                patched(&object, &[0x48, 0x81, 0xe4, 0x00, 0xf0, 0xff, 0xff], &[0x0f, 0x1f, 0x80, 0, 0, 0, 0], "and"),
            ),
            ("epilogue", patched(&object, &[0x48, 0x89, 0xec], &[0x90, 0x90, 0x90], "mov")),
        ],
        // `and sp, x16, #-4096` -> `mov sp, x16`; `sub sp, x29, #clobbers` -> nop.
        Arch::Aarch64 => {
            let words: Vec<u32> = object.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
            let and = words.iter().copied().find(|w| w & 0xffc0_03ff == 0x9240_021f).expect("and sp, x16, #imm");
            let restore = words.iter().copied().find(|w| w & 0xffc0_03ff == 0xd100_03bf).expect("sub sp, x29, #imm");
            vec![
                ("unaligned", patched(&object, &a64(and), &a64(0x9100_021f), "and")),
                ("epilogue", patched(&object, &a64(restore), &a64(0xd503_201f), "sub")),
            ]
        }
    }
}

/// Each broken build fails the checks. Without the realignment an address is aligned only by
/// chance (ASLR moves the stack in 16-byte steps: 1 run in 256 for 4096 bytes), so that build must
/// fail in at least one of three runs.
#[test]
fn broken_realignment_is_caught() {
    for arch in Arch::ALL {
        let dir = tempfile::tempdir().unwrap();
        let Some((_, tc, reference)) = llc19_reference(arch, dir.path()) else { return };
        for (name, object) in broken_builds(arch) {
            let name = format!("broken-{name}-{arch:?}");
            let failure = (0..3).find_map(|_| run_checked(&object, &tc, dir.path(), &name, &reference).err());
            let failure = failure.unwrap_or_else(|| panic!("{name} passed the checks"));
            eprintln!("caught {failure}");
        }
    }
}

/// The program runs as llc-19's build does on both targets, and in the JIT and the interpreter.
#[test]
fn runs_as_llc19_builds_it() {
    support::programs_run_as_llc19_builds_them(&[program()], 0);
}
