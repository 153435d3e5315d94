//! Zero-initialised writable globals take no bytes: `.bss` in objects (as llc-19 places them), zeroed
//! memory in the JIT.

use crate::support;

use std::collections::BTreeMap;
use std::process::Command;

use object::{Object, ObjectSection, ObjectSymbol, SectionKind};
use patchmap::compile::Options;

/// A 100 MB zero array, zeros spelled several ways, a zero constant and two non-zero globals.
const GLOBALS: &str = r#"
@big = global [100000000 x i8] zeroinitializer
@z32 = global i32 0
@u = global i64 undef
@fz = internal global [4 x double] [double 0.0, double 0.0, double 0.0, double 0.0]
@neg = global double -0.0
@c = constant [16 x i8] zeroinitializer
@d = global i32 1

define i64 @main() {
  %p = getelementptr [100000000 x i8], ptr @big, i64 0, i64 99999999
  %old = load i8, ptr %p
  store i8 7, ptr %p
  %v = load i8, ptr %p
  %sum = add i8 %old, %v
  %w = zext i8 %sum to i64
  ret i64 %w
}
"#;

/// Each data symbol's section name and size.
fn placement(object: &[u8]) -> BTreeMap<String, (String, u64)> {
    let file = object::File::parse(object).unwrap();
    file.symbols()
        .filter(|s| s.kind() == object::SymbolKind::Data)
        .map(|s| {
            let section = file.section_by_index(s.section_index().unwrap()).unwrap();
            (s.name().unwrap().to_owned(), (section.name().unwrap().to_owned(), s.size()))
        })
        .collect()
}

#[test]
fn zero_globals_go_to_bss_and_cost_no_file_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("globals.ll");
    std::fs::write(&ll, GLOBALS).unwrap();
    let module = patchmap::ir::parse_file(&ll).unwrap();
    let object = patchmap::emit::object::compile(&module, &Options::new(Some("x86_64"), "none", 3).unwrap()).unwrap();
    assert!(object.len() < 64 << 10, "a 100 MB zero global made a {}-byte object", object.len());
    let file = object::File::parse(&*object).unwrap();
    let bss = file.section_by_name(".bss").expect("no .bss section");
    assert_eq!(bss.kind(), SectionKind::UninitializedData);
    let ours = placement(&object);
    let expected = [
        ("big", ".bss", 100_000_000),
        ("z32", ".bss", 4),
        ("u", ".bss", 8),
        ("fz", ".bss", 32),
        ("neg", ".data", 8),
        ("c", ".rodata", 16),
        ("d", ".data", 4),
    ];
    for (name, section, size) in expected {
        assert_eq!(ours.get(name), Some(&(section.to_owned(), size)), "@{name}");
    }

    let Some(llc) = support::tool("llc-19") else { return };
    let reference = support::llc_object(&llc, &ll, support::Arch::X86_64, "0", dir.path()).unwrap();
    assert_eq!(ours, placement(&reference), "placement differs from llc-19's");
}

#[test]
fn the_jit_zeroes_a_large_global() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("globals.ll");
    std::fs::write(&ll, GLOBALS).unwrap();
    let (code, out, err) = support::run(Command::new(support::patchmap_bin()).arg("run").arg(&ll));
    assert_eq!((code, out.as_str()), (0, "7\n"), "{err}");
}
