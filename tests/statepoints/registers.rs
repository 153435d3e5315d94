//! patchmap's register lowering of statepoints (`--max-registers-for-gc-values 4
//! --use-registers-for-deopt-values`) against llc-19's with the same options, on the `ir-examples/gc_*`
//! and the collector's programs, both targets.
//!
//! Both keep the record's layout: the same records, the same number of locations, constants and
//! allocas where the other has them. Where llc-19 names a register for a GC pointer, so does patchmap
//! (the register may differ). The differences, each for a reason:
//! - patchmap names registers for GC pointers where llc-19 has slots: llc-19's register allocator may
//!   put a statepoint's GC pointer in a caller-saved register, and its `FixupStatepointCallerSaved`
//!   pass then spills it around the call (`Indirect`); patchmap's `statepoint_call` fixes each one to a
//!   callee-saved register, up to N.
//! - a deopt value llc-19 has in a register may be in a spill slot in patchmap's record: both are "any"
//!   locations valid across the call, and Cranelift's allocator spills some (AArch64's d8-d15 are
//!   callee-saved for llc-19 but caller-saved for Cranelift, so a `double` always goes to a slot).
//! - statepoints with patch bytes (NUMPATCHBYTES > 0) keep their slots in patchmap: the record is at
//!   the region's end, after a call a runtime writes there, and the vendored `patchpoint` records its
//!   values at the region's start; llc-19 keeps their deopt values in registers.

use crate::support;

use std::path::{Path, PathBuf};

use patchmap::compile::Options;
use patchmap::stackmap::{object_file, LocationKind, StackMap};
use support::checker;
use support::statepoint::Program;
use support::Arch;

use crate::llc::{self, checked, normalized};

const GC_REGISTERS: u32 = 4;

fn example_files() -> Vec<PathBuf> {
    let mut files = support::statepoint_examples();
    let collector = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gc_collector");
    files.extend(support::ll_files(&collector));
    files
}

fn stack_map(object: &[u8]) -> StackMap {
    let (mut maps, _) = object_file::read_models(object).unwrap();
    assert_eq!(maps.len(), 1, "one stack map blob");
    maps.remove(0)
}

fn llc_object(llc: &Path, ll: &Path, arch: Arch, dir: &Path) -> Vec<u8> {
    let out = dir.join(format!("{}.{}.o", ll.file_stem().unwrap().to_string_lossy(), arch.triple()));
    let (code, _, err) = support::run(
        std::process::Command::new(llc)
            .args(["-O2", "-filetype=obj", "-relocation-model=pic"])
            .arg(format!("-max-registers-for-gc-values={GC_REGISTERS}"))
            .arg("-use-registers-for-deopt-values")
            .arg(format!("-mtriple={}", arch.triple()))
            .arg(ll)
            .arg("-o")
            .arg(&out),
    );
    assert_eq!(code, 0, "llc-19 failed on {}: {err}", ll.display());
    std::fs::read(&out).unwrap()
}

/// The IDs of the statepoints with patch bytes in `text` (`gc.statepoint...(i64 ID, i32 BYTES, ...`).
fn patched_ids(text: &str) -> Vec<u64> {
    text.split("@llvm.experimental.gc.statepoint.p0(i64 ")
        .skip(1)
        .filter_map(|rest| {
            let (id, rest) = rest.split_once(", i32 ")?;
            let bytes: u32 = rest.split(',').next()?.trim().parse().ok()?;
            (bytes > 0).then(|| id.trim().parse().ok()).flatten()
        })
        .collect()
}

/// A statepoint record: its ID, its deopt count (the third constant) and its location kinds.
type Kinds = (u64, usize, Vec<LocationKind>);

/// The statepoint records of a map, by ID (records of one ID in function and offset order).
fn records(map: &StackMap) -> Vec<Kinds> {
    let mut records: Vec<Kinds> = map
        .records
        .iter()
        .map(|r| {
            let deopt = r.locations.get(2).and_then(|l| map.constant_value(l)).unwrap_or(0) as usize;
            (r.id, deopt, r.locations.iter().map(|l| l.kind).collect())
        })
        .collect();
    // Stable: records of one ID stay in the order of their functions and offsets.
    records.sort_by_key(|r| r.0);
    records
}

fn compare(arch: Arch) {
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let files = example_files();
    assert!(files.len() >= 7, "the gc_* examples and the collector's programs: {files:?}");
    let (mut gc_registers, mut more_registers, mut deopt_slots) = (0, 0, 0);
    let mut failures = Vec::new();
    for ll in &files {
        let name = ll.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(ll).unwrap();
        let patched = patched_ids(&text);
        let module = patchmap::ir::parse_file(ll).unwrap();
        let options = Options::new(Some(arch.triple()), "speed", 3)
            .unwrap()
            .with_max_registers_for_gc_values(GC_REGISTERS)
            .with_registers_for_deopt_values(true);
        let ours = records(&stack_map(&patchmap::emit::object::compile(&module, &options).unwrap()));
        let theirs = records(&stack_map(&llc_object(&llc, ll, arch, dir.path())));
        let shape = |r: &[Kinds]| r.iter().map(|(id, deopt, l)| (*id, *deopt, l.len())).collect::<Vec<_>>();
        if shape(&ours) != shape(&theirs) {
            failures.push(format!(
                "{name}: records (ID, deopt values, locations) {:?}, llc-19 {:?}",
                shape(&ours),
                shape(&theirs)
            ));
            continue;
        }
        for ((id, deopt, ours), (_, _, theirs)) in ours.iter().zip(&theirs) {
            let fixed = |k: LocationKind| !matches!(k, LocationKind::Register | LocationKind::Indirect);
            // The deopt values follow the three constants; then the pairs and allocas.
            let deopt = 3..3 + deopt;
            for (i, (&a, &b)) in ours.iter().zip(theirs).enumerate() {
                let what = format!("{name}: record {id}, location #{}: patchmap {a:?}, llc-19 {b:?}", i + 1);
                if fixed(a) || fixed(b) {
                    if a != b {
                        failures.push(what);
                    }
                    continue;
                }
                match (a, b) {
                    (LocationKind::Register, LocationKind::Indirect) => more_registers += 1,
                    (LocationKind::Indirect, LocationKind::Register) if deopt.contains(&i) => deopt_slots += 1,
                    (LocationKind::Indirect, LocationKind::Register) if patched.contains(id) => {}
                    (LocationKind::Indirect, LocationKind::Register) => failures.push(what),
                    (LocationKind::Register, LocationKind::Register) if !deopt.contains(&i) => gc_registers += 1,
                    _ => {}
                }
            }
        }
    }
    eprintln!(
        "{arch:?}: {gc_registers} GC pointer locations in registers in both, {more_registers} registers where \
         llc-19 spills, {deopt_slots} deopt values in slots where llc-19 has a register"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(gc_registers > 0, "{arch:?}: no GC pointer in a register in both records");
}

/// One statepoint with `n` GC pointers live across it, each relocated and read after it.
fn many_pointers(n: usize) -> String {
    let params: Vec<String> = (0..n).map(|i| format!("ptr addrspace(1) %p{i}")).collect();
    let mut text = String::from(
        "declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)\n\
         declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)\n\
         declare void @g()\n",
    );
    text += &format!("define i64 @f({}) gc \"statepoint-example\" {{\n", params.join(", "));
    text += &format!(
        "  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 7, i32 0, \
         ptr elementtype(void ()) @g, i32 0, i32 0, i32 0, i32 0) [ \"gc-live\"({}) ]\n",
        params.join(", ")
    );
    for i in 0..n {
        text +=
            &format!("  %r{i} = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 {i}, i32 {i})\n");
        text += &format!("  %v{i} = load i64, ptr addrspace(1) %r{i}\n");
    }
    text += "  %s0 = add i64 %v0, 0\n";
    for i in 1..n {
        text += &format!("  %s{i} = add i64 %s{}, %v{i}\n", i - 1);
    }
    text += &format!("  ret i64 %s{}\n}}\n", n - 1);
    text
}

/// Beyond N, and beyond the callee-saved registers the target has for them, GC pointers keep their
/// slots; N = 0 leaves every one in a slot.
#[test]
fn gc_pointers_beyond_the_limit_keep_their_slots() {
    let module = patchmap::ir::parse("many.ll", &many_pointers(12)).unwrap();
    for (arch, available) in [(Arch::X86_64, 5), (Arch::Aarch64, 10)] {
        for (n, expected) in [(0u32, 0usize), (2, 2), (100, available)] {
            let options = Options::new(Some(arch.triple()), "speed", 3).unwrap().with_max_registers_for_gc_values(n);
            let map = stack_map(&patchmap::emit::object::compile(&module, &options).unwrap());
            let [record] = &map.records[..] else { panic!("{arch:?}: one record, got {}", map.records.len()) };
            // Three constants, no deopt values, then 12 (base, derived) pairs of one pointer each.
            assert_eq!(record.locations.len(), 3 + 24, "{arch:?}");
            let mut registers: Vec<u16> = Vec::new();
            for pair in record.locations[3..].chunks(2) {
                assert_eq!(pair[0], pair[1], "{arch:?}, N = {n}: a pointer is its own base");
                match pair[0].kind {
                    LocationKind::Register => registers.push(pair[0].dwarf_reg),
                    LocationKind::Indirect => {}
                    other => panic!("{arch:?}, N = {n}: {other:?}"),
                }
            }
            let count = registers.len();
            registers.sort_unstable();
            registers.dedup();
            assert_eq!((count, registers.len()), (expected, expected), "{arch:?}, N = {n}: {registers:?}");
        }
    }
}

#[test]
fn register_lowering_keeps_llc19_record_layout_on_x86_64() {
    compare(Arch::X86_64);
}

#[test]
fn register_lowering_keeps_llc19_record_layout_on_aarch64() {
    compare(Arch::Aarch64);
}

/// The generated statepoint programs (and the examples), compiled both ways and run under the
/// location checker, which stops at every record and reads each location: the register lowering's
/// records hold the values the slot lowering's hold, execution by execution, and the programs end
/// alike.
fn same_values_as_the_slot_lowering(arch: Arch, first_seed: u64) {
    let Some(tc) = support::toolchain(arch) else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut register_locations = 0;
    let programs = llc::programs(first_seed);
    for (name, text) in &programs {
        let run = |registers: u32| -> Result<_, String> {
            let module = patchmap::ir::parse(&format!("{name}.ll"), text).map_err(|e| e.to_string())?;
            let options = Options::new(Some(arch.triple()), "speed", 3)
                .unwrap()
                .with_max_registers_for_gc_values(registers)
                .with_registers_for_deopt_values(registers > 0);
            let object = patchmap::emit::object::compile(&module, &options).map_err(|e| e.to_string())?;
            let map = stack_map(&object);
            let (outcome, report) = checked(&object, &tc, dir.path(), &format!("{name}-{registers}"))?;
            Ok((map, outcome, normalized(&Program::parse(text), &report, 2)?))
        };
        let result = run(0).and_then(|slots| Ok((slots, run(GC_REGISTERS)?))).and_then(|(slots, registers)| {
            register_locations += registers
                .0
                .records
                .iter()
                .flat_map(|r| &r.locations)
                .filter(|l| l.kind == LocationKind::Register)
                .count();
            if registers.1 != slots.1 {
                return Err(format!("the outcome is {:?}, with slots {:?}", registers.1, slots.1));
            }
            checker::compare_executions(&registers.2, &slots.2)
        });
        if let Err(e) = result {
            failures.push(format!("{name} ({arch:?}): {}", e.lines().take(12).collect::<Vec<_>>().join("\n    ")));
        }
    }
    assert!(failures.is_empty(), "{} of {} programs:\n{}", failures.len(), programs.len(), failures.join("\n"));
    assert!(register_locations > 0, "{arch:?}: no register location in any record");
}

#[test]
fn generated_programs_record_the_same_values_in_registers_on_x86_64() {
    same_values_as_the_slot_lowering(Arch::X86_64, 200);
}

#[test]
fn generated_programs_record_the_same_values_in_registers_on_aarch64() {
    same_values_as_the_slot_lowering(Arch::Aarch64, 300);
}

/// A statepoint with three deopt values, two of them read after the call; FLAGS is substituted.
const DEOPT_VALUES: &str = r#"
declare void @safepoint()
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)

define i64 @f(i64 %a, i64 %b, i32 %c, ptr addrspace(1) %p) gc "statepoint-example" {
entry:
  %x = mul i64 %a, %b
  %tok = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 9, i32 0, ptr elementtype(void ()) @safepoint, i32 0, i32 FLAGS, i32 0, i32 0) [ "deopt"(i64 %x, i32 %c, i64 %a), "gc-live"(ptr addrspace(1) %p) ]
  %r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %tok, i32 0, i32 0)
  %v = ptrtoint ptr addrspace(1) %r to i64
  %s = add i64 %v, %x
  %t = add i64 %s, %a
  ret i64 %t
}
"#;

/// FLAGS bit 1 (deopt values live into the call): llc-19 keeps the deopt values in registers with no
/// option, and so does patchmap (as `--use-registers-for-deopt-values` does); with the bit clear both
/// give each a slot. The values read after the call are in registers in both records.
#[test]
fn deopt_live_in_flag_keeps_deopt_values_in_registers() {
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let deopt_kinds = |map: &StackMap| -> Vec<LocationKind> {
        // After the three leading constants: %x, %c, %a.
        map.records[0].locations[3..6].iter().map(|l| l.kind).collect()
    };
    for arch in Arch::ALL {
        for flags in [0, 2] {
            let ll = dir.path().join(format!("deopt_flags_{flags}.ll"));
            std::fs::write(&ll, DEOPT_VALUES.replace("FLAGS", &flags.to_string())).unwrap();
            let theirs = stack_map(&support::llc_object(&llc, &ll, arch, "2", dir.path()).unwrap());
            let module = patchmap::ir::parse_file(&ll).unwrap();
            let options = Options::new(Some(arch.triple()), "speed", 3).unwrap();
            let ours = stack_map(&patchmap::emit::object::compile(&module, &options).unwrap());
            for (who, map) in [("llc-19", &theirs), ("patchmap", &ours)] {
                let kinds = deopt_kinds(map);
                if flags == 0 {
                    assert!(kinds.iter().all(|&k| k == LocationKind::Indirect), "{who} {arch:?} flags 0: {kinds:?}");
                } else {
                    // %x and %a, used after the call.
                    assert_eq!([kinds[0], kinds[2]], [LocationKind::Register; 2], "{who} {arch:?} flags 2: {kinds:?}");
                }
            }
        }
    }
}
