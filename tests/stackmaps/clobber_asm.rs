//! Clobber-only inline asm (`call void asm sideeffect "", "~{rax},..."()`) clobbers its registers:
//! values live across it leave them (spilled when every general register is clobbered), the records
//! of shared/reference's `sm_example` agree with llc-19's in kinds, sizes and constants, and at run
//! time the recorded locations hold the values llc-19's do.

use crate::support;

use std::path::Path;

use patchmap::compile::Options;
use patchmap::stackmap::{object_file, LocationKind, StackMap};
use support::checker::{self, check_truth, compare_executions, normalized};
use support::Arch;

fn models(object: &[u8]) -> StackMap {
    let (mut maps, _) = object_file::read_models(object).expect("a readable stack map section");
    assert_eq!(maps.len(), 1, "one blob per object");
    maps.remove(0)
}

fn ours(ll: &Path, arch: Arch) -> Vec<u8> {
    let module = patchmap::ir::parse_file(ll).unwrap_or_else(|e| panic!("{e}"));
    let options = Options::new(Some(arch.triple()), "speed", 3).unwrap();
    patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{}: {e}", ll.display()))
}

/// A location's kind, size and small constant: what must agree with llc-19 whatever registers and
/// slots each compiler picks.
type Shape = (LocationKind, u16, Option<i32>);

/// Each record's ID and its locations' shapes.
fn shapes(map: &StackMap) -> Vec<(u64, Vec<Shape>)> {
    map.records
        .iter()
        .map(|r| {
            let locations = r
                .locations
                .iter()
                .map(|l| (l.kind, l.size, matches!(l.kind, LocationKind::Constant).then_some(l.offset)))
                .collect();
            (r.id, locations)
        })
        .collect()
}

/// The clobbers naming every general register `arch` allocates, as LLVM's tests write them.
fn every_general_register(arch: Arch) -> String {
    let names: Vec<String> = match arch {
        Arch::X86_64 => {
            ["rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]
                .iter()
                .map(|r| format!("~{{{r}}}"))
                .collect()
        }
        Arch::Aarch64 => (0..=28).map(|n| format!("~{{x{n}}}")).collect(),
    };
    names.join(",") + ",~{memory}"
}

#[test]
fn sm_example_records_agree_with_llc19_in_kinds_sizes_and_constants() {
    let Some(reference) = support::reference_dir() else { return };
    for (arch, name) in [(Arch::X86_64, "x86_64"), (Arch::Aarch64, "aarch64")] {
        let ll = reference.join(format!("llc19/sm_example_{name}.ll"));
        let llc = std::fs::read(reference.join(format!("llc19/sm_example_{name}.o"))).unwrap();
        let (ours, llc) = (models(&ours(&ll, arch)), models(&llc));
        assert_eq!(shapes(&ours), shapes(&llc), "{name}");
        // %b, live across the asm that clobbers every general register, is spilled.
        assert_eq!(ours.records[0].locations[2].kind, LocationKind::Indirect, "{name}");
    }
}

#[test]
fn values_live_across_clobbers_are_spilled_around_them_and_read_back_at_run_time() {
    let Some(llc) = support::tool("llc-19") else { return };
    let template = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stackmaps/clobber_asm/live_across.ll"),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    for arch in Arch::ALL {
        let Some(tc) = support::toolchain(arch) else { continue };
        let ll = dir.path().join(format!("live_across_{arch:?}.ll"));
        std::fs::write(&ll, template.replace("CLOBBERS", &every_general_register(arch))).unwrap();
        let object = ours(&ll, arch);
        let reference = support::llc_object(&llc, &ll, arch, "2", dir.path()).unwrap();
        // Both compilers spill the values around the asm; each may reload some of them, for the
        // stack map (their last use), into registers the asm freed (llc-19 on AArch64 does for two
        // of them): a location is then a register holding the value all the same.
        let map = models(&object);
        for l in map.records[0].locations.iter().chain(&models(&reference).records[0].locations) {
            assert!(matches!(l.kind, LocationKind::Indirect | LocationKind::Register), "{arch:?}: {l:?}");
        }
        // Without the register clobbers, the values stay in callee-saved registers and need no slots.
        let kept = dir.path().join(format!("kept_{arch:?}.ll"));
        std::fs::write(&kept, template.replace("CLOBBERS", "~{memory}")).unwrap();
        let kept = models(&ours(&kept, arch));
        assert!(kept.records[0].locations.iter().all(|l| l.kind == LocationKind::Register), "{arch:?}");
        assert!(
            map.functions[0].stack_size > kept.functions[0].stack_size,
            "{arch:?}: values spilled around the asm: frame of {} bytes, {} without the clobbers",
            map.functions[0].stack_size,
            kept.functions[0].stack_size
        );

        let types = checker::live_types(&patchmap::ir::parse_file(&ll).unwrap()).unwrap();
        let mut values = Vec::new();
        for (who, object) in [("patchmap", &object), ("llc", &reference)] {
            let exe = checker::build_checked(object, &tc, dir.path(), &format!("live_across-{arch:?}-{who}")).unwrap();
            let (outcome, report) = checker::run_checked_report(&exe, &tc).unwrap();
            check_truth(&report, &outcome.stdout).unwrap_or_else(|e| panic!("{arch:?} {who}: {e}"));
            assert_eq!(report.hits.len(), 1, "{arch:?} {who}: one record execution");
            values.push((outcome, normalized(&report, &types).unwrap()));
        }
        assert_eq!(values[0].0, values[1].0, "{arch:?}: ran differently");
        compare_executions(&values[0].1, &values[1].1).unwrap_or_else(|e| panic!("{arch:?}: {e}"));
    }
}

/// A function whose two asms have the templates `FIRST` and `SECOND`, with a stack map before them.
const NOPS: &str = "define i64 @f(i64 %a) {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i64 %a)
  call void asm sideeffect \"FIRST\", \"~{memory}\"()
  call void asm sideeffect \"SECOND\", \"\"()
  ret i64 %a
}
declare void @llvm.experimental.stackmap(i64, i32, ...)
";

/// The code of `@f` in `object`.
fn code_of_f(object: &[u8]) -> Vec<u8> {
    use object::{Object, ObjectSection, ObjectSymbol};
    let file = object::File::parse(object).unwrap();
    let f = file.symbols().find(|s| s.name() == Ok("f")).expect("@f's symbol");
    let section = file.section_by_index(f.section_index().unwrap()).unwrap();
    let start = (f.address() - section.address()) as usize;
    section.data().unwrap()[start..start + f.size() as usize].to_vec()
}

/// Inline asm whose template is `nop`s (in any case, with blanks, separated by `;` or newlines) is
/// that many of the target's `nop` instruction, one piece each, and makes no record; any other
/// template is refused where it is written.
#[test]
fn nop_templates_are_that_many_nops_and_no_record() {
    for arch in Arch::ALL {
        let build = |first: &str, second: &str| {
            let text = NOPS.replace("FIRST", first).replace("SECOND", second);
            let module = patchmap::ir::parse("nops.ll", &text).unwrap_or_else(|e| panic!("{e}"));
            let options = Options::new(Some(arch.triple()), "speed", 3).unwrap();
            patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"))
        };
        let (empty, nops) = (build("", ""), build("nop", " NOP ;nop\\0A\\09nop"));
        let nop = arch.nop_instruction();
        let (without, with) = (code_of_f(&empty), code_of_f(&nops));
        assert_eq!(with.len(), without.len() + 4 * nop.len(), "{arch:?}: four nops");
        assert!(with.windows(3 * nop.len()).any(|w| w.chunks(nop.len()).all(|i| i == nop)), "{arch:?}: {with:02x?}");
        let map = models(&nops);
        assert_eq!(map.records.len(), 1, "{arch:?}: the stack map's record only");
        assert_eq!(map.records[0].id, 1);
    }
    // Printed as that many `nop`s, which read back the same.
    let mut module = patchmap::ir::parse("nops.ll", &NOPS.replace("FIRST", "nop;;Nop").replace("SECOND", "")).unwrap();
    let printed = module.to_string();
    assert!(printed.contains("call void asm sideeffect \"nop\\0Anop\", \"~{memory}\"()"), "{printed}");
    let mut again = patchmap::ir::parse("printed.ll", &printed).unwrap();
    module.clear_spans();
    again.clear_spans();
    again.file = module.file.clone();
    assert_eq!(module, again);
    for template in ["nop; ret", "nopw", "mov %rax, %rbx", "nop $0"] {
        let text = NOPS.replace("FIRST", template).replace("SECOND", "");
        let e = patchmap::ir::parse("nops.ll", &text).unwrap_err().to_string();
        assert!(
            e.starts_with("nops.ll:3:28: error: unsupported inline asm: only a template that is empty or only"),
            "{e}"
        );
    }
}
