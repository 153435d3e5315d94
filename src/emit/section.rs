//! The `.llvm_stackmaps` section of a compiled module: the model built from each function's records,
//! written in the requested version, and placed in an object with its relocations.

use cranelift_object::object::write::{Object, Relocation, StandardSegment, Symbol, SymbolId, SymbolSection};
use cranelift_object::object::{
    RelocationEncoding, RelocationFlags, RelocationKind, SectionKind, SymbolFlags, SymbolKind, SymbolScope,
};

use crate::compile::points::PointLocation;
use crate::compile::{CodegenFailure, CompileError, CompiledFunction, EmitError};
use crate::stackmap::{ConstantPool, Endian, LiveOut, Record, StackMap, Version};

/// The module's stack map for `version`: one function record per function with records (with
/// [`Version::FrameTable`], per defined function: a runtime walking frames needs every frame on the
/// stack, records or not), in code order, and one constant pool for the whole module. `address` gives each function's address (0 in
/// objects, where a relocation supplies it). The frame-table layout stores each record's call size:
/// a call whose length the target's decoder cannot tell (before a statepoint or stack map) is an error for it (named by
/// `name`), where the other versions, which do not store it, take the record as it is.
pub fn stack_map(
    functions: &[CompiledFunction],
    version: Version,
    address: impl Fn(&CompiledFunction) -> u64,
    name: impl Fn(&CompiledFunction) -> String,
) -> Result<StackMap, CompileError> {
    let mut map = StackMap::new();
    let mut pool = ConstantPool::default();
    for f in functions.iter().filter(|f| listed(f, version)) {
        if version == Version::FrameTable {
            if let Some(point) = f.points.iter().find(|p| p.call_size.is_none()) {
                let failure = CodegenFailure::CallLength { id: point.id, return_address: point.offset };
                return Err(CompileError::Codegen { function: name(f), failure });
            }
        }
        // Versions other than 3 hold a location's size in one byte.
        if version != Version::V3 {
            let large = f.points.iter().find_map(|p| {
                p.locations.iter().find_map(|l| match l {
                    PointLocation::Machine(m) if m.size > 255 => Some((p.id, m.size)),
                    _ => None,
                })
            });
            if let Some((id, size)) = large {
                let failure = CodegenFailure::LocationSize { id, size, version: version.number() };
                return Err(CompileError::Codegen { function: name(f), failure });
            }
        }
        let records: Vec<Record> = f
            .points
            .iter()
            .map(|point| Record {
                id: point.id,
                instruction_offset: point.offset,
                locations: point
                    .locations
                    .iter()
                    .map(|l| match l {
                        PointLocation::Constant(v) => pool.location(&mut map, *v),
                        PointLocation::Machine(location) => *location,
                    })
                    .collect(),
                live_outs: point.live_outs.iter().map(|&(dwarf_reg, size)| LiveOut { dwarf_reg, size }).collect(),
                call_size: point.call_size.unwrap_or(0),
                // Patch points carry their live-outs (an empty list is still information); stack
                // maps and statepoints have none.
                has_live_out_info: point.target.is_some(),
            })
            .collect();
        map.push_function_with_frame(address(f), f.stack_size, Some(f.frame.clone()), records);
    }
    Ok(map)
}

/// Whether `f` has a function record in a section of `version`.
pub fn listed(f: &CompiledFunction, version: Version) -> bool {
    !f.points.is_empty() || version == Version::FrameTable
}

/// The section's bytes in `version`.
pub fn section_bytes(map: &StackMap, version: Version) -> Result<Vec<u8>, CompileError> {
    Ok(map.write(version, Endian::Little).map_err(EmitError::StackMap)?)
}

/// Adds `.llvm_stackmaps` to an object as llc does: read-only allocated data aligned to 8, a local
/// `__LLVM_StackMaps` symbol at its start, and an absolute 64-bit relocation for each function
/// record's address (`function_symbols` in function-record order; the first at `table_offset`,
/// [`StackMap::function_table_offset`]).
pub fn add_to_object(
    object: &mut Object<'static>,
    bytes: Vec<u8>,
    version: Version,
    table_offset: usize,
    function_symbols: &[SymbolId],
) -> Result<(), CompileError> {
    let segment = object.segment_name(StandardSegment::Data).to_vec();
    let section = object.add_section(segment, b".llvm_stackmaps".to_vec(), SectionKind::ReadOnlyData);
    object.set_section_data(section, bytes, 8);
    object.add_symbol(Symbol {
        name: b"__LLVM_StackMaps".to_vec(),
        value: 0,
        size: 0,
        kind: SymbolKind::Label,
        scope: SymbolScope::Compilation,
        weak: false,
        section: SymbolSection::Section(section),
        flags: SymbolFlags::None,
    });
    let record_size = version.function_record_size();
    for (i, &symbol) in function_symbols.iter().enumerate() {
        object
            .add_relocation(
                section,
                Relocation {
                    offset: (table_offset + i * record_size) as u64,
                    symbol,
                    addend: 0,
                    flags: RelocationFlags::Generic {
                        kind: RelocationKind::Absolute,
                        encoding: RelocationEncoding::Generic,
                        size: 64,
                    },
                },
            )
            .map_err(|source| EmitError::Relocate { what: "the stack map", source })?;
    }
    Ok(())
}
