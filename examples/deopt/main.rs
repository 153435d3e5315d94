//! Deoptimisation through a stack map: a JIT-compiled loop calls the runtime's `safepoint` hook each
//! iteration, followed by a stack map (ID 1, 16-byte shadow) that lists every value the rest of the
//! function needs. At some iteration the hook invalidates the code: it patches the shadow with a call
//! to exit stub 0 of a `runtime::exits::Exits` area, whose handler gets every register in an
//! `ExitState`. When the loop reaches the point, the stub runs; the exit handler finds the record by
//! the return address, reads each live value through its location (registers, spill slots, the
//! address of an `alloca`) from the `ExitState`, finishes the function in patchmap's interpreter of
//! the same IR, from the instruction after the stack map, and leaves the compiled code with the
//! interpreter's result (`Resume::Return`): `exits::call`, which called the kernel, returns it. The
//! result must equal an uninterrupted run, for every iteration the code is invalidated at.
//!
//! Run with `cargo run --example deopt`.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use patchmap::arch::Arch;
use patchmap::compile::Options;
use patchmap::emit::jit::JitCode;
use patchmap::interp::{self, Interpreter};
use patchmap::ir::{self, FuncId, Type};
use patchmap::runtime;
use patchmap::runtime::exits::{self, ExitState, Exits, Resume};
use patchmap::stackmap::{AddressIndex, Endian, StackMapView};

/// The kernel: a mixing loop over `weights` with an integer, a double, an i32 and an `alloca`'d cell
/// alive across the stack map. Everything used after the point is among its live values.
const KERNEL: &str = "declare void @llvm.experimental.stackmap(i64, i32, ...)
declare void @safepoint(i64)

define i64 @kernel(i64 %n, ptr %weights) {
entry:
  %cell = alloca i64, align 8
  store i64 0, ptr %cell
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %next ]
  %acc = phi i64 [ 7, %entry ], [ %acc2, %next ]
  %x = phi double [ 1.0, %entry ], [ %x1, %next ]
  %small = phi i32 [ 3, %entry ], [ %small1, %next ]
  call void @safepoint(i64 %i)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 16, i64 %n, ptr %weights, ptr %cell, i64 %i, i64 %acc, double %x, i32 %small)
  %slot = and i64 %i, 7
  %wp = getelementptr inbounds i64, ptr %weights, i64 %slot
  %w = load i64, ptr %wp
  %m = mul i64 %acc, 31
  %acc1 = add i64 %m, %w
  %sh = lshr i64 %acc1, 7
  %acc2 = xor i64 %acc1, %sh
  %odd = and i64 %i, 1
  %is.odd = icmp ne i64 %odd, 0
  br i1 %is.odd, label %odd.path, label %next
odd.path:
  %c = load i64, ptr %cell
  %c1 = add i64 %c, %w
  store i64 %c1, ptr %cell
  br label %next
next:
  %xm = fmul double %x, 1.0001
  %x1 = fadd double %xm, 2.5e-1
  %small1 = add i32 %small, 5
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  %cell.final = load i64, ptr %cell
  %xi = fptosi double %x1 to i64
  %s64 = sext i32 %small1 to i64
  %r0 = add i64 %acc2, %cell.final
  %r1 = add i64 %r0, %xi
  %r = add i64 %r1, %s64
  ret i64 %r
}
";

const POINT_ID: u64 = 1;
const SHADOW: usize = 16;
const ITERATIONS: i64 = 1000;

/// The iteration whose safepoint invalidates the code (-1: never).
static INVALIDATE_AT: AtomicI64 = AtomicI64::new(-1);
/// Safepoints reached in compiled code and in the interpreter.
static COMPILED_SAFEPOINTS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// What the exit handler needs, while a deoptimising run is under way.
    static RUNTIME: Cell<*const Runtime<'static>> = const { Cell::new(std::ptr::null()) };
}

/// The runtime's view of the compiled kernel.
struct Runtime<'a> {
    arch: Arch,
    module: &'a ir::Module,
    kernel: FuncId,
    /// The JIT's `.llvm_stackmaps` section (version 3, absolute addresses), parsed once, and its
    /// records by address: an exit looks its record up by the address it came from.
    stack_map: StackMapView<'a>,
    records: AddressIndex,
    /// The section's constant pool, for `ConstantIndex` locations.
    constants: Vec<u64>,
    /// The points with [`POINT_ID`], and their original shadow bytes.
    points: Vec<(*mut u8, Vec<u8>)>,
    /// The exit stubs: the shadows are patched with a call to stub 0.
    exits: &'a Exits,
    /// What the exit handler did: the lines it printed, or why it failed.
    exit: RefCell<Option<Result<Exit, String>>>,
}

struct Exit {
    iteration: u64,
    values: Vec<String>,
    interpreted_safepoints: u64,
}

/// The runtime's hook, called by the kernel at the top of each iteration.
extern "C" fn safepoint(iteration: i64) {
    COMPILED_SAFEPOINTS.fetch_add(1, Ordering::Relaxed);
    if iteration != INVALIDATE_AT.load(Ordering::Relaxed) {
        return;
    }
    let runtime = RUNTIME.with(Cell::get);
    // SAFETY: set by `run_deoptimising` for the duration of the call that reaches this hook.
    let runtime = unsafe { &*runtime };
    for (point, _) in &runtime.points {
        // SAFETY: the shadow is this kernel's code; the only thread running it is in this hook, and
        // it returns to the instruction before the point, never into the shadow.
        unsafe { runtime.exits.patch_call(*point, SHADOW, 0) }.expect("the exit call fits the shadow");
    }
}

/// The exit handler: finishes the kernel in the interpreter and leaves the compiled code with its
/// result.
fn exit_handler(state: &mut ExitState, _number: u32) -> Resume {
    let runtime = RUNTIME.with(Cell::get);
    // SAFETY: as in `safepoint`: the stub runs only while a deoptimising run is under way.
    let runtime = unsafe { &*runtime };
    let value = match deoptimise(runtime, state) {
        Ok((value, exit)) => {
            *runtime.exit.borrow_mut() = Some(Ok(exit));
            value
        }
        Err(e) => {
            *runtime.exit.borrow_mut() = Some(Err(e));
            0
        }
    };
    Resume::Return(value)
}

/// Reads the live values of the record the exit came from and finishes the kernel in the interpreter.
fn deoptimise(runtime: &Runtime, state: &ExitState) -> Result<(u64, Exit), String> {
    let point = state.return_address() - runtime.arch.exit_call_return_offset();
    let record = runtime
        .stack_map
        .records_at_address(&runtime.records, point)
        .next()
        .ok_or(format!("no record at {point:#x}"))?;
    let function = runtime.module.function(runtime.kernel);
    let at = interp::stack_map_call(runtime.module, runtime.kernel, record.id())
        .ok_or(format!("no stack map {} in the IR", record.id()))?;
    let operands = interp::stack_map_operands(runtime.module, runtime.kernel, at).ok_or("not a stack map")?;
    let names = ir::print::Names::of(function);

    let mut bound = Vec::new();
    let mut values = Vec::new();
    let mut iteration = None;
    for (operand, location) in operands.iter().zip(record.locations()) {
        let raw = runtime::read_location(&location, &runtime.constants, state).map_err(|e| e.to_string())?;
        // The location's bytes beyond the value's width are not the value's.
        let bits = if operand.ty == Type::I1 { 1 } else { 8 * operand.ty.alloc_size() };
        let value = if bits >= 64 { raw } else { raw & ((1 << bits) - 1) };
        let name = names.value(runtime.module, &operand.value);
        if name == "%i" {
            iteration = Some(value);
        }
        values.push(format!("{name:<9} = {:<22} {location}", shown(&operand.ty, value)));
        bound.push((operand.value.clone(), value));
    }
    let interpreted = AtomicU64::new(0);
    let mut interpreter = Interpreter::new(runtime.module);
    interpreter.external("safepoint", |_| {
        interpreted.fetch_add(1, Ordering::Relaxed);
        Ok(0)
    });
    // SAFETY: the kernel is free of undefined behaviour; its pointers (the weights, the cell in the
    // stopped frame) stay valid until the handler returns.
    let value = unsafe { interpreter.resume(runtime.kernel, at, &bound) }
        .map_err(|e| e.to_string())?
        .ok_or("the kernel returns a value")?;
    drop(interpreter);
    let exit = Exit {
        iteration: iteration.ok_or("%i is not among the live values")?,
        values,
        interpreted_safepoints: interpreted.load(Ordering::Relaxed),
    };
    Ok((value, exit))
}

fn shown(ty: &Type, value: u64) -> String {
    match ty {
        Type::Double => format!("{}", f64::from_bits(value)),
        Type::Ptr(_) => format!("{value:#x}"),
        Type::Int(bits) => format!("{}", ((value << (64 - bits)) as i64) >> (64 - bits)),
        _ => format!("{value:#x}"),
    }
}

fn main() {
    let Some(arch) = Arch::host() else {
        println!("no JIT for {}: nothing to show", std::env::consts::ARCH);
        return;
    };
    let module = ir::parse("deopt.ll", KERNEL).expect("valid IR");
    ir::verify(&module).expect("verifies");
    let kernel = module.function_by_name("kernel").expect("defines @kernel");
    let symbols = [("safepoint", safepoint as *const u8)];
    let jit =
        JitCode::compile_with_symbols(&module, &Options::new(None, "speed", 3).unwrap(), &symbols).expect("compiles");
    let code = jit.function("kernel").expect("compiled").address as usize;
    let weights: [i64; 8] = [3, -1, 4, 1, -5, 9, 2, -6];

    // The reference: the whole kernel in the interpreter, and in compiled code.
    let mut interpreter = Interpreter::new(&module);
    interpreter.external("safepoint", |_| Ok(0));
    // SAFETY: the kernel reads `weights` and its own alloca only.
    let expected = unsafe { interpreter.call(kernel, &[ITERATIONS as u64, weights.as_ptr() as u64]) }
        .expect("interprets")
        .expect("returns a value") as i64;
    drop(interpreter);
    let points: Vec<(*mut u8, Vec<u8>)> = jit
        .record_addresses(POINT_ID)
        .into_iter()
        // SAFETY: each point is followed by its shadow in this module's code.
        .map(|p| (p, unsafe { std::slice::from_raw_parts(p, SHADOW) }.to_vec()))
        .collect();
    println!("kernel: JIT-compiled at {code:#x}; stack map {POINT_ID} at {:?}, {SHADOW}-byte shadow", points[0].0);
    println!("uninterrupted: interpreter {expected}");
    let stack_map = StackMapView::parse(jit.stack_map_section(), Endian::native()).expect("our own section parses");
    let records = stack_map.address_index().expect("a v3 section has record counts");
    let constants = stack_map.constants().collect();
    let exits = Exits::new(exit_handler).expect("exit stubs on this host");
    let runtime = Runtime {
        arch,
        module: &module,
        kernel,
        stack_map,
        records,
        constants,
        points,
        exits: &exits,
        exit: RefCell::new(None),
    };

    let mut failures = 0;
    for invalidate_at in [-1, 0, 1, 500, ITERATIONS - 1] {
        INVALIDATE_AT.store(invalidate_at, Ordering::Relaxed);
        COMPILED_SAFEPOINTS.store(0, Ordering::Relaxed);
        *runtime.exit.borrow_mut() = None;
        RUNTIME.with(|r| r.set(std::ptr::from_ref(&runtime).cast()));
        // SAFETY: `kernel` takes (i64, ptr) and returns i64.
        let result = unsafe { exits::call(code as *const u8, &[ITERATIONS as u64, weights.as_ptr() as u64]) }
            .expect("two arguments") as i64;
        RUNTIME.with(|r| r.set(std::ptr::null()));
        let compiled = COMPILED_SAFEPOINTS.load(Ordering::Relaxed);
        let outcome =
            if result == expected { "equals the uninterrupted run" } else { "DIFFERS from the uninterrupted run" };
        failures += usize::from(result != expected);
        match runtime.exit.borrow_mut().take() {
            None if invalidate_at < 0 => {
                println!("\ncompiled code alone: {result} ({compiled} safepoints), {outcome}");
            }
            None => {
                failures += 1;
                println!("\ninvalidated at iteration {invalidate_at}, but the code never exited: {result}");
            }
            Some(Err(e)) => {
                failures += 1;
                println!("\ninvalidated at iteration {invalidate_at}: the exit failed: {e}");
            }
            Some(Ok(exit)) => {
                println!(
                    "\ninvalidated at iteration {invalidate_at}: shadow patched with a call to the exit stub; \
                     exit at iteration {}, live values read through stack map {POINT_ID}:",
                    exit.iteration
                );
                for line in &exit.values {
                    println!("  {line}");
                }
                println!(
                    "  compiled code ran {compiled} safepoints, the interpreter {}: result {result}, {outcome}",
                    exit.interpreted_safepoints
                );
                failures += usize::from(exit.iteration != invalidate_at as u64);
            }
        }
        // Revalidate: put the original code back for the next run.
        for (point, original) in &runtime.points {
            // SAFETY: no thread runs the kernel now.
            unsafe { runtime::patch_code(arch, *point, SHADOW, original) }.expect("restores the shadow");
        }
    }
    if failures > 0 {
        println!("\n{failures} run(s) went wrong");
        std::process::exit(1);
    }
    println!("\nevery deoptimised run finished in the interpreter with the uninterrupted result");
}
