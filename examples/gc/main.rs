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
//!
//! The kernel is compiled twice: with llc-19's default lowering of statepoints (every GC pointer and
//! deopt value stored to a frame slot of its own around each call) and with the register lowering
//! (`Options::with_max_registers_for_gc_values`, `with_registers_for_deopt_values`: GC pointers stay
//! in callee-saved registers across the call, where the collector finds and rewrites them through
//! the frame table). Both must give the same results; the demo prints the kernel's time with each.
//! `cargo run --release --example gc -- kernel slots|registers N` only runs the kernel N times
//! without collecting, for timing the two against each other as whole processes.

mod heap;

use patchmap::arch::Arch;
use patchmap::compile::Options;
use patchmap::emit::jit::JitCode;
use patchmap::ir;
use patchmap::runtime::frames::FrameTable;
use patchmap::stackmap::{LocationKind, Version};

use std::time::{Duration, Instant};

use heap::{Heap, Policy, Runtime, Stats};

const PROGRAM: &str = include_str!("program.ll");

/// The kernel's arguments: list length and tree depth.
const LIST: i64 = 1000;
const DEPTH: i64 = 10;

/// How statepoints keep their values across calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lowering {
    /// llc-19's default: a frame slot per value.
    Slots,
    /// GC pointers (as many as there are callee-saved registers) and deopt values in registers.
    Registers,
}

impl Lowering {
    fn options(self) -> Options {
        // The frame-table layout gives each function's size and saved registers: what a walk from the
        // captured registers needs.
        let options = Options::new(None, "speed", 3).expect("valid options").with_stackmap_version(Version::FrameTable);
        match self {
            Lowering::Slots => options,
            Lowering::Registers => {
                options.with_max_registers_for_gc_values(u32::MAX).with_registers_for_deopt_values(true)
            }
        }
    }
}

/// The kernel compiled with one lowering, and its runtime.
struct Compiled {
    code: JitCode,
    table: FrameTable,
    _runtime: Runtime,
}

fn compile(arch: Arch, lowering: Lowering) -> Compiled {
    let module = ir::parse("program.ll", PROGRAM).expect("valid IR");
    let runtime = Runtime::new(arch).expect("the runtime's entry points");
    let code = JitCode::compile_with_symbols(&module, &lowering.options(), &runtime.symbols()).expect("compiles");
    let map = code.stack_map().expect("a stack map").to_model();
    let table = FrameTable::new(map).expect("a frame table");
    Compiled { code, table, _runtime: runtime }
}

/// Runs the kernel once on a fresh heap; its result, what the collector did and the time it took.
fn run(arch: Arch, compiled: &Compiled, policy: Policy, words: usize) -> (i64, Stats, Duration) {
    heap::install(Heap::new(arch, compiled.table.clone(), words, policy));
    let start = Instant::now();
    // SAFETY: the kernel takes two i64s and returns one; the heap it allocates from is installed.
    let result = unsafe { compiled.code.call_i64("kernel", &[LIST, DEPTH]) }.expect("kernel runs");
    let elapsed = start.elapsed();
    (result, heap::uninstall(), elapsed)
}

/// Large enough never to collect.
const NEVER_COLLECTS: usize = 8 << 20;

fn main() {
    let Some(arch) = Arch::host() else {
        println!("no JIT for this host: the demo runs on x86-64 and AArch64 Linux");
        return;
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [mode, lowering, times] = &args[..] {
        let lowering = match lowering.as_str() {
            "slots" => Lowering::Slots,
            "registers" => Lowering::Registers,
            other => panic!("unknown lowering {other:?}: slots or registers"),
        };
        assert_eq!(mode, "kernel", "usage: gc [kernel slots|registers N]");
        let compiled = compile(arch, lowering);
        // One heap for every run, emptied between runs (nothing is live once the kernel returns), so
        // the figure is the kernel's and not the page faults of fresh heaps.
        heap::install(Heap::new(arch, compiled.table.clone(), 1 << 20, Policy::WhenFull));
        for _ in 0..times.parse::<u32>().expect("a number of runs") {
            heap::empty();
            // SAFETY: as in `run`.
            unsafe { compiled.code.call_i64("kernel", &[LIST, DEPTH]) }.expect("kernel runs");
        }
        assert_eq!(heap::uninstall().collections, 0, "the kernel's heap never fills");
        return;
    }

    let runs = [
        ("never collecting (64 MiB semispaces)", Policy::WhenFull, NEVER_COLLECTS),
        ("collecting when full (128 KiB semispaces)", Policy::WhenFull, 16 << 10),
        ("stress: collecting at every safepoint", Policy::Always, 16 << 10),
    ];
    let mut expected = None;
    for lowering in [Lowering::Slots, Lowering::Registers] {
        let compiled = compile(arch, lowering);
        let map = compiled.table.stack_map();
        let in_registers =
            map.records.iter().flat_map(|r| &r.locations).filter(|l| l.kind == LocationKind::Register).count();
        println!(
            "{lowering:?}: compiled {} functions with {} statepoint records, {in_registers} locations in registers",
            compiled.code.functions().count(),
            map.records.len(),
        );
        let mut results = Vec::new();
        for (name, policy, words) in runs {
            let (result, stats, _) = run(arch, &compiled, policy, words);
            println!(
                "  {name}: kernel({LIST}, {DEPTH}) = {result}; {} collections, {} objects copied, {} roots \
                 relocated ({} derived, {} in registers), deepest walk {} frames",
                stats.collections,
                stats.copied,
                stats.roots,
                stats.derived_roots,
                stats.register_roots,
                stats.deepest_walk
            );
            results.push((result, stats));
        }
        assert_eq!(results[0].1.collections, 0, "the large heap must not collect");
        assert!(results[1].1.collections > 0 && results[2].1.collections > results[1].1.collections);
        assert!(results[2].1.derived_roots > 0, "the derived pointer was relocated");
        if lowering == Lowering::Registers {
            assert!(results[2].1.register_roots > 0, "no root was in a register");
        }
        let expected = *expected.get_or_insert(results[0].0);
        for (result, _) in &results {
            assert_eq!(*result, expected, "a run differs from the run that never collects");
        }
        let fastest = (0..10).map(|_| run(arch, &compiled, Policy::WhenFull, NEVER_COLLECTS).2).min().unwrap();
        println!("  the kernel without collecting: {:.2} ms (fastest of 10)", fastest.as_secs_f64() * 1e3);
    }
    println!(
        "every run of both gives {}: the collector moved every live object, in slots and registers, and the \
         code saw each move",
        expected.unwrap()
    );
}
