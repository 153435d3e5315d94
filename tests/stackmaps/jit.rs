//! The JIT's stack map section: absolute function addresses that match the code the JIT made, records
//! inside their functions, in the version the options ask for; and the JIT runs the program.

use crate::support;

use patchmap::compile::Options;
use patchmap::emit::jit::JitCode;
use patchmap::stackmap::{Endian, StackMapView, Version};

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
