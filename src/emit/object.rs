//! Relocatable objects (ELF) through cranelift-object: text, data for globals, relocations and
//! `.eh_frame`.

use cranelift_module::default_libcall_names;
use cranelift_object::object::write::Relocation;
use cranelift_object::object::RelocationFlags;
use cranelift_object::{ObjectBuilder, ObjectModule};

use super::{define_module, eh_frame, section};
use crate::compile::{CompileError, EmitError, Options};
use crate::ir::Module as IrModule;

/// Compiles `module` to the bytes of a relocatable object for the resolved target.
pub fn compile(module: &IrModule, options: &Options) -> Result<Vec<u8>, CompileError> {
    let target = options.resolve_target(module)?;
    let target_arch = target.arch;
    // PIC: the objects link into the PIE executables that the system's `cc` makes by default.
    let isa = target.isa(options.opt, true)?;
    let name = module.source_filename.clone().unwrap_or_else(|| module.file.clone());
    let builder =
        ObjectBuilder::new(isa.clone(), name, default_libcall_names()).map_err(|e| EmitError::Object(Box::new(e)))?;
    let mut out = ObjectModule::new(builder);
    let (symbols, compiled) = define_module(module, &mut out, &isa, true)?;
    let mut product = out.finish();
    if let Some(weak) = symbols.dynamic_stack.as_ref().and_then(|h| h.weak_import()) {
        // Where the C library has no thread-exit destructors, the arena helper skips registering one.
        let symbol = product.function_symbol(weak);
        product.object.symbol_mut(symbol).weak = true;
    }
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
    let unwind: Vec<_> = compiled
        .iter()
        .filter_map(|f| {
            let symbol = product.function_symbol(symbols.function(f.func)?);
            Some((symbol, f.unwind.as_ref()?))
        })
        .collect();
    eh_frame::write(&mut product.object, isa.as_ref(), &unwind)?;
    let map = section::stack_map(&compiled, |_| 0);
    if !map.records.is_empty() {
        let bytes = section::section_bytes(&map, options.stackmap_version)?;
        let with_records: Vec<_> = compiled
            .iter()
            .filter(|f| !f.points.is_empty())
            .map(|f| product.function_symbol(symbols.function(f.func).expect("defined functions have symbols")))
            .collect();
        section::add_to_object(&mut product.object, bytes, options.stackmap_version, &with_records)?;
    }
    Ok(product.emit().map_err(EmitError::Write)?)
}
