//! The `.eh_frame` section of an object: one FDE per function, from Cranelift's unwind information,
//! so debuggers, profilers and C++/Rust unwinders can walk through generated code.
//!
//! cranelift-object writes `.eh_frame` only for functions it compiles itself; patchmap hands it
//! finished bytes (compiled in parallel, later with patch regions rewritten), so it writes its own.

use cranelift_codegen::gimli::write::{Address, EhFrame, EndianVec, FrameTable, RelocateWriter, Relocation};
use cranelift_codegen::gimli::{self, RunTimeEndian};
use cranelift_codegen::isa::unwind::UnwindInfo;
use cranelift_codegen::isa::TargetIsa;

use crate::compile::EmitError;
use cranelift_object::object::write::{Object, Relocation as ObjectRelocation, StandardSection, SymbolId};
use cranelift_object::object::{RelocationEncoding, RelocationFlags, RelocationKind};

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

/// Adds `.eh_frame` to `object` for `functions` (symbol, unwind information). Writes nothing when no
/// function has System V unwind information.
pub fn write(
    object: &mut Object<'static>,
    isa: &dyn TargetIsa,
    functions: &[(SymbolId, &UnwindInfo)],
) -> Result<(), EmitError> {
    let Some(mut cie) = isa.create_systemv_cie() else { return Ok(()) };
    // PC-relative function addresses, as compilers emit them: absolute ones would be relocations in
    // a read-only section, which makes PIE links create text relocations.
    cie.fde_address_encoding = gimli::constants::DW_EH_PE_pcrel | gimli::constants::DW_EH_PE_sdata4;
    let mut table = FrameTable::default();
    let cie_id = table.add_cie(cie);
    let mut symbols = Vec::new();
    for (symbol, info) in functions {
        if let UnwindInfo::SystemV(info) = info {
            let address = Address::Symbol { symbol: symbols.len(), addend: 0 };
            symbols.push(*symbol);
            table.add_fde(cie_id, info.to_fde(address));
        }
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
