//! The `.eh_frame` section of an object: one FDE per function, from Cranelift's unwind information,
//! so debuggers, profilers and C++/Rust unwinders can walk through generated code.
//!
//! cranelift-object writes `.eh_frame` only for functions it compiles itself; patchmap hands it
//! finished bytes (compiled in parallel, later with patch regions rewritten), so it writes its own.
//!
//! A function with landing pads gets a CIE with augmentation "zPLR" naming its personality
//! function (indirect through a pointer in `.data.rel.ro`, PC-relative, as llc-19 writes it for
//! PIC) and an FDE pointing at its LSDA in `.gcc_except_table` (see `lsda`).

use std::collections::HashMap;

use cranelift_codegen::gimli::write::{Address, EhFrame, EndianVec, FrameTable, RelocateWriter, Relocation};
use cranelift_codegen::gimli::{self, RunTimeEndian};
use cranelift_codegen::isa::unwind::UnwindInfo;
use cranelift_codegen::isa::TargetIsa;

use super::lsda::{Lsda, TTYPE_ENCODING};
use crate::compile::EmitError;
use crate::ir::GlobalId;
use cranelift_object::object::write::{
    Object, Relocation as ObjectRelocation, StandardSection, Symbol, SymbolId, SymbolSection,
};
use cranelift_object::object::{
    RelocationEncoding, RelocationFlags, RelocationKind, SectionKind, SymbolFlags, SymbolKind, SymbolScope,
};

/// A function's entry in `.eh_frame`.
pub struct FrameEntry<'a> {
    /// The function's symbol.
    pub symbol: SymbolId,
    /// Cranelift's unwind information for it.
    pub unwind: &'a UnwindInfo,
    /// For a function with landing pads: its personality function's symbol and its LSDA.
    pub exceptions: Option<(SymbolId, Lsda)>,
}

/// Pointers in `.data.rel.ro` that the exception tables reach indirectly, one per symbol: PIE
/// links resolve them (or make them dynamic relocations) where the tables stay read-only.
struct Indirections {
    pointers: HashMap<SymbolId, SymbolId>,
}

impl Indirections {
    fn pointer_to(&mut self, object: &mut Object<'static>, target: SymbolId) -> Result<SymbolId, EmitError> {
        if let Some(&p) = self.pointers.get(&target) {
            return Ok(p);
        }
        let section = object.section_id(StandardSection::ReadOnlyDataWithRel);
        let offset = object.append_section_data(section, &[0; 8], 8);
        let name = format!("DW.ref.{}", String::from_utf8_lossy(&object.symbol(target).name));
        let pointer = object.add_symbol(Symbol {
            name: name.into_bytes(),
            value: offset,
            size: 8,
            kind: SymbolKind::Data,
            scope: SymbolScope::Compilation,
            weak: false,
            section: SymbolSection::Section(section),
            flags: SymbolFlags::None,
        });
        let flags = RelocationFlags::Generic {
            kind: RelocationKind::Absolute,
            encoding: RelocationEncoding::Generic,
            size: 64,
        };
        object
            .add_relocation(section, ObjectRelocation { offset, symbol: target, addend: 0, flags })
            .map_err(|source| EmitError::Relocate { what: "an exception table's pointer", source })?;
        self.pointers.insert(target, pointer);
        Ok(pointer)
    }
}

/// Adds `.gcc_except_table` with `lsda` to `object`: its offset there, the type table's entries
/// relocated to pointers to their type information.
fn place_lsda(
    object: &mut Object<'static>,
    table: &mut Option<cranelift_object::object::write::SectionId>,
    indirections: &mut Indirections,
    typeinfo: &dyn Fn(GlobalId) -> SymbolId,
    lsda: &Lsda,
) -> Result<u64, EmitError> {
    let section = *table.get_or_insert_with(|| {
        object.add_section(Vec::new(), b".gcc_except_table".to_vec(), SectionKind::ReadOnlyData)
    });
    let offset = object.append_section_data(section, &lsda.bytes, 4);
    for &(at, g) in &lsda.type_refs {
        let pointer = indirections.pointer_to(object, typeinfo(g))?;
        let flags = RelocationFlags::Generic {
            kind: RelocationKind::Relative,
            encoding: RelocationEncoding::Generic,
            size: 32,
        };
        let relocation = ObjectRelocation { offset: offset + at as u64, symbol: pointer, addend: 0, flags };
        object
            .add_relocation(section, relocation)
            .map_err(|source| EmitError::Relocate { what: ".gcc_except_table", source })?;
    }
    Ok(offset)
}

/// Section bytes being written, with the relocations gimli asks for.
struct Section {
    writer: EndianVec<RunTimeEndian>,
    relocations: Vec<Relocation>,
}

impl RelocateWriter for Section {
    type Writer = EndianVec<RunTimeEndian>;
    fn writer(&self) -> &Self::Writer {
        &self.writer
    }
    fn writer_mut(&mut self) -> &mut Self::Writer {
        &mut self.writer
    }
    fn relocate(&mut self, relocation: Relocation) {
        self.relocations.push(relocation);
    }
}

/// Adds `.eh_frame` to `object` for `functions`, and `.gcc_except_table` for those with landing
/// pads (`typeinfo` gives the symbol of a type information global). Writes nothing when no function
/// has System V unwind information.
pub fn write(
    object: &mut Object<'static>,
    isa: &dyn TargetIsa,
    functions: Vec<FrameEntry<'_>>,
    typeinfo: &dyn Fn(GlobalId) -> SymbolId,
) -> Result<(), EmitError> {
    let Some(mut cie) = isa.create_systemv_cie() else { return Ok(()) };
    // PC-relative function addresses, as compilers emit them: absolute ones would be relocations in
    // a read-only section, which makes PIE links create text relocations.
    let pcrel4 = gimli::constants::DW_EH_PE_pcrel | gimli::constants::DW_EH_PE_sdata4;
    cie.fde_address_encoding = pcrel4;
    let mut table = FrameTable::default();
    let plain_cie = table.add_cie(cie.clone());
    let mut personality_cies = HashMap::new();
    let mut symbols = Vec::new();
    let mut indirections = Indirections { pointers: HashMap::new() };
    let mut except_table = None;
    for entry in functions {
        let UnwindInfo::SystemV(info) = entry.unwind else { continue };
        // The function's address as its section's symbol plus its offset there, as llc-19 writes
        // it: a PC-relative relocation against a global function's own symbol cannot go into a
        // shared library (the symbol may be preempted).
        let function = object.symbol(entry.symbol);
        let section = function.section.id().expect("a defined function lies in a section");
        let address = Address::Symbol { symbol: symbols.len(), addend: function.value as i64 };
        symbols.push(object.section_symbol(section));
        let mut fde = info.to_fde(address);
        let cie_id = match &entry.exceptions {
            None => plain_cie,
            Some((personality, lsda)) => {
                let offset = place_lsda(object, &mut except_table, &mut indirections, typeinfo, lsda)?;
                let section = except_table.expect("placed above");
                let section_symbol = object.section_symbol(section);
                fde.lsda = Some(Address::Symbol { symbol: symbols.len(), addend: offset as i64 });
                symbols.push(section_symbol);
                match personality_cies.get(personality) {
                    Some(&id) => id,
                    None => {
                        let pointer = indirections.pointer_to(object, *personality)?;
                        let mut with_personality = cie.clone();
                        let encoding = gimli::DwEhPe(TTYPE_ENCODING);
                        with_personality.personality =
                            Some((encoding, Address::Symbol { symbol: symbols.len(), addend: 0 }));
                        symbols.push(pointer);
                        with_personality.lsda_encoding = Some(pcrel4);
                        let id = table.add_cie(with_personality);
                        personality_cies.insert(*personality, id);
                        id
                    }
                }
            }
        };
        table.add_fde(cie_id, fde);
    }
    if symbols.is_empty() {
        return Ok(());
    }
    let mut eh_frame = EhFrame(Section { writer: EndianVec::new(RunTimeEndian::Little), relocations: Vec::new() });
    table.write_eh_frame(&mut eh_frame).map_err(EmitError::EhFrame)?;
    let EhFrame(section) = eh_frame;
    let id = object.section_id(StandardSection::EhFrame);
    let offset = object.append_section_data(id, &section.writer.into_vec(), 8);
    for r in section.relocations {
        let gimli::write::RelocationTarget::Symbol(index) = r.target else {
            unreachable!("the table above holds symbol addresses only")
        };
        // Function addresses in FDEs are PC-relative (DW_EH_PE_pcrel | sdata4) on both targets.
        let relative = r.eh_pe.is_some_and(|pe| pe.application() == gimli::constants::DW_EH_PE_pcrel);
        let kind = if relative { RelocationKind::Relative } else { RelocationKind::Absolute };
        let size = match r.eh_pe.map(|pe| pe.format()) {
            Some(gimli::constants::DW_EH_PE_sdata4 | gimli::constants::DW_EH_PE_udata4) => 32,
            _ => r.size * 8,
        };
        object
            .add_relocation(
                id,
                ObjectRelocation {
                    offset: offset + r.offset as u64,
                    symbol: symbols[index],
                    addend: r.addend,
                    flags: RelocationFlags::Generic { kind, encoding: RelocationEncoding::Generic, size },
                },
            )
            .map_err(|source| EmitError::Relocate { what: ".eh_frame", source })?;
    }
    Ok(())
}

/// A function of code in memory, for [`in_memory`].
pub struct MemoryFrameEntry<'a> {
    /// The function's address.
    pub address: u64,
    /// Cranelift's unwind information for it.
    pub unwind: &'a UnwindInfo,
    /// For a function with landing pads: its personality function's address and its LSDA's.
    pub exceptions: Option<(u64, u64)>,
}

/// An `.eh_frame` table for code in memory (the JIT), with absolute addresses, ended by a zero
/// length as libgcc's `__register_frame` reads a table; `None` when no function has System V unwind
/// information.
pub fn in_memory(isa: &dyn TargetIsa, functions: &[MemoryFrameEntry<'_>]) -> Result<Option<Vec<u8>>, EmitError> {
    let Some(mut cie) = isa.create_systemv_cie() else { return Ok(None) };
    let absolute = gimli::constants::DW_EH_PE_absptr;
    cie.fde_address_encoding = absolute;
    let mut table = FrameTable::default();
    let plain_cie = table.add_cie(cie.clone());
    let mut personality_cies = HashMap::new();
    let mut any = false;
    for entry in functions {
        let UnwindInfo::SystemV(info) = entry.unwind else { continue };
        any = true;
        let mut fde = info.to_fde(Address::Constant(entry.address));
        let cie_id = match entry.exceptions {
            None => plain_cie,
            Some((personality, lsda)) => {
                fde.lsda = Some(Address::Constant(lsda));
                *personality_cies.entry(personality).or_insert_with(|| {
                    let mut with_personality = cie.clone();
                    with_personality.personality = Some((absolute, Address::Constant(personality)));
                    with_personality.lsda_encoding = Some(absolute);
                    table.add_cie(with_personality)
                })
            }
        };
        table.add_fde(cie_id, fde);
    }
    if !any {
        return Ok(None);
    }
    let mut eh_frame = EhFrame(EndianVec::new(RunTimeEndian::default()));
    table.write_eh_frame(&mut eh_frame).map_err(EmitError::EhFrame)?;
    let mut bytes = eh_frame.0.into_vec();
    bytes.extend_from_slice(&[0; 4]);
    Ok(Some(bytes))
}
