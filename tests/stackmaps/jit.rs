//! The JIT's stack map section: absolute function addresses that match the code the JIT made, records
//! inside their functions, in the version the options ask for; in the frame-table layout, each JIT
//! function's address, size and frame (its prologue's stores; the object's where the code is the same);
//! and the JIT runs the program.

use crate::support;

use object::{Object, ObjectSection, ObjectSymbol, RelocationTarget};
use patchmap::compile::{Options, Target};
use patchmap::emit::jit::JitCode;
use patchmap::stackmap::{Endian, Frame, Record, StackMap, StackMapView, Version};

#[test]
fn jit_stack_map_section_has_absolute_addresses() {
    if !support::host_has(matches!(std::env::consts::ARCH, "x86_64" | "aarch64"), "a JIT for this host") {
        return;
    }
    let ll = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ir-examples/sm_functions.ll");
    let module = patchmap::ir::parse_file(&ll).unwrap();
    for version in [1u8, 2, 3] {
        let jit = JitCode::compile(&module, &Options::new(None, "speed", version).unwrap()).unwrap();
        let section = jit.stack_map_section();
        let view = StackMapView::parse(section, Endian::native()).unwrap();
        assert_eq!(view.version(), Version::from_byte(version).unwrap());
        let functions: Vec<_> = jit.functions().map(|(_, f)| f).collect();
        assert!(view.num_functions() >= 2, "sm_functions has stack maps in several functions");
        for record in view.functions() {
            let f = functions
                .iter()
                .find(|f| f.address as u64 == record.address)
                .unwrap_or_else(|| panic!("function record address {:#x} is no JIT function", record.address));
            assert!(f.size > 0);
        }
        if version != 1 {
            for (i, function) in view.functions().enumerate() {
                let size = functions.iter().find(|f| f.address as u64 == function.address).unwrap().size as u32;
                for record in view.records_of(i).unwrap() {
                    assert!(record.instruction_offset() < size, "record {} outside its function", record.id());
                }
            }
        }
    }
    let jit = JitCode::compile(&module, &Options::default()).unwrap();
    // SAFETY: sm_functions is a differential-tested example without undefined behaviour.
    let status = unsafe { jit.call_i64("main", &[]) }.unwrap();
    assert!((0..124).contains(&status), "main returned {status}");
}

/// The `.llvm_stackmaps` section of an object, and the name of the symbol each function record's address
/// is relocated against, by the address field's offset.
fn object_section(object: &[u8]) -> (Vec<u8>, std::collections::HashMap<u64, String>) {
    let file = object::File::parse(object).unwrap();
    let section = file.section_by_name(".llvm_stackmaps").unwrap();
    let names = section
        .relocations()
        .map(|(offset, reloc)| {
            let RelocationTarget::Symbol(symbol) = reloc.target() else { panic!("a section relocation") };
            (offset, file.symbol_by_index(symbol).unwrap().name().unwrap().to_string())
        })
        .collect();
    (section.data().unwrap().to_vec(), names)
}

/// An ELF object for the host holding `functions`' code one after the other in `.text` (for the
/// disassembler), and where each starts.
fn code_object(functions: &[(String, Vec<u8>, Frame)]) -> (Vec<u8>, Vec<u64>) {
    use object::write::{Object as Writer, StandardSection, Symbol, SymbolSection};
    let arch = match std::env::consts::ARCH {
        "aarch64" => object::Architecture::Aarch64,
        _ => object::Architecture::X86_64,
    };
    let mut obj = Writer::new(object::BinaryFormat::Elf, arch, object::Endianness::Little);
    let text = obj.section_id(StandardSection::Text);
    let mut starts = Vec::new();
    for (name, code, _) in functions {
        let start = obj.append_section_data(text, code, 16);
        obj.add_symbol(Symbol {
            name: name.as_bytes().to_vec(),
            value: start,
            size: code.len() as u64,
            kind: object::SymbolKind::Text,
            scope: object::SymbolScope::Linkage,
            weak: false,
            section: SymbolSection::Section(text),
            flags: object::SymbolFlags::None,
        });
        starts.push(start);
    }
    (obj.write().unwrap(), starts)
}

/// The map with every function address set to 0 (compiled code at different addresses).
fn unplaced(mut map: StackMap) -> StackMap {
    for f in &mut map.functions {
        f.address = 0;
    }
    map
}

#[test]
fn jit_frame_tables_give_each_jit_function_its_address_size_and_prologue_frame() {
    if !support::host_has(matches!(std::env::consts::ARCH, "x86_64" | "aarch64"), "a JIT for this host") {
        return;
    }
    let host = Target::host().unwrap().triple.to_string();
    let objdump = support::tool("llvm-objdump-19");
    let (mut prologues, mut same_registers) = (0, 0);
    let (mut checked, mut functions, mut same_as_object, mut not_jitted) = (0, 0, 0, Vec::new());
    for path in support::ir_examples() {
        let module = patchmap::ir::parse_file(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let options = Options::new(Some(&host), "speed", 1).unwrap().with_stackmap_version(Version::FrameTable);
        let jit = match JitCode::compile(&module, &options) {
            Ok(jit) => jit,
            // Programs calling a runtime this process does not have (the gc_* examples' collector).
            Err(e) if e.to_string().contains("cannot resolve '@") => {
                not_jitted.push(format!("{name}: {e}"));
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        let (object, compiled) = patchmap::emit::object::compile_with_stack_map(&module, &options).unwrap();
        // The frame-table layout lists every defined function, records or not.
        let view = jit.stack_map().unwrap_or_else(|| panic!("{name}: no JIT section"));
        assert_eq!(view.version(), Version::FrameTable, "{name}");
        assert_eq!(view.bytes(), jit.stack_map_section(), "{name}");
        let (object_bytes, object_names) = object_section(&object);
        let object_view = StackMapView::parse(&object_bytes, Endian::Little).unwrap();
        assert_eq!(view.num_functions(), object_view.num_functions(), "{name}");
        // The JIT's code is not position-independent (absolute addresses and calls through a register
        // where the object has PC-relative calls and GOT loads), so a function's code, and with it its
        // register allocation, may differ from the object's: where its size is the object's, its frame
        // and records are the object's; everywhere its records have the object's IDs and numbers of
        // values, its calls are calls in the JIT's code, and its frame registers are what the JIT
        // code's prologue stores (llvm-objdump-19).
        let mut expected = compiled.clone();
        let mut jitted_code = Vec::new();
        for (i, function) in view.functions().enumerate() {
            // The address is the JIT function's, its size the JIT code's.
            let at =
                jit.locate(function.address as usize).unwrap_or_else(|| panic!("{name}: function {i} is no JIT code"));
            assert_eq!(at.offset, 0, "{name}: function {i} does not start at a function");
            let code = jit.function(at.function).unwrap();
            assert_eq!(code.address as u64, function.address, "{name}: {}", at.function);
            let frame = function.frame.as_ref().unwrap();
            assert_eq!(frame.function_size as usize, code.size, "{name}: {}", at.function);
            let object_function = object_names[&(object_view.function_address_offset(i) as u64)].as_str();
            assert_eq!(object_function, at.function, "{name}: function {i}");
            let object_frame = compiled.functions[i].frame.clone().unwrap();
            let code_bytes =
                // SAFETY: the function's finished code, which `jit` keeps alive.
                unsafe { std::slice::from_raw_parts(code.address, code.size) };
            jitted_code.push((at.function.to_string(), code_bytes.to_vec(), frame.clone()));
            if (Frame { function_size: object_frame.function_size, ..frame.clone() }) == object_frame {
                same_registers += 1;
            }
            if frame.function_size == object_frame.function_size {
                same_as_object += 1;
                assert_eq!(frame, &object_frame, "{name}: {}: the object's frame", at.function);
            }
            assert_eq!(at.frame, frame, "{name}: {}: locate's frame", at.function);
            assert_eq!(jit.frame(at.function), Some(frame), "{name}: {}", at.function);
            // A leaf that needs no stack and has no record runs without a frame, and saves nothing.
            let has_records = view.records_of(i).unwrap().next().is_some();
            assert_eq!(frame.has_frame, !frame.registers.is_empty(), "{name}: {}: {frame:?}", at.function);
            assert!(frame.has_frame || !has_records, "{name}: {}: records without a frame", at.function);
            expected.functions[i].address = function.address;
            // Checked above against the object's frame, and below against the JIT code's prologue.
            expected.functions[i].frame = Some(frame.clone());
            for record in view.records_of(i).unwrap() {
                let address = code.address.wrapping_add(record.instruction_offset() as usize) as *mut u8;
                assert!(jit.record_addresses(record.id()).contains(&address), "{name}: record {}", record.id());
            }
            for record in view.records_of(i).unwrap().filter(|r| r.call_size() > 0) {
                let (end, size) = (record.instruction_offset() as usize, usize::from(record.call_size()));
                let call = end.checked_sub(size).and_then(|start| code_bytes.get(start..end));
                assert!(
                    call.is_some_and(|c| crate::frame_table_golden::is_one_call(std::env::consts::ARCH, c)),
                    "{name}: {}: record {}: {call:02x?} is not one call",
                    at.function,
                    record.id()
                );
            }
            if frame.function_size != object_frame.function_size {
                // Another register allocation: the same records (IDs, number of values, a call or not)
                // with their own offsets, call sizes, slots and stack size.
                expected.functions[i].stack_size = function.stack_size;
                let range = view.record_range(i).unwrap();
                for (record, jitted) in expected.records[range].iter_mut().zip(view.records_of(i).unwrap()) {
                    let jitted = jitted.to_record();
                    assert_eq!(record.id, jitted.id, "{name}");
                    assert_eq!(record.locations.len(), jitted.locations.len(), "{name}: record {}", record.id);
                    assert_eq!(record.call_size > 0, jitted.call_size > 0, "{name}: record {}", record.id);
                    *record = Record { id: record.id, has_live_out_info: record.has_live_out_info, ..jitted };
                }
            }
            functions += 1;
        }
        // Each frame's registers are what the JIT code's prologue stores, whether or not the object's is
        // the same code.
        if let Some(objdump) = &objdump {
            let dir = tempfile::tempdir().unwrap();
            let (object, starts) = code_object(&jitted_code);
            let disassembly = crate::call_sizes::disassemble(objdump, &object, dir.path());
            for ((function, _, frame), start) in jitted_code.iter().zip(starts) {
                let (stores, sets_fp) = crate::frames::prologue_stores(&disassembly, ".text", start);
                let registers: Vec<_> = frame.registers.iter().map(|r| (r.dwarf_reg, r.offset, r.size)).collect();
                assert_eq!(sets_fp, frame.has_frame, "{name}: {function}: the JIT code's frame pointer");
                assert_eq!(registers, stores, "{name}: {function}: frame registers against the prologue's stores");
                prologues += 1;
            }
        }
        // Records (IDs, offsets, call sizes, locations, live-outs), stack sizes and constants: the object's.
        assert_eq!(view.to_model(), expected, "{name}");
        assert_eq!(unplaced(object_view.to_model()), compiled, "{name}");

        // Version 3 in the JIT is what it was: the same records without the frame-table fields, at the
        // second JIT's addresses of the same functions, as the v3 writer writes them.
        let v3 = options.clone().with_stackmap_version(Version::V3);
        let jit3 = JitCode::compile(&module, &v3).unwrap();
        let mut expected3 = expected.without_frames();
        // Version 3 lists only the functions with records.
        expected3.functions.retain(|f| f.record_count > 0);
        let Some(view3) = jit3.stack_map() else {
            assert!(expected3.functions.is_empty(), "{name}: records but no v3 section");
            checked += 1;
            continue;
        };
        assert_eq!(view3.version(), Version::V3, "{name}");
        for (i, function) in view3.functions().enumerate() {
            let at = jit3.locate(function.address as usize).filter(|l| l.offset == 0);
            let first = jit.locate(expected3.functions[i].address as usize).unwrap().function;
            assert_eq!(at.map(|l| l.function), Some(first), "{name}: v3 function {i}");
            expected3.functions[i].address = function.address;
        }
        assert_eq!(jit3.stack_map_section(), expected3.write(Version::V3, Endian::Little).unwrap(), "{name}: v3");
        checked += 1;
    }
    assert!(objdump.is_none() || prologues == functions, "{prologues} prologues checked of {functions}");
    assert!(
        checked >= 20 && functions >= checked,
        "{checked} examples, {functions} functions; not JIT-ed: {not_jitted:?}"
    );
    eprintln!(
        "{checked} examples, {functions} functions ({same_as_object} of the object's size, {same_registers} with the \
         object's frame flags and registers), {prologues} prologues"
    );
}
