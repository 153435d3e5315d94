//! An inline cache on a patch point: `get` looks a property up through a patch point whose target is
//! a slow, generic lookup. After a few calls the runtime patches the region with a call to a lookup
//! specialised for the one object layout it has seen, and the same compiled code runs faster.
//!
//! Run with `cargo run --release --example inline_cache`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use patchmap::arch::Arch;
use patchmap::compile::Options;
use patchmap::emit::jit::JitCode;
use patchmap::runtime::patch_code;

/// An object: a layout (property name -> slot) and its slots.
#[repr(C)]
struct Object {
    layout: *const HashMap<u64, usize>,
    slots: [i64; 4],
}

static SLOW: AtomicU64 = AtomicU64::new(0);
static FAST: AtomicU64 = AtomicU64::new(0);

/// The generic path: look the property up in the object's layout.
extern "C" fn slow_get(object: *const Object, key: u64) -> i64 {
    SLOW.fetch_add(1, Ordering::Relaxed);
    // SAFETY: the program passes the objects this example made.
    let object = unsafe { &*object };
    let layout = unsafe { &*object.layout };
    layout.get(&key).map_or(-1, |&slot| object.slots[slot])
}

/// The specialised path for the layout seen so far: property 7 lives in slot 2.
extern "C" fn fast_get_slot2(object: *const Object, _key: u64) -> i64 {
    FAST.fetch_add(1, Ordering::Relaxed);
    // SAFETY: as above; a real runtime would also check the layout and fall back.
    unsafe { (*object).slots[2] }
}

const GET_ID: u64 = 1;

fn main() {
    let Some(arch) = Arch::host() else {
        println!("no JIT for {}: nothing to show", std::env::consts::ARCH);
        return;
    };
    // `sum` calls `get(object, 7)` n times through the patch point and adds the results.
    let ir = format!(
        "declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
define i64 @sum(ptr %object, i64 %n) {{
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc1, %loop ]
  %v = call i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 {GET_ID}, i32 16, ptr inttoptr (i64 {} to ptr), i32 2, ptr %object, i64 7)
  %acc1 = add i64 %acc, %v
  %i1 = add i64 %i, 1
  %done = icmp eq i64 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %acc1
}}
",
        slow_get as *const () as usize
    );
    let module = patchmap::ir::parse("inline_cache.ll", &ir).expect("valid IR");
    let jit = JitCode::compile(&module, &Options::new(None, "speed", 3).unwrap()).expect("compiles");
    let [region] = jit.record_addresses(GET_ID)[..] else { panic!("one patch point with ID {GET_ID}") };
    println!("patch point {GET_ID}: a 16-byte region at {region:p}, calling slow_get");

    let layout: HashMap<u64, usize> = [(3, 0), (5, 1), (7, 2), (9, 3)].into_iter().collect();
    let object = Object { layout: &layout, slots: [10, 20, 30, 40] };
    let calls: i64 = 1_000_000;
    let run = |label: &str| {
        let start = Instant::now();
        // SAFETY: `sum` reads the object through the lookups above, for n > 0.
        let total = unsafe { jit.call_i64("sum", &[&object as *const Object as i64, calls]) }.expect("runs");
        let elapsed = start.elapsed();
        println!(
            "{label}: sum = {total}, {:.1} ns per call (slow path {} calls, fast path {} calls)",
            elapsed.as_nanos() as f64 / calls as f64,
            SLOW.load(Ordering::Relaxed),
            FAST.load(Ordering::Relaxed)
        );
        assert_eq!(total, 30 * calls);
        elapsed
    };
    let slow = run("generic lookups ");
    // The runtime has seen one layout: patch the region with a call to the specialised lookup.
    let call = arch.encode_call(fast_get_slot2 as *const () as u64).expect("an address in reach");
    // SAFETY: the region belongs to `sum`, which no thread is running now.
    unsafe { patch_code(arch, region, 16, &call) }.expect("the call fits the region");
    println!("patched the region with a call to fast_get_slot2");
    let fast = run("after patching   ");
    println!("speed-up: {:.2}x", slow.as_secs_f64() / fast.as_secs_f64());
}
