//! `llvm.frameaddress`, `llvm.addressofreturnaddress` (issue 24: an `explicitcc` handler reaches
//! the interrupted code's stack through them) and `llvm.returnaddress` compute what llc-19's builds compute, on both
//! targets and at both optimisation levels: the frame pointer chain and the saved return address.

use crate::support;

use patchmap::arch::Arch;
use patchmap::compile::Options;
use patchmap::ir;

/// `@probe` is called by `@main` with `@main`'s frame address and checks, exiting with a distinct
/// status per failed check: its caller's frame address is `frameaddress(1)` and what its own
/// frame's first word holds; its return address is stored where `addressofreturnaddress` says and
/// lies inside `@main`'s code and is `returnaddress(0)`; `returnaddress(1)` is `@main`'s own.
const PROGRAM: &str = r#"
declare ptr @llvm.frameaddress.p0(i32)
declare ptr @llvm.addressofreturnaddress.p0()
declare ptr @llvm.returnaddress(i32)

define internal i32 @probe(ptr %caller, ptr %callers_return) noinline {
entry:
  %own = call ptr @llvm.frameaddress.p0(i32 0)
  %up = call ptr @llvm.frameaddress.p0(i32 1)
  %saved = load ptr, ptr %own
  %ok1 = icmp eq ptr %up, %caller
  br i1 %ok1, label %second, label %fail1
second:
  %ok2 = icmp eq ptr %saved, %caller
  br i1 %ok2, label %third, label %fail2
third:
  %slot = call ptr @llvm.addressofreturnaddress.p0()
  %ret = load i64, ptr %slot
  %main = ptrtoint ptr @main to i64
  %after = icmp ugt i64 %ret, %main
  %end = add i64 %main, 4096
  %before = icmp ult i64 %ret, %end
  %inside = and i1 %after, %before
  br i1 %inside, label %fourth, label %fail3
fourth:
  %own_return = call ptr @llvm.returnaddress(i32 0)
  %own_bits = ptrtoint ptr %own_return to i64
  %ok4 = icmp eq i64 %own_bits, %ret
  br i1 %ok4, label %fifth, label %fail4
fifth:
  %up_return = call ptr @llvm.returnaddress(i32 1)
  %ok5 = icmp eq ptr %up_return, %callers_return
  br i1 %ok5, label %done, label %fail5
done:
  ret i32 0
fail1:
  ret i32 11
fail2:
  ret i32 12
fail3:
  ret i32 13
fail4:
  ret i32 14
fail5:
  ret i32 15
}

define i32 @main() {
  %frame = call ptr @llvm.frameaddress.p0(i32 0)
  %return = call ptr @llvm.returnaddress(i32 0)
  %r = call i32 @probe(ptr %frame, ptr %return)
  ret i32 %r
}
"#;

#[test]
fn frame_and_return_addresses_run_as_llc_builds_them() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("frames.ll");
    std::fs::write(&ll, PROGRAM).unwrap();
    let llc = support::tool("llc-19");
    let mut ran = 0;
    for arch in Arch::ALL {
        let Some(toolchain) = support::toolchain(arch) else { continue };
        for opt in ["none", "speed"] {
            let mut module = ir::parse("frames.ll", PROGRAM).unwrap();
            module.triple = Some(arch.triple().to_string());
            let options = Options::new(Some(arch.triple()), opt, 1).unwrap();
            let object = patchmap::emit::object::compile(&module, &options).unwrap();
            let outcome =
                toolchain.link_and_run(&object, dir.path(), &format!("frames-{opt}-{}", arch.name())).unwrap();
            assert_eq!(outcome.status, 0, "{arch:?} at {opt}: check {} failed", outcome.status);
            ran += 1;
        }
        llc_build_passes(llc.as_deref(), &ll, arch, &toolchain, dir.path());
    }
    ran_everywhere(ran);
}

/// `@walk` follows the chain of saved frame pointers from its own frame and checks that the return
/// addresses it finds are in `@middle`, `@outer` and `@main`, in that order (the functions are
/// laid out in the order they are defined; each link is the frame record `[FP]` = the caller's
/// FP, `[FP + 8]` = the return address, on both targets). `@outer` and `@middle` need no frame
/// pointer of their own, so only their `"frame-pointer"="all"` (group `#1`) puts them on the chain.
const CHAIN: &str = r#"
declare ptr @llvm.frameaddress.p0(i32)

define i32 @main() #0 {
  %r = call i32 @outer(i32 7)
  ret i32 %r
}

define internal i32 @outer(i32 %x) noinline #1 {
  %y = mul i32 %x, 3
  %r = call i32 @middle(i32 %y)
  ret i32 %r
}

define internal i32 @middle(i32 %y) noinline #1 {
  %z = add i32 %y, 1
  %r = call i32 @walk(i32 %z)
  ret i32 %r
}

define internal i32 @walk(i32 %z) noinline #0 {
  %fp0 = call ptr @llvm.frameaddress.p0(i32 0)
  %ra1 = call i64 @return_address(ptr %fp0)
  %fp1 = load ptr, ptr %fp0
  %ra2 = call i64 @return_address(ptr %fp1)
  %fp2 = load ptr, ptr %fp1
  %ra3 = call i64 @return_address(ptr %fp2)
  %in1 = call i1 @between(i64 %ra1, ptr @middle, ptr @walk)
  br i1 %in1, label %second, label %fail1
second:
  %in2 = call i1 @between(i64 %ra2, ptr @outer, ptr @middle)
  br i1 %in2, label %third, label %fail2
third:
  %in3 = call i1 @between(i64 %ra3, ptr @main, ptr @outer)
  br i1 %in3, label %done, label %fail3
done:
  %ok = icmp eq i32 %z, 22
  %status = select i1 %ok, i32 0, i32 14
  ret i32 %status
fail1:
  ret i32 11
fail2:
  ret i32 12
fail3:
  ret i32 13
}

define internal i64 @return_address(ptr %frame) #0 {
  %slot = getelementptr i8, ptr %frame, i64 8
  %ra = load i64, ptr %slot
  ret i64 %ra
}

define internal i1 @between(i64 %address, ptr %from, ptr %to) #0 {
  %lo = ptrtoint ptr %from to i64
  %hi = ptrtoint ptr %to to i64
  %after = icmp ugt i64 %address, %lo
  %before = icmp ult i64 %address, %hi
  %r = and i1 %after, %before
  ret i1 %r
}

attributes #0 = { "frame-pointer"="all" }
attributes #1 = { nounwind "frame-pointer"="all" }
"#;

#[test]
fn frame_pointer_attribute_puts_functions_on_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("chain.ll");
    std::fs::write(&ll, CHAIN).unwrap();
    // The same program with `@outer` and `@middle` asking for no frame pointer.
    let unchained =
        CHAIN.replace(r#"#1 = { nounwind "frame-pointer"="all" }"#, r#"#1 = { nounwind "frame-pointer"="none" }"#);
    assert_ne!(unchained, CHAIN);
    let llc = support::tool("llc-19");
    let mut ran = 0;
    for arch in Arch::ALL {
        let Some(toolchain) = support::toolchain(arch) else { continue };
        for opt in ["none", "speed"] {
            let options = Options::new(Some(arch.triple()), opt, 1).unwrap();
            let build = |text: &str, name: &str| {
                let mut module = ir::parse("chain.ll", text).unwrap();
                module.triple = Some(arch.triple().to_string());
                let object = patchmap::emit::object::compile(&module, &options).unwrap();
                toolchain.link_and_run(&object, dir.path(), &format!("{name}-{opt}-{}", arch.name()))
            };
            let outcome = build(CHAIN, "chain").unwrap();
            assert_eq!(outcome.status, 0, "{arch:?} at {opt}: check {} failed", outcome.status);
            // x86-64 functions that need no frame pointer set none up: without the attribute the
            // walk misses `@outer` and `@middle`, and fails a check or follows the C library's RBP
            // into a fault (AArch64 functions that call keep their frame record whatever the
            // attribute says).
            if arch == Arch::X86_64 {
                let outcome = build(&unchained, "unchained");
                assert!(
                    !matches!(outcome, Ok(ref o) if o.status == 0),
                    "{arch:?} at {opt}: the walk found frames not set up: {outcome:?}"
                );
            }
            ran += 1;
        }
        llc_build_passes(llc.as_deref(), &ll, arch, &toolchain, dir.path());
    }
    ran_everywhere(ran);
}

/// The program `ll`, built by llc-19 -O2 for `arch`, passes its checks (exits 0): the checks are
/// right about the code LLVM makes.
fn llc_build_passes(
    llc: Option<&std::path::Path>,
    ll: &std::path::Path,
    arch: Arch,
    toolchain: &support::Toolchain,
    dir: &std::path::Path,
) {
    let Some(llc) = llc else { return };
    let name = format!("{}-llc-{}", ll.file_stem().unwrap().to_string_lossy(), arch.name());
    let object = support::llc_object(llc, ll, arch, "2", dir).unwrap();
    let outcome = toolchain.link_and_run(&object, dir, &name).unwrap();
    assert_eq!(outcome.status, 0, "llc-19 on {arch:?}: check {} failed", outcome.status);
}

/// The program ran on both targets at both levels where the tools are required; else what did not.
fn ran_everywhere(ran: usize) {
    if support::tools_required() {
        assert_eq!(ran, 4, "both targets at both levels");
    }
    if ran == 0 {
        assert!(!support::tools_required(), "no toolchain to run the programs");
        eprintln!("skipped: no toolchain for either target");
    }
}
