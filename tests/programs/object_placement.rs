//! Where code and data go in objects: `section "name"` on functions and globals, `comdat` groups
//! (one copy kept when two objects define the same member), function `align`. Checked in the
//! objects themselves and by linking two objects that share a COMDAT function, on x86-64 and
//! AArch64 (qemu).

use crate::support;

use object::{Object, ObjectComdat, ObjectSection, ObjectSymbol, SectionFlags};
use patchmap::compile::Options;
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
