//! The call size of each record the compiler writes (`Record::call_size`, the frame-table layout's
//! field), by its rule "the record's offset is a call's return address -> that call's size, else
//! 0": for every record with a non-zero call size, an instruction of the function's disassembly
//! (llvm-objdump-19) starts `call_size` bytes before the record's offset, is a call (`call` on
//! x86-64, `bl`/`blr` on AArch64) and is exactly `call_size` bytes long; every record with 0 but a
//! patch point's (which LLVM places at its region's start) does not follow a call; every statepoint
//! with a call has one (the ir-examples' `gc_*` files), and so does a stack map right after a call
//! (`sm_*`), on both targets, at `-O none` and `-O speed`. A mutant (each call size off by one) must
//! fail the same check.

use crate::support;

use std::collections::HashMap;
use std::path::Path;

use object::{Object, ObjectSection, ObjectSymbol, RelocationTarget};
use patchmap::compile::{Options, Target};
use patchmap::stackmap::{LocationKind, StackMap};

pub const TARGETS: [&str; 2] = ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"];
pub const OPTS: [&str; 2] = ["none", "speed"];

/// One disassembled instruction: its length, mnemonic and operands, keyed by (section name, address).
pub type Disassembly = HashMap<(String, u64), (u64, String, String)>;

/// The instructions of every code section of `object`, from `llvm-objdump-19 -d`.
pub fn disassemble(objdump: &Path, object: &[u8], dir: &Path) -> Disassembly {
    let path = dir.join("module.o");
    std::fs::write(&path, object).unwrap();
    let (code, out, err) = support::run(std::process::Command::new(objdump).arg("-d").arg(&path));
    assert_eq!(code, 0, "llvm-objdump-19 failed: {err}");
    let mut instructions = Disassembly::new();
    let mut section = String::new();
    for line in out.lines() {
        if let Some(name) = line.strip_prefix("Disassembly of section ") {
            section = name.trim_end_matches(':').to_string();
            continue;
        }
        // "     1c: e8 00 00 00 00                	callq	0x21 <f+0x21>"
        let Some((address, rest)) = line.trim_start().split_once(": ") else { continue };
        let Ok(address) = u64::from_str_radix(address, 16) else { continue };
        let (bytes, text) = rest.split_once('\t').unwrap_or((rest, ""));
        let length = bytes.split_whitespace().map(|b| b.len() as u64 / 2).sum();
        let (mnemonic, operands) = text.split_once('\t').unwrap_or((text, ""));
        let operands = operands.split(" //").next().unwrap_or("").split("  #").next().unwrap_or("").trim();
        instructions.insert((section.clone(), address), (length, mnemonic.trim().to_string(), operands.to_string()));
    }
    instructions
}

/// Checks every record with a call size against the disassembly; returns the failures and how many
/// records were checked. `mutate` changes each call size before the check (the mutant test).
/// The symbol of each function record of a version-3 section, by index: record i's address is
/// relocated at 16 + 24 i against it.
pub fn function_symbols<'a>(file: &'a object::File<'a>) -> HashMap<u64, object::Symbol<'a, 'a>> {
    let section = file.section_by_name(".llvm_stackmaps").expect("a stack map section");
    let mut symbols = HashMap::new();
    for (offset, reloc) in section.relocations() {
        let RelocationTarget::Symbol(index) = reloc.target() else { panic!("a section relocation") };
        symbols.insert((offset - 16) / 24, file.symbol_by_index(index).unwrap());
    }
    symbols
}

fn check(object: &[u8], map: &StackMap, code: &Disassembly, mutate: impl Fn(u8) -> u8) -> (Vec<String>, Checked) {
    let file = object::File::parse(object).unwrap();
    let symbols = function_symbols(&file);
    let (mut failures, mut checked) = (Vec::new(), Checked::default());
    // The call instruction that ends at each address, by (section, address): its length.
    let calls_ending: HashMap<(&str, u64), u64> = code
        .iter()
        .filter(|(_, (_, mnemonic, _))| matches!(mnemonic.as_str(), "call" | "callq" | "bl" | "blr"))
        .map(|((section, address), (length, _, _))| ((section.as_str(), address + length), *length))
        .collect();
    let mut records = map.records.iter();
    for (i, function) in map.functions.iter().enumerate() {
        let symbol = &symbols[&(i as u64)];
        let code_section = file.section_by_index(symbol.section_index().unwrap()).unwrap().name().unwrap().to_string();
        for record in records.by_ref().take(function.record_count as usize) {
            // Live-outs are only recorded (and flagged) at patch points, which are not at a return address.
            if (!record.live_outs.is_empty() && !record.has_live_out_info)
                || (record.call_size > 0 && record.has_live_out_info)
            {
                failures.push(format!(
                    "record {}: live-outs {:?} flagged {}",
                    record.id, record.live_outs, record.has_live_out_info
                ));
            }
            let call_size = mutate(record.call_size);
            let name = symbol.name().unwrap();
            let at = symbol.address() + u64::from(record.instruction_offset);
            if call_size == 0 {
                if let Some(length) =
                    calls_ending.get(&(code_section.as_str(), at)).filter(|_| !record.has_live_out_info)
                {
                    failures.push(format!(
                        "{name}: record {} at {at:#x} follows a {length}-byte call but has call size 0",
                        record.id
                    ));
                }
                continue;
            }
            checked.sized += 1;
            // A statepoint's record has its five header locations (three constants first).
            if record.locations.len() < 3 || record.locations[..3].iter().any(|l| l.kind != LocationKind::Constant) {
                checked.stack_maps += 1;
            }
            let start = symbol.address() + u64::from(record.instruction_offset) - u64::from(call_size);
            match code.get(&(code_section.clone(), start)) {
                None => failures.push(format!(
                    "{name}: record {} (call size {call_size}): no instruction at {start:#x}",
                    record.id
                )),
                Some((length, mnemonic, _)) => {
                    let is_call = matches!(mnemonic.as_str(), "call" | "callq" | "bl" | "blr");
                    if !is_call || *length != u64::from(call_size) {
                        failures.push(format!(
                            "{name}: record {}: {mnemonic} of {length} bytes at {start:#x}, call size {call_size}",
                            record.id
                        ));
                    }
                }
            }
        }
    }
    (failures, checked)
}

/// Every ir-example that has records, compiled for each target and level (a v3 section) and
/// disassembled, the statepoint examples also with GC pointers and deopt values in registers
/// (`statepoint_call`): `visit(target, context, object, map, code)`, where `context` names the
/// example, target, level and lowering for messages. `None` (after the skip message) without
/// llvm-objdump-19.
pub fn visit_compiled_examples(mut visit: impl FnMut(&'static str, &str, &[u8], StackMap, &Disassembly)) -> Option<()> {
    let objdump = support::tool("llvm-objdump-19")?;
    let dir = tempfile::tempdir().unwrap();
    let statepoint_examples = support::statepoint_examples();
    for ll in support::ir_examples() {
        let module = patchmap::ir::parse_file(&ll).unwrap();
        let lowerings: &[u32] = if statepoint_examples.contains(&ll) { &[0, 4] } else { &[0] };
        for target in TARGETS {
            for opt in OPTS {
                for &registers in lowerings {
                    let options = Options {
                        target: Some(Target::parse(target).unwrap()),
                        opt: opt.parse().unwrap(),
                        stackmap_version: patchmap::stackmap::Version::V3,
                        ..Options::default()
                    }
                    .with_max_registers_for_gc_values(registers)
                    .with_registers_for_deopt_values(registers > 0);
                    let (object, map) = patchmap::emit::object::compile_with_stack_map(&module, &options)
                        .unwrap_or_else(|e| panic!("{}: {target} -O {opt}: {e}", ll.display()));
                    if map.records.is_empty() {
                        continue;
                    }
                    let code = disassemble(&objdump, &object, dir.path());
                    let lowering = if registers > 0 { ", values in registers" } else { "" };
                    let context =
                        format!("{} ({target}, -O {opt}{lowering})", ll.file_name().unwrap().to_string_lossy());
                    visit(target, &context, &object, map, &code);
                }
            }
        }
    }
    Some(())
}

/// Records with a non-zero call size checked: all, and those that are not statepoints' (stack maps).
#[derive(Clone, Copy, Debug, Default)]
struct Checked {
    sized: usize,
    stack_maps: usize,
}

/// Runs `check` on every compiled example: the failures, and the records checked per target.
fn check_examples(mutate: impl Fn(u8) -> u8 + Copy) -> Option<(Vec<String>, HashMap<&'static str, Checked>)> {
    let (mut failures, mut checked) = (Vec::new(), HashMap::<_, Checked>::new());
    visit_compiled_examples(|target, context, object, map, code| {
        let (found, n) = check(object, &map, code, mutate);
        failures.extend(found.into_iter().map(|f| format!("{context}: {f}")));
        let sum = checked.entry(target).or_default();
        sum.sized += n.sized;
        sum.stack_maps += n.stack_maps;
    })?;
    Some((failures, checked))
}

#[test]
fn call_sizes_are_the_calls_before_the_return_addresses() {
    let Some((failures, checked)) = check_examples(|size| size) else { return };
    eprintln!("records with a call size checked: {checked:?}");
    assert!(failures.is_empty(), "{} wrong call sizes:\n{}", failures.len(), failures.join("\n"));
    for target in TARGETS {
        let checked = checked.get(target).copied().unwrap_or_default();
        assert!(checked.sized > 0, "{target}: no record with a call size was checked");
        assert!(checked.stack_maps > 0, "{target}: no stack map right after a call was checked");
    }
}

#[test]
fn an_off_by_one_call_size_fails_the_check() {
    let Some((failures, checked)) = check_examples(|size| if size == 0 { 0 } else { size + 1 }) else { return };
    let total: usize = checked.values().map(|c| c.sized).sum();
    assert!(total > 0);
    assert_eq!(failures.len(), total, "every mutated call size must fail:\n{}", failures.join("\n"));
}
