//! Differential test of GC statepoints (issue 12) against llc-19, on x86-64 (natively) and AArch64
//! (qemu): the `ir-examples/gc_*.ll` programs and random ones from `tests/generator/statepoint.rs`
//! (GC pointers into a static `@heap`, derived pointers, deopt values of several types, calls in loops
//! and diamonds, nested statepoints) are compiled by llc-19 and by patchmap and run under the location
//! checker (`tests/checker/harness.c`), which stops at every record's address (the return address of the
//! statepoint's call) and reads every location.
//!
//! - `llc19_*`: llc-19's records at -O0 and -O2 follow the rules below exactly (the oracle
//!   `support::statepoint` computes every record's layout from the IR), the program's output is the
//!   same at both levels and under the checker, every pair location holds a pointer into `@heap` (or
//!   null), and the values -O0 and -O2 record for the same thing (same deopt value, same (base,
//!   derived) pair) agree at every record execution. This validates the rules and the comparison.
//! - `patchmap_*`: patchmap (`-O speed`) against `llc-19 -O2`: the same record IDs, per record the same
//!   number of locations, the same three leading constants (calling convention, flags, deopt count),
//!   the same sizes and the same constants where llc-19 has a constant; the same output; and at every
//!   record execution the same values, location by location (GC pointers compared as `@heap+offset`).
//! - `swapped_pair_slots_are_caught`: swapping two pairs' slots in one of llc-19's records makes the
//!   comparison fail.
//!
//! `PATCHMAP_STATEPOINT_PROGRAMS` sets the number of generated programs per target (default 20);
//! `PATCHMAP_STATEPOINT_SEED=N` checks seed N alone (`generator::statepoint::program(N)`).
//!
//! # llc-19's statepoint records
//!
//! Found with `llc-19 -O{0,2} -mtriple={x86_64,aarch64}-linux-gnu -filetype=obj` and `llvm-readobj-19
//! --stackmap`, and by running small programs under the checker with GC pointers into a global `@heap`
//! (each slot prints as `@heap+offset`, so which slot holds which value is certain); cross-checked with
//! LLVM 19's StatepointLowering.cpp and CodeGenPrepare.cpp. The oracle in `support::statepoint`
//! implements them and the `llc19_*` tests check them on every program.
//!
//! ```text
//! Record header
//! - Record ID = the statepoint's ID operand (i64). Several statepoints may share an ID.
//! - Instruction offset = the return address of the call (the end of the call instruction), relative to the
//!   function start. With NUMPATCHBYTES = N > 0: no call is emitted (the target is not even lowered),
//!   N bytes of nops instead (x86-64: multi-byte nops; AArch64: N/4 `nop`), record offset = end of the nops.
//!   The call arguments are still set up before the nops (e.g. `mov w0, #5`).
//! - Live-outs: always 0. One record per statepoint (no de-duplication).
//! - Base register of every stack location: the stack pointer (x86-64 DWARF 7 = rsp, AArch64 31 = sp),
//!   at -O0 and -O2 (no frame pointer based slots seen). Offsets are >= 0 (SP-relative).
//! - Function stack size: the usual stack-map rule (frame size; x86-64 -O2 a frame of one spill slot
//!   shows `pushq %rax` and stack size 8). The statepoint spill slots are ordinary fixed frame objects.
//!
//! Locations, in order
//! 1. `Constant CC` (size 8): the calling convention of the statepoint call instruction
//!    (0 = C, 8 = fastcc, 9 = coldcc; coldcc is rejected by llc on AArch64 "Unsupported calling convention").
//! 2. `Constant FLAGS` (size 8): the FLAGS operand (0..3). FLAGS bit 0 (GCTransition) makes llc-19
//!    CRASH on AArch64 (Cannot select gc_transition.end), with or without a "gc-transition" bundle; x86-64
//!    accepts it (the bundle's values do not appear in the record). Do not use FLAGS=1 in cross-target tests.
//!    FLAGS bit 1 (DeoptLiveIn, =2) changes deopt lowering (below).
//! 3. `Constant NDEOPT` (size 8): the number of values in the "deopt" bundle (0 if none).
//! 4. The NDEOPT deopt values, in bundle order, one location each (never split, never merged):
//!    - constant integers: `Constant sext(value)` if the sign-extended value fits in i32, else
//!      `ConstantIndex` of the 64-bit sign-extended value. All size 8. So i1 true -> Constant -1,
//!      i8 200 -> Constant -56, i8 -1 -> Constant -1, i32 -2147483648 -> Constant, i64 2147483648 -> ConstantIndex,
//!      i64 -2147483648 -> Constant.
//!    - null pointers (any address space): `Constant 0`, size 8.
//!    - FP constants: the bit pattern ZERO-extended to 64 bits, then the same Constant/ConstantIndex rule:
//!      double 0.0 -> Constant 0; double -0.0 -> ConstantIndex 0x8000000000000000; double 1.5 -> ConstantIndex
//!      0x3FF8000000000000; float 2.5 (0x40200000) -> Constant 1075838976; float -2.5 -> ConstantIndex 0xC0200000.
//!    - undef / poison of any type (i8, i32, i64, double, ptr): `ConstantIndex 0xFEFEFEFE` (4278124286), size 8.
//!    - allocas (the alloca's address): `Direct [SP + off]`, size 8.
//!    - everything else (SSA values, arguments incl. ones passed on the stack, global addresses like `ptr @h`,
//!      non-constant ptr addrspace(1) values, vector constants, i128): spilled to a statepoint spill slot:
//!      `Indirect [SP + off]` with size = the value's store size: i1 -> 1, i8 -> 1, i16 -> 2, i32 -> 4,
//!      float -> 4, i64/double/ptr -> 8, <2 x i32> -> 8, i128 -> 16.
//!    - with FLAGS & 2 (DeoptLiveIn): non-GC deopt values are NOT spilled: `Register R#n` (size = store size,
//!      e.g. i32 in a register -> size 4; a float/double in an x86-64 XMM register -> size 16), or,
//!      when the register allocator spills them, `Indirect` (a double spilled from an XMM register: size 16).
//!      GC pointers (ptr addrspace(1)) in deopt are still spilled (Indirect 8).
//!    - the constant pool (ConstantIndex) is shared by all records of the section and de-duplicated
//!      by value, in order of first use.
//! 5. The (base, derived) pairs: 2 locations per pair, base first. The pair list is built as follows
//!    (SelectionDAGBuilder::LowerStatepoint):
//!    a. Iterate the statepoint token's users that are gc.relocate calls, in USE-LIST order. For IR read from
//!       text that is the REVERSE of the relocates' textual order (the last relocate in the function comes
//!       first). Verified: relocates (0,0),(1,1),(2,2) in that textual order give pairs c, b, a.
//!    b. For each relocate, key = the lowered value of its DERIVED operand (the SelectionDAG value: same IR
//!       value, equal constants such as two `null`s, identical instructions CSE'd by the DAG within one block).
//!       If the key was not seen: append pair (gc-live[base index], gc-live[derived index]). Duplicates (a
//!       second relocate of the same derived value, the same value listed twice in gc-live, `(0,0)` and
//!       `(2,2)` when gc-live[0] == gc-live[2]) add nothing.
//!    c. gc-live values without any gc.relocate get NO pair (they are not even spilled).
//!       Unused relocates (no users) DO get a pair (llc does not delete them, at -O0 or -O2).
//!    d. Then every deopt value that is a GC pointer (for gc "statepoint-example": type ptr addrspace(1),
//!       including `ptr addrspace(1) null`) whose lowered value was not seen in (b) adds a pair (V, V),
//!       in deopt order. E.g. deopt(%c, %a), relocates of %b, null, %a -> pairs (b,b),(null,null),(a,a),(c,c).
//!       NOT for "deopt" bundles on ordinary calls (those have no pairs at all).
//!    e. Each pair location: a GC value that is a constant -> `Constant` (null -> Constant 0, size 8);
//!       otherwise `Indirect [SP + off]`, size 8, in the value's statepoint spill slot. A value has ONE slot
//!       per statepoint: base and derived of (a,a) name the same slot; a value that is both a deopt value and
//!       a pair member uses the same slot in both places. (max-registers-for-gc-values defaults to 0, so no
//!       Register locations for GC pointers.)
//!    f. CodeGenPrepare at -O1+ (NOT at -O0) rewrites derived relocates before lowering
//!       (simplifyOffsetableRelocate): for a relocate R = (b, d) with b != d, if a relocate (b, b) of the same
//!       statepoint exists (matched by INDEX b, not by value), and both relocates are in the SAME basic block,
//!       and gc-live[d] is a `getelementptr` instruction whose pointer operand is exactly gc-live[b] and ALL of
//!       whose indices are ConstantInt with zext value <= 20, then R is replaced by a GEP of the relocated base
//!       and ERASED: its pair disappears at -O2. (Only the first relocate per (b,d) index pair in use-list
//!       order is considered; a later duplicate stays.) E.g. gc-live(%a, %d = gep i8 %a, 16), relocates (0,1),
//!       (0,0): -O0 gives pairs (a,a),(a,d); -O2 gives (a,a) only. `gep i8 %a, 24`, `gep i8 %a, -8`,
//!       a variable index, a GEP of a GEP, or no (b,b) relocate: the pair stays.
//!       "Same block" is judged after target IR passes: AArch64 runs SimplifyCFG before CGP at -O2, which
//!       merges `br label %next` chains, so a base relocate in a fall-through successor block is rewritten on
//!       AArch64 but not on x86-64. Keep all relocates right after the statepoint in its block (as
//!       RewriteStatepointsForGC does) and the rule is target independent.
//! 6. Then one `Direct [SP + off]` (size 8) per gc-live operand that is an alloca (any address space),
//!    in gc-live order, whether relocated or not (these are "gc allocas": the collector updates their
//!    contents). They never form pairs.
//!
//! So: nlocs = 3 + NDEOPT + 2 * npairs + nallocas.
//!
//! Other
//! - gc.result: no effect on the record (the call's return value comes back in the return register).
//! - "deopt" bundle on an ordinary call (no gc.statepoint, no gc attribute needed): llc lowers it as a
//!   statepoint: ID = 0xABCDEF0F (2882400015) unless the call has the attribute "statepoint-id"="N";
//!   NUMPATCHBYTES from "statepoint-num-patch-bytes"="N"; CC constant = the call's CC, FLAGS 0, deopt count
//!   and values as above, NO pairs. CAVEAT: on AArch64 at -O0 (GlobalISel) llc-19 DROPS the bundle: the
//!   call gets no record at all (no .llvm_stackmaps section). x86-64 -O0 records it.
//! - At the record's PC (the return address) every spilled value's slot holds the value it had before the
//!   call (the checker reads them there); the code after the call reloads relocated values from the slots
//!   (that is what lets a moving collector rewrite them).
//! - llc does not require relocates after the statepoint to be used, nor gc-live values to be relocated.
//!   A relocate with no uses keeps its pair at -O0 and -O2 on both targets. BUT on AArch64 at -O2 the
//!   SimplifyCFG run before CodeGenPrepare deletes dead phis and, with them, relocates whose only uses
//!   were those phis: their pairs disappear on AArch64 and stay on x86-64 (the generator uses every
//!   phi it makes, so its programs do not depend on this).
//!
//! ```

use crate::generator;
use crate::support;

use std::path::Path;

use patchmap::compile::Options;
use patchmap::stackmap::{object_file, StackMap, Version};
use support::checker::{self, Normal, Report};
use support::statepoint::{self as sp, Keyed, Program, Slot};
use support::{Arch, Outcome, Toolchain};

fn count() -> u64 {
    std::env::var("PATCHMAP_STATEPOINT_PROGRAMS").ok().and_then(|v| v.parse().ok()).unwrap_or(20)
}

/// The examples and the generated programs: (name, text).
pub(crate) fn programs(first_seed: u64) -> Vec<(String, String)> {
    if let Some(seed) = std::env::var("PATCHMAP_STATEPOINT_SEED").ok().and_then(|v| v.parse::<u64>().ok()) {
        return vec![(format!("gen{seed}"), generator::statepoint::program(seed))];
    }
    let examples = support::statepoint_examples();
    assert!(examples.len() >= 3, "expected at least 3 ir-examples/gc_*.ll, found {}", examples.len());
    let mut programs: Vec<(String, String)> = examples
        .iter()
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(p).unwrap()))
        .collect();
    for seed in first_seed..first_seed + count() {
        programs.push((format!("gen{seed}"), generator::statepoint::program(seed)));
    }
    programs
}

fn stack_pointer(arch: Arch) -> u16 {
    match arch {
        Arch::X86_64 => 7,
        Arch::Aarch64 => 31,
    }
}

fn arch_name(arch: Arch) -> &'static str {
    match arch {
        Arch::X86_64 => "x86_64",
        Arch::Aarch64 => "aarch64",
    }
}

/// The one stack map blob of an object (an empty map when it has none).
fn stack_map(object: &[u8]) -> Result<StackMap, String> {
    let (mut maps, _) = object_file::read_models(object).map_err(|e| e.to_string())?;
    match maps.len() {
        0 => Ok(StackMap::new()),
        1 => Ok(maps.remove(0)),
        n => Err(format!("{n} stack map blobs")),
    }
}

/// Builds `object` with the checker and runs it.
pub(crate) fn checked(object: &[u8], tc: &Toolchain, dir: &Path, name: &str) -> Result<(Outcome, Report), String> {
    let exe = checker::build_checked(object, tc, dir, name)?;
    let (outcome, report) = checker::run_checked_report(&exe, tc)?;
    if !report.capped.is_empty() {
        return Err(format!("{name}: records over the checker's cap: {:?}", report.capped));
    }
    Ok((outcome, report))
}

/// llc-19's records at `-O<opt>` follow the rules: returns the checker's keyed values and the outcome.
fn llc_follows_the_rules(
    llc: &Path,
    tc: &Toolchain,
    dir: &Path,
    name: &str,
    program: &Program,
    opt: u8,
) -> Result<(Outcome, Keyed), String> {
    let ll = dir.join(format!("{name}.ll"));
    let object = support::llc_object(llc, &ll, tc.arch, &opt.to_string(), dir)?;
    let map = stack_map(&object)?;
    // AArch64 -O0 (GlobalISel) drops "deopt" bundles of ordinary calls.
    let recorded = |site: &sp::Site| !(site.bundle_call && opt == 0 && tc.arch == Arch::Aarch64);
    for site in &program.sites {
        let records: Vec<_> = map.records.iter().filter(|r| r.id == site.id).collect();
        let expected = usize::from(recorded(site));
        if records.len() != expected {
            return Err(format!("-O{opt}: {} records with ID {}, expected {expected}", records.len(), site.id));
        }
        if let Some(record) = records.first() {
            let layout = program.layout(site, opt);
            sp::check_llc_record(program, &map, record, site, &layout, stack_pointer(tc.arch))
                .map_err(|e| format!("-O{opt}: {e}"))?;
        }
    }
    if let Some(r) = map.records.iter().find(|r| program.site(r.id).is_none()) {
        return Err(format!("-O{opt}: record ID {} belongs to no statepoint", r.id));
    }
    let (outcome, report) = checked(&object, tc, dir, &format!("{name}-O{opt}"))?;
    let keyed = sp::keyed(program, &report.hits, opt).map_err(|e| format!("-O{opt}: {e}"))?;
    sp::pairs_point_into_the_heap(&keyed).map_err(|e| format!("-O{opt}: {e}"))?;
    let executed: Vec<u64> = report.hits.iter().map(|h| h.id).collect();
    if let Some(p) = report.planted.iter().find(|p| !executed.contains(&p.id)) {
        // Generated programs execute every statepoint but the ones in never-taken arms; examples all.
        if !name.starts_with("gen") {
            return Err(format!("-O{opt}: record ID {} never executed", p.id));
        }
    }
    Ok((outcome, keyed))
}

fn check_llc(arch: Arch, first_seed: u64) {
    let (Some(llc), Some(tc)) = (support::tool("llc-19"), support::toolchain(arch)) else { return };
    let dir = tempfile::tempdir().unwrap();
    let programs = programs(first_seed);
    let failures = std::sync::Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..std::thread::available_parallelism().map_or(2, |n| n.get()) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((name, text)) = programs.get(k) else { break };
                let run = || -> Result<(), String> {
                    let name = format!("{name}-{}", arch_name(arch));
                    std::fs::write(dir.path().join(format!("{name}.ll")), text).unwrap();
                    let program = Program::parse(text);
                    if program.sites.is_empty() {
                        return Err("no statepoints".into());
                    }
                    let plain =
                        support::llc_object(&llc, &dir.path().join(format!("{name}.ll")), arch, "2", dir.path())
                            .and_then(|o| tc.link_and_run(&o, dir.path(), &format!("{name}-plain")))?;
                    let (o0, k0) = llc_follows_the_rules(&llc, &tc, dir.path(), &name, &program, 0)?;
                    let (o2, k2) = llc_follows_the_rules(&llc, &tc, dir.path(), &name, &program, 2)?;
                    if o0 != plain || o2 != plain {
                        return Err(format!("outputs differ: plain {plain:?}, checked -O0 {o0:?}, -O2 {o2:?}"));
                    }
                    // AArch64 -O0 has no records for "deopt" bundles on ordinary calls.
                    let recorded = |k: &Keyed| -> Keyed {
                        k.iter().filter(|h| k0.iter().any(|h0| h0.0 == h.0)).cloned().collect()
                    };
                    sp::compare_keyed(&k0, &recorded(&k2)).map_err(|e| format!("-O0 and -O2 disagree: {e}"))
                };
                if let Err(e) = run() {
                    failures.lock().unwrap().push(format!("{name} on {arch:?}: {e}"));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{} of {} programs:\n{}", failures.len(), programs.len(), failures.join("\n"));
}

#[test]
fn llc19_statepoint_records_follow_the_rules_on_x86_64() {
    check_llc(Arch::X86_64, 0);
}

#[test]
fn llc19_statepoint_records_follow_the_rules_on_aarch64() {
    check_llc(Arch::Aarch64, 100);
}

/// llc-19 -O2's object, stack map and checker values (location by location) for `name`.
fn llc_reference(
    llc: &Path,
    tc: &Toolchain,
    dir: &Path,
    name: &str,
    program: &Program,
) -> Result<(Vec<u8>, StackMap, Outcome, Normal), String> {
    let object = support::llc_object(llc, &dir.join(format!("{name}.ll")), tc.arch, "2", dir)?;
    let map = stack_map(&object)?;
    let (outcome, report) = checked(&object, tc, dir, &format!("{name}-llc"))?;
    let normal = normalized(program, &report, 2)?;
    Ok((object, map, outcome, normal))
}

/// The checker's values per execution, normalised by the types of llc-19's `-O<opt>` layout.
pub(crate) fn normalized(program: &Program, report: &Report, opt: u8) -> Result<Normal, String> {
    report
        .hits
        .iter()
        .map(|h| {
            let site = program.site(h.id).ok_or_else(|| format!("record ID {} is no statepoint", h.id))?;
            let types = program.live_types(site, &program.layout(site, opt));
            if types.len() != h.values.len() {
                return Err(format!("ID {}: {} locations, llc-19 has {}", h.id, h.values.len(), types.len()));
            }
            Ok((h.id, checker::normalize(&h.values, &types)))
        })
        .collect()
}

fn patchmap_object(text: &str, name: &str, arch: Arch, opt: &str) -> Result<Vec<u8>, String> {
    let module = patchmap::ir::parse(&format!("{name}.ll"), text).map_err(|e| format!("parse: {e}"))?;
    patchmap::ir::verify(&module).map_err(|e| format!("verify: {e}"))?;
    // Version 3: a v1 section cannot always say which function a record belongs to (several splits of
    // the records by function size may fit), and the checker would plant breakpoints at wrong addresses.
    let options = Options::new(Some(arch.triple()), opt, 3).map_err(|e| e.to_string())?;
    patchmap::emit::object::compile(&module, &options).map_err(|e| format!("compile: {e}"))
}

/// Whether patchmap's object of `text` at `-O <opt>` has llc-19 -O2's record shapes, output and, at
/// every record execution, values; returns the number of record executions.
pub(crate) fn agrees_with_llc19(
    text: &str,
    name: &str,
    opt: &str,
    llc: &Path,
    tc: &Toolchain,
    dir: &Path,
) -> Result<usize, String> {
    std::fs::write(dir.join(format!("{name}.ll")), text).unwrap();
    let program = Program::parse(text);
    let (_, llc_map, llc_outcome, llc_values) = llc_reference(llc, tc, dir, name, &program)?;
    let ours = patchmap_object(text, name, tc.arch, opt).map_err(|e| format!("patchmap: {e}"))?;
    let our_map = stack_map(&ours)?;
    sp::compare_shapes(&our_map, &llc_map).map_err(|e| format!("record shapes differ:\n{e}"))?;
    let (outcome, report) = checked(&ours, tc, dir, &format!("{name}-ours"))?;
    if outcome != llc_outcome {
        return Err(format!("patchmap's program gave {outcome:?}, llc-19's {llc_outcome:?}"));
    }
    let values = normalized(&program, &report, 2)?;
    checker::compare_executions(&values, &llc_values)?;
    Ok(values.len())
}

fn check_patchmap(arch: Arch, first_seed: u64) {
    let (Some(llc), Some(tc)) = (support::tool("llc-19"), support::toolchain(arch)) else { return };
    let dir = tempfile::tempdir().unwrap();
    let programs = programs(first_seed);
    let mut failures = Vec::new();
    for (name, text) in &programs {
        let name = format!("{name}-{}", arch_name(arch));
        if let Err(e) = agrees_with_llc19(text, &name, "speed", &llc, &tc, dir.path()) {
            failures.push(format!("{name}: {}", e.lines().take(12).collect::<Vec<_>>().join("\n    ")));
        }
    }
    assert!(failures.is_empty(), "{} of {} programs:\n{}", failures.len(), programs.len(), failures.join("\n"));
}

#[test]
fn patchmap_statepoints_agree_with_llc19_on_x86_64() {
    check_patchmap(Arch::X86_64, 0);
}

#[test]
fn patchmap_statepoints_agree_with_llc19_on_aarch64() {
    check_patchmap(Arch::Aarch64, 100);
}

/// The comparison can fail: in llc-19's own object, swapping the locations of two pairs (spill slots
/// that hold different pointers) in one record leaves the shapes equal but the values read differ.
#[test]
fn swapped_pair_slots_are_caught() {
    for arch in Arch::ALL {
        let (Some(llc), Some(tc)) = (support::tool("llc-19"), support::toolchain(arch)) else { return };
        let dir = tempfile::tempdir().unwrap();
        let ll = Path::new(env!("CARGO_MANIFEST_DIR")).join("ir-examples/gc_derived.ll");
        let text = std::fs::read_to_string(&ll).unwrap();
        let program = Program::parse(&text);
        let name = format!("swap-{}", arch_name(arch));
        std::fs::write(dir.path().join(format!("{name}.ll")), &text).unwrap();
        let (object, map, outcome, values) = llc_reference(&llc, &tc, dir.path(), &name, &program).unwrap();
        // A record with two pairs whose base pointers differ at its first execution.
        let (record, first, second) = map
            .records
            .iter()
            .enumerate()
            .find_map(|(r, record)| {
                let layout = program.layout(program.site(record.id)?, 2);
                let hit = values.iter().find(|h| h.0 == record.id)?;
                let spilled = |i: usize| record.locations[i].kind == patchmap::stackmap::LocationKind::Indirect;
                let bases: Vec<usize> = (0..layout.len())
                    .filter(|&i| matches!(layout[i], Slot::Base(..)) && spilled(i) && spilled(i + 1))
                    .collect();
                bases.iter().enumerate().find_map(|(k, &a)| {
                    let b = *bases[k + 1..].iter().find(|&&b| hit.1[b] != hit.1[a])?;
                    Some((r, a, b))
                })
            })
            .expect("gc_derived.ll has a record with two pairs of different pointers");
        let mut broken_map = map.clone();
        let locations = &mut broken_map.records[record].locations;
        for i in 0..2 {
            locations.swap(first + i, second + i);
        }
        let original = map.write(Version::V3, patchmap::stackmap::Endian::Little).unwrap();
        let at = object.windows(original.len()).position(|w| w == original).expect("section bytes in the object");
        let mut broken = object.clone();
        broken[at..at + original.len()]
            .copy_from_slice(&broken_map.write(Version::V3, patchmap::stackmap::Endian::Little).unwrap());
        sp::compare_shapes(&broken_map, &map).expect("swapping slots keeps the shape");
        let (broken_outcome, report) = checked(&broken, &tc, dir.path(), &format!("{name}-broken")).unwrap();
        assert_eq!(broken_outcome, outcome, "the records do not change the program");
        let broken_values = normalized(&program, &report, 2).unwrap();
        assert!(
            checker::compare_executions(&broken_values, &values).is_err(),
            "swapped pair slots went unnoticed on {arch:?}"
        );
    }
}

/// The generator is deterministic, and its programs have statepoints with everything the rules cover.
#[test]
fn generated_programs_cover_the_rules() {
    assert_eq!(generator::statepoint::program(3), generator::statepoint::program(3));
    assert_ne!(generator::statepoint::program(3), generator::statepoint::program(4));
    let (mut pairs_o0, mut pairs_o2, mut deopt, mut sites, mut relocates, mut patched) = (0, 0, 0, 0, 0, 0);
    for seed in 0..20 {
        let program = Program::parse(&generator::statepoint::program(seed));
        for site in &program.sites {
            sites += 1;
            deopt += site.deopt.len();
            relocates += site.relocates.len();
            patched += usize::from(site.patch_bytes > 0);
            let pairs = |opt| program.layout(site, opt).iter().filter(|s| matches!(s, Slot::Base(..))).count();
            pairs_o0 += pairs(0);
            pairs_o2 += pairs(2);
        }
    }
    assert!(sites >= 100, "{sites} statepoints in 20 programs");
    assert!(deopt >= 2 * sites / 2, "{deopt} deopt values");
    assert!(relocates >= sites, "{relocates} relocates");
    assert!(patched >= 3, "{patched} statepoints with patch bytes");
    assert!(pairs_o2 < pairs_o0, "no derived relocate rewritten at -O2 ({pairs_o0} pairs at -O0, {pairs_o2})");
}

/// The oracle's reading of the rules on a hand-made statepoint.
#[test]
fn oracle_layouts() {
    let text = "define void @f(ptr addrspace(1) %a, ptr addrspace(1) %b, i64 %x) gc \"statepoint-example\" {
entry:
  %d = getelementptr i8, ptr addrspace(1) %a, i64 16
  %e = getelementptr i8, ptr addrspace(1) %a, i64 24
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 7, i32 0, ptr elementtype(void ()) @h, i32 0, i32 0, i32 0, i32 0) [ \"deopt\"(i64 %x, i8 200, double 1.5, ptr addrspace(1) %b, i32 undef), \"gc-live\"(ptr addrspace(1) %a, ptr addrspace(1) %d, ptr addrspace(1) %e, ptr addrspace(1) null) ]
  %d2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 1)
  %e2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 2)
  %a2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 0)
  %n2 = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 3, i32 3)
  ret void
}
";
    let program = Program::parse(text);
    let site = &program.sites[0];
    assert_eq!((site.id, site.deopt.len(), site.gc_live.len(), site.relocates.len()), (7, 5, 4, 4));
    let pairs = |opt| -> Vec<String> {
        program
            .layout(site, opt)
            .iter()
            .filter_map(|s| match s {
                Slot::Base(b, d) => Some(format!("{}:{}", b.value, d.value)),
                _ => None,
            })
            .collect()
    };
    assert_eq!(pairs(0), ["null:null", "%a:%a", "%a:%e", "%a:%d", "%b:%b"]);
    assert_eq!(pairs(2), ["null:null", "%a:%a", "%a:%e", "%b:%b"]);
    let c = |ty: &str, v: &str| sp::Operand { ty: ty.into(), value: v.into() }.constant();
    assert_eq!(c("i8", "200"), Some(-56i64 as u64));
    assert_eq!(c("i1", "true"), Some(u64::MAX));
    assert_eq!(c("double", "-0.0"), Some(0x8000_0000_0000_0000));
    assert_eq!(c("float", "-2.5"), Some(0xC020_0000));
    assert_eq!(c("i64", "undef"), Some(sp::UNDEF));
    assert_eq!(c("i64", "%x"), None);
}

/// `PATCHMAP_STATEPOINT_DUMP=N cargo test --test statepoints llc::dump_program -- --nocapture` prints
/// generated program N.
#[test]
fn dump_program() {
    if let Some(seed) = std::env::var("PATCHMAP_STATEPOINT_DUMP").ok().and_then(|v| v.parse::<u64>().ok()) {
        println!("{}", generator::statepoint::program(seed));
    }
}
