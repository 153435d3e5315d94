//! Zero-initialised writable globals take no bytes: `.bss` in objects (as llc-19 places them), zeroed
//! memory in the JIT.

use crate::support;

use std::collections::BTreeMap;
use std::process::Command;

use object::{Object, ObjectComdat, ObjectSection, ObjectSymbol, SectionKind};
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

/// Zero globals in named sections (and a writable COMDAT member), read and written by C.
const NAMED: &str = r#"
$grp = comdat any
@a = global i64 0, section ".mydata"
@b = global i64 0, section ".data"
@c = global i64 0, section ".bss"
@d = global [3 x i64] zeroinitializer, section ".bss.mine"
@e = global i32 0, section "plain"
@k = constant i64 0, section ".bss.k"
@grp = linkonce_odr global i64 0, comdat

define i64 @f() {
  %a = load i64, ptr @a
  %b = load i64, ptr @b
  %c = load i64, ptr @c
  %p = getelementptr [3 x i64], ptr @d, i64 0, i64 2
  %d = load i64, ptr %p
  %e32 = load i32, ptr @e
  %e = zext i32 %e32 to i64
  %k = load i64, ptr @k
  %g = load i64, ptr @grp
  %s1 = or i64 %a, %b
  %s2 = or i64 %s1, %c
  %s3 = or i64 %s2, %d
  %s4 = or i64 %s3, %e
  %s5 = or i64 %s4, %k
  %s6 = or i64 %s5, %g
  ret i64 %s6
}
"#;

const NAMED_MAIN: &str = r#"
#include <stdio.h>
extern long a, b, c, d[3], grp;
extern int e;
extern const long k;
long f(void);
int main(void) {
    printf("%ld %ld %ld %ld %ld %ld %d %ld %ld\n", f(), a, b, c, d[0] | d[1] | d[2], grp, e, k, grp);
    a = 1; b = 2; c = 3; d[0] = 4; d[2] = 5; e = 6; grp = 7;
    printf("%ld %ld %ld %ld %ld %d %ld\n", a, b, c, d[0], d[2], e, grp);
    return 0;
}
"#;

/// A zero global in a named section holds bytes of its own (PROGBITS zeros), or none in a NOBITS
/// section where llc-19 makes one (`.bss`-like names, a writable COMDAT member's `.bss.<name>`),
/// never the bytes of another section: read back with the `object` crate on both targets, and by C.
#[test]
fn zero_globals_in_named_sections_hold_zeros() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("named.ll");
    std::fs::write(&ll, NAMED).unwrap();
    let module = patchmap::ir::parse_file(&ll).unwrap();
    let expected = [
        ("a", ".mydata", 8, SectionKind::Data),
        ("b", ".data", 8, SectionKind::Data),
        ("c", ".bss", 8, SectionKind::UninitializedData),
        ("d", ".bss.mine", 24, SectionKind::UninitializedData),
        ("e", "plain", 4, SectionKind::Data),
        ("k", ".bss.k", 8, SectionKind::UninitializedData),
        ("grp", ".bss.grp", 8, SectionKind::UninitializedData),
    ];
    for arch in support::Arch::ALL {
        let object =
            patchmap::emit::object::compile(&module, &Options::new(Some(arch.triple()), "speed", 3).unwrap()).unwrap();
        let file = object::File::parse(&*object).unwrap();
        let text = file.section_by_name(".text").unwrap().file_range().unwrap();
        for (name, section_name, size, kind) in expected {
            let symbol = file.symbol_by_name(name).unwrap_or_else(|| panic!("no symbol {name}"));
            let section = file.section_by_index(symbol.section_index().unwrap()).unwrap();
            let what = format!("{arch:?} @{name}");
            assert_eq!((section.name().unwrap(), symbol.size(), section.kind()), (section_name, size, kind), "{what}");
            match section.file_range() {
                // A NOBITS section has no file range, and `object` gives no data for it.
                None => assert_eq!(kind, SectionKind::UninitializedData, "{what}"),
                Some((offset, len)) => {
                    assert_eq!(kind, SectionKind::Data, "{what}");
                    assert!(offset >= text.0 + text.1 || offset + len <= text.0, "{what} overlaps .text");
                    let data = section.data().unwrap();
                    assert_eq!(data.len() as u64, section.size(), "{what}: the file holds its bytes");
                    assert!(data.iter().all(|&b| b == 0), "{what}: {data:?}");
                }
            }
        }
        // The COMDAT member's NOBITS section is in its group.
        let grp = file.symbol_by_name("grp").unwrap().section_index().unwrap();
        assert!(
            file.comdats().any(|c| c.name() == Ok("grp") && c.sections().any(|s| s == grp)),
            "{arch:?}: .bss.grp is not in the group"
        );
        let Some(toolchain) = support::toolchain(arch) else { continue };
        let c = dir.path().join("main.c");
        std::fs::write(&c, NAMED_MAIN).unwrap();
        let main = dir.path().join(format!("main.{arch:?}.o"));
        let (code, _, err) = support::run(Command::new(&toolchain.linker).arg("-c").arg(&c).arg("-o").arg(&main));
        assert_eq!(code, 0, "{err}");
        let main = std::fs::read(&main).unwrap();
        let outcome = toolchain.link_all_and_run(&[&object, &main], dir.path(), &format!("named_{arch:?}")).unwrap();
        assert_eq!(outcome.stdout, "0 0 0 0 0 0 0 0 0\n1 2 3 4 5 6 7\n", "{arch:?}");
    }
}
