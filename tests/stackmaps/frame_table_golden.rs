//! Golden files of the frame-table section (rfc2) of every `ir-examples` program (the layout lists every
//! defined function, records or not), on both targets, at `-O speed` as `tests/programs/golden.rs` compiles them: `tests/golden/rfc2/<example>.<arch>.hex`,
//! the section's bytes as offset and 16 hex bytes a line (function addresses 0: relocations fill them in).
//! Each blob is read with the reader written from the proposal's field list (`seed_reader`) and every
//! field is checked against what is known without the project's reader: the object's relocations and
//! symbol sizes, the IDs in the IR, the psABI's registers, the code bytes at each call; then against
//! `StackMapView`, field by field. `PATCHMAP_BLESS=1 cargo test --test stackmaps frame_table_golden`
//! rewrites the files from what the compiler emits.

use crate::seed_reader::{Blob, Tables};
use crate::support;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use object::{Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget};
use patchmap::compile::Options;
use patchmap::stackmap::{Endian, StackMapView, Version};

/// What each target's psABI fixes, in DWARF register numbers.
struct Arch {
    name: &'static str,
    triple: &'static str,
    frame_pointer: u16,
    stack_pointer: u16,
    link_register: Option<u16>,
    /// Registers a callee must preserve (RBX, RBP, R12-R15; X19-X30 and the low halves of V8-V15).
    callee_saved: &'static [u16],
    abs64: u32,
}

const ARCHES: [Arch; 2] = [
    Arch {
        name: "x86_64",
        triple: "x86_64-unknown-linux-gnu",
        frame_pointer: 6,
        stack_pointer: 7,
        link_register: None,
        callee_saved: &[3, 6, 12, 13, 14, 15],
        abs64: object::elf::R_X86_64_64,
    },
    Arch {
        name: "aarch64",
        triple: "aarch64-unknown-linux-gnu",
        frame_pointer: 29,
        stack_pointer: 31,
        link_register: Some(30),
        callee_saved: &[19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 72, 73, 74, 75, 76, 77, 78, 79],
        abs64: object::elf::R_AARCH64_ABS64,
    },
];

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/rfc2")
}

/// The golden text of `bytes`: `offset: b0 b1 ... b15` (hex), 16 bytes a line.
fn to_hex(bytes: &[u8]) -> String {
    let mut text = String::new();
    for (line, chunk) in bytes.chunks(16).enumerate() {
        let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
        writeln!(text, "{:08x}: {}", 16 * line, hex.join(" ")).unwrap();
    }
    text
}

/// The bytes of a golden text; an offset out of sequence or a bad byte is an error naming the line.
fn from_hex(text: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let (offset, hex) = line.split_once(": ").ok_or(format!("line {}: no 'offset: '", n + 1))?;
        if usize::from_str_radix(offset, 16) != Ok(bytes.len()) {
            return Err(format!("line {}: offset {offset} is not {:08x}", n + 1, bytes.len()));
        }
        for byte in hex.split(' ') {
            bytes.push(u8::from_str_radix(byte, 16).map_err(|e| format!("line {}: {byte:?}: {e}", n + 1))?);
        }
    }
    Ok(bytes)
}

/// The first offset at which `actual` differs from `expected` (a length difference included).
fn first_difference(expected: &[u8], actual: &[u8]) -> Option<usize> {
    let common = expected.iter().zip(actual).position(|(a, b)| a != b);
    common.or((expected.len() != actual.len()).then(|| expected.len().min(actual.len())))
}

/// The stack map IDs the IR gives, as a multiset: the first argument of each stack map, patch point and
/// statepoint call, and each call with a "deopt" bundle (its "statepoint-id" or LLVM's 0xABCDEF0F).
fn ir_ids(ir: &str) -> HashMap<u64, usize> {
    let mut ids = HashMap::new();
    for line in ir.lines().map(str::trim_start).filter(|l| !l.starts_with(';') && !l.starts_with("declare")) {
        let intrinsic =
            ["@llvm.experimental.stackmap(", "@llvm.experimental.patchpoint.", "@llvm.experimental.gc.statepoint."]
                .iter()
                .find_map(|name| line.find(name).map(|at| &line[at..]));
        let id = if let Some(call) = intrinsic {
            let args = &call[call.find("(i64 ").expect("an i64 ID") + 5..];
            args[..args.find(',').unwrap()].parse::<u64>().unwrap()
        } else if line.contains("[ \"deopt\"(") {
            match line.split_once("\"statepoint-id\"=\"") {
                Some((_, rest)) => rest[..rest.find('"').unwrap()].parse().unwrap(),
                None => 0xABCD_EF0F,
            }
        } else {
            continue;
        };
        *ids.entry(id).or_default() += 1;
    }
    ids
}

/// Whether `code` is exactly one call instruction of the target (`x86_64` or `aarch64`).
/// Whether `code` starts with the frame setup: x86-64 `push %rbp`, AArch64 `stp x29, x30, [sp, #-N]!`.
fn sets_up_frame(arch: &str, code: &[u8]) -> bool {
    match arch {
        "x86_64" => code.first() == Some(&0x55),
        _ => code.get(..4).is_some_and(|w| {
            let word = u32::from_le_bytes(w.try_into().unwrap());
            // STP (pre-index, 64-bit) of x29 and x30 to SP, any offset.
            word & 0xffc0_7fff == 0xa980_7bfd
        }),
    }
}

pub fn is_one_call(arch: &str, code: &[u8]) -> bool {
    if arch == "aarch64" {
        let Ok(word) = <[u8; 4]>::try_from(code).map(u32::from_le_bytes) else { return false };
        // BL imm26, BLR Xn.
        return word & 0xfc00_0000 == 0x9400_0000 || word & 0xffff_fc1f == 0xd63f_0000;
    }
    let register_call = |modrm: u8| modrm >> 6 == 3 && (modrm >> 3) & 7 == 2;
    match code {
        [0xe8, _, _, _, _] => true,                                        // call rel32
        [0xff, modrm] => register_call(*modrm),                            // call r64
        [rex, 0xff, modrm] => rex & 0xf0 == 0x40 && register_call(*modrm), // call r8-r15
        [0xff, 0x15, _, _, _, _] => true,                                  // call [rip + disp32]
        _ => false,
    }
}

/// One ELF object's `.llvm_stackmaps` bytes and, per FrameRecord index, the symbol its address field is
/// relocated against: (name, size, code bytes).
struct ObjectFacts {
    section: Vec<u8>,
    functions: HashMap<usize, (String, u64, Vec<u8>)>,
    failures: Vec<String>,
}

fn object_facts(arch: &Arch, object: &[u8], frame_records: usize) -> Option<ObjectFacts> {
    let file = object::File::parse(object).unwrap();
    let section = file.section_by_name(".llvm_stackmaps")?;
    let mut facts =
        ObjectFacts { section: section.data().unwrap().to_vec(), functions: HashMap::new(), failures: vec![] };
    for (offset, reloc) in section.relocations() {
        let offset = offset as usize;
        let flags = reloc.flags();
        let Some(index) = offset.checked_sub(frame_records).filter(|d| d % 28 == 0).map(|d| d / 28) else {
            facts.failures.push(format!("relocation at {offset} is not at a FrameRecord's Function Address"));
            continue;
        };
        if flags != (RelocationFlags::Elf { r_type: arch.abs64 }) || reloc.addend() != 0 {
            facts
                .failures
                .push(format!("relocation at {offset}: {flags:?} + {} is not absolute 64-bit + 0", reloc.addend()));
        }
        let RelocationTarget::Symbol(symbol) = reloc.target() else {
            facts.failures.push(format!("relocation at {offset} is not against a symbol"));
            continue;
        };
        let symbol = file.symbol_by_index(symbol).unwrap();
        let code = symbol
            .section_index()
            .and_then(|s| file.section_by_index(s).ok())
            .and_then(|s| s.data_range(symbol.address(), symbol.size()).ok().flatten())
            .unwrap_or_default()
            .to_vec();
        let previous = facts.functions.insert(index, (symbol.name().unwrap().to_string(), symbol.size(), code));
        if previous.is_some() {
            facts.failures.push(format!("FrameRecord {index} has two relocations"));
        }
    }
    Some(facts)
}

/// Checks every field of `blob` (read with the proposal's reader) against what is known independently of
/// the project's reader; returns what is wrong.
fn check_fields(arch: &Arch, blob: &Blob, tables: &Tables, object: &ObjectFacts, ir: &str) -> Vec<String> {
    let mut failures = object.failures.clone();
    let mut fail = |message: String| failures.push(message);
    let bytes = blob.bytes;
    let [_, num_functions, num_registers, num_records, num_locations, num_live_outs] = tables.counts;
    if bytes[0] != 2 || bytes[1..4] != [0, 0, 0] || bytes[28..32] != [0; 4] {
        fail(format!("header: version {} and reserved {:?} {:?}", bytes[0], &bytes[1..4], &bytes[28..32]));
    }
    if bytes.len() != tables.end.next_multiple_of(8) {
        fail(format!("the section has {} bytes, the tables end at {}", bytes.len(), tables.end));
    }
    // Padding (between tables and at the end) is zero.
    for k in 0..6 {
        let end = tables.offsets[k] + crate::seed_reader::ENTRY_SIZES[k] * tables.counts[k];
        let next = if k == 5 { bytes.len() } else { tables.offsets[k + 1] };
        if bytes[end..next].iter().any(|&b| b != 0) {
            fail(format!("padding after table {k} at {end}..{next} is not zero"));
        }
    }
    let constants: Vec<u64> = (0..tables.counts[0]).map(|i| blob.constant(i)).collect();
    if constants.iter().enumerate().any(|(i, c)| constants[..i].contains(c)) {
        fail(format!("constants not uniqued: {constants:?}"));
    }
    if object.functions.len() != num_functions {
        fail(format!("{} relocated function addresses for {num_functions} FrameRecords", object.functions.len()));
    }

    let mut ids = HashMap::<u64, usize>::new();
    let mut used_constants = vec![false; constants.len()];
    let mut next_record = 0;
    let mut register_lists = HashMap::<Vec<(u16, i16, u8, u8)>, u16>::new();
    let mut location_lists = HashMap::<Vec<(u8, u8, u16, i32)>, u16>::new();
    let mut live_out_lists = HashMap::<Vec<(u16, u8, u8)>, u16>::new();
    for i in 0..num_functions {
        let f = blob.frame_record(i);
        let Some((name, size, code)) = object.functions.get(&i) else {
            fail(format!("FrameRecord {i}: no relocation names its function"));
            continue;
        };
        let at = format!("FrameRecord {i} ({name})");
        if f.address != 0 || u64::from(f.function_size) != *size {
            fail(format!(
                "{at}: address {:#x} (0 + relocation expected), size {} (symbol: {size})",
                f.address, f.function_size
            ));
        }
        // The compiler sets HasFrame; it never makes variable-size allocas (reserved bits 0). A frame
        // realigned for an over-aligned alloca (HasStackRealignment) has LLVM's unknown stack size.
        let live_out_flag = f.flags & 0b1000 != 0;
        let realigned = f.flags & 0b0100 != 0;
        // A leaf that needs no stack and has no record runs without a frame: no flag, SP unmoved,
        // nothing saved, and its code does not start by setting a frame up.
        let has_frame = f.flags & 0b0001 != 0;
        if !has_frame {
            if f.flags != 0
                || f.stack_size != 0
                || f.num_records != 0
                || f.num_registers != 0
                || sets_up_frame(arch.name, code)
            {
                fail(format!(
                    "{at}: without a frame: flags {:#06b}, stack size {}, {} records, {} registers, code {:02x?}",
                    f.flags,
                    f.stack_size,
                    f.num_records,
                    f.num_registers,
                    &code[..code.len().min(8)]
                ));
            }
        } else if f.flags & !0b1100 != 0b0001 || f.base != arch.frame_pointer || (realigned && f.stack_size != u32::MAX)
        {
            fail(format!("{at}: flags {:#06b}, frame base R#{}, stack size {}", f.flags, f.base, f.stack_size));
        }
        if f.base != arch.frame_pointer {
            fail(format!("{at}: frame base R#{}", f.base));
        }
        if f.stack_size != u32::MAX && !f.stack_size.is_multiple_of(8) {
            fail(format!("{at}: stack size {} is not a multiple of 8", f.stack_size));
        }
        // Frame registers: FP at FB + 0 (and LR at FB + 8), then callee-saved registers below the frame
        // base, 8 bytes each, spilled, each register and slot once.
        let (first, count) = (usize::from(f.register_index), usize::from(f.num_registers));
        if first + count > num_registers {
            fail(format!("{at}: frame registers {first}..{} past the table's {num_registers}", first + count));
            continue;
        }
        let registers: Vec<_> = (first..first + count).map(|k| blob.frame_register(k)).collect();
        let mut pushed_by_setup = Vec::new();
        if has_frame {
            pushed_by_setup.push((arch.frame_pointer, 0, 8, 1));
            pushed_by_setup.extend(arch.link_register.map(|lr| (lr, 8, 8, 1)));
        }
        for entry in &pushed_by_setup {
            if !registers.contains(entry) {
                fail(format!("{at}: frame registers {registers:?} lack {entry:?}"));
            }
        }
        for &(reg, offset, size, flags) in registers.iter().filter(|r| !pushed_by_setup.contains(r)) {
            let repeated = registers.iter().filter(|r| r.0 == reg || r.1 == offset).count() > 1;
            if !arch.callee_saved.contains(&reg)
                || offset >= 0
                || offset % 8 != 0
                || size != 8
                || flags != 1
                || repeated
            {
                fail(format!("{at}: saved register R#{reg} at FB{offset:+}, {size} bytes, flags {flags}"));
            }
        }
        if !registers.is_empty()
            && *register_lists.entry(registers.clone()).or_insert(f.register_index) != f.register_index
        {
            fail(format!("{at}: its frame registers repeat an earlier list instead of sharing its range"));
        }

        // Records: this function's are the next ones, each inside the function.
        if usize::from(f.record_index) != next_record {
            fail(format!("{at}: records {} from {}, expected from {next_record}", f.num_records, f.record_index));
        }
        next_record = usize::from(f.record_index) + usize::from(f.num_records);
        let mut any_live_out_info = false;
        for k in usize::from(f.record_index)..next_record.min(num_records) {
            let r = blob.record(k);
            let at = format!("{at}: record {k} (ID {})", r.id);
            *ids.entry(r.id).or_default() += 1;
            any_live_out_info |= r.flags & 1 != 0;
            let offset = r.offset as usize;
            if offset >= code.len() || r.flags & !1 != 0 {
                fail(format!("{at}: offset {offset} (function size {}), flags {:#b}", code.len(), r.flags));
                continue;
            }
            let call = offset.checked_sub(usize::from(r.call_size)).map(|start| &code[start..offset]);
            if r.call_size != 0 && !call.is_some_and(|c| is_one_call(arch.name, c)) {
                fail(format!("{at}: the {} bytes before offset {offset} are not one call: {call:02x?}", r.call_size));
            }
            if r.call_size != 0 && r.flags & 1 != 0 {
                fail(format!("{at}: a call's return address with live-out information (patch points only)"));
            }
            let (first, count) = (usize::from(r.location_index), usize::from(r.num_locations));
            if first + count > num_locations || (count == 0 && first != 0) {
                fail(format!("{at}: locations {first}..{} of {num_locations}", first + count));
            } else {
                let locations: Vec<_> = (first..first + count).map(|l| blob.location(l)).collect();
                for &(kind, size, reg, value) in &locations {
                    if let Some(used) = used_constants.get_mut(value as usize).filter(|_| kind == 5) {
                        *used = true;
                    }
                    let valid = match kind {
                        1 => reg != arch.stack_pointer && value == 0 && size > 0,
                        2 => (reg == arch.frame_pointer || reg == arch.stack_pointer) && size == 8,
                        3 => (reg == arch.frame_pointer || reg == arch.stack_pointer) && size > 0,
                        4 => reg == 0 && size == 8,
                        5 => reg == 0 && size == 8 && (value as usize) < constants.len(),
                        _ => false,
                    };
                    if !valid {
                        fail(format!("{at}: location type {kind}, size {size}, R#{reg}, {value}"));
                    }
                }
                if count > 0 && *location_lists.entry(locations).or_insert(r.location_index) != r.location_index {
                    fail(format!("{at}: its locations repeat an earlier list instead of sharing its range"));
                }
            }
            let (first, count) = (usize::from(r.live_out_index), usize::from(r.num_live_outs));
            if first + count > num_live_outs || (count == 0 && first != 0) || (count > 0 && r.flags & 1 == 0) {
                fail(format!("{at}: live-outs {first}..{} of {num_live_outs}, flags {:#b}", first + count, r.flags));
            } else {
                let live_outs: Vec<_> = (first..first + count).map(|l| blob.live_out(l)).collect();
                if live_outs.iter().any(|&(_, reserved, size)| reserved != 0 || size == 0) {
                    fail(format!("{at}: live-outs {live_outs:?}"));
                }
                if count > 0 && *live_out_lists.entry(live_outs).or_insert(r.live_out_index) != r.live_out_index {
                    fail(format!("{at}: its live-outs repeat an earlier list instead of sharing its range"));
                }
            }
        }
        if any_live_out_info != live_out_flag {
            fail(format!("{at}: HasLiveOutInfo {live_out_flag}, but a record of it has it: {any_live_out_info}"));
        }
    }
    if used_constants.contains(&false) {
        fail(format!("constants {constants:?} not all used by a location: {used_constants:?}"));
    }
    if next_record != num_records {
        fail(format!("the functions own {next_record} of {num_records} records"));
    }
    if ids != ir_ids(ir) {
        fail(format!("record IDs {ids:?} are not the IR's {:?}", ir_ids(ir)));
    }
    failures
}

/// Compares the proposal's reading of `blob` with the project's reader's reading of `compiled`, field by
/// field; returns what differs.
fn compare_with_view(blob: &Blob, tables: &Tables, compiled: &[u8]) -> Vec<String> {
    let view = match StackMapView::parse(compiled, Endian::Little) {
        Ok(view) if view.version() == Version::FrameTable => view,
        Ok(view) => return vec![format!("StackMapView reads version {}", view.version())],
        Err(e) => return vec![format!("StackMapView: {e}")],
    };
    let mut failures = Vec::new();
    let [num_constants, num_functions, _, num_records, _, _] = tables.counts;
    let counts = (view.num_constants() as usize, view.num_functions() as usize, view.num_records() as usize);
    if counts != (num_constants, num_functions, num_records) {
        failures.push(format!("counts {counts:?} against {:?}", (num_constants, num_functions, num_records)));
        return failures;
    }
    if view.constants().ne((0..num_constants).map(|i| blob.constant(i))) {
        failures.push("constants differ".into());
    }
    for i in 0..num_functions {
        let (f, function) = (blob.frame_record(i), view.function(i).unwrap());
        let frame = function.frame.clone().unwrap_or_default();
        let stack_size = if f.stack_size == u32::MAX { u64::MAX } else { u64::from(f.stack_size) };
        let flags =
            [frame.has_frame, frame.has_variable_size_alloca, frame.has_stack_realignment, frame.has_live_out_info]
                .iter()
                .enumerate()
                .fold(0u16, |flags, (bit, &set)| flags | (u16::from(set) << bit));
        let seed = (f.address, stack_size, u64::from(f.num_records), f.function_size, f.flags, f.base);
        let project = (
            function.address,
            function.stack_size,
            function.record_count,
            frame.function_size,
            flags,
            frame.base_register,
        );
        if seed != project || function.frame.is_none() {
            failures.push(format!("function {i}: {seed:?} against StackMapView's {project:?}"));
        }
        let first = usize::from(f.register_index);
        let seed: Vec<_> = (first..first + usize::from(f.num_registers)).map(|k| blob.frame_register(k)).collect();
        let project: Vec<_> =
            view.frame_registers(i).map(|r| (r.dwarf_reg, r.offset as i16, r.size, u8::from(r.is_spilled))).collect();
        if seed != project || frame.registers.iter().map(|r| r.offset).ne(seed.iter().map(|r| i32::from(r.1))) {
            failures.push(format!("function {i}: frame registers {seed:?} against StackMapView's {project:?}"));
        }
    }
    for (k, record) in view.records().enumerate() {
        let r = blob.record(k);
        let seed = (r.id, r.offset, r.call_size, r.flags & 1 != 0);
        let project = (record.id(), record.instruction_offset(), record.call_size(), record.has_live_out_info());
        if seed != project {
            failures.push(format!("record {k}: {seed:?} against StackMapView's {project:?}"));
        }
        // Ranges past their table are check_fields' failures; read only what is there.
        let first = usize::from(r.location_index);
        let end = (first + usize::from(r.num_locations)).min(tables.counts[4]);
        let seed: Vec<_> = (first..end).map(|l| blob.location(l)).collect();
        let project: Vec<_> = record.locations().map(|l| (l.kind as u8, l.size as u8, l.dwarf_reg, l.offset)).collect();
        if seed != project {
            failures.push(format!("record {k}: locations {seed:?} against StackMapView's {project:?}"));
        }
        let first = usize::from(r.live_out_index);
        let end = (first + usize::from(r.num_live_outs)).min(tables.counts[5]);
        let seed: Vec<_> = (first..end).map(|l| blob.live_out(l)).map(|(reg, _, size)| (reg, size)).collect();
        let project: Vec<_> = record.live_outs().map(|l| (l.dwarf_reg, l.size)).collect();
        if seed != project {
            failures.push(format!("record {k}: live-outs {seed:?} against StackMapView's {project:?}"));
        }
    }
    failures
}

/// One example on one target: its object compiled in the frame-table layout, and its golden file.
struct Case {
    file: PathBuf,
    arch: &'static Arch,
    ir: String,
    object: Vec<u8>,
    golden: Option<Vec<u8>>,
}

/// Every example on both targets: the layout lists every defined function, so each has a section.
fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for path in support::ir_examples() {
        let module = patchmap::ir::parse_file(&path).unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let ir = std::fs::read_to_string(&path).unwrap();
        for arch in &ARCHES {
            let options =
                Options::new(Some(arch.triple), "speed", 1).unwrap().with_stackmap_version(Version::FrameTable);
            let object = patchmap::emit::object::compile(&module, &options)
                .unwrap_or_else(|e| panic!("{}: {}: {e}", path.display(), arch.name));
            let has_section = object::File::parse(&*object).unwrap().section_by_name(".llvm_stackmaps").is_some();
            assert!(has_section, "{stem}: no frame-table section on {}", arch.name);
            let file = golden_dir().join(format!("{stem}.{}.hex", arch.name));
            let golden = std::fs::read_to_string(&file)
                .ok()
                .map(|text| from_hex(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display())));
            cases.push(Case { file, arch, ir: ir.clone(), object, golden });
        }
    }
    cases
}

/// Everything wrong with `golden` as the section of `case`'s object.
fn check(case: &Case, golden: &[u8]) -> Vec<String> {
    let blob = Blob { bytes: golden, endian: Endian::Little };
    let tables = match blob.tables() {
        Ok(tables) => tables,
        Err(e) => return vec![e],
    };
    let Some(object) = object_facts(case.arch, &case.object, tables.offsets[1]) else {
        return vec!["no .llvm_stackmaps section".into()];
    };
    let mut failures = Vec::new();
    if let Some(offset) = first_difference(golden, &object.section) {
        failures.push(format!("the compiled section differs from the golden bytes first at offset {offset:#x}"));
    }
    failures.extend(check_fields(case.arch, &blob, &tables, &object, &case.ir));
    failures.extend(compare_with_view(&blob, &tables, &object.section));
    failures
}

#[test]
fn frame_table_sections_match_the_golden_files_and_every_field_checks_out() {
    let bless = std::env::var("PATCHMAP_BLESS").is_ok_and(|v| v == "1");
    let cases = cases();
    let mut failures = Vec::new();
    for case in &cases {
        let file = object::File::parse(&*case.object).unwrap();
        let compiled = file.section_by_name(".llvm_stackmaps").unwrap().data().unwrap();
        if bless && case.golden.as_deref() != Some(compiled) {
            std::fs::create_dir_all(golden_dir()).unwrap();
            std::fs::write(&case.file, to_hex(compiled)).unwrap();
        }
        let golden = if bless { compiled } else { case.golden.as_deref().unwrap_or_default() };
        for failure in check(case, golden) {
            failures.push(format!("{}: {failure}", case.file.display()));
        }
    }
    // A file no example produces any more is stale (an example renamed, or its records removed).
    for entry in std::fs::read_dir(golden_dir()).unwrap() {
        let path = entry.unwrap().path();
        if !cases.iter().any(|c| c.file == path) {
            failures.push(format!("{}: no example produces it (remove it)", path.display()));
        }
    }
    // Every example (47, 24 of them with records) on both targets: a silent empty run fails.
    assert!(cases.len() >= 2 * 47, "only {} frame-table golden files checked", cases.len());
    assert!(
        failures.is_empty(),
        "{}\n(review the change; PATCHMAP_BLESS=1 cargo test --test stackmaps frame_table_golden rewrites the files)",
        failures.join("\n")
    );
}

#[test]
fn a_changed_byte_in_a_golden_file_fails_the_comparison() {
    let cases = cases();
    let case = cases.iter().find(|c| c.file.ends_with("sm_spill_many.x86_64.hex")).expect("sm_spill_many on x86-64");
    let golden = case.golden.clone().expect("its golden file");
    assert!(check(case, &golden).is_empty(), "{:?}", check(case, &golden));
    // The low byte of the offset of the first register saved below the frame pointer (RBX, R12-R15).
    let blob = Blob { bytes: &golden, endian: Endian::Little };
    let tables = blob.tables().unwrap();
    let first = usize::from(blob.frame_record(0).register_index);
    assert!(blob.frame_record(0).num_registers > 1, "sm_spill_many saves callee-saved registers");
    let at = tables.offsets[2] + 6 * (first + 1) + 2;
    let mut mutant = golden.clone();
    mutant[at] = mutant[at].wrapping_sub(8);
    let failures = check(case, &mutant).join("\n");
    assert!(failures.contains(&format!("differs from the golden bytes first at offset {at:#x}")), "{failures}");
    assert!(failures.contains("frame registers") && failures.contains("against StackMapView's"), "{failures}");
    // And a golden text whose line was edited out of sequence is refused, not misread.
    let text = to_hex(&golden).replacen("00000010: ", "00000011: ", 1);
    assert!(from_hex(&text).unwrap_err().contains("line 2"));
}
