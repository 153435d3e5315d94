//! Outputs: relocatable objects and in-process JIT code. Both declare the module's symbols, define
//! its globals, take the machine code of `compile` and hand it to a cranelift-module backend.

pub mod eh_frame;
pub mod jit;
pub mod object;
pub mod section;

use std::sync::Arc;

use cranelift_codegen::isa::TargetIsa;
use cranelift_module::{DataDescription, Module};

use crate::compile::{compile_functions, CompileError, CompiledFunction, EmitError};
use crate::ir::{self, Const, Init, IrError, Type};
use crate::lower::Symbols;

/// Verifies the module, declares its symbols in `out`, defines its globals, compiles its functions and
/// defines them: what objects and the JIT share. `colocated`: see [`Symbols::colocated`].
fn define_module(
    module: &ir::Module,
    out: &mut dyn Module,
    isa: &Arc<dyn TargetIsa>,
    colocated: bool,
) -> Result<(Symbols, Vec<CompiledFunction>), CompileError> {
    // Globals and names reach Cranelift and `object` here, before any function is compiled.
    ir::verify(module)?;
    let symbols = Symbols::declare(module, out, colocated)?;
    define_globals(module, out, &symbols)?;
    symbols.define_helpers(out)?;
    let compiled = compile_functions(module, isa, &symbols)?;
    for f in compiled.iter().filter(|f| !symbols.placed(f.func)) {
        let id = symbols.function(f.func).expect("defined functions have symbols");
        let align = f.alignment.max(module.function(f.func).placement.align.unwrap_or(1));
        out.define_function_bytes(id, align, &f.code, &f.relocs).map_err(|source| EmitError::Define {
            name: module.function(f.func).name.clone(),
            source: Box::new(source),
        })?;
    }
    Ok((symbols, compiled))
}

/// Defines every global variable that has an initializer.
fn define_globals(module: &ir::Module, out: &mut dyn Module, symbols: &Symbols) -> Result<(), IrError> {
    for (i, g) in module.globals.iter().enumerate() {
        let Some(init) = g.init.as_ref().filter(|_| g.linkage != ir::Linkage::AvailableExternally) else { continue };
        let size = g.ty.alloc_size() as usize;
        let mut data = DataDescription::new();
        if init.is_zero() && !g.constant {
            // `.bss` in objects, zeroed memory in the JIT: no bytes to build or copy. Constants stay in
            // `.rodata` as llc-19 keeps them.
            data.define_zeroinit(size);
        } else {
            let mut bytes = Vec::with_capacity(size);
            initial_bytes(&g.ty, init, &mut bytes);
            data.define(bytes.into_boxed_slice());
        }
        data.set_align(g.align.unwrap_or(1).max(g.ty.align()));
        // A COMDAT member needs a section of its own; cranelift-object makes one per custom section.
        let own = || format!("{}.{}", if g.constant { ".rodata" } else { ".data" }, g.name);
        match (&g.placement.section, &g.placement.comdat) {
            (Some(section), _) => data.set_custom_section(section),
            (None, Some(_)) => data.set_custom_section(&own()),
            (None, None) => {}
        }
        out.define_data(symbols.global(ir::GlobalId(i as u32)), &data)
            .map_err(|e| module.error(g.span, format!("cannot define global '@{}': {e}", g.name)))?;
    }
    Ok(())
}

/// The little-endian bytes of a global's initial value.
fn initial_bytes(ty: &Type, init: &Init, out: &mut Vec<u8>) {
    let size = ty.alloc_size() as usize;
    let start = out.len();
    match (init, ty) {
        (Init::Zero, _) => {}
        (Init::Bytes(bytes), _) => out.extend_from_slice(bytes),
        (Init::Array(items), Type::Array(_, elem)) => {
            for item in items {
                initial_bytes(elem, item, out);
            }
        }
        (Init::Scalar(Const::Float(x)), Type::Float) => out.extend_from_slice(&(*x as f32).to_le_bytes()),
        (Init::Scalar(Const::Float(x)), _) => out.extend_from_slice(&x.to_le_bytes()),
        (Init::Scalar(Const::Int(v) | Const::IntToPtr(v)), _) => {
            let v = if *ty == Type::I1 { v & 1 } else { *v };
            out.extend_from_slice(&v.to_le_bytes()[..size.min(8)]);
        }
        (Init::Scalar(Const::Zero | Const::Undef | Const::Poison), _) | (Init::Array(_), _) => {}
    }
    // Whatever the initializer left out (zeroinitializer, undef, short strings) is zero.
    out.resize(start + size, 0);
}
