//! Run-time proof of the frame table (issue 23): programs whose functions call each other in a
//! chain `f0 -> f1 -> ... -> fN -> runtime_entry`, each keeping more values live across its call
//! than there are callee-saved registers, with a stack map right after the call naming them. Stopped
//! in the runtime entry (`patchmap::runtime::Entry`, which captures every register), the frame-table
//! walker reads every location of every frame's record, and each must equal the value the program
//! computed (the test computes them itself from the program's arguments). Some values must be in
//! callee-saved registers of outer frames that inner frames saved (counted), or the test proves
//! nothing; a mutant table (one saved register's slot offset changed) must fail the check. A write
//! test rewrites every location of every frame from the handler, and the program's result (a
//! checksum of its values after the calls) must show the new values.
//!
//! x86-64 runs natively through the JIT and the real entry. AArch64 runs under qemu-aarch64: the
//! object, a C driver (`tests/frame_walk/driver.c`) and the entry's own assembly text with the
//! library's stub bytes, linked by aarch64-linux-gnu-gcc; the driver's handler prints the captured
//! registers and the stack, and this test walks that dump (and, for the write test, sends back the
//! writes to make, relative to the stack pointer). Hand-written programs and generated ones (seeds,
//! several depths and widths), at `-O none` and `-O speed`.

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
use patchmap::stackmap::{object_file, Endian, LocationKind, StackMap, StackMapView, Version};
use support::Arch;

/// What the entry's handler returns in the result register.
const ENTRY_RESULT: u64 = 0x0e27_0e27;
/// The first record ID; level `i` of a chain has `RECORD_ID + i`.
const RECORD_ID: u64 = 100;

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
                    let mut operand = |rng: &mut Rng| {
                        if i64s.is_empty() || rng.below(3) == 0 {
                            Operand::Arg(rng.below(2))
                        } else {
                            Operand::Value(i64s[rng.below(i64s.len())])
                        }
                    };
                    let (a, b) = (operand(&mut rng), operand(&mut rng));
                    let op = match rng.below(6) {
                        0 => Op::Add,
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
                let mut pass = |rng: &mut Rng| {
                    if i64s.is_empty() {
                        Operand::Arg(rng.below(2))
                    } else {
                        Operand::Value(i64s[rng.below(i64s.len())])
                    }
                };
                Level { pass: [pass(&mut rng), pass(&mut rng)], values }
            })
            .collect();
        Chain { levels }
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
                let a = if j == 0 { Operand::Arg(0) } else { Operand::Value(j - 1) };
                let b = if j == 0 { Operand::Arg(1) } else { Operand::Arg(j % 2) };
                values.push(Value { ty, op, a, b, mask: 0x1111 * (j as i64 + 1) });
            }
            Level { values, pass: [Operand::Value(13), Operand::Value(12)] }
        };
        Chain { levels: vec![level(1), level(2), level(3)] }
    }

    /// The program's IR: `f0(a, b)` is the entry point; `runtime_entry(x, y)` the runtime.
    fn ir(&self) -> String {
        let mut ir = String::from(
            "declare void @llvm.experimental.stackmap(i64, i32, ...)\ndeclare i64 @runtime_entry(i64, i64)\n\n",
        );
        let operand = |o: Operand| match o {
            Operand::Arg(i) => format!("%a{i}"),
            Operand::Value(j) => format!("%v{j}"),
        };
        for (i, level) in self.levels.iter().enumerate() {
            writeln!(ir, "define i64 @f{i}(i64 %a0, i64 %a1) {{\nentry:").unwrap();
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
            let callee = if i + 1 == self.levels.len() { "runtime_entry".to_string() } else { format!("f{}", i + 1) };
            let [p, q] = level.pass.map(operand);
            writeln!(ir, "  %r = call i64 @{callee}(i64 {p}, i64 {q})").unwrap();
            let live: Vec<String> = level
                .values
                .iter()
                .enumerate()
                .map(|(j, v)| format!("{} %v{j}", ["i64", "i32", "double"][v.ty as usize]))
                .collect();
            writeln!(
                ir,
                "  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 {}, i32 0, {})",
                RECORD_ID + i as u64,
                live.join(", ")
            )
            .unwrap();
            let mut sum = "%r".to_string();
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
                writeln!(ir, "  %m{j} = mul i64 {sum}, 33\n  %s{j} = add i64 %m{j}, {term}").unwrap();
                sum = format!("%s{j}");
            }
            writeln!(ir, "  ret i64 {sum}\n}}\n").unwrap();
        }
        ir
    }

    /// Each level's values (as the bits a location of their size holds: i32 zero-extended, f64 as
    /// its bits), the entry's arguments, and the program's result when `changed` replaces values
    /// (by level and index) after the calls.
    fn evaluate(&self, args: [u64; 2], changed: &HashMap<(usize, usize), u64>) -> (Vec<Vec<u64>>, [u64; 2], u64) {
        let mut args = args;
        let mut levels = Vec::new();
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
            levels.push(values);
        }
        let mut result = ENTRY_RESULT;
        for (i, level) in self.levels.iter().enumerate().rev() {
            let mut sum = result;
            for (j, v) in level.values.iter().enumerate() {
                let value = changed.get(&(i, j)).copied().unwrap_or(levels[i][j]);
                let term = if v.ty == Ty::I32 { value as u32 as i32 as i64 as u64 } else { value };
                sum = sum.wrapping_mul(33).wrapping_add(term);
            }
            result = sum;
        }
        (levels, args, result)
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

/// What one stop's check found.
#[derive(Debug, Default)]
struct Checked {
    /// Locations read and compared.
    read: usize,
    /// Of them, values in callee-saved registers of outer frames found in an inner frame's save slot.
    saved_by_inner: usize,
    /// Mismatches and errors, described.
    failures: Vec<String>,
}

/// Walks the stop and reads every location of every frame's record, comparing with `expected`
/// (by level): the frames must be the chain's, innermost (the last level) first.
fn check_stop(arch: Arch, table: &FrameTable, registers: &Registers, memory: &impl Memory, expected: &[Vec<u64>]) -> Checked {
    let mut checked = Checked::default();
    let walk = match table.walk(arch, registers, memory) {
        Ok(walk) => walk,
        Err(e) => {
            checked.failures.push(format!("walk: {e}"));
            return checked;
        }
    };
    if walk.frames().len() != expected.len() {
        checked.failures.push(format!("{} frames walked, {} expected", walk.frames().len(), expected.len()));
    }
    for (k, frame) in walk.frames().iter().enumerate() {
        let Some(level) = expected.len().checked_sub(k + 1) else { break };
        let Some(record) = frame.record else {
            checked.failures.push(format!("frame {k}: no record at {:#x}", frame.return_address));
            continue;
        };
        if record.id != RECORD_ID + level as u64 {
            checked.failures.push(format!("frame {k}: record {} where f{level}'s was expected", record.id));
            continue;
        }
        for (j, location) in record.locations.iter().enumerate() {
            let size = usize::from(location.size).min(8);
            let mask = if size == 8 { u64::MAX } else { (1u64 << (8 * size)) - 1 };
            match walk.read(k, location, registers, memory) {
                Ok(value) if value == expected[level][j] & mask => checked.read += 1,
                Ok(value) => checked.failures.push(format!(
                    "f{level} value {j} at {location}: read {value:#x}, computed {:#x}",
                    expected[level][j] & mask
                )),
                Err(e) => checked.failures.push(format!("f{level} value {j} at {location}: {e}")),
            }
            if k > 0 && location.kind == LocationKind::Register {
                if let Ok(Place::Address(_)) = walk.place(k, location, registers, memory) {
                    checked.saved_by_inner += 1;
                }
            }
        }
    }
    checked
}

/// The table with one saved register's slot offset moved by 8: the first saved register (not the
/// frame record) of an inner frame's function that holds a value an outer frame's record names.
fn mutant(arch: Arch, table: &FrameTable, registers: &Registers, memory: &impl Memory) -> Option<FrameTable> {
    let walk = table.walk(arch, registers, memory).ok()?;
    for (k, frame) in walk.frames().iter().enumerate().skip(1) {
        for location in frame.record?.locations.iter().filter(|l| l.kind == LocationKind::Register) {
            let Ok(Place::Address(slot)) = walk.place(k, location, registers, memory) else { continue };
            // The inner frame whose prologue saved it: its FP plus the register's offset is `slot`.
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

/// The chains a run covers: the hand-written one, then generated ones (seeds, depths, widths).
fn chains() -> Vec<(String, Chain)> {
    let mut chains = vec![("hand-written".to_string(), Chain::hand_written())];
    for (seed, depth, width) in [(1, 2, 12), (2, 4, 20), (3, 6, 9), (4, 1, 24), (5, 5, 16), (6, 3, 30)] {
        chains.push((format!("seed {seed} ({depth} x {width})"), Chain::random(seed, depth, width)));
    }
    chains
}

const ARGS: [u64; 2] = [0x0123_4567_89ab_cdef, 0x7777_1234_0000_0042];

/// What the x86-64 handler saw: the registers and the stack from SP to the test's frame.
#[derive(Default)]
struct Capture {
    registers: Option<Registers>,
    stack: Option<StackDump>,
    entry_args: [u64; 2],
    /// Writes made (level, value index) -> new value.
    written: HashMap<(usize, usize), u64>,
    write_errors: Vec<String>,
}

#[test]
fn the_walker_reads_every_frame_of_jit_code_stopped_in_the_entry() {
    if !support::x86_64_host("an x86-64 host for the JIT") {
        return;
    }
    let arch = Arch::X86_64;
    let (mut total_read, mut total_saved) = (HashMap::new(), HashMap::new());
    for opt in ["none", "speed"] {
        for (name, chain) in chains() {
            for write in [false, true] {
                let context = format!("{name}, -O {opt}{}", if write { ", writing" } else { "" });
                let module = patchmap::ir::parse("chain.ll", &chain.ir()).unwrap();
                let options = Options::new(None, opt, 3).unwrap().with_stackmap_version(Version::FrameTable);
                let capture = Rc::new(RefCell::new(Capture::default()));
                let table: Rc<RefCell<Option<FrameTable>>> = Rc::default();
                let top = Rc::new(std::cell::Cell::new(0u64));
                let (expected, entry_args, _) = chain.evaluate(ARGS, &HashMap::new());
                let entry = {
                    let (capture, table, top, chain) = (capture.clone(), table.clone(), top.clone(), chain.clone());
                    let expected = expected.clone();
                    Entry::with_closure(move |registers| {
                        let mut capture = capture.borrow_mut();
                        capture.entry_args = [registers.general[5], registers.general[4]];
                        let sp = registers.stack_pointer;
                        // SAFETY: SP..top is this thread's stack, below the test's own frame.
                        let bytes = unsafe { std::slice::from_raw_parts(sp as *const u8, (top.get() - sp) as usize) };
                        capture.registers = Some(*registers);
                        capture.stack = Some(StackDump::new(sp, bytes.to_vec()));
                        if write {
                            let table = table.borrow();
                            let table = table.as_ref().unwrap();
                            // SAFETY: the walk only touches the frames of the stopped generated code.
                            let mut memory = unsafe { ProcessMemory::new() };
                            let walk = table.walk(arch, registers, &memory).unwrap();
                            let levels = chain.levels.len();
                            for k in 0..walk.frames().len() {
                                let level = levels - 1 - k;
                                let record = walk.frames()[k].record.unwrap();
                                for (j, location) in record.locations.iter().enumerate() {
                                    let new = replacement(expected[level][j], chain.levels[level].values[j].ty);
                                    match walk.write(k, location, new, registers, &mut memory) {
                                        Ok(()) => {
                                            capture.written.insert((level, j), new);
                                        }
                                        Err(WalkError::NotWritable { .. }) => {}
                                        Err(e) => capture.write_errors.push(format!("f{level} value {j}: {e}")),
                                    }
                                }
                            }
                        }
                        registers.general[0] = ENTRY_RESULT;
                    })
                    .unwrap()
                };
                let code =
                    JitCode::compile_with_symbols(&module, &options, &[("runtime_entry", entry.address())]).unwrap();
                let view = StackMapView::parse_version(code.stack_map_section(), Version::FrameTable, Endian::native())
                    .unwrap();
                *table.borrow_mut() = Some(FrameTable::new(view.to_model()).unwrap());
                let marker = [0u64; 2];
                top.set(std::hint::black_box(&marker).as_ptr() as u64);
                // SAFETY: the chain's functions take two integers and have no undefined behaviour.
                let result = unsafe { code.call_i64("f0", &[ARGS[0] as i64, ARGS[1] as i64]) }.unwrap() as u64;
                let capture = capture.borrow();
                assert_eq!(capture.entry_args, entry_args, "{context}: the entry's arguments");
                let (registers, stack) = (capture.registers.unwrap(), capture.stack.as_ref().unwrap());
                let table = table.borrow();
                let table = table.as_ref().unwrap();
                let checked = check_stop(arch, table, &registers, stack, &expected);
                assert!(checked.failures.is_empty(), "{context}:\n{}", checked.failures.join("\n"));
                assert_eq!(checked.read, chain.levels.iter().map(|l| l.values.len()).sum::<usize>(), "{context}");
                *total_read.entry(opt).or_insert(0) += checked.read;
                *total_saved.entry(opt).or_insert(0) += checked.saved_by_inner;
                if write {
                    assert!(capture.write_errors.is_empty(), "{context}:\n{}", capture.write_errors.join("\n"));
                    let (_, _, expected_result) = chain.evaluate(ARGS, &capture.written);
                    assert_eq!(result, expected_result, "{context}: the program's checksum after the writes");
                    assert!(!capture.written.is_empty());
                } else {
                    assert_eq!(result, chain.evaluate(ARGS, &HashMap::new()).2, "{context}: the program's result");
                    if checked.saved_by_inner > 0 {
                        let mutant = mutant(arch, table, &registers, stack).expect("a saved register to move");
                        let failed = check_stop(arch, &mutant, &registers, stack, &expected);
                        assert!(!failed.failures.is_empty(), "{context}: the mutant table passed the check");
                    }
                }
            }
        }
    }
    eprintln!("x86-64: locations read {total_read:?}, of them in callee-saved registers saved by inner frames {total_saved:?}");
    for opt in ["none", "speed"] {
        assert!(total_saved[opt] > 0, "-O {opt}: no value was in a callee-saved register an inner frame saved");
    }
}
