//! `load volatile` and `store volatile` happen as many times as the IR says, at `-O speed` too:
//! Cranelift's alias analysis would merge two loads of one address and drop a store that a later
//! one overwrites (issue 14: two volatile loads became one).

use object::{Object, ObjectSection, ObjectSymbol};
use patchmap::compile::Options;

const IR: &str = "define i64 @loads(ptr %p) {\n  %a = load volatile i64, ptr %p\n  %b = load volatile i64, ptr %p\n  \
                  %c = load volatile i64, ptr %p\n  %s = add i64 %a, %b\n  %t = add i64 %s, %c\n  ret i64 %t\n}\n\
                  define void @stores(ptr %p) {\n  store volatile i64 1, ptr %p\n  store volatile i64 2, ptr %p\n  \
                  store volatile i64 3, ptr %p\n  ret void\n}\n";

/// The code of function `name` in `object`.
fn code<'a>(file: &'a object::File<'a>, name: &str) -> &'a [u8] {
    let symbol = file.symbols().find(|s| s.name() == Ok(name)).unwrap();
    let section = file.section_by_index(symbol.section_index().unwrap()).unwrap();
    let data = section.data().unwrap();
    &data[symbol.address() as usize..(symbol.address() + symbol.size()) as usize]
}

/// Accesses of the 64-bit word at the pointer argument, wherever the register allocator put the
/// pointer (at `-O none` the single-pass allocator copies it out of the argument register first):
/// x86-64 instructions with REX.W whose operand is `[rdi]` or `[r15]` (a `mov` or an ALU instruction
/// the load was folded into), AArch64 `ldr`/`str` x of `[xN]` without offset, N not SP (spill slots
/// and the frame's saves are SP-relative).
fn accesses(arch: &str, code: &[u8]) -> usize {
    if arch == "x86_64" {
        code.windows(3).filter(|w| w[0] & 0xf8 == 0x48 && w[2] & 0xc7 == 0x07).count()
    } else {
        let words = code.chunks_exact(4).map(|w| u32::from_le_bytes(w.try_into().unwrap()));
        let of_pointer = |w: u32| (w >> 5) & 31 != 31;
        words.filter(|&w| (w & 0xffff_fc00 == 0xf940_0000 || w & 0xffff_fc00 == 0xf900_0000) && of_pointer(w)).count()
    }
}

#[test]
fn volatile_accesses_are_all_kept() {
    let module = patchmap::ir::parse("volatile.ll", IR).unwrap();
    for arch in ["x86_64", "aarch64"] {
        for opt in ["speed", "none"] {
            let object = patchmap::emit::object::compile(&module, &Options::new(Some(arch), opt, 1).unwrap()).unwrap();
            let file = object::File::parse(&*object).unwrap();
            let loads = accesses(arch, code(&file, "loads"));
            let stores = accesses(arch, code(&file, "stores"));
            assert_eq!(loads, 3, "{arch} -O {opt}: loads of [p] for 3 volatile loads");
            assert_eq!(stores, 3, "{arch} -O {opt}: stores to [p] for 3 volatile stores");
        }
    }
}
