//! Relocatable objects (ELF) through cranelift-object: text, data for globals, relocations and
//! `.eh_frame`.

use cranelift_codegen::binemit::Reloc;
use cranelift_module::{default_libcall_names, DataId, FuncId, ModuleDeclarations, ModuleRelocTarget};
use cranelift_object::object::write::{Comdat, Relocation, SymbolId, SymbolSection};
use cranelift_object::object::{
    elf, ComdatKind, RelocationEncoding, RelocationFlags, RelocationKind, SectionFlags, SectionKind, SymbolKind,
    SymbolScope,
};
use cranelift_object::{ObjectBuilder, ObjectModule, ObjectProduct};

use super::{define_module, eh_frame, section, RelativeData};
use crate::compile::{CompileError, CompiledFunction, EmitError, Options};
use crate::ir::{Module as IrModule, StaticPhase};
use crate::lower::{zero_section, Symbols};
use crate::stackmap::StackMap;

/// Compiles `module` to the bytes of a relocatable object for the resolved target.
pub fn compile(module: &IrModule, options: &Options) -> Result<Vec<u8>, CompileError> {
    compile_with_stack_map(module, options).map(|(object, _)| object)
}

/// [`compile`], and the module's stack map as the compiler knows it, with what only
/// [`Version::FrameTable`](crate::stackmap::Version::FrameTable) stores (frames, call sizes,
/// live-out flags) whatever version the object holds. Its function records are in the order of the object's section (the
/// addresses are 0: the section's relocations name the functions).
pub fn compile_with_stack_map(module: &IrModule, options: &Options) -> Result<(Vec<u8>, StackMap), CompileError> {
    let target = options.resolve_target(module)?;
    let target_arch = target.arch;
    // PIC: the objects link into the PIE executables that the system's `cc` makes by default.
    let frames_walked = options.stackmap_version == crate::stackmap::Version::FrameTable;
    let isas = target.isas(options.opt, true, frames_walked)?;
    let isa = isas.kept.clone();
    let name = module.source_filename.clone().unwrap_or_else(|| module.file.clone());
    let builder =
        ObjectBuilder::new(isa.clone(), name, default_libcall_names()).map_err(|e| EmitError::Object(Box::new(e)))?;
    let mut out = ObjectModule::new(builder);
    let (symbols, compiled, relatives) =
        define_module(module, &mut out, &isas, true, options.statepoint_registers(), relaxable_got_load)?;
    let mut product = out.finish();
    relocate_relatives(target_arch, &relatives, &symbols, &mut product)?;
    place_static_functions(module, &symbols, &mut product)?;
    if let Some(weak) = symbols.dynamic_stack.as_ref().and_then(|h| h.weak_import()) {
        // Where the C library has no thread-exit destructors, the arena helper skips registering one.
        let symbol = product.function_symbol(weak);
        product.object.symbol_mut(symbol).weak = true;
    }
    place_functions(module, &compiled, &symbols, &mut product)?;
    write_got_loads(&compiled, &symbols, &mut product)?;
    place_zero_globals(module, &symbols, &mut product);
    group_comdats(module, &symbols, &mut product)?;
    for f in &compiled {
        let function = product.function_symbol(symbols.function(f.func).expect("defined functions have symbols"));
        for &(offset, target) in &f.symbol_calls {
            let target = product.function_symbol(symbols.function(target).expect("targets are not intrinsics"));
            let symbol = product.object.symbol(function);
            let (base, section) = (symbol.value, symbol.section.id().expect("a defined function lies in a section"));
            for call in target_arch.call_relocations() {
                let relocation = Relocation {
                    offset: base + u64::from(offset + call.offset),
                    symbol: target,
                    addend: 0,
                    flags: RelocationFlags::Elf { r_type: call.elf_type },
                };
                product
                    .object
                    .add_relocation(section, relocation)
                    .map_err(|source| EmitError::Relocate { what: "a patch point", source })?;
            }
        }
    }
    let mut entries = Vec::new();
    for f in &compiled {
        let (Some(id), Some(unwind)) = (symbols.function(f.func), f.unwind.as_ref()) else { continue };
        let symbol = product.function_symbol(id);
        let exceptions = match &f.exceptions {
            None => None,
            Some(e) => {
                let function = module.function(f.func);
                let personality = function.personality.as_ref().expect("verified: landing pads need a personality");
                let declared = module
                    .functions
                    .iter()
                    .position(|g| g.name == personality.name)
                    .and_then(|i| symbols.function(crate::ir::FuncId(i as u32)));
                let Some(declared) = declared else {
                    let message = format!("personality '@{}' is not a declared function", personality.name);
                    return Err(module.error(personality.span, message).into());
                };
                let lsda = super::lsda::lsda(e, f.code.len() as u32);
                Some((product.function_symbol(declared), lsda))
            }
        };
        entries.push(eh_frame::FrameEntry { symbol, unwind, exceptions });
    }
    let typeinfo: std::collections::HashMap<_, _> = (entries.iter())
        .flat_map(|e| e.exceptions.iter().flat_map(|(_, lsda)| lsda.type_refs.iter().map(|&(_, g)| g)))
        .map(|g| (g, product.data_symbol(symbols.global(g))))
        .collect();
    eh_frame::write(&mut product.object, isa.as_ref(), entries, &|g| typeinfo[&g])?;
    let name = |f: &CompiledFunction| module.function(f.func).name.clone();
    let map = section::stack_map(&compiled, options.stackmap_version, |_| 0, name)?;
    if !map.functions.is_empty() {
        let bytes = section::section_bytes(&map, options.stackmap_version)?;
        let with_records: Vec<_> = compiled
            .iter()
            .filter(|f| section::listed(f, options.stackmap_version))
            .map(|f| product.function_symbol(symbols.function(f.func).expect("defined functions have symbols")))
            .collect();
        let table_offset = map.function_table_offset(options.stackmap_version);
        section::add_to_object(&mut product.object, bytes, options.stackmap_version, table_offset, &with_records)?;
    }
    Ok((product.emit().map_err(EmitError::Write)?, map))
}

/// The relative references in globals as PC-relative relocations (R_X86_64_PC32, R_AARCH64_PREL32
/// and their 64-bit forms), as llc-19 writes relative lookup tables: at the reference's place `P`,
/// `S + A - P` is the target less the global's start when `A` adds the place's offset in the global.
fn relocate_relatives(
    arch: crate::arch::Arch,
    relatives: &[RelativeData],
    symbols: &Symbols,
    product: &mut ObjectProduct,
) -> Result<(), EmitError> {
    for r in relatives {
        let global = product.data_symbol(symbols.global(r.global));
        let (base, section) = {
            let symbol = product.object.symbol(global);
            (symbol.value, symbol.section.id().expect("a defined global lies in a section"))
        };
        let target = match r.target {
            crate::ir::Symbol::Global(g) => product.data_symbol(symbols.global(g)),
            crate::ir::Symbol::Func(f) => {
                product.function_symbol(symbols.function(f).expect("checked when the global was defined"))
            }
        };
        let relocation = Relocation {
            offset: base + r.offset,
            symbol: target,
            addend: r.addend + r.offset as i64,
            flags: RelocationFlags::Elf { r_type: arch.relative_data_relocation(r.size) },
        };
        product
            .object
            .add_relocation(section, relocation)
            .map_err(|source| EmitError::Relocate { what: "a relative reference", source })?;
    }
    Ok(())
}

/// The static constructors' and destructors' addresses in `.init_array[.P]` and `.fini_array[.P]`
/// sections, as llc-19 places them, so that the system linker orders them by priority.
fn place_static_functions(
    module: &IrModule,
    symbols: &Symbols,
    product: &mut ObjectProduct,
) -> Result<(), CompileError> {
    let mut sections: Vec<(String, cranelift_object::object::write::SectionId)> = Vec::new();
    for s in module.static_functions()? {
        let name = s.elf_section();
        let section = match sections.iter().find(|(n, _)| *n == name) {
            Some(&(_, id)) => id,
            None => {
                let sh_type = match s.phase {
                    StaticPhase::Constructor => elf::SHT_INIT_ARRAY,
                    StaticPhase::Destructor => elf::SHT_FINI_ARRAY,
                };
                let id = product.object.add_section(Vec::new(), name.clone().into_bytes(), SectionKind::Elf(sh_type));
                *product.object.section_flags_mut(id) =
                    SectionFlags::Elf { sh_flags: u64::from(elf::SHF_ALLOC | elf::SHF_WRITE) };
                sections.push((name, id));
                id
            }
        };
        let offset = product.object.append_section_data(section, &[0; 8], 8);
        let function = symbols.function(s.function).expect("verified: not an intrinsic");
        let relocation = Relocation {
            offset,
            symbol: product.function_symbol(function),
            addend: 0,
            flags: RelocationFlags::Generic {
                kind: RelocationKind::Absolute,
                encoding: RelocationEncoding::Generic,
                size: 64,
            },
        };
        product
            .object
            .add_relocation(section, relocation)
            .map_err(|source| EmitError::Relocate { what: "a static constructor or destructor", source })?;
    }
    Ok(())
}

/// Defines the functions with a `section` or a `comdat` (declared as imports until now) each in a
/// section of its own: the named one, else `.text.<name>` as llc-19 names a COMDAT member's.
fn place_functions(
    module: &IrModule,
    compiled: &[CompiledFunction],
    symbols: &Symbols,
    product: &mut ObjectProduct,
) -> Result<(), EmitError> {
    for f in compiled.iter().filter(|f| symbols.placed(f.func)) {
        let ir = module.function(f.func);
        let name = ir.placement.section.clone().unwrap_or_else(|| format!(".text.{}", ir.name));
        let section = product.object.add_section(Vec::new(), name.into_bytes(), SectionKind::Text);
        let align = f.alignment.max(ir.placement.align.unwrap_or(1)).max(16);
        let offset = product.object.append_section_data(section, &f.code, align);
        let symbol = product.function_symbol(symbols.function(f.func).expect("defined functions have symbols"));
        let defined = product.object.symbol_mut(symbol);
        defined.section = SymbolSection::Section(section);
        defined.value = offset;
        defined.size = f.code.len() as u64;
        defined.kind = SymbolKind::Text;
        defined.scope = if ir.linkage.is_local() { SymbolScope::Compilation } else { SymbolScope::Dynamic };
        defined.weak = ir.linkage.is_weak();
        for r in &f.relocs {
            let target = relocation_symbol(product, &r.name)
                .ok_or_else(|| EmitError::Placement { function: ir.name.clone(), what: format!("{:?}", r.name) })?;
            let flags = relocation_flags(r.kind)
                .ok_or_else(|| EmitError::Placement { function: ir.name.clone(), what: format!("{:?}", r.kind) })?;
            let relocation =
                Relocation { offset: offset + u64::from(r.offset), symbol: target, addend: r.addend, flags };
            product
                .object
                .add_relocation(section, relocation)
                .map_err(|source| EmitError::Relocate { what: "a function in its own section", source })?;
        }
    }
    Ok(())
}

/// Defines the zero-initialised globals of a NOBITS section of their own ([`zero_section`], declared as
/// imports until now): each in its section, with no file bytes, as llc-19 places them.
fn place_zero_globals(module: &IrModule, symbols: &Symbols, product: &mut ObjectProduct) {
    for (i, g) in module.globals.iter().enumerate() {
        let id = crate::ir::GlobalId(i as u32);
        let Some(name) = zero_section(g).filter(|_| symbols.placed_global(id)) else { continue };
        let section = product.object.add_section(Vec::new(), name.into_bytes(), SectionKind::UninitializedData);
        let symbol = product.data_symbol(symbols.global(id));
        let defined = product.object.symbol_mut(symbol);
        defined.kind = SymbolKind::Data;
        defined.scope = if g.linkage.is_local() { SymbolScope::Compilation } else { SymbolScope::Dynamic };
        defined.weak = g.linkage.is_weak();
        let align = g.align.unwrap_or(1).max(g.ty.align());
        product.object.add_symbol_bss(symbol, section, g.ty.alloc_size(), align);
    }
}

/// The symbol a relocation of compiled code refers to.
fn relocation_symbol(product: &mut ObjectProduct, target: &ModuleRelocTarget) -> Option<SymbolId> {
    match target {
        ModuleRelocTarget::User { .. } if ModuleDeclarations::is_function(target) => {
            Some(product.function_symbol(FuncId::from_name(target)))
        }
        ModuleRelocTarget::User { .. } => Some(product.data_symbol(DataId::from_name(target))),
        ModuleRelocTarget::LibCall(libcall) => {
            let name = default_libcall_names()(*libcall);
            Some(product.object.symbol_id(name.as_bytes()).unwrap_or_else(|| {
                product.object.add_symbol(cranelift_object::object::write::Symbol {
                    name: name.into_bytes(),
                    value: 0,
                    size: 0,
                    kind: SymbolKind::Text,
                    scope: SymbolScope::Unknown,
                    weak: false,
                    section: SymbolSection::Undefined,
                    flags: cranelift_object::object::SymbolFlags::None,
                })
            }))
        }
        _ => None,
    }
}

/// Cranelift's x86-64 emits `Reloc::X86GOTPCRel4` only in `movq sym@GOTPCREL(%rip), %reg` (REX.W),
/// the form R_X86_64_REX_GOTPCRELX names, as llc-19 writes it: the linker may then rewrite the load
/// as `leaq sym(%rip), %reg` where the symbol resolves within the output, as clang's code reaches
/// it. cranelift-object writes the plain R_X86_64_GOTPCREL, which the linker leaves a load, so
/// these relocations are written here ([`write_got_loads`]).
fn relaxable_got_load(kind: Reloc) -> bool {
    kind == Reloc::X86GOTPCRel4
}

/// Adds the [`relaxable_got_load`] relocations of the functions cranelift-object placed.
fn write_got_loads(
    compiled: &[CompiledFunction],
    symbols: &Symbols,
    product: &mut ObjectProduct,
) -> Result<(), EmitError> {
    for f in compiled.iter().filter(|f| !symbols.placed(f.func)) {
        let function = product.function_symbol(symbols.function(f.func).expect("defined functions have symbols"));
        let symbol = product.object.symbol(function);
        let (base, section) = (symbol.value, symbol.section.id().expect("a defined function lies in a section"));
        for r in f.relocs.iter().filter(|r| relaxable_got_load(r.kind)) {
            let target = relocation_symbol(product, &r.name).expect("GOT loads name symbols");
            let flags = relocation_flags(r.kind).expect("x86-64 GOT loads have an ELF relocation");
            let relocation = Relocation { offset: base + u64::from(r.offset), symbol: target, addend: r.addend, flags };
            product
                .object
                .add_relocation(section, relocation)
                .map_err(|source| EmitError::Relocate { what: "a GOT load", source })?;
        }
    }
    Ok(())
}

/// The ELF relocation of a Cranelift relocation kind of the x86-64 and AArch64 code it emits, as
/// cranelift-object writes them.
fn relocation_flags(kind: Reloc) -> Option<RelocationFlags> {
    let generic = |kind, encoding, size| RelocationFlags::Generic { kind, encoding, size };
    let elf = |r_type| RelocationFlags::Elf { r_type };
    Some(match kind {
        Reloc::Abs4 => generic(RelocationKind::Absolute, RelocationEncoding::Generic, 32),
        Reloc::Abs8 => generic(RelocationKind::Absolute, RelocationEncoding::Generic, 64),
        Reloc::X86PCRel4 => generic(RelocationKind::Relative, RelocationEncoding::Generic, 32),
        Reloc::X86CallPCRel4 => generic(RelocationKind::Relative, RelocationEncoding::X86Branch, 32),
        Reloc::X86CallPLTRel4 => generic(RelocationKind::PltRelative, RelocationEncoding::X86Branch, 32),
        // See `relaxable_got_load`.
        Reloc::X86GOTPCRel4 => elf(elf::R_X86_64_REX_GOTPCRELX),
        Reloc::Arm64Call => generic(RelocationKind::Relative, RelocationEncoding::AArch64Call, 26),
        Reloc::ElfX86_64TlsGd => elf(elf::R_X86_64_TLSGD),
        Reloc::Aarch64TlsDescAdrPage21 => elf(elf::R_AARCH64_TLSDESC_ADR_PAGE21),
        Reloc::Aarch64TlsDescLd64Lo12 => elf(elf::R_AARCH64_TLSDESC_LD64_LO12),
        Reloc::Aarch64TlsDescAddLo12 => elf(elf::R_AARCH64_TLSDESC_ADD_LO12),
        Reloc::Aarch64TlsDescCall => elf(elf::R_AARCH64_TLSDESC_CALL),
        Reloc::Aarch64AdrGotPage21 => elf(elf::R_AARCH64_ADR_GOT_PAGE),
        Reloc::Aarch64Ld64GotLo12Nc => elf(elf::R_AARCH64_LD64_GOT_LO12_NC),
        Reloc::Aarch64AdrPrelPgHi21 => elf(elf::R_AARCH64_ADR_PREL_PG_HI21),
        Reloc::Aarch64AddAbsLo12Nc => elf(elf::R_AARCH64_ADD_ABS_LO12_NC),
        _ => return None,
    })
}

/// One COMDAT group per `$name = comdat any` with members: the sections of its functions and
/// globals, keyed by the symbol of its name. `nodeduplicate` groups are plain sections on ELF.
fn group_comdats(module: &IrModule, symbols: &Symbols, product: &mut ObjectProduct) -> Result<(), EmitError> {
    for comdat in module.comdats.iter().filter(|c| c.kind == "any") {
        let member = |p: &crate::ir::Placement| p.comdat.as_deref() == Some(comdat.name.as_str());
        // Each member's symbol and its section's flags (`object` leaves SHF_GROUP to the caller).
        let functions = module.functions.iter().enumerate().filter(|(_, f)| f.emits_code() && member(&f.placement));
        let mut members: Vec<(SymbolId, u32)> = functions
            .filter_map(|(i, _)| symbols.function(crate::ir::FuncId(i as u32)))
            .map(|id| (product.function_symbol(id), elf::SHF_ALLOC | elf::SHF_EXECINSTR))
            .collect();
        members.extend(
            module.globals.iter().enumerate().filter(|(_, g)| g.init.is_some() && member(&g.placement)).map(
                |(i, g)| {
                    let read_only = super::data_section(g) == ".rodata";
                    let flags = if read_only { elf::SHF_ALLOC } else { elf::SHF_ALLOC | elf::SHF_WRITE };
                    (product.data_symbol(symbols.global(crate::ir::GlobalId(i as u32))), flags)
                },
            ),
        );
        if members.is_empty() {
            continue;
        }
        let signature =
            product.object.symbol_id(comdat.name.as_bytes()).ok_or_else(|| EmitError::Comdat(comdat.name.clone()))?;
        let mut sections = Vec::new();
        for &(member, flags) in &members {
            let Some(section) = product.object.symbol(member).section.id() else { continue };
            if sections.contains(&section) {
                continue;
            }
            sections.push(section);
            *product.object.section_flags_mut(section) =
                SectionFlags::Elf { sh_flags: u64::from(flags | elf::SHF_GROUP) };
        }
        product.object.add_comdat(Comdat { kind: ComdatKind::Any, symbol: signature, sections });
    }
    Ok(())
}
