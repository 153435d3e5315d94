//! Patching JIT code at run time: a stack map's shadow, which the lowering fills with nops when the
//! following code is too short, rewritten with a call to a Rust handler (`Arch::encode_call` + `patch_code`);
//! the program then calls the handler at every execution of the point and still computes the same
//! result. Also the encoders and the refusals.

use std::sync::atomic::{AtomicU64, Ordering};

use patchmap::arch::{Arch, OutOfReach};
use patchmap::compile::Options;
use patchmap::emit::jit::JitCode;
use patchmap::runtime::{patch_code, PatchError};
use patchmap::stackmap::{Endian, StackMapView};

use crate::support;

/// Point 1's 16-byte shadow runs into point 2, so it is all nops; a loop executes it 7 times.
const LOOP: &str = "declare void @llvm.experimental.stackmap(i64, i32, ...)
define i64 @sum(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc2, %loop ]
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 16, i64 %i, i64 %acc)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 0)
  %acc2 = add i64 %acc, %i
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %acc2
}
";

static CALLS: AtomicU64 = AtomicU64::new(0);

extern "C" fn handler() {
    CALLS.fetch_add(1, Ordering::SeqCst);
}

#[test]
fn a_patched_shadow_calls_the_handler() {
    // AArch64 is covered under qemu by runtime_patch_linked.rs.
    if !support::x86_64_host("an x86-64 host (the JIT patching test)") {
        return;
    }
    let module = patchmap::ir::parse("loop.ll", LOOP).unwrap();
    let jit = JitCode::compile(&module, &Options::new(None, "speed", 3).unwrap()).unwrap();
    // SAFETY: `sum` is defined above, free of undefined behaviour for n = 7.
    let before = unsafe { jit.call_i64("sum", &[7]) }.unwrap();
    assert_eq!((before, CALLS.load(Ordering::SeqCst)), (21, 0));

    let [address] = jit.record_addresses(1)[..] else { panic!("one record with ID 1") };
    let call = Arch::X86_64.encode_call(handler as *const () as u64).unwrap();
    assert_eq!(call.len(), 13);
    // SAFETY: the record's 16-byte shadow is JIT code of ours, and no other thread runs it.
    unsafe { patch_code(Arch::X86_64, address, 16, &call) }.unwrap();
    // SAFETY: as above.
    let after = unsafe { jit.call_i64("sum", &[7]) }.unwrap();
    assert_eq!((after, CALLS.load(Ordering::SeqCst)), (21, 7));

    let too_long = vec![0x90; 17];
    // SAFETY: refused before anything is written.
    let refused = unsafe { patch_code(Arch::X86_64, address, 16, &too_long) };
    assert!(matches!(refused, Err(PatchError::TooLong { needed: 17, len: 16 })), "{refused:?}");
}

#[test]
fn call_encodings_match_llvm() {
    // LLVM's sequences (stackmap-format.md 4.1): movabs r11 + call r11; movz/movk/movk x16 + blr x16.
    let x86 = Arch::X86_64.encode_call(0x1122_3344_5566_7788).unwrap();
    assert_eq!(x86, [0x49, 0xbb, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x41, 0xff, 0xd3]);
    let arm = Arch::Aarch64.encode_call(0x1234).unwrap();
    let words: Vec<u32> = arm.chunks(4).map(|w| u32::from_le_bytes(w.try_into().unwrap())).collect();
    assert_eq!(words, [0xd2c0_0010, 0xf2a0_0010, 0xf282_4690, 0xd63f_0200]);
    assert!(matches!(Arch::Aarch64.encode_call(1 << 48), Err(OutOfReach(_))));
}

/// The exit call is the instructions its documentation names, as llvm-mc-19 decodes them (x86-64:
/// a jump over the address, then the call through it), and returns to its end, where
/// `Arch::exit_call_return_offset` says.
#[test]
fn exit_call_encodings_disassemble_as_documented() {
    let Some(mc) = support::tool("llvm-mc-19") else { return };
    let target = 0x1122_3344_5566;
    let decode = |triple: &str, bytes: &[u8]| {
        let input: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}")).collect();
        let mut child = std::process::Command::new(&mc)
            .args(["--disassemble", &format!("-triple={triple}")])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input.join(" ").as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|l| !l.is_empty() && !l.starts_with('.'))
            .collect::<Vec<String>>()
    };
    let x86 = Arch::X86_64.encode_exit_call(target).unwrap();
    assert_eq!(x86.len() as u64, Arch::X86_64.exit_call_return_offset());
    assert_eq!(x86[2..10], target.to_le_bytes());
    assert_eq!(decode("x86_64", &x86[..2]), ["jmp 8"]);
    assert_eq!(decode("x86_64", &x86[10..]), ["callq *-14(%rip)"]);
    let a64 = Arch::Aarch64.encode_exit_call(target).unwrap();
    assert_eq!(a64.len() as u64, Arch::Aarch64.exit_call_return_offset());
    assert_eq!(
        decode("aarch64", &a64),
        ["mov x16, #18837726560256 // =0x112200000000", "movk x16, #13124, lsl #16", "movk x16, #21862", "blr x16"]
            .map(String::from)
    );
    assert!(Arch::Aarch64.encode_exit_call(1 << 48).is_err());
}

static ADDED: AtomicU64 = AtomicU64::new(0);

extern "C" fn add_and_count(a: i64, b: i64) -> i64 {
    ADDED.fetch_add(1, Ordering::SeqCst);
    a + b
}

extern "C" fn multiply(a: i64, b: i64) -> i64 {
    a * b
}

/// A patch point whose target is an address calls it with its arguments and the program uses the
/// result; a null-target region, patched at run time with a call to another handler, then does the same.
#[test]
fn patch_points_call_their_targets_and_patched_regions() {
    if !support::x86_64_host("an x86-64 host (the JIT patch point test)") {
        return;
    }
    let text = format!(
        "declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
define i64 @f(i64 %x, i64 %y) {{
entry:
  %z = mul i64 %x, 3
  %s = call i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 7, i32 16, ptr inttoptr (i64 {} to ptr), i32 2, i64 %x, i64 %y, i64 %z)
  %p = call i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 8, i32 15, ptr null, i32 2, i64 %s, i64 %z, i64 %x)
  %t = add i64 %s, %z
  %u = mul i64 %t, 1000
  %v = and i64 %p, 0
  %w = add i64 %u, %v
  ret i64 %w
}}
define i64 @g(i64 %x, i64 %y) {{
entry:
  %p = call i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 9, i32 13, ptr null, i32 2, i64 %x, i64 %y)
  %r = add i64 %p, 1
  ret i64 %r
}}
",
        add_and_count as *const () as usize
    );
    let module = patchmap::ir::parse("pp.ll", &text).unwrap();
    let jit = JitCode::compile(&module, &Options::new(None, "speed", 3).unwrap()).unwrap();
    // SAFETY: f's first patch point calls add_and_count(5, 6); the null region leaves its result unused.
    let f = unsafe { jit.call_i64("f", &[5, 6]) }.unwrap();
    assert_eq!((f, ADDED.load(Ordering::SeqCst)), ((11 + 15) * 1000, 1));

    let view = StackMapView::parse(jit.stack_map_section(), Endian::native()).unwrap();
    let record = view.records().find(|r| r.id() == 9).unwrap();
    assert!(record.num_live_outs() > 0, "patch points list live-outs");
    let g = jit.function("g").unwrap();
    let [region] = jit.record_addresses(9)[..] else { panic!("one record with ID 9") };
    assert!((g.address..g.address.wrapping_add(g.size)).contains(&(region as *const u8)), "the region is in g");
    let call = Arch::X86_64.encode_call(multiply as *const () as u64).unwrap();
    // SAFETY: the 13-byte region is ours and no other thread runs g.
    unsafe { patch_code(Arch::X86_64, region, 13, &call) }.unwrap();
    // SAFETY: g now calls multiply(6, 7) and adds 1.
    assert_eq!(unsafe { jit.call_i64("g", &[6, 7]) }.unwrap(), 43);
}

/// `patch_code` gives each page it touched its previous protection back: executable code stays
/// executable and not writable, and a page that was read-only (not executable) stays so, across a
/// region that straddles the two.
#[test]
fn patching_restores_each_pages_previous_protection() {
    let page = region::page::size();
    let mut memory = region::alloc(2 * page, region::Protection::READ_EXECUTE).unwrap();
    let base = memory.as_mut_ptr::<u8>();
    // SAFETY: both pages belong to this allocation, which nothing executes.
    unsafe { region::protect(base.add(page), page, region::Protection::READ).unwrap() };
    let straddling = unsafe { base.add(page - 8) };
    // SAFETY: as above.
    unsafe { patch_code(Arch::Aarch64, straddling, 16, &[0x1f, 0x20, 0x03, 0xd5]) }.unwrap();
    let protection = |p: *const u8| region::query(p).unwrap().protection();
    assert_eq!(protection(base), region::Protection::READ_EXECUTE);
    assert_eq!(protection(unsafe { base.add(page) }), region::Protection::READ);
    // The bytes were written: the code, then AArch64 nops.
    let written = unsafe { std::slice::from_raw_parts(straddling, 16) };
    assert_eq!(written, [0x1f, 0x20, 0x03, 0xd5].repeat(4).as_slice());
}
