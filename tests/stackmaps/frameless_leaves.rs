//! Leaf functions without a frame (issue 28, item 3; Cranelift patch 0010 on x86-64, Cranelift's own
//! rule on AArch64): a leaf that needs no stack and has no record runs without `push %rbp` (`stp x29,
//! x30`), while a leaf with a stack map and any function that calls keep their frame, which the
//! records' FP-relative locations and frame walks rely on. The frame table says which have a frame,
//! a frameless function's stack size is 0, and its `.eh_frame` row is the CIE's (CFA = RSP + 8).

use crate::support;

use std::process::Command;

use patchmap::compile::Options;
use patchmap::stackmap::Version;
use support::Arch;

const MODULE: &str = r#"
declare void @llvm.experimental.stackmap(i64, i32, ...)

define i64 @leaf(i64 %a, i64 %b) {
  %s = add i64 %a, %b
  ret i64 %s
}

define i64 @leaf_with_map(i64 %a) {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i64 %a)
  ret i64 %a
}

define i64 @caller(i64 %a) {
  %r = call i64 @leaf(i64 %a, i64 1)
  %s = add i64 %r, 2
  ret i64 %s
}
"#;

fn compile(arch: Arch) -> (Vec<u8>, patchmap::stackmap::StackMap) {
    let module = patchmap::ir::parse("frameless.ll", MODULE).unwrap_or_else(|e| panic!("{e}"));
    let options = Options::new(Some(arch.triple()), "speed", 3).unwrap().with_stackmap_version(Version::FrameTable);
    patchmap::emit::object::compile_with_stack_map(&module, &options).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn only_leaves_without_records_lose_their_frame() {
    for arch in Arch::ALL {
        let (_, map) = compile(arch);
        // The frame table lists every function, in module order.
        let frames: Vec<(bool, u32, u64)> = map
            .functions
            .iter()
            .map(|f| {
                let frame = f.frame.as_ref().expect("the frame table has every function's frame");
                (frame.has_frame, frame.function_size, f.stack_size)
            })
            .collect();
        assert_eq!(frames.len(), 3, "{arch:?}: {frames:?}");
        // `leaf` is its add and its return: `lea; ret` (5 bytes) or `add; ret` (8 bytes).
        let leaf_size = if arch == Arch::X86_64 { 5 } else { 8 };
        assert_eq!(frames[0], (false, leaf_size, 0), "{arch:?}: leaf");
        assert!(frames[1].0 && frames[1].2 > 0, "{arch:?}: leaf_with_map {:?}", frames[1]);
        assert!(frames[2].0 && frames[2].2 > 0, "{arch:?}: caller {:?}", frames[2]);
        // The stack map's function is the one with the frame.
        let with_records: Vec<usize> =
            map.functions.iter().enumerate().filter(|(_, f)| f.record_count > 0).map(|(i, _)| i).collect();
        assert_eq!(with_records, [1], "{arch:?}");
    }
}

/// `.eh_frame` as llvm-dwarfdump-19 reads it: the frameless leaf's rows are the CIE's alone, the
/// framed functions' move the CFA to RBP.
#[test]
fn a_frameless_leaf_unwinds_from_the_stack_pointer() {
    let Some(dwarfdump) = support::tool("llvm-dwarfdump-19") else { return };
    let (object, _) = compile(Arch::X86_64);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("frameless.o");
    std::fs::write(&path, object).unwrap();
    let (code, out, err) = support::run(Command::new(dwarfdump).arg("--eh-frame").arg(&path));
    assert_eq!(code, 0, "{err}");
    // Each FDE's block ends with its table rows (lines starting `0x`).
    let fdes: Vec<(&str, Vec<&str>)> = out
        .split("\n\n")
        .collect::<Vec<_>>()
        .windows(2)
        .filter_map(|w| {
            let header = w[0].lines().find(|l| l.contains(" FDE "))?;
            let rows = w[1].lines().map(str::trim).filter(|l| l.starts_with("0x")).collect();
            Some((header, rows))
        })
        .collect();
    assert_eq!(fdes.len(), 3, "{out}");
    assert!(fdes[0].0.ends_with("pc=00000000...00000005"), "{out}");
    assert_eq!(fdes[0].1, ["0x0: CFA=RSP+8: RIP=[CFA-8]"], "{out}");
    for (header, rows) in &fdes[1..] {
        assert!(rows.iter().any(|r| r.contains("CFA=RBP+16")), "{header}: {rows:?}\n{out}");
    }
}
