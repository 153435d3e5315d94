//! Outputs: relocatable objects and in-process JIT code. Both declare the module's symbols, define
//! its globals, take the machine code of `compile` and hand it to a cranelift-module backend.

pub mod eh_frame;
pub mod jit;
pub mod lsda;
pub mod object;
pub mod section;

use cranelift_codegen::binemit::Reloc;
use cranelift_module::{DataDescription, Module};

use crate::compile::{compile_functions, CompileError, CompiledFunction, EmitError};
use crate::ir::{self, Const, Init, IrError, Type};
use crate::lower::{StatepointRegisters, Symbols};
use crate::target::Isas;

/// Verifies the module, declares its symbols in `out`, defines its globals, compiles its functions and
/// defines them: what objects and the JIT share. `colocated`: see [`Symbols::colocated`]. The code's
/// relocations of the kinds `written_by_caller` picks are left out of `out`, for the caller to write.
fn define_module(
    module: &ir::Module,
    out: &mut dyn Module,
    isas: &Isas,
    colocated: bool,
    registers: StatepointRegisters,
    written_by_caller: fn(Reloc) -> bool,
) -> Result<(Symbols, Vec<CompiledFunction>, Vec<RelativeData>), CompileError> {
    // Globals and names reach Cranelift and `object` here, before any function is compiled.
    ir::verify(module)?;
    let symbols = Symbols::declare(module, out, colocated)?;
    let relatives = define_globals(module, out, &symbols)?;
    symbols.define_helpers(out).map_err(EmitError::from)?;
    let compiled = compile_functions(module, isas, &symbols, registers)?;
    for f in compiled.iter().filter(|f| !symbols.placed(f.func)) {
        let id = symbols.function(f.func).expect("defined functions have symbols");
        let align = f.alignment.max(module.function(f.func).placement.align.unwrap_or(1));
        let relocs: Vec<_> = f.relocs.iter().filter(|r| !written_by_caller(r.kind)).cloned().collect();
        out.define_function_bytes(id, align, &f.code, &relocs).map_err(|source| EmitError::Define {
            name: module.function(f.func).name.clone(),
            source: Box::new(source),
        })?;
    }
    Ok((symbols, compiled, relatives))
}

/// A relative reference in a global's initial value, which cranelift-module's data relocations
/// (absolute addresses only) cannot express: the object writer adds it as a PC-relative
/// relocation, the JIT writes it once addresses are known.
#[derive(Clone, Debug)]
pub(crate) struct RelativeData {
    /// The global holding it, which is also the reference's base (the place it is relative to).
    pub global: ir::GlobalId,
    /// Its offset in the global.
    pub offset: u64,
    /// Its width in bytes: 4 or 8.
    pub size: u8,
    /// What it refers to.
    pub target: ir::Symbol,
    /// Added to the target's address, less the base's.
    pub addend: i64,
}

/// Defines every global variable that has an initializer.
fn define_globals(module: &ir::Module, out: &mut dyn Module, symbols: &Symbols) -> Result<Vec<RelativeData>, IrError> {
    let mut all_relatives = Vec::new();
    for (i, g) in module.globals.iter().enumerate() {
        let Some(init) = g.init.as_ref().filter(|_| g.is_emitted(symbols.colocated)) else { continue };
        if symbols.placed_global(ir::GlobalId(i as u32)) {
            continue;
        }
        let size = g.ty.alloc_size() as usize;
        let mut data = DataDescription::new();
        // cranelift-object gives a custom section file bytes (PROGBITS) but no contents for zeros:
        // an object's zeros in a named section are bytes (the NOBITS ones are placed apart).
        let named = g.placement.section.is_some() || g.placement.comdat.is_some();
        if init.is_zero() && !g.constant && !(named && symbols.colocated) {
            // `.bss` in objects, zeroed memory in the JIT: no bytes to build or copy. Constants stay in
            // `.rodata` as llc-19 keeps them.
            data.define_zeroinit(size);
        } else {
            let mut bytes = Vec::with_capacity(size);
            let mut addresses = InitialAddresses::default();
            initial_bytes(&g.ty, init, &mut bytes, &mut addresses);
            for (offset, b) in &addresses.blocks {
                let value = module.block_address_value(&symbols.block_addresses, b).unwrap_or(0);
                bytes[*offset as usize..*offset as usize + 8].copy_from_slice(&value.to_le_bytes());
            }
            for (offset, size, pair) in &addresses.label_differences {
                let value = module.label_difference_value(&symbols.block_addresses, pair);
                bytes[*offset as usize..*offset as usize + size].copy_from_slice(&value.to_le_bytes()[..*size]);
            }
            data.define(bytes.into_boxed_slice());
            let this = ir::Symbol::Global(ir::GlobalId(i as u32));
            for (offset, size, r) in addresses.relative {
                debug_assert!(r.base == this, "verified: relative to the global that holds it");
                if let ir::Symbol::Func(f) = r.target {
                    if symbols.function(f).is_none() {
                        let name = &module.function(f).name;
                        let message = format!("'@{}': the address of intrinsic '@{name}' cannot be taken", g.name);
                        return Err(module.error(g.span, message));
                    }
                }
                let global = ir::GlobalId(i as u32);
                all_relatives.push(RelativeData {
                    global,
                    offset,
                    size,
                    target: r.target,
                    addend: i64::from(r.offset),
                });
            }
            let addresses = addresses.absolute;
            // Addresses of globals and functions are relocations the linker (or the JIT) fills in.
            for (offset, symbol, addend) in addresses {
                let offset = u32::try_from(offset).map_err(|_| {
                    module.error(g.span, format!("'@{}': an address lies beyond 4 GiB into the global", g.name))
                })?;
                match symbol {
                    ir::Symbol::Global(target) => {
                        let gv = out.declare_data_in_data(symbols.global(target), &mut data);
                        data.write_data_addr(offset, gv, addend);
                    }
                    ir::Symbol::Func(target) => {
                        let f = module.function(target);
                        let Some(id) = symbols.function(target) else {
                            return Err(module.error(
                                g.span,
                                format!("'@{}': the address of intrinsic '@{}' cannot be taken", g.name, f.name),
                            ));
                        };
                        if addend != 0 {
                            return Err(module.error(
                                g.span,
                                format!("'@{}': unsupported offset {addend} from function '@{}'", g.name, f.name),
                            ));
                        }
                        let r = out.declare_func_in_data(id, &mut data);
                        data.write_function_addr(offset, r);
                    }
                }
            }
        }
        data.set_align(g.align.unwrap_or(1).max(g.ty.align()));
        // A COMDAT member needs a section of its own; cranelift-object makes one per custom section.
        let own = || format!("{}.{}", data_section(g), g.name);
        match (&g.placement.section, &g.placement.comdat) {
            (Some(section), _) => data.set_custom_section(section),
            (None, Some(_)) => data.set_custom_section(&own()),
            (None, None) => {}
        }
        out.define_data(symbols.global(ir::GlobalId(i as u32)), &data)
            .map_err(|e| module.error(g.span, format!("cannot define global '@{}': {e}", g.name)))?;
    }
    Ok(all_relatives)
}

/// The standard section for global `g`'s contents (the prefix of its own section's name): a
/// constant holding addresses goes to `.data.rel.ro`, as llc-19 places vtables and type information,
/// so that the loader may relocate it in a position-independent executable or library without
/// writing to `.rodata` (a text relocation, which `ld -z text` and lld refuse).
pub(crate) fn data_section(g: &ir::Global) -> &'static str {
    match g.init.as_ref() {
        _ if !g.constant => ".data",
        Some(init) if init.has_address() => ".data.rel.ro",
        _ => ".rodata",
    }
}

/// An address in a global's initial value: its offset in the global, its target and the addend.
type InitialAddress = (u64, ir::Symbol, i64);

/// The addresses in a global's initial value: absolute ones, and relative ones (offset, width in
/// bytes, reference).
#[derive(Default)]
struct InitialAddresses {
    absolute: Vec<InitialAddress>,
    relative: Vec<(u64, u8, ir::RelativeAddress)>,
    /// `blockaddress` constants, whose values are numbers ([`ir::Module::block_addresses`]).
    blocks: Vec<(u64, ir::BlockAddress)>,
    /// Distances between labels (offset, width in bytes, labels).
    label_differences: Vec<(u64, usize, (ir::BlockAddress, ir::BlockAddress))>,
}

/// The little-endian bytes of a global's initial value, with the addresses in it (as zeros in the
/// bytes, and in `addresses`).
fn initial_bytes(ty: &Type, init: &Init, out: &mut Vec<u8>, addresses: &mut InitialAddresses) {
    let size = ty.alloc_size() as usize;
    let start = out.len();
    match (init, ty) {
        (Init::Zero, _) => {}
        (Init::Bytes(bytes), _) => out.extend_from_slice(bytes),
        (Init::Array(items), Type::Array(_, elem)) => {
            for item in items {
                initial_bytes(elem, item, out, addresses);
            }
        }
        (Init::Struct(items), Type::Struct(s)) => {
            for ((item, field), offset) in items.iter().zip(s.field_types()).zip(s.offsets()) {
                out.resize(start + *offset as usize, 0);
                initial_bytes(field, item, out, addresses);
            }
        }
        (Init::Scalar(c), _) => constant_bytes(ty, c, out, addresses),
        (Init::Array(_) | Init::Struct(_), _) => {}
    }
    // Whatever the initializer left out (zeroinitializer, undef, short strings, padding) is zero.
    out.resize(start + size, 0);
}

/// The bytes of constant `c` of type `ty`, as [`initial_bytes`].
fn constant_bytes(ty: &Type, c: &Const, out: &mut Vec<u8>, addresses: &mut InitialAddresses) {
    let size = ty.alloc_size() as usize;
    let start = out.len();
    match (c, ty) {
        (Const::Float(x), Type::Half) => out.extend_from_slice(&crate::ir::half::constant_bits(*x).to_le_bytes()),
        (Const::Float(x), Type::Float) => out.extend_from_slice(&(*x as f32).to_le_bytes()),
        (Const::Float(x), _) => out.extend_from_slice(&x.to_le_bytes()),
        (Const::Int(_) | Const::WideInt(_), _) => {
            // An iN keeps N bits; the rest of its store size and its padding are zero, as llc writes them.
            let v = c.int_value().unwrap_or(0);
            let v = match ty.int_bits() {
                Some(bits) if bits < 128 => v & ((1i128 << bits) - 1),
                _ => v,
            };
            out.extend_from_slice(&v.to_le_bytes()[..size.min(16)]);
        }
        (Const::IntToPtr(v), _) => out.extend_from_slice(&v.to_le_bytes()[..size.min(8)]),
        (Const::Address(symbol, addend), _) => addresses.absolute.push((start as u64, *symbol, i64::from(*addend))),
        (Const::Relative(r), _) => addresses.relative.push((start as u64, size as u8, (**r).clone())),
        (Const::BlockAddress(b), _) => addresses.blocks.push((start as u64, (**b).clone())),
        (Const::LabelDifference(pair), _) => addresses.label_differences.push((start as u64, size, (**pair).clone())),
        // A vector's lanes are packed: a mask's a bit each, the others at their store size.
        (Const::Aggregate(items), Type::Vector(_, elem)) if **elem == Type::I1 => {
            let mut bits = vec![0u8; size];
            for (i, item) in items.iter().enumerate() {
                bits[i / 8] |= u8::from(item.int_value().unwrap_or(0) & 1 != 0) << (i % 8);
            }
            out.extend_from_slice(&bits);
        }
        (Const::Aggregate(items), Type::Vector(_, elem)) => {
            let stride = elem.store_size() as usize;
            for (i, item) in items.iter().enumerate() {
                out.resize(start + i * stride, 0);
                constant_bytes(elem, item, out, addresses);
                out.truncate(start + (i + 1) * stride);
            }
        }
        (Const::Aggregate(items), _) => {
            for (i, item) in items.iter().enumerate() {
                if let Some((member, offset)) = ty.member(i as u64) {
                    out.resize(start + offset as usize, 0);
                    constant_bytes(member, item, out, addresses);
                }
            }
        }
        (Const::Zero | Const::Undef | Const::Poison, _) => {}
    }
    out.resize(start + size, 0);
}
