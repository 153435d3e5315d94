//! LLVM's promise, kept: a stack map of values that are live at its point anyway, with a zero-byte
//! shadow, costs no machine code. Each function below is compiled at `-O speed` for x86-64 and
//! AArch64 with and without its `llvm.experimental.stackmap` calls; the code must be the same size
//! (no spill, no move, no nop; in a leaf that otherwise needs no stack, only the frame a stack map
//! needs, as in LLVM), and the records must name registers for the values that sit in registers,
//! floats included.

use object::{Object, ObjectSection, ObjectSymbol};
use patchmap::compile::Options;
use patchmap::stackmap::{object_file, LocationKind};

/// Every recorded value is used after its point, and not folded into another instruction there (a
/// load or an `add` of a constant with a single use would be). Loops carry integers, doubles and
/// floats in registers; one map follows a call (values that survive it sit in callee-saved
/// registers anyway); one leaf function needs no stack but the frame its stack map brings.
const PROGRAM: &str = r#"
declare void @llvm.experimental.stackmap(i64, i32, ...)
declare i64 @step(i64)
declare i64 @sink4(i64, i64, i64, i64)

define i64 @mixed_loop(i64 %n, double %d, float %f, ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi double [ %d, %entry ], [ %acc1, %loop ]
  %facc = phi float [ %f, %entry ], [ %facc1, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s1, %loop ]
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i64 %i, double %acc, float %facc, i64 %s, i64 %n, ptr %p)
  %acc1 = fadd double %acc, 1.500000e+00
  %facc1 = fmul float %facc, 5.000000e-01
  %s1 = add i64 %s, %i
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %a = fptosi double %acc1 to i64
  %b = fptosi float %facc1 to i64
  store i64 %s1, ptr %p
  %r = add i64 %a, %b
  ret i64 %r
}

define i64 @after_call(i64 %x, i64 %y) {
entry:
  %a = mul i64 %x, %y
  %c = call i64 @step(i64 %a)
  %b = add i64 %x, 7
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 0, i64 %a, i64 %b, i64 %c, i64 %x)
  %r = call i64 @sink4(i64 %a, i64 %b, i64 %c, i64 %x)
  ret i64 %r
}

define double @leaf(double %x, double %y, ptr %p, i32 %k) {
entry:
  %l = load double, ptr %p
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 3, i32 0, double %x, double %y, double %l, i32 %k, ptr %p)
  %kd = sitofp i32 %k to double
  %q = fmul double %l, %kd
  %r = fsub double %q, %x
  %s = fdiv double %r, %y
  %t = fadd double %s, %l
  store double %t, ptr %p
  ret double %x
}
"#;

/// Each function's symbol and size in an object.
fn function_sizes(object: &[u8]) -> Vec<(String, u64)> {
    let file = object::File::parse(object).expect("an object");
    let mut sizes: Vec<(String, u64)> = file
        .symbols()
        .filter(|s| s.kind() == object::SymbolKind::Text && s.size() > 0)
        .map(|s| (s.name().unwrap().to_string(), s.size()))
        .collect();
    sizes.sort();
    assert_eq!(sizes.len(), 3, "three functions in {sizes:?}");
    let text: u64 = file.sections().filter(|s| s.name() == Ok(".text")).map(|s| s.size()).sum();
    assert!(text > 0);
    sizes
}

/// Whether function `name` of `object` starts without the frame setup (`push %rbp`, `stp x29, x30`).
fn frameless(object: &[u8], name: &str, target: &str) -> bool {
    let file = object::File::parse(object).expect("an object");
    let symbol = file.symbols().find(|s| s.name() == Ok(name)).expect("the function's symbol");
    let section = file.section_by_index(symbol.section_index().unwrap()).unwrap();
    let data = section.data().unwrap();
    let code = &data[(symbol.address() - section.address()) as usize..];
    match target {
        "x86_64" => code[0] != 0x55,
        _ => u32::from_le_bytes(code[..4].try_into().unwrap()) & 0xffc0_7fff != 0xa980_7bfd,
    }
}

fn compile(text: &str, target: &str) -> Vec<u8> {
    let module = patchmap::ir::parse("zero_cost.ll", text).unwrap_or_else(|e| panic!("{e}"));
    patchmap::emit::object::compile(&module, &Options::new(Some(target), "speed", 3).unwrap())
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn zero_shadow_stack_maps_of_live_values_cost_no_code() {
    let without: String = PROGRAM
        .lines()
        .filter(|l| !l.contains("call void (i64, i32, ...) @llvm.experimental.stackmap("))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(PROGRAM.lines().count() - without.lines().count(), 3);
    for target in ["x86_64", "aarch64"] {
        let with_maps = compile(PROGRAM, target);
        let plain = compile(&without, target);
        let (with_sizes, plain_sizes) = (function_sizes(&with_maps), function_sizes(&plain));
        for ((name, with), (_, without)) in with_sizes.iter().zip(&plain_sizes) {
            // A stack map needs a frame (its locations are FP-relative; llc-19 too forces one with a
            // stack map): a function that runs without one when it has none (a leaf that needs no
            // stack) may grow by the frame's setup and teardown (x86-64 `push %rbp; mov %rsp, %rbp;
            // ... mov %rbp, %rsp; pop %rbp`, AArch64 `stp x29, x30; mov x29, sp; ... ldp`). The
            // allocator's heuristics may pick other registers once a value has one more use, which
            // saves a move in `leaf` on x86-64. Never a byte more.
            let frame = if frameless(&plain, name, target) {
                if target == "x86_64" {
                    8
                } else {
                    12
                }
            } else {
                0
            };
            // A function's constants follow its code, aligned to 16 bytes on x86-64 (`mixed_loop`'s
            // pool): the frame's bytes may move the pool to the next 16-byte boundary.
            let pool_padding = if target == "x86_64" && frame > 0 && with % 16 == 0 { 15 } else { 0 };
            if name == "leaf" || frame > 0 {
                assert!(
                    *with <= without + frame + pool_padding,
                    "{target}: {name} grew from {without} to {with} bytes with its stack map (its frame: {frame})"
                );
            } else {
                assert_eq!(with, without, "{target}: {name} changed size with its stack map");
            }
        }
        let (maps, _) = object_file::read_models(&with_maps).expect("a stack map section");
        let records: Vec<_> = maps.iter().flat_map(|m| &m.records).collect();
        assert_eq!(records.iter().map(|r| r.id).collect::<Vec<_>>(), [1, 2, 3], "{target}");
        // In the loop and the leaf, nothing pushes a value to memory: every location is a register
        // (float registers for the doubles and the float).
        for record in [records[0], records[2]] {
            for location in &record.locations {
                assert_eq!(location.kind, LocationKind::Register, "{target}: record {}: {location:?}", record.id);
            }
        }
        let float_registers = match target {
            "x86_64" => 17..=32,
            _ => 64..=95,
        };
        for (record, index) in [(records[0], 1), (records[0], 2), (records[2], 0), (records[2], 1), (records[2], 2)] {
            let register = record.locations[index].dwarf_reg;
            assert!(
                float_registers.contains(&register),
                "{target}: record {} location {index} is register {register}, not a float register",
                record.id
            );
        }
    }
}
