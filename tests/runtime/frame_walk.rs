//! Run-time proof of the frame table (issue 23): programs whose functions call each other in a
//! chain `f0 -> f1 -> ... -> fN -> runtime_entry`, each keeping more values live across its call
//! than there are callee-saved registers, with a stack map right after the call naming them (record
//! `100 + level`, at the call's return address). Stopped in the runtime entry
//! (`patchmap::runtime::Entry`, which captures every register), the frame-table walker reads every
//! location of every frame's record, and each must equal the value the program computed (the test
//! computes them itself from the program's arguments). At `-O speed` some values must be in
//! callee-saved registers of outer frames that inner frames saved (counted), or the test proves
//! nothing; a mutant table (one saved register's slot offset changed) must fail the check. (`-O
//! none` keeps recorded values in spill slots.)
//!
//! After its call returns, each function calls the entry again, with a second stack map (`200 +
//! level`) of the same values right after: at those later stops its values are read from where
//! they are then (the captured registers, restored by the callees' epilogues and by the entry). The
//! write test rewrites every location of every frame at the first stop, through the walker; every
//! later stop must find the new values, which proves they reached the program's own registers and
//! slots. (The functions do nothing else with the values after the call: any other use would make
//! the register allocator reload values between the call and the stack map, which would then not be
//! at the return address.)
//!
//! x86-64 runs natively through the JIT and the real entry. AArch64 runs under qemu-aarch64: the
//! object, a C driver (`tests/frame_walk/driver.c`) and the entry's own assembly text with the
//! library's stub bytes, linked by aarch64-linux-gnu-gcc; the driver's handler prints the captured
//! registers and the stack, and this test walks that dump (and, for the write test, sends back the
//! writes to make, relative to the stack pointer). Hand-written programs and generated ones (seeds,
//! several depths and widths, some with frames realigned for an over-aligned alloca), at `-O none`
//! and `-O speed`.

use crate::support;

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::rc::Rc;

use patchmap::compile::Options;
use patchmap::emit::jit::JitCode;
use patchmap::runtime::frames::{FrameTable, Place, WalkError};
use patchmap::runtime::{Entry, Memory, ProcessMemory, Registers, StackDump};
use patchmap::stackmap::{object_file, Endian, LocationKind, StackMap, StackMapView, Version, DYNAMIC_STACK_SIZE};
use support::Arch;

/// What the entry's handler returns in the result register.
const ENTRY_RESULT: u64 = 0x0e27_0e27;
/// The record after level `i`'s call has ID `RECORD_ID + i`.
const RECORD_ID: u64 = 100;
/// The record after level `i`'s second call of the entry has ID `AGAIN_RECORD_ID + i`.
const AGAIN_RECORD_ID: u64 = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    I64,
    I32,
    F64,
}

#[derive(Clone, Copy, Debug)]
enum Operand {
    /// The function's argument 0 or 1.
    Arg(usize),
    /// An earlier i64 value of the function.
    Value(usize),
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
    Xor,
    Or,
    Shl(u8),
}

/// `ty(op(a, b) ^ mask)`: an i64 as is, an i32 truncated, an f64 converted.
#[derive(Clone, Copy, Debug)]
struct Value {
    ty: Ty,
    op: Op,
    a: Operand,
    b: Operand,
    mask: i64,
}

/// One function of the chain: its values (live across its call) and the two i64 values (or
/// arguments) it passes on.
#[derive(Clone, Debug)]
struct Level {
    values: Vec<Value>,
    pass: [Operand; 2],
}

/// `f0 -> ... -> f{levels.len() - 1} -> runtime_entry`.
#[derive(Clone, Debug)]
struct Chain {
    levels: Vec<Level>,
    /// Each function also has an alloca aligned to 64 bytes, which realigns its frame: its spill
    /// slots are then found from its SP, which the walker knows only from the inner frame's FP.
    realigned: bool,
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

impl Chain {
    /// A random chain of `depth` functions with `width` values each.
    fn random(seed: u64, depth: usize, width: usize) -> Chain {
        let mut rng = Rng(seed);
        let levels = (0..depth)
            .map(|_| {
                let mut values: Vec<Value> = Vec::new();
                let mut i64s: Vec<usize> = Vec::new();
                for j in 0..width {
                    let operand = |rng: &mut Rng| {
                        if i64s.is_empty() || rng.below(3) == 0 {
                            Operand::Arg(rng.below(2))
                        } else {
                            Operand::Value(i64s[rng.below(i64s.len())])
                        }
                    };
                    let (a, b) = (operand(&mut rng), operand(&mut rng));
                    let op = match rng.below(6) {
                        0 => Op::Add,
                        // x - x and x ^ x are constants, which the optimiser materialises anywhere.
                        1 | 3 if format!("{a:?}") == format!("{b:?}") => Op::Add,
                        1 => Op::Sub,
                        2 => Op::Mul,
                        3 => Op::Xor,
                        4 => Op::Or,
                        _ => Op::Shl(1 + rng.below(40) as u8),
                    };
                    let ty = match rng.below(8) {
                        0 => Ty::I32,
                        1 => Ty::F64,
                        _ => Ty::I64,
                    };
                    // A distinct mask per value: no two values are the same expression.
                    let mask = (rng.next() as i64) | 1 << (j % 60);
                    values.push(Value { ty, op, a, b, mask });
                    if ty == Ty::I64 {
                        i64s.push(j);
                    }
                }
                let pass = |rng: &mut Rng| {
                    if i64s.is_empty() {
                        Operand::Arg(rng.below(2))
                    } else {
                        Operand::Value(i64s[rng.below(i64s.len())])
                    }
                };
                Level { pass: [pass(&mut rng), pass(&mut rng)], values }
            })
            .collect();
        Chain { levels, realigned: false }
    }

    /// The hand-written shape: three functions of 14 i64 values each, plus an i32 and an f64.
    fn hand_written() -> Chain {
        let level = |shift: u8| {
            let mut values = Vec::new();
            for j in 0..16usize {
                let (ty, op) = match j {
                    14 => (Ty::I32, Op::Mul),
                    15 => (Ty::F64, Op::Add),
                    _ if j % 2 == 0 => (Ty::I64, Op::Add),
                    _ => (Ty::I64, Op::Shl(shift + j as u8)),
                };
                // Operands are i64 values: 14 is the i32.
                let a = match j {
                    0 => Operand::Arg(0),
                    15 => Operand::Value(13),
                    _ => Operand::Value(j - 1),
                };
                let b = if j == 0 { Operand::Arg(1) } else { Operand::Arg(j % 2) };
                values.push(Value { ty, op, a, b, mask: 0x1111 * (j as i64 + 1) });
            }
            Level { values, pass: [Operand::Value(13), Operand::Value(12)] }
        };
        Chain { levels: vec![level(1), level(2), level(3)], realigned: false }
    }

    /// The program's IR: `f0(a, b, c)` is the entry point; `runtime_entry(x, y, z)` the runtime.
    fn ir(&self) -> String {
        let mut ir = String::from(
            "declare void @llvm.experimental.stackmap(i64, i32, ...)\ndeclare i64 @runtime_entry(i64, i64, i64)\n\n",
        );
        let operand = |o: Operand| match o {
            Operand::Arg(i) => format!("%a{i}"),
            Operand::Value(j) => format!("%v{j}"),
        };
        for (i, level) in self.levels.iter().enumerate() {
            writeln!(ir, "define void @f{i}(i64 %a0, i64 %a1, i64 %a2) {{\nentry:").unwrap();
            if self.realigned {
                writeln!(ir, "  %object = alloca i64, align 64\n  store volatile i64 %a0, ptr %object").unwrap();
            }
            for (j, v) in level.values.iter().enumerate() {
                let (a, b) = (operand(v.a), operand(v.b));
                let op = match v.op {
                    Op::Add => format!("add i64 {a}, {b}"),
                    Op::Sub => format!("sub i64 {a}, {b}"),
                    Op::Mul => format!("mul i64 {a}, {b}"),
                    Op::Xor => format!("xor i64 {a}, {b}"),
                    Op::Or => format!("or i64 {a}, {b}"),
                    Op::Shl(n) => format!("shl i64 {a}, {n}"),
                };
                writeln!(ir, "  %t{j} = {op}").unwrap();
                let name = if v.ty == Ty::I64 { format!("%v{j}") } else { format!("%x{j}") };
                writeln!(ir, "  {name} = xor i64 %t{j}, {}", v.mask).unwrap();
                match v.ty {
                    Ty::I64 => {}
                    Ty::I32 => writeln!(ir, "  %v{j} = trunc i64 %x{j} to i32").unwrap(),
                    Ty::F64 => writeln!(ir, "  %v{j} = sitofp i64 %x{j} to double").unwrap(),
                }
            }
            // Every value is used before the call (their sum, passed on), so the optimiser cannot
            // compute any after it: all are live across the call. (A sum, not an exclusive or,
            // which the optimiser would reassociate with the values' own masks.)
            let mut before = "0".to_string();
            for (j, v) in level.values.iter().enumerate() {
                let term = match v.ty {
                    Ty::I64 => format!("%v{j}"),
                    Ty::I32 => {
                        writeln!(ir, "  %w{j} = sext i32 %v{j} to i64").unwrap();
                        format!("%w{j}")
                    }
                    Ty::F64 => {
                        writeln!(ir, "  %w{j} = bitcast double %v{j} to i64").unwrap();
                        format!("%w{j}")
                    }
                };
                writeln!(ir, "  %b{j} = add i64 {before}, {term}").unwrap();
                before = format!("%b{j}");
            }
            let [p, q] = level.pass.map(operand);
            let live: Vec<String> = (level.values.iter().enumerate())
                .map(|(j, v)| format!("{} %v{j}", ["i64", "i32", "double"][v.ty as usize]))
                .collect();
            let stackmap = |id: u64| {
                format!(
                    "  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 {id}, i32 0, {})\n",
                    live.join(", ")
                )
            };
            // The entry's results are not used: a move of one would come before the stack map.
            if i + 1 == self.levels.len() {
                writeln!(ir, "  %r = call i64 @runtime_entry(i64 {p}, i64 {q}, i64 {before})").unwrap();
            } else {
                writeln!(ir, "  call void @f{}(i64 {p}, i64 {q}, i64 {before})", i + 1).unwrap();
            }
            ir.push_str(&stackmap(RECORD_ID + i as u64));
            writeln!(ir, "  %again = call i64 @runtime_entry(i64 {p}, i64 {q}, i64 {before})").unwrap();
            ir.push_str(&stackmap(AGAIN_RECORD_ID + i as u64));
            ir.push_str("  ret void\n}\n\n");
        }
        ir
    }

    /// Each level's values (as the bits a location of their size holds: i32 zero-extended, f64 as
    /// its bits) and the two arguments it passes on (before any write).
    fn evaluate(&self, args: [u64; 2]) -> (Vec<Vec<u64>>, Vec<[u64; 2]>) {
        let mut args = args;
        let (mut levels, mut passed) = (Vec::new(), Vec::new());
        for level in &self.levels {
            let mut values: Vec<u64> = Vec::new();
            let mut raw: Vec<u64> = Vec::new();
            for v in &level.values {
                let get = |o: Operand| match o {
                    Operand::Arg(i) => args[i],
                    Operand::Value(j) => raw[j],
                };
                let (a, b) = (get(v.a), get(v.b));
                let t = match v.op {
                    Op::Add => a.wrapping_add(b),
                    Op::Sub => a.wrapping_sub(b),
                    Op::Mul => a.wrapping_mul(b),
                    Op::Xor => a ^ b,
                    Op::Or => a | b,
                    Op::Shl(n) => a << n,
                };
                let x = t ^ v.mask as u64;
                raw.push(x);
                values.push(match v.ty {
                    Ty::I64 => x,
                    Ty::I32 => x & 0xffff_ffff,
                    Ty::F64 => (x as i64 as f64).to_bits(),
                });
            }
            let pass = |o: Operand| match o {
                Operand::Arg(i) => args[i],
                Operand::Value(j) => raw[j],
            };
            args = [pass(level.pass[0]), pass(level.pass[1])];
            passed.push(args);
            levels.push(values);
        }
        (levels, passed)
    }
}

/// A value replaced by the write test: the old one, changed in every bit its size holds.
fn replacement(old: u64, ty: Ty) -> u64 {
    match ty {
        Ty::I64 => old ^ 0x5a5a_a5a5_0ff0_f00f,
        Ty::I32 => (old ^ 0x0ff0_f00f) & 0xffff_ffff,
        Ty::F64 => (f64::from_bits(old) * -3.0 + 0.25).to_bits(),
    }
}

/// One stop in the entry: the captured registers and the stack from SP up to the caller of `f0`.
#[derive(Clone, Debug)]
struct Stop {
    registers: Registers,
    stack: StackDump,
}

/// What the checks of a run found.
#[derive(Debug, Default)]
struct Checked {
    /// Locations read and compared.
    read: usize,
    /// Of them, values in callee-saved registers of outer frames found in an inner frame's save slot.
    saved_by_inner: usize,
    /// Mismatches and errors, described.
    failures: Vec<String>,
}

/// The chain level a record belongs to, and whether it is the second stack map (after the call).
fn level_of(id: u64) -> (usize, bool) {
    if id >= AGAIN_RECORD_ID {
        ((id - AGAIN_RECORD_ID) as usize, true)
    } else {
        ((id - RECORD_ID) as usize, false)
    }
}

/// Walks `stop` and reads every location of every frame's record, comparing with `expected` (by
/// level, then value); `frames` is how many frames the stop must have.
fn check_stop(
    arch: Arch,
    table: &FrameTable,
    stop: &Stop,
    expected: &[Vec<u64>],
    frames: usize,
    checked: &mut Checked,
) {
    let (registers, memory) = (&stop.registers, &stop.stack);
    let walk = match table.walk(arch, registers, memory) {
        Ok(walk) => walk,
        Err(e) => return checked.failures.push(format!("walk: {e}")),
    };
    if walk.frames().len() != frames {
        checked.failures.push(format!("{} frames walked, {frames} expected", walk.frames().len()));
    }
    for (k, frame) in walk.frames().iter().enumerate() {
        // Each frame's SP is its FP less its fixed frame, the stack size without the frame record
        // (x86-64 counts the pushed RBP in it, AArch64 both of x29 and x30): the walker's caller SP
        // of FP + 16 agrees with the compiler's stack sizes. A realigned frame has no known size: its
        // SP is only below FP, at the alignment of its over-aligned alloca.
        let record_part = if arch == Arch::X86_64 { 8 } else { 16 };
        let stack_size = table.stack_map().functions[frame.function].stack_size;
        if stack_size == DYNAMIC_STACK_SIZE {
            if frame.stack_pointer >= frame.frame_pointer || frame.stack_pointer % 64 != 0 {
                checked.failures.push(format!(
                    "frame {k}: SP {:#x} of a realigned frame is not 64-byte aligned below FP {:#x}",
                    frame.stack_pointer, frame.frame_pointer
                ));
            }
        } else if frame.frame_pointer.wrapping_sub(frame.stack_pointer) != stack_size - record_part {
            checked.failures.push(format!(
                "frame {k}: SP {:#x} is not FP {:#x} less the stack size {stack_size} without the frame record",
                frame.stack_pointer, frame.frame_pointer
            ));
        }
        let Some(record) = frame.record else {
            checked.failures.push(format!("frame {k}: no record at {:#x}", frame.return_address));
            continue;
        };
        let (level, again) = level_of(record.id);
        if level + k + 1 != frames || (again && k > 0) {
            checked.failures.push(format!("frame {k}: record {} in a stop of {frames} frames", record.id));
            continue;
        }
        for (j, location) in record.locations.iter().enumerate() {
            let size = usize::from(location.size).min(8);
            let mask = if size == 8 { u64::MAX } else { (1u64 << (8 * size)) - 1 };
            let want = expected[level][j] & mask;
            // The innermost frame's values are read directly from the capture, without the walker.
            let read = if k == 0 {
                let stopped = patchmap::runtime::Stopped { arch, registers, memory };
                patchmap::runtime::read_location(location, &table.stack_map().constants, &stopped)
                    .map_err(|e| e.to_string())
            } else {
                walk.read(k, location, registers, memory).map_err(|e| e.to_string())
            };
            match read {
                Ok(value) if value == want => checked.read += 1,
                Ok(value) => checked
                    .failures
                    .push(format!("record {} value {j} at {location}: read {value:#x}, expected {want:#x}", record.id)),
                Err(e) => checked.failures.push(format!("record {} value {j} at {location}: {e}", record.id)),
            }
            if k > 0 && location.kind == LocationKind::Register {
                if let Ok(Place::Address(_)) = walk.place(k, location, registers, memory) {
                    checked.saved_by_inner += 1;
                }
            }
        }
    }
}

/// Checks every stop of a run of `chain`: the first is the deepest call's (every level's frame),
/// then each level's second call, innermost first. `written` replaces values (by level and index)
/// from the second stop on.
fn check_run(arch: Arch, table: &FrameTable, chain: &Chain, stops: &[Stop], written: &Written) -> Checked {
    let (values, passed) = chain.evaluate(ARGS);
    let depth = chain.levels.len();
    let mut checked = Checked::default();
    if stops.len() != depth + 1 {
        checked.failures.push(format!("{} stops, {} expected", stops.len(), depth + 1));
        return checked;
    }
    let mut after = values.clone();
    for (&(level, j), &value) in written {
        after[level][j] = value;
    }
    for (n, stop) in stops.iter().enumerate() {
        // Stop 0: the deepest level's first call; stop n: level depth - n's second call.
        let (frames, expected) = if n == 0 { (depth, &values) } else { (depth + 1 - n, &after) };
        // What the innermost level passes to the entry: its arguments, or its values as they are then.
        let level = frames - 1;
        let received = if level == 0 { ARGS } else { passed[level - 1] };
        let want = chain.levels[level].pass.map(|o| match o {
            Operand::Arg(i) => received[i],
            Operand::Value(j) => expected[level][j],
        });
        let (first, second) = arch_arguments(arch);
        let args = [stop.registers.general[first], stop.registers.general[second]];
        if args != want {
            checked.failures.push(format!("stop {n}: the entry's arguments are {args:x?}, not {want:x?}"));
        }
        let before = checked.failures.len();
        check_stop(arch, table, stop, expected, frames, &mut checked);
        for failure in &mut checked.failures[before..] {
            *failure = format!("stop {n}: {failure}");
        }
    }
    checked
}

/// The general registers (DWARF) of a C call's first two integer arguments.
fn arch_arguments(arch: Arch) -> (usize, usize) {
    match arch {
        Arch::X86_64 => (5, 4),
        Arch::Aarch64 => (0, 1),
    }
}

/// The table with one saved register's slot offset moved by 8: a register an inner frame's
/// prologue saved, holding a value an outer frame's record names at `stop`.
fn mutant(arch: Arch, table: &FrameTable, stop: &Stop) -> Option<FrameTable> {
    let (registers, memory) = (&stop.registers, &stop.stack);
    let walk = table.walk(arch, registers, memory).ok()?;
    for (k, frame) in walk.frames().iter().enumerate().skip(1) {
        for location in frame.record?.locations.iter().filter(|l| l.kind == LocationKind::Register) {
            let Ok(Place::Address(slot)) = walk.place(k, location, registers, memory) else { continue };
            for inner in &walk.frames()[..k] {
                let mut map = table.stack_map().clone();
                let saved = map.functions[inner.function].frame.as_mut()?;
                if let Some(register) = saved.registers.iter_mut().find(|r| {
                    r.dwarf_reg == location.dwarf_reg
                        && inner.frame_pointer.wrapping_add(r.offset as i64 as u64) == slot
                }) {
                    register.offset += 8;
                    return FrameTable::new(map).ok();
                }
            }
        }
    }
    None
}

/// The writes of the write test at `stop` (the first): every location of every frame gets
/// [`replacement`] of its value. Returns, for each, where it went (a captured register or an
/// address) with its size and value, and the new values by (level, index).
fn planned_writes(
    arch: Arch,
    chain: &Chain,
    table: &FrameTable,
    registers: &Registers,
    memory: &impl Memory,
) -> (Vec<(Place, u16, u64)>, Written) {
    let (values, _) = chain.evaluate(ARGS);
    let walk = table.walk(arch, registers, memory).unwrap();
    let (mut writes, mut written) = (Vec::new(), HashMap::new());
    for (k, frame) in walk.frames().iter().enumerate() {
        let record = frame.record.unwrap();
        let (level, _) = level_of(record.id);
        for (j, location) in record.locations.iter().enumerate() {
            let new = replacement(values[level][j], chain.levels[level].values[j].ty);
            let place = walk.place(k, location, registers, memory).unwrap();
            if !matches!(place, Place::Value(_)) {
                writes.push((place, location.size.min(8), new));
                written.insert((level, j), new);
            }
            // The same through the walker's own write, which must land in the same place.
            let mut copy_registers = *registers;
            let mut scratch = Scratch::default();
            match walk.write(k, location, new, &mut copy_registers, &mut scratch) {
                Ok(()) => assert!(
                    scratch.0.map(|(a, _, _)| Place::Address(a)) == Some(place)
                        || (copy_registers != *registers && matches!(place, Place::Register(_)))
                        || copy_registers == *registers && registers.get(arch, location.dwarf_reg) == Some(new),
                    "record {} value {j}: the write went elsewhere than {place:?}",
                    record.id
                ),
                Err(WalkError::NotWritable { .. }) => assert!(matches!(place, Place::Value(_))),
                Err(WalkError::Slot(_)) => panic!("record {} value {j}: the place is not writable", record.id),
                Err(e) => panic!("record {} value {j}: {e}", record.id),
            }
        }
    }
    (writes, written)
}

/// Memory that records the last write and reads through to nothing: for checking where a write
/// goes without making it.
#[derive(Default)]
struct Scratch(Option<(u64, usize, u64)>);

impl Memory for Scratch {
    fn read(&self, _: u64, _: usize) -> Option<u64> {
        None
    }
    fn write(&mut self, address: u64, size: usize, value: u64) -> Option<()> {
        self.0 = Some((address, size, value));
        Some(())
    }
}

/// A realigned chain's frames say so, and some of its values are in spill slots found from SP
/// (the frame's distance from FP is unknown), or the chain tests nothing new.
fn check_realigned(arch: Arch, map: &StackMap, chain: &Chain, context: &str) {
    if !chain.realigned {
        return;
    }
    assert!(map.functions.iter().all(|f| f.frame.as_ref().is_some_and(|f| f.has_stack_realignment)), "{context}");
    let from_sp = map.records.iter().flat_map(|r| &r.locations).filter(|l| l.dwarf_reg == arch.stack_pointer());
    assert!(from_sp.count() > 0, "{context}: no location is SP-relative");
}

/// The chains a run covers: the hand-written one, then generated ones (seeds, depths, widths).
fn chains() -> Vec<(String, Chain)> {
    let mut chains = vec![
        ("hand-written".to_string(), Chain::hand_written()),
        ("hand-written, realigned frames".to_string(), Chain { realigned: true, ..Chain::hand_written() }),
        ("seed 2 (4 x 20), realigned frames".to_string(), Chain { realigned: true, ..Chain::random(2, 4, 20) }),
    ];
    for (seed, depth, width) in [(1, 2, 12), (2, 4, 20), (3, 6, 9), (4, 1, 24), (5, 5, 16), (6, 3, 30)] {
        chains.push((format!("seed {seed} ({depth} x {width})"), Chain::random(seed, depth, width)));
    }
    chains
}

/// New values by (level, value index).
type Written = HashMap<(usize, usize), u64>;

const ARGS: [u64; 2] = [0x0123_4567_89ab_cdef, 0x7777_1234_0000_0042];

/// The counts of a test by level (locations read, of them saved by inner frames, mutants that
/// failed), and the closing assertions.
fn report(arch: Arch, totals: &HashMap<&str, (usize, usize, usize)>) {
    eprintln!(
        "{}: (locations read, of them in callee-saved registers saved by inner frames, mutant tables failed): {totals:?}",
        arch.name()
    );
    // `-O none` keeps recorded values in spill slots (the single-pass allocator): the callee-saved
    // registers inner frames saved, and the mutants that move them, are covered at `-O speed`.
    assert!(totals["none"].0 > 0, "-O none: no location was read");
    assert!(totals["speed"].1 > 0, "-O speed: no value was in a callee-saved register an inner frame saved");
    assert!(totals["speed"].2 > 0, "-O speed: no mutant table was tried");
}

/// Checks that a mutant of `table` fails a passing run, where the run had a value saved by an
/// inner frame (else there is no slot offset to get wrong): whether it did.
fn check_mutant(
    arch: Arch,
    table: &FrameTable,
    chain: &Chain,
    stops: &[Stop],
    checked: &Checked,
    context: &str,
) -> bool {
    if checked.saved_by_inner == 0 {
        return false;
    }
    let mutant = mutant(arch, table, &stops[0]).expect("a saved register to move");
    let failed = check_run(arch, &mutant, chain, stops, &HashMap::new());
    assert!(!failed.failures.is_empty(), "{context}: the mutant table passed the check");
    true
}

#[test]
fn the_walker_reads_and_writes_every_frame_of_jit_code_stopped_in_the_entry() {
    if !support::x86_64_host("an x86-64 host for the JIT") {
        return;
    }
    let arch = Arch::X86_64;
    let mut totals: HashMap<&str, (usize, usize, usize)> = HashMap::new();
    for opt in ["none", "speed"] {
        for (name, chain) in chains() {
            for write in [false, true] {
                let context = format!("{name}, -O {opt}{}", if write { ", writing" } else { "" });
                let module = patchmap::ir::parse("chain.ll", &chain.ir()).unwrap();
                let options = Options::new(None, opt, 3).unwrap().with_stackmap_version(Version::FrameTable);
                let stops: Rc<RefCell<Vec<Stop>>> = Rc::default();
                let written: Rc<RefCell<Written>> = Rc::default();
                let table: Rc<RefCell<Option<FrameTable>>> = Rc::default();
                let top = Rc::new(std::cell::Cell::new(0u64));
                let entry = {
                    let (stops, written, table, top, chain) =
                        (stops.clone(), written.clone(), table.clone(), top.clone(), chain.clone());
                    Entry::with_closure(move |registers| {
                        let sp = registers.stack_pointer;
                        // SAFETY: SP..top is this thread's stack, below the test's own frame.
                        let bytes = unsafe { std::slice::from_raw_parts(sp as *const u8, (top.get() - sp) as usize) };
                        let first = stops.borrow().is_empty();
                        stops
                            .borrow_mut()
                            .push(Stop { registers: *registers, stack: StackDump::new(sp, bytes.to_vec()) });
                        if write && first {
                            let table = table.borrow();
                            let table = table.as_ref().unwrap();
                            // SAFETY: the walk only touches the frames of the stopped generated code.
                            let mut memory = unsafe { ProcessMemory::new() };
                            let (_, planned) = planned_writes(arch, &chain, table, registers, &memory);
                            let walk = table.walk(arch, registers, &memory).unwrap();
                            for k in 0..walk.frames().len() {
                                let record = walk.frames()[k].record.unwrap();
                                let (level, _) = level_of(record.id);
                                for (j, location) in record.locations.iter().enumerate() {
                                    if let Some(&new) = planned.get(&(level, j)) {
                                        walk.write(k, location, new, registers, &mut memory).unwrap();
                                    }
                                }
                            }
                            *written.borrow_mut() = planned;
                        }
                        registers.general[0] = ENTRY_RESULT;
                    })
                    .unwrap()
                };
                let code = JitCode::compile_with_symbols(&module, &options, &[("runtime_entry", entry.address())])
                    .unwrap_or_else(|e| panic!("{context}: {e}"));
                let view = StackMapView::parse_version(code.stack_map_section(), Version::FrameTable, Endian::native())
                    .unwrap();
                check_realigned(arch, &view.to_model(), &chain, &context);
                *table.borrow_mut() = Some(FrameTable::new(view.to_model()).unwrap());
                let marker = [0u64; 2];
                top.set(std::hint::black_box(&marker).as_ptr() as u64);
                // SAFETY: the chain's functions take three integers and have no undefined behaviour.
                unsafe { code.call_i64("f0", &[ARGS[0] as i64, ARGS[1] as i64, 0]) }.unwrap();
                let (stops, written) = (stops.borrow(), written.borrow());
                let table = table.borrow();
                let table = table.as_ref().unwrap();
                let checked = check_run(arch, table, &chain, &stops, &written);
                assert!(checked.failures.is_empty(), "{context}:\n{}", checked.failures.join("\n"));
                let values: usize = chain.levels.iter().map(|l| l.values.len()).sum();
                assert!(checked.read >= 2 * values, "{context}: {} locations read", checked.read);
                if write {
                    assert!(!written.is_empty(), "{context}: nothing written");
                } else {
                    let total = totals.entry(opt).or_default();
                    total.0 += checked.read;
                    total.1 += checked.saved_by_inner;
                    total.2 += usize::from(check_mutant(arch, table, &chain, &stops, &checked, &context));
                }
            }
        }
    }
    report(arch, &totals);
}

/// The entry's routine (the library's own assembly text) and `runtime_entry`, the library's stub
/// bytes with the driver's `descriptor` and the routine as its two addresses.
fn entry_assembly(arch: Arch) -> String {
    let stub = arch.entry_stub(0, 0);
    let (code, addresses) = stub.split_at(arch.entry_stub_len() - 16);
    assert_eq!(addresses, [0; 16]);
    let bytes: Vec<String> = code.iter().map(|b| format!("{b:#04x}")).collect();
    format!(
        "{}\n    .text\n    .globl runtime_entry\n    .p2align 4\nruntime_entry:\n    .byte {}\n    .quad descriptor\n    .quad patchmap_entry_save\n{EXACTNESS}",
        patchmap::runtime::entry::assembly(arch),
        bytes.join(", ")
    )
}

/// The AArch64 entry's save and restore, run by the driver's `exact` mode: every register but SP
/// and x30 (the return address) is captured as loaded and restored as the handler changed it,
/// x16 and x17 (which the stub uses) included, all 128 bits of every vector register, and NZCV; and
/// it returns where the handler says (past a trap).
fn check_exactness(toolchain: &support::Toolchain, exe: &Path) {
    let mut command = toolchain.command(exe);
    command.arg("exact");
    let (status, stdout) = support::run_with_deadline(&mut command, std::time::Duration::from_secs(20)).unwrap();
    assert_eq!(status, Some(0), "{stdout}");
    let registers = |name: &str| {
        let hex = stdout.lines().find_map(|l| l.strip_prefix(name)).unwrap_or_else(|| panic!("no {name}:\n{stdout}"));
        let bytes: Vec<u8> =
            (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()).collect();
        Registers::from_bytes(&bytes).unwrap()
    };
    let (before, captured, after) = (registers("before "), registers("captured "), registers("after "));
    for i in 0..30 {
        assert_eq!(captured.general[i], before.general[i], "captured x{i}");
        assert_eq!(after.general[i], before.general[i] ^ (0x1111 * (i as u64 + 1)), "restored x{i}");
    }
    assert_eq!(captured.general[30], captured.return_address, "x30 is the return address");
    assert_eq!(captured.general[31], captured.stack_pointer);
    for i in 0..32 {
        assert_eq!(captured.vector[i], before.vector[i], "captured v{i}");
        assert_eq!(after.vector[i], [!before.vector[i][0], before.vector[i][1] ^ 0xff00], "restored v{i}");
    }
    assert_eq!(captured.flags & 0xf000_0000, before.flags);
    assert_eq!(after.flags & 0xf000_0000, before.flags ^ 0x6000_0000);
}

/// `exactness(before, after)` for the AArch64 driver: loads every register from `before` (a
/// `Registers`: general, vector, NZCV), calls the entry (whose handler resumes past the trap after
/// the call), stores every register into `after`.
pub(crate) const EXACTNESS: &str = "\
    .text\n\
    .globl exactness\n\
    .p2align 4\n\
exactness:\n\
    stp x29, x30, [sp, #-192]!\n\
    stp x19, x20, [sp, #16]\n\
    stp x21, x22, [sp, #32]\n\
    stp x23, x24, [sp, #48]\n\
    stp x25, x26, [sp, #64]\n\
    stp x27, x28, [sp, #80]\n\
    stp d8, d9, [sp, #96]\n\
    stp d10, d11, [sp, #112]\n\
    stp d12, d13, [sp, #128]\n\
    stp d14, d15, [sp, #144]\n\
    str x1, [sp, #160]\n\
    ldr x2, [x0, #768]\n\
    msr nzcv, x2\n\
    ldp q0, q1, [x0, #256]\n\
    ldp q2, q3, [x0, #288]\n\
    ldp q4, q5, [x0, #320]\n\
    ldp q6, q7, [x0, #352]\n\
    ldp q8, q9, [x0, #384]\n\
    ldp q10, q11, [x0, #416]\n\
    ldp q12, q13, [x0, #448]\n\
    ldp q14, q15, [x0, #480]\n\
    ldp q16, q17, [x0, #512]\n\
    ldp q18, q19, [x0, #544]\n\
    ldp q20, q21, [x0, #576]\n\
    ldp q22, q23, [x0, #608]\n\
    ldp q24, q25, [x0, #640]\n\
    ldp q26, q27, [x0, #672]\n\
    ldp q28, q29, [x0, #704]\n\
    ldp q30, q31, [x0, #736]\n\
    ldp x2, x3, [x0, #16]\n\
    ldp x4, x5, [x0, #32]\n\
    ldp x6, x7, [x0, #48]\n\
    ldp x8, x9, [x0, #64]\n\
    ldp x10, x11, [x0, #80]\n\
    ldp x12, x13, [x0, #96]\n\
    ldp x14, x15, [x0, #112]\n\
    ldp x16, x17, [x0, #128]\n\
    ldp x18, x19, [x0, #144]\n\
    ldp x20, x21, [x0, #160]\n\
    ldp x22, x23, [x0, #176]\n\
    ldp x24, x25, [x0, #192]\n\
    ldp x26, x27, [x0, #208]\n\
    ldp x28, x29, [x0, #224]\n\
    ldr x1, [x0, #8]\n\
    ldr x0, [x0]\n\
    bl runtime_entry\n\
    udf #0\n\
    str x0, [sp, #168]\n\
    mrs x0, nzcv\n\
    str x0, [sp, #176]\n\
    ldr x0, [sp, #160]\n\
    str x1, [x0, #8]\n\
    stp x2, x3, [x0, #16]\n\
    stp x4, x5, [x0, #32]\n\
    stp x6, x7, [x0, #48]\n\
    stp x8, x9, [x0, #64]\n\
    stp x10, x11, [x0, #80]\n\
    stp x12, x13, [x0, #96]\n\
    stp x14, x15, [x0, #112]\n\
    stp x16, x17, [x0, #128]\n\
    stp x18, x19, [x0, #144]\n\
    stp x20, x21, [x0, #160]\n\
    stp x22, x23, [x0, #176]\n\
    stp x24, x25, [x0, #192]\n\
    stp x26, x27, [x0, #208]\n\
    stp x28, x29, [x0, #224]\n\
    stp q0, q1, [x0, #256]\n\
    stp q2, q3, [x0, #288]\n\
    stp q4, q5, [x0, #320]\n\
    stp q6, q7, [x0, #352]\n\
    stp q8, q9, [x0, #384]\n\
    stp q10, q11, [x0, #416]\n\
    stp q12, q13, [x0, #448]\n\
    stp q14, q15, [x0, #480]\n\
    stp q16, q17, [x0, #512]\n\
    stp q18, q19, [x0, #544]\n\
    stp q20, q21, [x0, #576]\n\
    stp q22, q23, [x0, #608]\n\
    stp q24, q25, [x0, #640]\n\
    stp q26, q27, [x0, #672]\n\
    stp q28, q29, [x0, #704]\n\
    stp q30, q31, [x0, #736]\n\
    ldr x1, [sp, #168]\n\
    str x1, [x0]\n\
    ldr x1, [sp, #176]\n\
    str x1, [x0, #768]\n\
    ldp x19, x20, [sp, #16]\n\
    ldp x21, x22, [sp, #32]\n\
    ldp x23, x24, [sp, #48]\n\
    ldp x25, x26, [sp, #64]\n\
    ldp x27, x28, [sp, #80]\n\
    ldp d8, d9, [sp, #96]\n\
    ldp d10, d11, [sp, #112]\n\
    ldp d12, d13, [sp, #128]\n\
    ldp d14, d15, [sp, #144]\n\
    ldp x29, x30, [sp], #192\n\
    ret\n\
";

/// The stops the AArch64 driver printed ("registers <hex>" and "stack <SP> <hex>" each).
fn parse_stops(stdout: &str) -> Result<Vec<Stop>, String> {
    let bytes = |hex: &str| -> Result<Vec<u8>, String> {
        (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).map_err(|e| e.to_string())).collect()
    };
    if stdout.lines().find_map(|l| l.strip_prefix("direct ")) != Some("43") {
        return Err(format!("a direct call of the entry did not return 6 * 10 + 7:\n{stdout}"));
    }
    let mut stops = Vec::new();
    let mut lines = stdout.lines().filter(|l| !l.starts_with("direct "));
    while let Some(line) = lines.next() {
        let registers = line.strip_prefix("registers ").ok_or_else(|| format!("unexpected line {line}"))?;
        let registers = Registers::from_bytes(&bytes(registers)?).ok_or("short registers")?;
        let stack = lines.next().and_then(|l| l.strip_prefix("stack ")).ok_or("no stack line")?;
        let (sp, stack) = stack.split_once(' ').ok_or("no stack bytes")?;
        let stack = StackDump::new(u64::from_str_radix(sp, 16).map_err(|e| e.to_string())?, bytes(stack)?);
        stops.push(Stop { registers, stack });
    }
    Ok(stops)
}

#[test]
fn the_walker_reads_and_writes_every_frame_of_aarch64_code_stopped_in_the_entry_under_qemu() {
    let arch = Arch::Aarch64;
    let Some(toolchain) = support::toolchain(arch) else { return };
    let dir = tempfile::tempdir().unwrap();
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/frame_walk/driver.c");
    let entry = dir.path().join("entry.s");
    std::fs::write(&entry, entry_assembly(arch)).unwrap();
    let mut totals: HashMap<&str, (usize, usize, usize)> = HashMap::new();
    let mut exactness_checked = false;
    for opt in ["none", "speed"] {
        for (name, chain) in chains() {
            let context = format!("{name}, -O {opt}");
            let module = patchmap::ir::parse("chain.ll", &chain.ir()).unwrap();
            let options = Options::new(Some("aarch64"), opt, 3).unwrap().with_stackmap_version(Version::FrameTable);
            let object =
                patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{context}: {e}"));
            let (object_path, exe) = (dir.path().join("chain.o"), dir.path().join("chain"));
            std::fs::write(&object_path, &object).unwrap();
            let mut link = std::process::Command::new(&toolchain.linker);
            link.arg(&driver).arg(&entry).arg(&object_path).arg("-static").arg("-o").arg(&exe);
            let (code, _, err) = support::run(&mut link);
            assert_eq!(code, 0, "{context}: linking failed: {err}");
            // The linked section holds the functions' final addresses.
            let (maps, _) = object_file::read_models(&std::fs::read(&exe).unwrap()).unwrap();
            let map: StackMap = maps.into_iter().next().unwrap();
            check_realigned(arch, &map, &chain, &context);
            let table = FrameTable::new(map).unwrap();
            let run = |writes: &[String]| {
                let mut command = toolchain.command(&exe);
                command
                    .arg(format!("{:x}", ARGS[0]))
                    .arg(format!("{:x}", ARGS[1]))
                    .env("PATCHMAP_ENTRY_RESULT", format!("{ENTRY_RESULT:x}"))
                    .env("PATCHMAP_WRITES", writes.join(","));
                let (status, stdout) =
                    support::run_with_deadline(&mut command, std::time::Duration::from_secs(20)).unwrap();
                assert_eq!(status, Some(0), "{context}: {stdout}");
                parse_stops(&stdout).unwrap_or_else(|e| panic!("{context}: {e}"))
            };
            if !exactness_checked {
                check_exactness(&toolchain, &exe);
                exactness_checked = true;
            }
            let stops = run(&[]);
            let checked = check_run(arch, &table, &chain, &stops, &Written::new());
            assert!(checked.failures.is_empty(), "{context}:\n{}", checked.failures.join("\n"));
            let total = totals.entry(opt).or_default();
            total.0 += checked.read;
            total.1 += checked.saved_by_inner;
            total.2 += usize::from(check_mutant(arch, &table, &chain, &stops, &checked, &context));
            // The write test: the writes the walker plans at the first stop, which the driver's
            // handler makes in a second run (relative to SP: the stack may sit elsewhere).
            let first = &stops[0];
            let (writes, written) = planned_writes(arch, &chain, &table, &first.registers, &first.stack);
            let sp = first.registers.stack_pointer;
            let writes: Vec<String> = writes
                .iter()
                .map(|&(place, size, value)| match place {
                    Place::Register(dwarf) => format!("r:{dwarf}:{size}:{value:x}"),
                    Place::Address(address) => format!("m:{}:{size}:{value:x}", address.wrapping_sub(sp) as i64),
                    Place::Value(_) => unreachable!("not planned"),
                })
                .collect();
            assert!(!writes.is_empty());
            let stops = run(&writes);
            let checked = check_run(arch, &table, &chain, &stops, &written);
            assert!(checked.failures.is_empty(), "{context}, writing:\n{}", checked.failures.join("\n"));
        }
    }
    report(arch, &totals);
}
