//! Deoptimisation in miniature: stop a loop at its stack map in iteration k, take the live values the
//! stack map lists, and finish the computation with `Interpreter::resume`. The result must be that of
//! the uninterrupted run, for every k; a stack map that leaves out a live value must make the resume
//! fail, naming that value.

use patchmap::interp::{stack_map_call, stack_map_operands, Interpreter};
use patchmap::ir::{FuncId, Module, Value};

/// A loop whose stack map 1 lists every value live after it (a constant among them), and whose stack
/// map 2 forgets `%x`.
const LOOP: &str = "declare void @llvm.experimental.stackmap(i64, i32, ...)

define i64 @work(i64 %n, i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %next ]
  %acc = phi i64 [ 1, %entry ], [ %acc2, %next ]
  %f = phi double [ 0.5, %entry ], [ %f1, %next ]
  %odd = phi i1 [ false, %entry ], [ %odd1, %next ]
  %b = phi i8 [ -3, %entry ], [ %b1, %next ]
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i64 %n, i32 %x, i64 %i, i64 %acc, double %f, i1 %odd, i8 %b, i64 99)
  %m = mul i64 %acc, 31
  %xw = sext i32 %x to i64
  %acc1 = add i64 %m, %xw
  %f1 = fmul double %f, 1.5
  %odd1 = xor i1 %odd, true
  %b1 = mul i8 %b, 7
  br i1 %odd, label %flip, label %next
flip:
  %fi = fptosi double %f to i64
  %accf = xor i64 %acc1, %fi
  br label %next
next:
  %acc2 = phi i64 [ %acc1, %loop ], [ %accf, %flip ]
  %i1 = add i64 %i, 1
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 0, i64 %n, i64 %i1, i64 %acc2, double %f1, i1 %odd1, i8 %b1)
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %done
done:
  %bw = sext i8 %b1 to i64
  %r = add i64 %acc2, %bw
  ret i64 %r
}
";

fn module() -> Module {
    let m = patchmap::ir::parse("loop.ll", LOOP).unwrap_or_else(|e| panic!("{e}"));
    patchmap::ir::verify(&m).unwrap_or_else(|e| panic!("{e}"));
    m
}

/// The uninterrupted result of `@work(n, x)`, and the live values of each execution of stack map `id`.
fn run_recording(m: &Module, work: FuncId, id: u64, args: &[u64]) -> (u64, Vec<Vec<u64>>) {
    let mut stops = Vec::new();
    let mut interp = Interpreter::new(m);
    interp.on_stack_map(|record, values| {
        if record == id {
            stops.push(values.to_vec());
        }
    });
    // SAFETY: the function touches no memory.
    let result = unsafe { interp.call(work, args) }.unwrap().expect("an i64 result");
    drop(interp);
    (result, stops)
}

/// Resumes `@work` after stack map `id` with the values it recorded.
fn resume(m: &Module, work: FuncId, id: u64, values: &[u64]) -> Result<Option<u64>, patchmap::interp::InterpError> {
    let point = stack_map_call(m, work, id).expect("the stack map");
    let operands = stack_map_operands(m, work, point).expect("a stack map call");
    assert_eq!(operands.len(), values.len());
    let bound: Vec<(Value, u64)> = operands.iter().map(|o| o.value.clone()).zip(values.iter().copied()).collect();
    // SAFETY: as above.
    unsafe { Interpreter::new(m).resume(work, point, &bound) }
}

#[test]
fn resuming_at_any_iteration_finishes_the_computation() {
    let m = module();
    let work = m.function_by_name("work").unwrap();
    let args = [9, (-5i32) as u32 as u64];
    let (expected, stops) = run_recording(&m, work, 1, &args);
    assert_eq!(stops.len(), 9, "one stop per iteration");
    // The values are the stack map's, as `read_location` would give them: an i8 -3 is 0xfd.
    assert_eq!(stops[0], vec![9, 0xffff_fffb, 0, 1, 0.5f64.to_bits(), 0, 0xfd, 99]);
    for (k, values) in stops.iter().enumerate() {
        let resumed = resume(&m, work, 1, values).unwrap_or_else(|e| panic!("iteration {k}: {e}"));
        assert_eq!(resumed, Some(expected), "resumed at iteration {k}");
    }
    // A different state gives a different result: the resume really uses the bound values.
    let mut changed = stops[4].clone();
    changed[3] += 1;
    assert_ne!(resume(&m, work, 1, &changed).unwrap(), Some(expected));
}

#[test]
fn a_stack_map_missing_a_live_value_cannot_be_resumed() {
    let m = module();
    let work = m.function_by_name("work").unwrap();
    let (_, stops) = run_recording(&m, work, 2, &[3, 4]);
    assert_eq!(stops.len(), 3);
    let e = resume(&m, work, 2, &stops[0]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "loop.ll:14:3: error: in @work: %x is not available at the resume point: it is not among the bound \
         (stack map) values"
    );
    // The last stop leaves the loop, where %x is no longer needed.
    assert_eq!(resume(&m, work, 2, &stops[2]).unwrap(), Some(run_recording(&m, work, 2, &[3, 4]).0));
}
