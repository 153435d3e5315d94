//! A moving garbage collector on statepoints: JIT-compiled code (`program.ll`) builds lists and
//! trees in a heap, allocating through the runtime's `gc_alloc` and stopping at `gc_safepoint`, both
//! called through `llvm.experimental.gc.statepoint` and entered through
//! [`patchmap::runtime::entry::Entry`], which captures every register. The runtime's collector is a
//! semispace (Cheney) copying collector: at each collection it walks the frames of the generated
//! code with the frame table ([`patchmap::runtime::frames::FrameTable`]), finds every root through
//! the statepoint records (a stack slot, or a callee-saved register: in the save slot of an inner
//! frame, or captured), copies every live object to the other half of the heap, writes the new
//! addresses where the roots are (a derived pointer moves with its base) and erases the old half.
//!
//! The kernel runs three times, and must give the same result each time: with a heap so large it
//! never collects, with a small heap (collecting when full), and in stress mode, collecting at every
//! allocation and safepoint.
//!
//! Run with `cargo run --example gc`.

mod heap;

use patchmap::arch::Arch;
use patchmap::compile::Options;
use patchmap::emit::jit::JitCode;
use patchmap::ir;
use patchmap::runtime::frames::FrameTable;
use patchmap::stackmap::Version;

use heap::{Heap, Policy, Runtime};

const PROGRAM: &str = include_str!("program.ll");

/// The kernel's arguments: list length and tree depth.
const LIST: i64 = 1000;
const DEPTH: i64 = 10;

fn main() {
    let Some(arch) = Arch::host() else {
        println!("no JIT for this host: the demo runs on x86-64 and AArch64 Linux");
        return;
    };
    let module = ir::parse("program.ll", PROGRAM).expect("valid IR");
    // The frame-table layout gives each function's size and saved registers: what a walk from the
    // captured registers needs.
    let options = Options::new(None, "speed", 3).expect("valid options").with_stackmap_version(Version::FrameTable);
    let runtime = Runtime::new(arch).expect("the runtime's entry points");
    let code = JitCode::compile_with_symbols(&module, &options, &runtime.symbols()).expect("compiles");
    let map = code.stack_map().expect("a stack map").to_model();
    let statepoints = map.records.len();
    let table = FrameTable::new(map).expect("a frame table");
    println!("compiled {} functions with {statepoints} statepoint records", code.functions().count());

    let runs = [
        ("never collecting (64 MiB semispaces)", Policy::WhenFull, 8 << 20),
        ("collecting when full (128 KiB semispaces)", Policy::WhenFull, 16 << 10),
        ("stress: collecting at every safepoint", Policy::Always, 16 << 10),
    ];
    let mut results = Vec::new();
    for (name, policy, words) in runs {
        heap::install(Heap::new(arch, table.clone(), words, policy));
        // SAFETY: the kernel takes two i64s and returns one; the heap it allocates from is installed.
        let result = unsafe { code.call_i64("kernel", &[LIST, DEPTH]) }.expect("kernel runs");
        let stats = heap::uninstall();
        println!(
            "{name}: kernel({LIST}, {DEPTH}) = {result}; {} collections, {} objects copied, {} roots relocated \
             ({} derived, {} in registers), deepest walk {} frames",
            stats.collections, stats.copied, stats.roots, stats.derived_roots, stats.register_roots, stats.deepest_walk
        );
        results.push((result, stats));
    }
    let expected = results[0].0;
    assert_eq!(results[0].1.collections, 0, "the large heap must not collect");
    assert!(results[1].1.collections > 0 && results[2].1.collections > results[1].1.collections);
    assert!(results[2].1.derived_roots > 0, "the derived pointer was relocated");
    for (result, _) in &results {
        assert_eq!(*result, expected, "a collecting run differs from the run that never collects");
    }
    println!("every run gives {expected}: the collector moved every live object and the code saw each move");
}
