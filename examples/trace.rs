//! Tracing with handlers generated from stack map records (seed 004's own example): a JIT-compiled
//! hot loop has two trace points, `anyregcc` patch points with a null target whose 16-byte regions
//! are nops and whose records list the values live there (which stay in whatever registers the
//! allocator chose: the point clobbers nothing). At run time, for each record, `patchmap::handlers`
//! plans an `explicitcc` function whose parameters are the registers the record names (and which
//! reads its stack values through `llvm.frameaddress`), that hands every value to a logging function
//! and gives back every register; it JIT-compiles them all and patches each region with a call.
//!
//! The log must equal what patchmap's interpreter computes at every point, and the program's result
//! must be the same with and without the handlers. A stack map, unlike a patch point, does not
//! reserve its shadow (the code after it lies there): patching one is refused, as shown at the end.
//!
//! Run with `cargo run --example trace`.

use std::cell::RefCell;
use std::ffi::c_void;
use std::time::Instant;

use patchmap::arch::Arch;
use patchmap::compile::Options;
use patchmap::emit::jit::JitCode;
use patchmap::handlers::{HandlerPlan, Handlers};
use patchmap::interp::{stack_map_operands, Interpreter};
use patchmap::ir::builder::ModuleBuilder;
use patchmap::ir::{FuncId, Inst, Module, Type, Value};

/// A byte-code-like loop: a checksum over `data` with a state machine, an i32 step, a double
/// average and a running minimum; trace point 1 at the top of each iteration, trace point 2 on the
/// slow path taken every 7th iteration.
const PROGRAM: &str = "declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
declare void @llvm.experimental.stackmap(i64, i32, ...)

define i64 @run(ptr %data, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %next ]
  %sum = phi i64 [ 17, %entry ], [ %sum2, %next ]
  %state = phi i32 [ 1, %entry ], [ %state1, %next ]
  %avg = phi double [ 0.0, %entry ], [ %avg1, %next ]
  %min = phi i64 [ 9223372036854775807, %entry ], [ %min1, %next ]
  call anyregcc void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 1, i32 16, ptr null, i32 0, i64 %i, i64 %sum, i32 %state, double %avg, i64 %min)
  %slot = urem i64 %i, 64
  %p = getelementptr inbounds i64, ptr %data, i64 %slot
  %v = load i64, ptr %p
  %mixed = mul i64 %sum, 1099511628211
  %sum1 = xor i64 %mixed, %v
  %lt = icmp slt i64 %v, %min
  %min1 = select i1 %lt, i64 %v, i64 %min
  %vf = sitofp i64 %v to double
  %d = fsub double %vf, %avg
  %step = fdiv double %d, 8.0
  %avg1 = fadd double %avg, %step
  %state.next = mul i32 %state, 5
  %state1 = and i32 %state.next, 1023
  %r = urem i64 %i, 7
  %slow = icmp eq i64 %r, 0
  br i1 %slow, label %rare, label %next
rare:
  %big = shl i64 %sum1, 3
  call anyregcc void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 2, i32 16, ptr null, i32 0, i64 %i, i64 %big, i64 4294967296, ptr %data)
  %sum.rare = add i64 %sum1, %big
  br label %next
next:
  %sum2 = phi i64 [ %sum1, %loop ], [ %sum.rare, %rare ]
  %i1 = add i64 %i, 1
  %done = icmp eq i64 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 3, i32 16, i64 %sum2)
  %st = zext i32 %state1 to i64
  %m = fptosi double %avg1 to i64
  %t1 = add i64 %sum2, %st
  %t2 = add i64 %t1, %m
  %t3 = xor i64 %t2, %min1
  ret i64 %t3
}
";

/// Each trace: (record index, values), as the sink receives them.
type Log = RefCell<Vec<(u64, Vec<u64>)>>;

/// The logging function every handler calls.
unsafe extern "C" fn log_values(context: *mut c_void, record: u64, values: *const u64, count: u64) {
    // SAFETY: `main` passes its live `Log`, and a handler `count` values.
    let log = unsafe { &*(context as *const Log) };
    let values = unsafe { std::slice::from_raw_parts(values, count as usize) };
    log.borrow_mut().push((record, values.to_vec()));
}

/// The width in bits of each recorded operand of the point with record ID `id` (pointers: 64).
fn widths(module: &Module, function: FuncId, id: u64) -> Vec<u32> {
    let f = module.function(function);
    let call = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .copied()
        .find(|&i| {
            matches!(&f.inst(i).kind, Inst::Call { args, .. }
                if matches!(args.first().map(|a| &a.value), Some(Value::Const(patchmap::ir::Const::Int(n))) if *n as u64 == id))
                && stack_map_operands(module, function, i).is_some()
        })
        .expect("the point");
    let operands = stack_map_operands(module, function, call).expect("a point");
    operands
        .iter()
        .map(|o| match o.ty {
            Type::Int(bits) => u32::from(bits),
            Type::Float => 32,
            _ => 64,
        })
        .collect()
}

fn main() {
    let Some(arch) = Arch::host() else {
        println!("no JIT for {}: nothing to show", std::env::consts::ARCH);
        return;
    };
    let module = patchmap::ir::parse("trace.ll", PROGRAM).expect("valid IR");
    let run_fn = module.function_by_name("run").expect("@run");
    let data: Vec<i64> = (0..64).map(|k: i64| (k * 7_919 + 13) % 1_000 - 300).collect();
    let n = 100_000u64;

    // The reference: the interpreter's values at every point.
    let mut expected = Vec::new();
    let reference = {
        let mut interp = Interpreter::new(&module);
        interp.on_stack_map(|id, values| expected.push((id, values.to_vec())));
        // SAFETY: `run` reads the 64 words of `data`.
        unsafe { interp.call(run_fn, &[data.as_ptr() as u64, n]) }.expect("interprets").expect("a result")
    };
    let traced_points = expected.iter().filter(|(id, _)| *id != 3).count();

    let options = Options::new(None, "speed", 3).unwrap();
    let jit = JitCode::compile(&module, &options).expect("compiles");
    // SAFETY: as above.
    let call = || unsafe { jit.call_i64("run", &[data.as_ptr() as i64, n as i64]) }.expect("runs") as u64;
    let start = Instant::now();
    let plain = call();
    let plain_time = start.elapsed();
    println!("compiled code alone: result {plain:#x} in {plain_time:.2?}, the interpreter's {reference:#x}");

    let map = jit.stack_map().expect("a stack map section");
    let trace_sites: Vec<_> = jit.sites().iter().copied().filter(|s| s.id != 3).collect();
    for site in &trace_sites {
        let plan = HandlerPlan::of_record(arch, &map, site.record).expect("a plan");
        let registers: Vec<String> = plan.parameters.iter().map(|&r| arch.register_name(r).unwrap()).collect();
        println!(
            "record {} (ID {}) at {:p}: {} values, handler parameters in {}, {} registers preserved",
            site.record,
            site.id,
            site.address,
            plan.values.len(),
            registers.join(", "),
            plan.preserved.len()
        );
    }
    // One generated handler, as IR text.
    let first = HandlerPlan::of_record(arch, &map, trace_sites[0].record).unwrap();
    let mut shown = ModuleBuilder::new("handler.ll");
    let sink = shown.declare("log_values", Type::Void, &[Type::I64, Type::I64, Type::PTR, Type::I64], false);
    first.build_logging(&mut shown, "handler", sink, 0);
    println!("the handler of record {}:\n{}", trace_sites[0].record, shown.finish());

    let log = Log::default();
    let handlers = Handlers::compile(&jit, &trace_sites, log_values, &log as *const Log as *mut c_void, &options)
        .expect("handlers compile");
    for site in &trace_sites {
        // SAFETY: nothing runs the code while it is patched.
        unsafe { handlers.patch(site.record) }.expect("patched");
    }
    let start = Instant::now();
    let traced = call();
    let traced_time = start.elapsed();
    println!(
        "with every region patched: result {traced:#x} in {traced_time:.2?}, {} values logged at {} points",
        log.borrow().iter().map(|l| l.1.len()).sum::<usize>(),
        log.borrow().len()
    );

    // The log against the interpreter, each value at its operand's width.
    let traces: Vec<_> = expected.iter().filter(|(id, _)| *id != 3).collect();
    let mut differences = 0;
    for (k, ((record, got), (id, want))) in log.borrow().iter().zip(&traces).enumerate() {
        let record_id = map.record(*record as usize).expect("a record").id();
        let widths = widths(&module, run_fn, *id);
        let same = record_id == *id
            && got.len() == want.len()
            && got.iter().zip(want.iter()).zip(&widths).all(|((g, w), bits)| {
                let mask = if *bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
                g & mask == w & mask
            });
        if !same {
            differences += 1;
            if differences <= 5 {
                println!("point {k}: handler logged ID {record_id} {got:x?}, the interpreter ID {id} {want:x?}");
            }
        }
    }
    for (record, values) in log.borrow().iter().take(3) {
        println!("  log: record {record}: {values:x?}");
    }
    let complete = log.borrow().len() == traced_points;
    if traced == plain && plain == reference && complete && differences == 0 {
        println!("the log equals the interpreter's values at all {traced_points} points, and the result is unchanged");
    } else {
        println!("MISMATCH: {differences} points differ, {} logged of {traced_points}", log.borrow().len());
        std::process::exit(1);
    }

    // Back to nops: the code runs as before, logging nothing.
    log.borrow_mut().clear();
    for site in &trace_sites {
        // SAFETY: as above.
        unsafe { handlers.unpatch(site.record) }.expect("unpatched");
    }
    let again = call();
    println!("unpatched: result {again:#x}, {} points logged", log.borrow().len());

    // The stack map's shadow holds the code after it: a handler call there is refused.
    let stack_map = jit.sites().iter().find(|s| s.id == 3).expect("stack map 3");
    let refusal = Handlers::compile(&jit, &[*stack_map], log_values, &log as *const Log as *mut c_void, &options)
        .and_then(|h| {
            // SAFETY: as above; the call is refused before anything is written.
            unsafe { h.patch(stack_map.record) }
        });
    match refusal {
        Err(e) => println!("stack map 3: {e}"),
        Ok(()) => println!("stack map 3: its shadow was padding, and took the call"),
    }
}
