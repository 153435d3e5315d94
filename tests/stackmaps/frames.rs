//! The frame of each function the compiler writes (`FunctionRecord::frame`, the frame-table
//! layout's frame record): its function size equals its ELF symbol's size, and its frame registers
//! (DWARF number, offset from the frame pointer, size) are exactly the stores of its prologue in
//! the disassembly (llvm-objdump-19), flags and base register as documented; over the ir-examples
//! on both targets at `-O none` and `-O speed`. A mutant (one register's offset off by 8, or the
//! function size off by one) must fail the same check.

use crate::call_sizes::{function_symbols, visit_compiled_examples, Disassembly, TARGETS};
use crate::support;

use object::{Object, ObjectSection, ObjectSymbol};
use patchmap::compile::Options;
use patchmap::stackmap::{self, Frame, StackMap, Version};

/// DWARF number of a register as llvm-objdump-19 names it (8-byte and 16-byte stores).
fn dwarf(name: &str) -> Option<(u16, u8)> {
    const X86: [&str; 16] =
        ["rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"];
    let name = name.trim_start_matches('%');
    if let Some(i) = X86.iter().position(|r| *r == name) {
        return Some((i as u16, 8));
    }
    let number = |prefix: &str| name.strip_prefix(prefix)?.parse::<u16>().ok();
    number("x")
        .map(|n| (n, 8))
        .or_else(|| number("d").map(|n| (64 + n, 8)))
        .or_else(|| number("q").map(|n| (64 + n, 16)))
}

/// Whether the ABI has callee preserve `name`: at the entry these hold the caller's values, so a
/// store of one can only be the prologue's save, and a store of any other register is the body's.
fn callee_saved(name: &str) -> bool {
    let Some((n, _)) = dwarf(name) else { return false };
    if name.starts_with('%') {
        [3, 6, 12, 13, 14, 15].contains(&n)
    } else {
        (19..=30).contains(&n) || (72..=79).contains(&n)
    }
}

fn immediate(text: &str) -> Option<i64> {
    let text = text.trim().trim_start_matches(['$', '#']);
    let (negative, text) = text.strip_prefix('-').map_or((false, text), |t| (true, t));
    let value = i64::from_str_radix(text.strip_prefix("0x")?, 16).ok()?;
    Some(if negative { -value } else { value })
}

/// What the prologue at `start` stores, as (DWARF number, offset from the frame pointer, size),
/// sorted by offset, and whether it set the frame pointer. Tracks SP from the entry through pushes,
/// pre-indexed stores and SP adjustments; ends at the first other instruction.
pub fn prologue_stores(code: &Disassembly, section: &str, start: u64) -> (Vec<(u16, i32, u8)>, bool) {
    let (mut sp, mut fp, mut at) = (0i64, None, start);
    let mut stores = Vec::new();
    while let Some((length, mnemonic, operands)) = code.get(&(section.to_string(), at)) {
        // A memory operand ("[sp, #-0x10]!") stays whole.
        let (registers, memory) = operands.split_once('[').map_or((operands.as_str(), None), |(r, m)| (r, Some(m)));
        let mut ops: Vec<&str> = registers.split(", ").map(str::trim).filter(|o| !o.is_empty()).collect();
        let memory = memory.map(|m| format!("[{m}"));
        if let Some(m) = &memory {
            ops.push(m);
        }
        match (mnemonic.as_str(), ops.as_slice()) {
            ("pushq", [reg]) => {
                sp -= 8;
                stores.push((dwarf(reg).unwrap(), sp));
            }
            ("movq", ["%rsp", "%rbp"]) | ("mov", ["x29", "sp"]) => fp = Some(sp),
            ("subq", [n, "%rsp"]) | ("sub", ["sp", "sp", n]) => sp -= immediate(n).unwrap(),
            // A realigned frame (an over-aligned alloca): SP is rounded down, the saves go from FP.
            ("andq", [_, "%rsp"]) if fp.is_some() => {}
            ("movq", [reg, mem]) if mem.ends_with("(%rbp)") && callee_saved(reg) && fp.is_some() => {
                let k = mem.trim_end_matches("(%rbp)");
                stores.push((dwarf(reg).unwrap(), fp.unwrap() + if k.is_empty() { 0 } else { immediate(k).unwrap() }));
            }
            ("movq", [reg, mem]) if mem.ends_with("(%rsp)") && callee_saved(reg) => {
                let k = mem.trim_end_matches("(%rsp)");
                stores.push((dwarf(reg).unwrap(), sp + if k.is_empty() { 0 } else { immediate(k).unwrap() }));
            }
            ("stp" | "str", [regs @ .., mem]) if mem.starts_with("[sp") && regs.iter().all(|r| callee_saved(r)) => {
                let pre = mem.ends_with('!');
                let inner = mem.trim_end_matches('!').trim_start_matches('[').trim_end_matches(']');
                let offset = inner.split_once(", ").map_or(0, |(_, k)| immediate(k).unwrap());
                let base = if pre {
                    sp += offset;
                    sp
                } else {
                    sp + offset
                };
                let mut address = base;
                for reg in regs {
                    let (n, size) = dwarf(reg).unwrap();
                    stores.push(((n, size), address));
                    address += i64::from(size);
                }
            }
            _ => break,
        }
        at += length;
    }
    let Some(fp) = fp else { return (Vec::new(), false) };
    let mut stores: Vec<(u16, i32, u8)> =
        stores.into_iter().map(|((n, size), address)| (n, (address - fp) as i32, size)).collect();
    stores.sort_by_key(|s| s.1);
    (stores, true)
}

fn check(object: &[u8], map: &StackMap, code: &Disassembly) -> (Vec<String>, usize) {
    let file = object::File::parse(object).unwrap();
    let symbols = function_symbols(&file);
    let (mut failures, mut checked) = (Vec::new(), 0);
    let mut records = map.records.iter();
    for (i, function) in map.functions.iter().enumerate() {
        let symbol = &symbols[&(i as u64)];
        let name = symbol.name().unwrap();
        let section = file.section_by_index(symbol.section_index().unwrap()).unwrap().name().unwrap().to_string();
        let Some(frame) = &function.frame else {
            failures.push(format!("{name}: no frame"));
            continue;
        };
        checked += 1;
        let has_live_outs = records.by_ref().take(function.record_count as usize).any(|r| r.has_live_out_info);
        if u64::from(frame.function_size) != symbol.size() {
            failures.push(format!("{name}: function size {} but symbol size {}", frame.function_size, symbol.size()));
        }
        let (stores, sets_fp) = prologue_stores(code, &section, symbol.address());
        let registers: Vec<(u16, i32, u8)> = frame.registers.iter().map(|r| (r.dwarf_reg, r.offset, r.size)).collect();
        if registers != stores || !frame.registers.iter().all(|r| r.is_spilled) {
            failures.push(format!("{name}: frame registers {registers:?}, prologue stores {stores:?}"));
        }
        let fp = if file.architecture() == object::Architecture::X86_64 { 6 } else { 29 };
        let expected = (sets_fp, false, false, has_live_outs, fp);
        let flags = (
            frame.has_frame,
            frame.has_variable_size_alloca,
            frame.has_stack_realignment,
            frame.has_live_out_info,
            frame.base_register,
        );
        if flags != expected {
            failures.push(format!("{name}: flags and base {flags:?}, expected {expected:?}"));
        }
    }
    (failures, checked)
}

/// Runs `check` on every compiled example after `mutate` on each frame: the failures, and the
/// number of frames checked.
fn check_examples(mutate: impl Fn(&mut Frame)) -> Option<(Vec<String>, usize)> {
    let (mut failures, mut checked) = (Vec::new(), 0);
    visit_compiled_examples(|_, context, object, mut map, code| {
        map.functions.iter_mut().filter_map(|f| f.frame.as_mut()).for_each(&mutate);
        let (found, n) = check(object, &map, code);
        failures.extend(found.into_iter().map(|f| format!("{context}: {f}")));
        checked += n;
    })?;
    Some((failures, checked))
}

#[test]
fn frames_are_the_symbols_and_prologues() {
    let Some((failures, checked)) = check_examples(|_| {}) else { return };
    eprintln!("frames checked: {checked}");
    assert!(checked > 0);
    assert!(failures.is_empty(), "{} wrong frames:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn a_wrong_slot_offset_or_function_size_fails_the_check() {
    let Some((failures, checked)) = check_examples(|frame| frame.registers[0].offset += 8) else { return };
    assert_eq!(failures.len(), checked, "every mutated frame must fail:\n{}", failures.join("\n"));
    let Some((failures, checked)) = check_examples(|frame| frame.function_size += 1) else { return };
    assert_eq!(failures.len(), checked, "every mutated frame must fail:\n{}", failures.join("\n"));
}

/// The frame table written into an object (`Version::FrameTable`, `--stackmap-version rfc2`) reads
/// back as the map the compiler built, frames and call sizes included, and its function records are
/// relocated against the functions (the relocations sit on the frame table's address fields).
#[test]
fn objects_with_the_frame_table_read_back_as_compiled() {
    for ll in support::ir_examples() {
        let module = patchmap::ir::parse_file(&ll).unwrap();
        for target in TARGETS {
            let options = Options::new(Some(target), "speed", 3).unwrap().with_stackmap_version(Version::FrameTable);
            let (object, map) = patchmap::emit::object::compile_with_stack_map(&module, &options).unwrap();
            if map.records.is_empty() {
                continue;
            }
            let (models, _) = stackmap::object_file::read_models(&object)
                .unwrap_or_else(|e| panic!("{} ({target}): {e}", ll.display()));
            assert_eq!(models, std::slice::from_ref(&map), "{} ({target})", ll.display());
            let file = object::File::parse(&*object).unwrap();
            let section = file.section_by_name(".llvm_stackmaps").unwrap();
            let mut relocated: Vec<u64> = section.relocations().map(|(offset, _)| offset).collect();
            relocated.sort_unstable();
            let table = map.function_table_offset(Version::FrameTable);
            let fields: Vec<u64> = (0..map.functions.len())
                .map(|i| (table + i * Version::FrameTable.function_record_size()) as u64)
                .collect();
            assert_eq!(relocated, fields, "{} ({target})", ll.display());
        }
    }
}
