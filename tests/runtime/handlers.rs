//! `patchmap::handlers` (issue 24, item 4): a handler generated from each record, JIT-compiled and
//! called from the record's patched site, sees the values the interpreter computes at that point and
//! gives back every register, natively on x86-64 at both optimisation levels: a kernel with values
//! in caller- and callee-saved registers, spill slots, constants of both kinds, a frame object and a
//! C call, and generated programs whose every stack map becomes a patch point. Two broken variants
//! (a handler that keeps only C's callee-saved registers; stack offsets off by 8) must be caught, and a
//! stack map whose shadow holds code is refused.

use crate::generator;
use crate::support;

use std::cell::RefCell;
use std::ffi::c_void;

use patchmap::arch::{Arch, RegisterUse};
use patchmap::compile::Options;
use patchmap::emit::jit::JitCode;
use patchmap::handlers::{HandlerError, HandlerPlan, Handlers, ValueSource};
use patchmap::interp::Interpreter;
use patchmap::ir::builder::ModuleBuilder;
use patchmap::ir::{Inst, Module, Type, Value};
use patchmap::stackmap::{Endian, StackMapView};

use std::path::Path;
use support::Toolchain;

/// One logged point: (record index or ID, values).
type Point = (u64, Vec<u64>);

/// What the handlers reported, in order.
type Log = RefCell<Vec<Point>>;

/// A change to plans (a broken variant), which says whether it changed anything.
type Variant = fn(&mut HandlerPlan) -> bool;

unsafe extern "C" fn sink(context: *mut c_void, record: u64, values: *const u64, count: u64) {
    // SAFETY: the tests pass a live `Log` as the context, and the handler `count` values.
    let log = unsafe { &*(context as *const Log) };
    let values =
        if count == 0 { Vec::new() } else { unsafe { std::slice::from_raw_parts(values, count as usize) }.to_vec() };
    log.borrow_mut().push((record, values));
}

thread_local! {
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

extern "C" fn capture_putchar(c: i32) -> i32 {
    OUTPUT.with(|o| o.borrow_mut().push(c as u8));
    c
}

/// The kernel: a loop with an `anyregcc` patch point (nothing clobbered: its values stay in any
/// register) recording an i64, a double, an i32, an i8, a float, a pointer argument, a frame
/// object, a small and a large constant, and the sum of a C call's results, with enough values
/// live across the call that some are spilled. A counter in memory, which no handler can clobber,
/// ends the loop after 1000 iterations in all, whatever a broken handler did to `%i` or `%n`.
const KERNEL: &str = "declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
declare i64 @llabs(i64)
@guard = global i64 0

define i64 @kernel(i64 %n, ptr %weights) {
entry:
  %cell = alloca i64, align 8
  store i64 5, ptr %cell
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i64 [ 7, %entry ], [ %acc1, %loop ]
  %x = phi double [ 1.0, %entry ], [ %x1, %loop ]
  %small = phi i32 [ -3, %entry ], [ %small1, %loop ]
  %b = phi i8 [ 100, %entry ], [ %b1, %loop ]
  %f = phi float [ 2.5, %entry ], [ %f1, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s1, %loop ]
  %slot = and i64 %i, 7
  %wp = getelementptr inbounds i64, ptr %weights, i64 %slot
  %w = load i64, ptr %wp
  %a1 = mul i64 %acc, 3
  %a2 = xor i64 %acc, %w
  %a3 = add i64 %w, 11
  %a4 = sub i64 %acc, %i
  %a5 = shl i64 %w, 2
  %a6 = mul i64 %a2, %a3
  %a7 = or i64 %a5, %acc
  %a8 = sub i64 %a6, %w
  %a9 = xor i64 %a7, %i
  %a10 = add i64 %a8, %a1
  %a11 = mul i64 %a9, 5
  %a12 = and i64 %a10, %a2
  %c = call i64 @llabs(i64 %a4)
  call anyregcc void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 1, i32 16, ptr null, i32 0, i64 %i, i64 %acc, double %x, i32 %small, i8 %b, float %f, ptr %weights, ptr %cell, i64 -9, i64 1099511627776, i64 %c, i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11, i64 %a12, i64 %s)
  %t1 = add i64 %a1, %a2
  %t2 = add i64 %a3, %a4
  %t3 = add i64 %a5, %a6
  %t4 = add i64 %t1, %t2
  %t5 = add i64 %t3, %t4
  %t6 = add i64 %t5, %c
  %u1 = xor i64 %a7, %a8
  %u2 = xor i64 %a9, %a10
  %u3 = xor i64 %a11, %a12
  %u4 = add i64 %u1, %u2
  %u5 = add i64 %u4, %u3
  %t7 = add i64 %t6, %u5
  %acc1 = xor i64 %t7, %s
  %s1 = add i64 %s, %acc1
  %x1 = fmul double %x, 1.25
  %small1 = add i32 %small, 5
  %b1 = mul i8 %b, 3
  %f1 = fadd float %f, 0.5
  %i1 = add i64 %i, 1
  %g = load volatile i64, ptr @guard
  %g1 = add i64 %g, 1
  store volatile i64 %g1, ptr @guard
  %runaway = icmp ugt i64 %g1, 1000
  %done = icmp eq i64 %i1, %n
  %stop = or i1 %done, %runaway
  br i1 %stop, label %exit, label %loop
exit:
  %xi = fptosi double %x1 to i64
  %fi = fptosi float %f1 to i64
  %bw = sext i8 %b1 to i64
  %sw = sext i32 %small1 to i64
  %r1 = add i64 %acc1, %xi
  %r2 = add i64 %r1, %fi
  %r3 = add i64 %r2, %bw
  %r4 = add i64 %r3, %sw
  %r5 = add i64 %r4, %s1
  ret i64 %r5
}
";

/// Per record ID, each recorded operand's width in bits, or `None` for a value the interpreter
/// and compiled code cannot agree on (a frame object's address, undef; any pointer unless
/// `pointers`).
fn recorded_widths(module: &Module, pointers: bool) -> Vec<(u64, Vec<Option<u8>>)> {
    let mut out = Vec::new();
    for (k, f) in module.functions.iter().enumerate() {
        let func = patchmap::ir::FuncId(k as u32);
        for block in &f.blocks {
            for &inst in &block.insts {
                let Inst::Call { args, .. } = &f.inst(inst).kind else { continue };
                let Some(operands) = patchmap::interp::stack_map_operands(module, func, inst) else { continue };
                let Some(Value::Const(patchmap::ir::Const::Int(id))) = args.first().map(|a| &a.value) else { continue };
                let widths = operands
                    .iter()
                    .map(|o| {
                        let alloca = matches!(o.value, Value::Inst(i) if matches!(f.inst(i).kind, Inst::Alloca { .. }));
                        let pointer = matches!(o.ty, Type::Ptr(_)) && !pointers;
                        if alloca || pointer || matches!(o.value, Value::Const(patchmap::ir::Const::Undef)) {
                            return None;
                        }
                        Some(match o.ty {
                            Type::Int(bits) => bits,
                            Type::Float => 32,
                            _ => 64,
                        })
                    })
                    .collect();
                out.push((*id as u64, widths));
            }
        }
    }
    out
}

/// The interpreter's run of `function(args)`: its result, output and the values of every point.
fn interpret(module: &Module, function: &str, args: &[u64]) -> (u64, Vec<u8>, Vec<Point>) {
    let mut points = Vec::new();
    let mut output = Vec::new();
    let result = {
        let mut interp = Interpreter::new(module);
        interp.output_to(&mut output).on_stack_map(|id, values| points.push((id, values.to_vec())));
        let f = module.function_by_name(function).expect("the function");
        // SAFETY: the programs are free of undefined behaviour.
        unsafe { interp.call(f, args) }.unwrap_or_else(|e| panic!("{e}")).unwrap_or(0)
    };
    (result, output, points)
}

/// Compares the handlers' log (record indices) with the interpreter's (IDs); `Err` says where
/// they first differ.
fn compare(jit: &JitCode, module: &Module, logged: &[Point], expected: &[Point]) -> Result<(), String> {
    compare_with(&jit.stack_map().expect("a section"), module, true, logged, expected)
}

/// [`compare`] against `map`; `pointers`: whether pointer values are the interpreter's too (in the
/// same process, not under qemu).
fn compare_with(
    map: &StackMapView<'_>,
    module: &Module,
    pointers: bool,
    logged: &[Point],
    expected: &[Point],
) -> Result<(), String> {
    let widths = recorded_widths(module, pointers);
    if logged.len() != expected.len() {
        return Err(format!("{} handler calls, {} points interpreted", logged.len(), expected.len()));
    }
    for (k, ((record, got), (id, want))) in logged.iter().zip(expected).enumerate() {
        let got_id = map.record(*record as usize).expect("a record").id();
        if got_id != *id {
            return Err(format!("call {k}: record ID {got_id}, the interpreter reached ID {id}"));
        }
        let widths = &widths.iter().find(|w| w.0 == *id).expect("the point's operands").1;
        if got.len() != want.len() || got.len() != widths.len() {
            return Err(format!("call {k} (ID {id}): {} values, expected {}", got.len(), want.len()));
        }
        for (i, ((g, w), width)) in got.iter().zip(want).zip(widths).enumerate() {
            let Some(bits) = width else { continue };
            let mask = if *bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
            if g & mask != w & mask {
                return Err(format!("call {k} (ID {id}), value {i}: handler {g:#x}, interpreter {w:#x}"));
            }
        }
    }
    Ok(())
}

fn options(opt: &str) -> Options {
    Options::new(None, opt, 1).unwrap()
}

/// Patches every site of `jit` with `handlers`.
fn patch_all(jit: &JitCode, handlers: &Handlers) {
    for site in jit.sites() {
        // SAFETY: the code is not running.
        unsafe { handlers.patch(site.record) }.unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn kernel_handlers_see_the_interpreters_values_and_clobber_nothing() {
    if !support::host_has(Arch::host() == Some(Arch::X86_64), "x86-64 JIT") {
        return;
    }
    let module = patchmap::ir::parse("kernel.ll", KERNEL).unwrap_or_else(|e| panic!("{e}"));
    let weights: Vec<i64> = (0..8).map(|k| k * 1_000_003 - 4_000_000).collect();
    let args = [40u64, weights.as_ptr() as u64];
    let (expected, _, points) = interpret(&module, "kernel", &args);
    assert_eq!(points.len(), 40);
    for opt in ["none", "speed"] {
        let jit = JitCode::compile(&module, &options(opt)).unwrap_or_else(|e| panic!("{e}"));
        // SAFETY: the kernel reads the 8 weights.
        let run = || unsafe { jit.call_i64("kernel", &[args[0] as i64, args[1] as i64]) }.unwrap() as u64;
        assert_eq!(run(), expected, "-O {opt}: unpatched");
        let map = jit.stack_map().unwrap();
        let kinds: Vec<_> = map.record(0).unwrap().locations().map(|l| l.kind).collect();
        assert!(kinds.contains(&patchmap::stackmap::LocationKind::Direct), "-O {opt}: {kinds:?}");
        assert!(kinds.contains(&patchmap::stackmap::LocationKind::ConstantIndex), "-O {opt}: {kinds:?}");

        let log = Log::default();
        let handlers = Handlers::compile(&jit, jit.sites(), sink, &log as *const Log as *mut c_void, &options(opt))
            .unwrap_or_else(|e| panic!("{e}"));
        patch_all(&jit, &handlers);
        assert_eq!(run(), expected, "-O {opt}: patched, the result changed");
        compare(&jit, &module, &log.borrow(), &points).unwrap_or_else(|e| panic!("-O {opt}: {e}"));
        // The frame object's address is on the kernel's stack, below the handler's caller's frame.
        let cell = log.borrow()[0].1[7];
        let near = &log as *const Log as u64;
        assert!(cell.abs_diff(near) < 1 << 20, "-O {opt}: %cell at {cell:#x}, the test's stack at {near:#x}");

        // Unpatched again: nothing more is logged, the result holds.
        log.borrow_mut().clear();
        for site in jit.sites() {
            // SAFETY: the code is not running.
            unsafe { handlers.unpatch(site.record) }.unwrap();
        }
        assert_eq!(run(), expected);
        assert!(log.borrow().is_empty());
    }
}

/// The broken variants: each changes the plans and says whether it changed anything.
const VARIANTS: [(&str, Variant); 3] = [
    ("unchanged", |_| true),
    // A handler treated as a C function: only C's callee-saved registers come back.
    ("c-convention", |plan| {
        let before = plan.preserved.len();
        let arch = plan.arch();
        plan.preserved.retain(|r| arch.callee_saved().contains(&r.dwarf));
        plan.preserved.len() != before
    }),
    // Spill slots read 8 bytes off (frame objects' addresses are not compared: the interpreter's
    // are its own).
    ("stack-off-by-8", |plan| {
        let mut changed = false;
        for v in &mut plan.values {
            if let ValueSource::Memory { offset, .. } = v {
                *offset += 8;
                changed = true;
            }
        }
        changed
    }),
];

/// The kernel run with handlers built from plans `variant` changed, built and patched in through
/// the public pieces (`HandlerPlan`, `JitCode`, `patch_code`): whether its result and log equal
/// the interpreter's.
fn variant_agrees(variant: &str, opt: &str) -> bool {
    let change = VARIANTS.iter().find(|v| v.0 == variant).expect("a variant").1;
    let module = patchmap::ir::parse("kernel.ll", KERNEL).unwrap();
    let weights: Vec<i64> = (0..8).map(|k| k * 1_000_003 - 4_000_000).collect();
    let args = [40u64, weights.as_ptr() as u64];
    let (expected, _, points) = interpret(&module, "kernel", &args);
    let jit = JitCode::compile(&module, &options(opt)).unwrap();
    let log = Log::default();
    let _handlers =
        patch_with_plans(&jit, opt, &log, |plan| assert!(change(plan), "-O {opt}: {variant} changed nothing"));
    // SAFETY: a broken handler may break the kernel: this runs in a child process.
    let result = unsafe { jit.call_i64("kernel", &[args[0] as i64, args[1] as i64]) }.unwrap() as u64;
    result == expected && compare(&jit, &module, &log.borrow(), &points).is_ok()
}

/// Builds a logging handler for every site of `jit` from its plan as `change` leaves it, through the
/// public pieces (`HandlerPlan`, `JitCode`, `patch_code`), and patches each in; the handlers' code.
fn patch_with_plans(jit: &JitCode, opt: &str, log: &Log, change: impl Fn(&mut HandlerPlan)) -> JitCode {
    let arch = Arch::X86_64;
    let map = jit.stack_map().unwrap();
    let mut builder = ModuleBuilder::new("variant.ll");
    let word = Type::I64;
    let sink_id = builder.declare("sink", Type::Void, &[word.clone(), word.clone(), Type::PTR, word], false);
    for site in jit.sites() {
        let mut plan = HandlerPlan::of_record(arch, &map, site.record).unwrap();
        change(&mut plan);
        plan.build_logging(&mut builder, &format!("handler{}", site.record), sink_id, log as *const Log as u64);
    }
    let handlers = JitCode::compile_with_symbols(&builder.finish(), &options(opt), &[("sink", sink as *const u8)])
        .unwrap_or_else(|e| panic!("{e}"));
    for site in jit.sites() {
        let handler = handlers.function(&format!("handler{}", site.record)).unwrap().address;
        let call = arch.encode_exit_call(handler as u64).unwrap();
        // SAFETY: the code is not running.
        unsafe { patchmap::runtime::patch_code(arch, site.address, site.len, &call) }.unwrap();
    }
    handlers
}

/// The stack and frame pointers a handler computes for the interrupted code (its records use the
/// frame pointer; llc-19's may use either) are those an exit stub captures at the same site.
#[test]
fn handlers_reach_the_interrupted_codes_stack_and_frame_pointers() {
    if !support::host_has(Arch::host() == Some(Arch::X86_64) && cfg!(target_os = "linux"), "x86-64 exit stubs") {
        return;
    }
    let arch = Arch::X86_64;
    let module = patchmap::ir::parse("kernel.ll", KERNEL).unwrap();
    let weights: Vec<i64> = (0..8).map(|k| k * 1_000_003 - 4_000_000).collect();
    let args = [40i64, weights.as_ptr() as i64];
    for opt in ["none", "speed"] {
        let jit = JitCode::compile(&module, &options(opt)).unwrap();
        let site = jit.sites()[0];
        let captured = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = captured.clone();
        let exits = patchmap::runtime::Exits::new(move |state, _| {
            let registers = state.registers();
            seen.lock()
                .unwrap()
                .push((registers.get(Arch::X86_64, arch.frame_pointer()).unwrap(), state.stack_pointer()));
            patchmap::runtime::Resume::Continue
        })
        .unwrap();
        // SAFETY: the code is not running.
        unsafe { exits.patch_call(site.address, site.len, 0) }.unwrap();
        // SAFETY: as in the kernel test.
        let through_exits = unsafe { jit.call_i64("kernel", &args) }.unwrap();

        let log = Log::default();
        let _handlers = patch_with_plans(&jit, opt, &log, |plan| {
            use patchmap::handlers::StackBase;
            plan.values = vec![
                ValueSource::Address { base: StackBase::Frame, offset: 0 },
                ValueSource::Address { base: StackBase::Stack, offset: 0 },
                ValueSource::Memory { base: StackBase::Stack, offset: -8, size: 8 },
            ];
        });
        // SAFETY: as above.
        let through_handlers = unsafe { jit.call_i64("kernel", &args) }.unwrap();
        assert_eq!(through_handlers, through_exits, "-O {opt}");
        let captured = captured.lock().unwrap();
        let log = log.borrow();
        assert_eq!(captured.len(), 40);
        assert_eq!(log.len(), 40);
        for (k, ((fp, sp), (_, values))) in captured.iter().zip(log.iter()).enumerate() {
            assert_eq!((values[0], values[1]), (*fp, *sp), "-O {opt}, iteration {k}: frame and stack pointers");
            // Below the interrupted code's stack pointer: the handler's return address, the end of
            // the call written at the site.
            assert_eq!(values[2], site.address as u64 + arch.exit_call_return_offset(), "-O {opt}, iteration {k}");
        }
    }
}

/// The child process of [`broken_handlers_are_caught`]: runs the variant that
/// `PATCHMAP_HANDLER_VARIANT` (`name:opt`) names and prints whether the kernel agreed.
#[test]
fn handler_variant_child() {
    let Ok(spec) = std::env::var("PATCHMAP_HANDLER_VARIANT") else { return };
    let (variant, opt) = spec.split_once(':').expect("name:opt");
    println!("handler variant: {}", if variant_agrees(variant, opt) { "agrees" } else { "differs" });
}

#[test]
fn broken_handlers_are_caught() {
    if !support::host_has(Arch::host() == Some(Arch::X86_64), "x86-64 JIT") {
        return;
    }
    for opt in ["none", "speed"] {
        for (variant, _) in VARIANTS {
            let mut child = std::process::Command::new(std::env::current_exe().unwrap());
            child
                .args(["handlers::handler_variant_child", "--exact", "--nocapture", "--test-threads=1"])
                .env("PATCHMAP_HANDLER_VARIANT", format!("{variant}:{opt}"));
            let outcome = support::run_with_deadline(&mut child, std::time::Duration::from_secs(30));
            let agrees = matches!(&outcome, Ok((Some(0), out)) if out.contains("handler variant: agrees"));
            // A broken handler shows as a different result or log, a crash or a hang.
            assert_eq!(agrees, variant == "unchanged", "-O {opt}, {variant}: {outcome:?}");
        }
    }
}

/// Every stack map of a generated program as an `anyregcc` patch point with a 16-byte region and
/// the same live values.
fn with_patch_points(program: &str) -> String {
    program
        .replace(
            "call void (i64, i32, ...) @llvm.experimental.stackmap(i64 ",
            "call anyregcc void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 ",
        )
        .lines()
        .map(|line| match line.find("@llvm.experimental.patchpoint.void(i64 ") {
            // `(i64 ID, i32 SHADOW` -> `(i64 ID, i32 16, ptr null, i32 0`
            Some(at) => {
                let args = &line[at + "@llvm.experimental.patchpoint.void(".len()..];
                let comma = args.find(", i32 ").unwrap();
                let rest = &args[comma + ", i32 ".len()..];
                let shadow_end = rest.find([',', ')']).unwrap();
                format!(
                    "{}@llvm.experimental.patchpoint.void({}, i32 16, ptr null, i32 0{}",
                    &line[..at],
                    &args[..comma],
                    &rest[shadow_end..]
                )
            }
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        .replace(
            "declare void @llvm.experimental.stackmap(i64, i32, ...)",
            "declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)",
        )
}

#[test]
fn generated_programs_with_a_handler_at_every_point_agree_with_the_interpreter() {
    if !support::host_has(Arch::host() == Some(Arch::X86_64), "x86-64 JIT") {
        return;
    }
    let config = generator::GeneratorConfig { stackmap_percent: 12, ..Default::default() };
    let mut points = 0;
    for seed in 0..24u64 {
        let text = with_patch_points(&generator::program_with(9_100 + seed, &config));
        let module = patchmap::ir::parse("generated.ll", &text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let (status, output, expected) = interpret(&module, "main", &[]);
        points += expected.len();
        for opt in ["none", "speed"] {
            let jit =
                JitCode::compile_with_symbols(&module, &options(opt), &[("putchar", capture_putchar as *const u8)])
                    .unwrap_or_else(|e| panic!("seed {seed} -O {opt}: {e}"));
            let log = Log::default();
            let handlers = Handlers::compile(&jit, jit.sites(), sink, &log as *const Log as *mut c_void, &options(opt))
                .unwrap_or_else(|e| panic!("seed {seed} -O {opt}: {e}"));
            patch_all(&jit, &handlers);
            OUTPUT.with(|o| o.borrow_mut().clear());
            // SAFETY: generated programs are free of undefined behaviour.
            let got = unsafe { jit.call_i64("main", &[]) }.unwrap() as u64;
            let printed = OUTPUT.with(|o| o.borrow().clone());
            assert_eq!((got & 0xff, &printed), (status & 0xff, &output), "seed {seed} -O {opt}: the program changed");
            compare(&jit, &module, &log.borrow(), &expected).unwrap_or_else(|e| panic!("seed {seed} -O {opt}: {e}"));
        }
    }
    assert!(points > 200, "only {points} points ran");
}

#[test]
fn sites_match_the_section_and_a_shadow_holding_code_is_refused() {
    if !support::host_has(Arch::host() == Some(Arch::X86_64), "x86-64 JIT") {
        return;
    }
    // Stack map 1's shadow is covered by the code after it; stack map 2's is padding (stack map 3
    // follows at once, and shadows never overlap); stack map 3 has none.
    let text = "declare void @llvm.experimental.stackmap(i64, i32, ...)
declare i64 @llabs(i64)
define i64 @f(i64 %a, i64 %b) {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 16, i64 %a)
  %x = mul i64 %a, %b
  %y = xor i64 %x, %b
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 16, i64 %y, i64 %b)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 3, i32 0, i64 %y, i64 %b)
  %c = call i64 @llabs(i64 %y)
  %r = add i64 %c, %b
  ret i64 %r
}
";
    let module = patchmap::ir::parse("shadows.ll", text).unwrap();
    let jit = JitCode::compile(&module, &options("speed")).unwrap();
    let map = jit.stack_map().unwrap();
    let f = jit.function("f").unwrap();
    assert_eq!(jit.sites().len(), 3);
    for (site, shadow) in jit.sites().iter().zip([16, 16, 0]) {
        let record = map.record(site.record).unwrap();
        assert_eq!(record.id(), site.id);
        assert_eq!(site.address as usize, f.address as usize + record.instruction_offset() as usize);
        assert_eq!((site.len, site.reserved), (shadow, false));
    }
    let log = Log::default();
    let handlers =
        Handlers::compile(&jit, jit.sites(), sink, &log as *const Log as *mut c_void, &options("speed")).unwrap();
    // SAFETY: the code is not running.
    let refused = unsafe { handlers.patch(0) }.unwrap_err();
    assert!(matches!(refused, HandlerError::ShadowHoldsCode { record: 0, .. }), "{refused}");
    // SAFETY: as above.
    unsafe { handlers.patch(1) }.unwrap_or_else(|e| panic!("{e}"));
    // SAFETY: `f` touches no memory.
    let r = unsafe { jit.call_i64("f", &[6, -4]) }.unwrap();
    let y = (6i64 * -4) ^ -4;
    assert_eq!(r, y.abs() - 4);
    assert_eq!(*log.borrow(), vec![(1, vec![y as u64, -4i64 as u64])]);
    // Patching again (another handler call there) is allowed; the record must exist.
    // SAFETY: as above.
    unsafe { handlers.patch(1) }.unwrap();
    assert!(matches!(unsafe { handlers.patch(5) }, Err(HandlerError::NoHandler(5))));
    // SAFETY: as above.
    let short = unsafe { handlers.patch(2) }.unwrap_err();
    assert!(matches!(short, HandlerError::SiteTooSmall { record: 2, len: 0, needed: 16, .. }), "{short}");
}

#[test]
fn plans_name_registers_the_call_leaves_alone() {
    // Every register a plan preserves may be named in `noclobber`; AArch64 keeps x16-x18 and lr out.
    for arch in Arch::ALL {
        for r in arch.registers() {
            let name = arch.register_name(r).unwrap();
            assert_eq!(arch.register_by_name(&name), Some(r), "{arch:?} {name}");
        }
        let kept: Vec<_> = arch
            .registers()
            .filter(|&r| {
                r.dwarf != arch.frame_pointer() && arch.register_restriction(r, RegisterUse::NoClobber).is_none()
            })
            .map(|r| arch.register_name(r).unwrap())
            .collect();
        match arch {
            Arch::X86_64 => assert_eq!(kept.len(), 14 + 16),
            Arch::Aarch64 => {
                assert_eq!(kept.len(), 31 - 5 + 32);
                assert!(!kept.iter().any(|n| ["x16", "x17", "x18", "x30", "x29"].contains(&n.as_str())));
            }
        }
    }
}

/// The `.llvm_stackmaps` section of an ELF file.
fn section_of(elf: &[u8]) -> &[u8] {
    use object::{Object, ObjectSection};
    let file = object::File::parse(elf).unwrap();
    let section = file.section_by_name(".llvm_stackmaps").expect("a stack map section");
    let range = section.file_range().expect("section bytes in the file");
    &elf[range.0 as usize..(range.0 + range.1) as usize]
}

/// `program` (an object of the toolchain's target: patchmap's or llc-19's), a handler per record
/// built from its section into a second object, both linked with `tests/handlers/driver.c`; the
/// test reads each site (function address plus record offset) and handler from the linked
/// executable and hands the driver the library's call sequences to write there. Returns (stdout
/// and status, the handlers' log), or how the run ended otherwise. `variant` changes the plans
/// (see [`VARIANTS`]).
fn run_linked(
    toolchain: &Toolchain,
    dir: &Path,
    program: &[u8],
    mode: &str,
    variant: Variant,
) -> Result<(String, Vec<Point>), String> {
    let arch = toolchain.arch;
    let options = Options::new(Some(arch.triple()), "speed", 3).unwrap();
    let map = StackMapView::parse(section_of(program), Endian::Little).unwrap();
    let mut builder = ModuleBuilder::new("handlers.ll");
    builder.triple(arch.triple());
    let word = Type::I64;
    let sink_id = builder.declare("sink", Type::Void, &[word.clone(), word.clone(), Type::PTR, word], false);
    for record in 0..map.num_records() as usize {
        let mut plan = HandlerPlan::of_record(arch, &map, record).unwrap_or_else(|e| panic!("{e}"));
        if !variant(&mut plan) {
            return Err("the variant changes nothing here".to_string());
        }
        plan.build_logging(&mut builder, &format!("handler_{record}"), sink_id, 0);
    }
    let handlers = patchmap::emit::object::compile(&builder.finish(), &options).unwrap_or_else(|e| panic!("{e}"));
    let (program_o, handlers_o, exe) = (dir.join("program.o"), dir.join("handlers.o"), dir.join("traced"));
    std::fs::write(&program_o, program).unwrap();
    std::fs::write(&handlers_o, &handlers).unwrap();
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/handlers/driver.c");
    let mut link = std::process::Command::new(&toolchain.linker);
    link.arg(&driver).arg(&program_o).arg(&handlers_o).arg("-static").arg("-lm").arg("-o").arg(&exe);
    let (code, _, err) = support::run(&mut link);
    assert_eq!(code, 0, "linking failed: {err}");

    // The sites and handlers, as linked.
    use object::{Object, ObjectSection, ObjectSymbol};
    let elf = std::fs::read(&exe).unwrap();
    let file = object::File::parse(&*elf).unwrap();
    let linked = StackMapView::parse(section_of(&elf), Endian::Little).unwrap();
    let text = file.section_by_name(".text").unwrap();
    let code_at = |address: u64, len: u64| text.data_range(address, len).unwrap().unwrap();
    let mut patches = String::new();
    for function in 0..linked.num_functions() as usize {
        let start = linked.function(function).unwrap().address;
        for (record, view) in linked.record_range(function).unwrap().zip(linked.records_of(function).unwrap()) {
            let site = start + u64::from(view.instruction_offset());
            let handler = file.symbols().find(|s| s.name() == Ok(&format!("handler_{record}"))).unwrap().address();
            let call = arch.encode_exit_call(handler).unwrap();
            // Every record is a patch point with a 16-byte region of nops.
            assert!(arch.is_padding(code_at(site, 16)), "record {record}: the region at {site:#x} is not nops");
            let hex: String = call.iter().map(|b| format!("{b:02x}")).collect();
            patches.push_str(&format!("{site:x} {} {hex}\n", call.len()));
        }
    }
    let (patch_file, log_file) = (dir.join("patches"), dir.join("log"));
    std::fs::write(&patch_file, patches).unwrap();
    let mut run = toolchain.command(&exe);
    run.arg(&patch_file).arg(&log_file).arg(mode);
    let (status, stdout) = support::run_with_deadline(&mut run, std::time::Duration::from_secs(60))?;
    let Some(status) = status else { return Err(format!("killed by a signal after {stdout:?}")) };
    let log = std::fs::read_to_string(&log_file).unwrap_or_default();
    let log = log
        .lines()
        .map(|line| {
            let mut words = line.split(' ');
            let record = words.next().unwrap().parse().unwrap();
            (record, words.map(|w| u64::from_str_radix(w, 16).unwrap()).collect())
        })
        .collect();
    Ok((format!("{stdout}status {status}\n"), log))
}

#[test]
fn aarch64_handlers_see_the_interpreters_values_under_qemu() {
    let Some(toolchain) = support::toolchain(Arch::Aarch64) else { return };
    let dir = tempfile::tempdir().unwrap();
    let kernel = patchmap::ir::parse("kernel.ll", KERNEL).unwrap();
    let weights: Vec<i64> = (0..8).map(|k| k * 1_000_003 - 4_000_000).collect();
    let (expected, _, points) = interpret(&kernel, "kernel", &[40, weights.as_ptr() as u64]);
    let config = generator::GeneratorConfig { stackmap_percent: 12, ..Default::default() };
    for opt in ["none", "speed"] {
        let options = Options::new(Some("aarch64-unknown-linux-gnu"), opt, 3).unwrap();
        let object = patchmap::emit::object::compile(&kernel, &options).unwrap();
        let map = StackMapView::parse(section_of(&object), Endian::Little).unwrap();
        let want = format!("result {}\nstatus 0\n", expected as i64);
        for (variant, change) in VARIANTS {
            let agrees = match run_linked(&toolchain, dir.path(), &object, "kernel", change) {
                Ok((stdout, log)) => stdout == want && compare_with(&map, &kernel, false, &log, &points).is_ok(),
                // At -O speed every value is in a register at the point: nothing is read off the stack.
                Err(e) if e.contains("changes nothing") && opt == "speed" && variant == "stack-off-by-8" => continue,
                Err(_) => false,
            };
            // The unchanged plans agree; each broken variant shows (result, log, crash or hang).
            assert_eq!(agrees, variant == "unchanged", "kernel -O {opt}, {variant}");
        }
        let (_, log) = run_linked(&toolchain, dir.path(), &object, "kernel", VARIANTS[0].1).unwrap();
        compare_with(&map, &kernel, false, &log, &points).unwrap_or_else(|e| panic!("kernel -O {opt}: {e}"));

        for seed in 0..6u64 {
            let text = with_patch_points(&generator::program_with(9_100 + seed, &config))
                .replace("define i32 @main()", "define i32 @program_main()");
            let module = patchmap::ir::parse("generated.ll", &text).unwrap();
            let (status, output, points) = interpret(&module, "program_main", &[]);
            let object = patchmap::emit::object::compile(&module, &options).unwrap();
            let (stdout, log) = run_linked(&toolchain, dir.path(), &object, "program", VARIANTS[0].1)
                .unwrap_or_else(|e| panic!("seed {seed} -O {opt}: {e}"));
            let want = format!("{}status {}\n", String::from_utf8(output).unwrap(), status & 0xff);
            assert_eq!(stdout, want, "seed {seed} -O {opt}");
            let map = StackMapView::parse(section_of(&object), Endian::Little).unwrap();
            compare_with(&map, &module, false, &log, &points).unwrap_or_else(|e| panic!("seed {seed} -O {opt}: {e}"));
        }
    }
}

/// Handlers built from llc-19's records of the kernel, on both targets (natively and under qemu),
/// see the interpreter's values too: the plans take any compiler's records. On AArch64 Linux, llc
/// allocates x18, which no handler can be handed (Cranelift keeps it as the platform register): the
/// plan refuses such a record, naming it, and code compiled with x18 reserved gets its handlers.
#[test]
fn handlers_from_llc19_records_see_the_interpreters_values() {
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("kernel.ll");
    std::fs::write(&ll, KERNEL).unwrap();
    let kernel = patchmap::ir::parse("kernel.ll", KERNEL).unwrap();
    let weights: Vec<i64> = (0..8).map(|k| k * 1_000_003 - 4_000_000).collect();
    let (expected, _, points) = interpret(&kernel, "kernel", &[40, weights.as_ptr() as u64]);
    // llc-19 -O0 runs out of registers for the anyregcc patch point's operands: -O2 only.
    let llc_object = |arch: Arch, extra: &[&str]| {
        let out = dir.path().join(format!("kernel.{}.{}.o", arch.name(), extra.len()));
        let mut cmd = std::process::Command::new(&llc);
        cmd.args(["-O2", "-filetype=obj", "-enable-patchpoint-liveness=false"])
            .arg(format!("-mtriple={}", arch.triple()))
            .args(extra)
            .arg(&ll)
            .arg("-o")
            .arg(&out);
        let (code, _, err) = support::run(&mut cmd);
        assert_eq!(code, 0, "{err}");
        std::fs::read(&out).unwrap()
    };
    for arch in Arch::ALL {
        let Some(toolchain) = support::toolchain(arch) else { return };
        let object = if arch == Arch::Aarch64 {
            let plain = llc_object(arch, &[]);
            let map = StackMapView::parse(section_of(&plain), Endian::Little).unwrap();
            let refused = (0..map.num_records() as usize).find_map(|r| HandlerPlan::of_record(arch, &map, r).err());
            let message = refused.map(|e| e.to_string()).unwrap_or_default();
            assert!(message.contains("R#18 cannot reach a handler: x18 is the platform register"), "{message:?}");
            llc_object(arch, &["-mattr=+reserve-x18"])
        } else {
            llc_object(arch, &[])
        };
        let map = StackMapView::parse(section_of(&object), Endian::Little).unwrap();
        let indirect = map
            .records()
            .flat_map(|r| r.locations().collect::<Vec<_>>())
            .filter(|l| l.kind == patchmap::stackmap::LocationKind::Indirect)
            .count();
        assert!(indirect > 0, "{arch:?}: llc-19 spilled nothing");
        let (stdout, log) = run_linked(&toolchain, dir.path(), &object, "kernel", VARIANTS[0].1).unwrap();
        assert_eq!(stdout, format!("result {}\nstatus 0\n", expected as i64), "{arch:?}");
        compare_with(&map, &kernel, false, &log, &points).unwrap_or_else(|e| panic!("{arch:?}: {e}"));
    }
}
