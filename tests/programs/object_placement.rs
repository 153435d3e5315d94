//! Where code and data go in objects: `section "name"` on functions and globals, `comdat` groups
//! (one copy kept when two objects define the same member), function `align`. Checked in the
//! objects themselves and by linking two objects that share a COMDAT function, on x86-64 and
//! AArch64 (qemu).

use crate::support;

use object::{Object, ObjectComdat, ObjectSection, ObjectSymbol, SectionFlags};
use patchmap::compile::Options;
use std::process::Command;
use support::Arch;

const FIRST: &str = r#"
$shared = comdat any
$counted = comdat any
@counter = global i32 3, section "my_data", align 4
@counted = linkonce_odr global i64 9, comdat, align 8
declare i32 @printf(ptr, ...)
declare i32 @other(i32)
@fmt = private constant [13 x i8] c"%d %d %d %d\0A\00"

define linkonce_odr i32 @shared(i32 %x) comdat {
  %r = mul i32 %x, 7
  ret i32 %r
}

define internal i32 @hot(i32 %x) section ".text.hot_path" align 64 {
  %c = load i32, ptr @counter
  %s = call i32 @shared(i32 %x)
  %r = add i32 %s, %c
  ret i32 %r
}

define i32 @main() {
  %a = call i32 @hot(i32 2)
  %b = call i32 @other(i32 3)
  %g = load i64, ptr @counted
  %g32 = trunc i64 %g to i32
  %h = ptrtoint ptr @hot to i64
  %aligned = and i64 %h, 63
  %al = trunc i64 %aligned to i32
  %p = call i32 (ptr, ...) @printf(ptr @fmt, i32 %a, i32 %b, i32 %g32, i32 %al)
  ret i32 0
}
"#;

const SECOND: &str = r#"
$shared = comdat any
$counted = comdat any
@counted = linkonce_odr global i64 9, comdat, align 8

define linkonce_odr i32 @shared(i32 %x) comdat {
  %r = mul i32 %x, 7
  ret i32 %r
}

define i32 @other(i32 %x) {
  %s = call i32 @shared(i32 %x)
  %g = load i64, ptr @counted
  %g32 = trunc i64 %g to i32
  %r = add i32 %s, %g32
  ret i32 %r
}
"#;

fn compile(text: &str, arch: Arch) -> Vec<u8> {
    let module = patchmap::ir::parse("placement.ll", text).unwrap();
    let options = Options::new(Some(arch.triple()), "speed", 1).unwrap();
    patchmap::emit::object::compile(&module, &options).unwrap()
}

#[test]
fn sections_and_comdat_groups_are_in_the_object() {
    for arch in Arch::ALL {
        let bytes = compile(FIRST, arch);
        let file = object::File::parse(&*bytes).unwrap();
        let section_of = |symbol: &str| {
            let s = file.symbols().find(|s| s.name() == Ok(symbol)).unwrap_or_else(|| panic!("no symbol {symbol}"));
            file.section_by_index(s.section_index().unwrap()).unwrap()
        };
        let hot = section_of("hot");
        assert_eq!(hot.name(), Ok(".text.hot_path"), "{arch:?}");
        assert_eq!(hot.align(), 64);
        assert_eq!(section_of("counter").name(), Ok("my_data"));
        assert_eq!(section_of("shared").name(), Ok(".text.shared"));
        assert_eq!(section_of("counted").name(), Ok(".data.counted"));
        assert_eq!(section_of("main").name(), Ok(".text"));
        let group_flag = |s: &object::Section| match s.flags() {
            SectionFlags::Elf { sh_flags } => sh_flags & u64::from(object::elf::SHF_GROUP) != 0,
            _ => false,
        };
        assert!(group_flag(&section_of("shared")) && group_flag(&section_of("counted")));
        assert!(!group_flag(&section_of("hot")));
        let groups: Vec<_> = file
            .comdats()
            .map(|c| {
                let members: Vec<_> =
                    c.sections().map(|i| file.section_by_index(i).unwrap().name().unwrap().to_string()).collect();
                (c.name().unwrap().to_string(), members)
            })
            .collect();
        assert!(groups.contains(&("shared".to_string(), vec![".text.shared".to_string()])), "{groups:?}");
        assert!(groups.contains(&("counted".to_string(), vec![".data.counted".to_string()])), "{groups:?}");
    }
}

#[test]
fn two_objects_sharing_a_comdat_function_link_and_run() {
    for arch in Arch::ALL {
        let Some(toolchain) = support::toolchain(arch) else { continue };
        let dir = tempfile::tempdir().unwrap();
        let (first, second) = (compile(FIRST, arch), compile(SECOND, arch));
        let outcome = toolchain.link_all_and_run(&[&first, &second], dir.path(), "placement").unwrap();
        // hot(2) = 14 + 3, other(3) = 21 + 9, @counted, hot's address modulo 64.
        assert_eq!(outcome.stdout, "17 30 9 0\n", "{arch:?}");
        assert_eq!(outcome.status, 0);
    }
}

/// A module-local global, a defined global, a libc global and a local function's address, each
/// reached through the GOT in the object (`is_pic`).
const GOT_USERS: &str = r#"
@counter = internal global i64 5
@shared_value = global i64 7
@stdout = external global ptr
@fmt = private constant [12 x i8] c"%ld %ld %d\0A\00"
declare i32 @printf(ptr, ...)

define internal i64 @twice(i64 %x) {
  %r = mul i64 %x, 2
  ret i64 %r
}

define i32 @main() {
  %a = load volatile i64, ptr @counter
  %b = load volatile i64, ptr @shared_value
  %out = load volatile ptr, ptr @stdout
  %f = getelementptr i8, ptr @twice, i64 0
  %t = call i64 %f(i64 %b)
  %live = icmp ne ptr %out, null
  %l = zext i1 %live to i32
  %p = call i32 (ptr, ...) @printf(ptr @fmt, i64 %a, i64 %t, i32 %l)
  ret i32 0
}
"#;

/// The GOT loads' relocations in `main`: (offset from `main`, target symbol).
fn got_loads(object: &[u8]) -> Vec<(u64, String)> {
    let file = object::File::parse(object).unwrap();
    let main = file.symbols().find(|s| s.name() == Ok("main")).unwrap();
    let text = file.section_by_index(main.section_index().unwrap()).unwrap();
    let mut loads = Vec::new();
    for (offset, reloc) in text.relocations() {
        let object::RelocationFlags::Elf { r_type } = reloc.flags() else { panic!("not ELF") };
        assert_ne!(r_type, object::elf::R_X86_64_GOTPCREL, "a GOT load the linker may not relax");
        if r_type == object::elf::R_X86_64_REX_GOTPCRELX {
            let object::RelocationTarget::Symbol(i) = reloc.target() else { panic!("GOT load of a section") };
            let name = file.symbol_by_index(i).unwrap().name().unwrap().to_owned();
            loads.push((offset - main.address(), name));
        }
    }
    loads
}

/// The opcode of each GOT load of `main` in the linked file at `path`: 0x8b while it loads from
/// the GOT, 0x8d once the linker made it a `lea` (the byte before ModRM; the relocation follows
/// ModRM).
fn linked_opcodes(path: &std::path::Path, loads: &[(u64, String)]) -> Vec<(String, u8)> {
    let bytes = std::fs::read(path).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let main = file.symbols().find(|s| s.name() == Ok("main")).unwrap();
    let text = file.section_by_index(main.section_index().unwrap()).unwrap();
    let data = text.data().unwrap();
    loads
        .iter()
        .map(|(offset, name)| {
            let at = (main.address() - text.address() + offset - 2) as usize;
            (name.clone(), data[at])
        })
        .collect()
}

/// llc-19 writes a GOT load as R_X86_64_REX_GOTPCRELX, so the linker turns the loads of symbols that
/// resolve within the executable into `lea`, as clang's code reaches them; a shared library keeps
/// the GOT for a preemptible global, and links (its FDEs refer to sections, not to global symbols).
#[test]
fn got_loads_become_lea_where_the_linker_resolves_them() {
    let object = compile(GOT_USERS, Arch::X86_64);
    let loads = got_loads(&object);
    let names: std::collections::BTreeSet<&str> = loads.iter().map(|(_, n)| n.as_str()).collect();
    for name in ["counter", "shared_value", "stdout", "twice"] {
        assert!(names.contains(name), "no GOT load of {name}: {loads:?}");
    }
    if !support::x86_64_host("linking x86-64 executables") {
        return;
    }
    let Some(toolchain) = support::toolchain(Arch::X86_64) else { return };
    let dir = tempfile::tempdir().unwrap();
    let outcome = toolchain.link_and_run(&object, dir.path(), "got").unwrap();
    assert_eq!((outcome.status, outcome.stdout.as_str()), (0, "5 14 1\n"));
    for (name, opcode) in linked_opcodes(&dir.path().join("got"), &loads) {
        match name.as_str() {
            // libc's symbols: as the linker sees fit.
            "stdout" | "printf" => assert!(opcode == 0x8b || opcode == 0x8d, "{name}: opcode {opcode:#x}"),
            _ => assert_eq!(opcode, 0x8d, "{name} still loaded from the GOT"),
        }
    }

    let library = dir.path().join("libgot.so");
    let obj = dir.path().join("got.0.o");
    let (code, _, err) = support::run(Command::new(&toolchain.linker).arg("-shared").arg(&obj).arg("-o").arg(&library));
    assert_eq!(code, 0, "linking a shared library failed: {err}");
    for (name, opcode) in linked_opcodes(&library, &loads) {
        // A default-visibility global may be preempted, and libc's symbols are not in the library.
        let expected = if ["shared_value", "stdout", "printf"].contains(&name.as_str()) { 0x8b } else { 0x8d };
        assert_eq!(opcode, expected, "{name} in a shared library");
    }
}

/// A vtable-like COMDAT constant holding function addresses, a plain one holding a global's, and a
/// constant without addresses.
const RELOCATED_CONSTANTS: &str = r#"
$table = comdat any
@table = linkonce_odr constant [2 x ptr] [ptr @first, ptr @second], comdat, align 8
@pointer = constant ptr @number, align 8
@number = constant i64 42, align 8

define i64 @first() {
  ret i64 1
}

define i64 @second() {
  %p = load ptr, ptr @pointer
  %n = load i64, ptr %p
  ret i64 %n
}

define i64 @call(i64 %i) {
  %slot = getelementptr [2 x ptr], ptr @table, i64 0, i64 %i
  %f = load ptr, ptr %slot
  %r = call i64 %f()
  ret i64 %r
}
"#;

/// Constants that hold addresses go to `.data.rel.ro` (writable until the loader has relocated
/// them), as llc-19 places vtables in position-independent code, so a shared library needs no text
/// relocations (`-z text` refuses them).
#[test]
fn constants_holding_addresses_go_to_data_rel_ro() {
    for arch in Arch::ALL {
        let object = compile(RELOCATED_CONSTANTS, arch);
        let file = object::File::parse(&*object).unwrap();
        let section_of = |symbol: &str| {
            let s = file.symbols().find(|s| s.name() == Ok(symbol)).unwrap_or_else(|| panic!("no symbol {symbol}"));
            let section = file.section_by_index(s.section_index().unwrap()).unwrap();
            let SectionFlags::Elf { sh_flags } = section.flags() else { panic!("not ELF") };
            (section.name().unwrap().to_owned(), sh_flags & u64::from(object::elf::SHF_WRITE) != 0)
        };
        assert_eq!(section_of("table"), (".data.rel.ro.table".to_owned(), true), "{arch:?}");
        assert_eq!(section_of("pointer"), (".data.rel.ro".to_owned(), true), "{arch:?}");
        assert_eq!(section_of("number"), (".rodata".to_owned(), false), "{arch:?}");
        let Some(toolchain) = support::toolchain(arch) else { continue };
        let dir = tempfile::tempdir().unwrap();
        let obj = dir.path().join("constants.o");
        std::fs::write(&obj, &object).unwrap();
        let library = dir.path().join("libconstants.so");
        let mut link = Command::new(&toolchain.linker);
        link.args(["-shared", "-Wl,-z,text"]).arg(&obj).arg("-o").arg(&library);
        let (code, _, err) = support::run(&mut link);
        assert_eq!(code, 0, "{arch:?}: a shared library with text relocations: {err}");
    }
}

/// The annotation strings of section `llvm.metadata` (`__attribute__((annotate))`) are for tools
/// reading IR: llc-19 leaves the section out of objects, and so does patchmap; the JIT keeps them.
#[test]
fn annotation_strings_stay_out_of_objects() {
    let ll = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/real-ir/programs/annotations_invariants.ll");
    let text = std::fs::read_to_string(&ll).unwrap();
    assert!(text.contains("section \"llvm.metadata\""), "the program has annotation strings");
    for arch in Arch::ALL {
        let object = compile(&text, arch);
        let file = object::File::parse(&*object).unwrap();
        let names: Vec<&str> = file.sections().filter_map(|s| s.name().ok()).collect();
        assert!(!names.contains(&"llvm.metadata"), "{arch:?}: {names:?}");
        assert!(names.contains(&".text"), "{arch:?}: {names:?}");
    }
}
