//! `thread_local` globals in the JIT, which has no TLS segment: emulated as LLVM's `-femulated-tls`
//! emulates them, through libgcc's `__emutls_get_address` (`lower::symbols::EmulatedTls`). Each
//! thread gets its own copy, made from the initial value at its first access (a shared copy would
//! sum the threads' bumps); an over-aligned one
//! keeps its alignment; an external one is refused with its position.

use crate::support;

use patchmap::compile::Options;
use patchmap::emit::jit::JitCode;
use patchmap::ir;

/// `@bump(k)` adds `k` to this thread's `@counter` (initially 7) and to its `@history[k % 4]`
/// and returns the counter; `@aligned_address()` is the address of this thread's `@wide`,
/// aligned to 64; `@history_sum()` adds this thread's history. `@tally` is an ordinary global.
const PROGRAM: &str = r#"
@counter = thread_local global i64 7
@history = internal thread_local global [4 x i64] zeroinitializer
@wide = thread_local global [3 x i64] [i64 1, i64 2, i64 3], align 64
@tally = global i64 0

declare ptr @llvm.threadlocal.address.p0(ptr)

define i64 @bump(i64 %k) {
  %c = call ptr @llvm.threadlocal.address.p0(ptr @counter)
  %old = load i64, ptr %c
  %new = add i64 %old, %k
  store i64 %new, ptr %c
  %slot = and i64 %k, 3
  %h = getelementptr [4 x i64], ptr @history, i64 0, i64 %slot
  %was = load i64, ptr %h
  %now = add i64 %was, %k
  store i64 %now, ptr %h
  %t = atomicrmw add ptr @tally, i64 1 seq_cst
  ret i64 %new
}

define i64 @aligned_address() {
  %w = call ptr @llvm.threadlocal.address.p0(ptr @wide)
  %i = ptrtoint ptr %w to i64
  %second = getelementptr i64, ptr %w, i64 1
  %v = load i64, ptr %second
  %ok = icmp eq i64 %v, 2
  %r = select i1 %ok, i64 %i, i64 1
  ret i64 %r
}

define i64 @history_sum() {
  %a = load i64, ptr @history
  %p1 = getelementptr i64, ptr @history, i64 1
  %b = load i64, ptr %p1
  %p2 = getelementptr i64, ptr @history, i64 2
  %c = load i64, ptr %p2
  %p3 = getelementptr i64, ptr @history, i64 3
  %d = load i64, ptr %p3
  %s1 = add i64 %a, %b
  %s2 = add i64 %c, %d
  %s = add i64 %s1, %s2
  ret i64 %s
}
"#;

#[test]
fn jit_thread_locals_are_each_threads_own() {
    if !support::host_has(matches!(std::env::consts::ARCH, "x86_64" | "aarch64"), "a JIT for this host") {
        return;
    }
    let module = ir::parse("tls.ll", PROGRAM).unwrap();
    for opt in ["none", "speed"] {
        let options = Options::new(None, opt, 1).unwrap();
        let jit = JitCode::compile(&module, &options).unwrap();
        // SAFETY: the functions are finished code of `jit`, which outlives every call, taking and
        // returning integers in the C convention, free of undefined behaviour for any argument.
        let function = |name: &str| unsafe {
            std::mem::transmute::<*const u8, extern "C" fn(i64) -> i64>(jit.function(name).unwrap().address)
        };
        let (bump, history_sum, aligned_address) =
            (function("bump"), function("history_sum"), function("aligned_address"));
        let call = move |name: &str, args: &[i64]| {
            let f = match name {
                "bump" => bump,
                "history_sum" => history_sum,
                _ => aligned_address,
            };
            f(args.first().copied().unwrap_or(0))
        };
        let main_first = call("bump", &[1]);
        assert_eq!(main_first, 8, "{opt}: the first access sees the initial value");
        let results: Vec<(i64, i64, i64)> = std::thread::scope(|s| {
            let workers: Vec<_> = (1..=4i64)
                .map(|t| {
                    s.spawn(move || {
                        let mut last = 0;
                        for _ in 0..1000 {
                            last = call("bump", &[t]);
                        }
                        (last, call("history_sum", &[]), call("aligned_address", &[]))
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        for (t, &(last, history, address)) in (1..=4i64).zip(&results) {
            assert_eq!(last, 7 + 1000 * t, "{opt}: thread {t}'s counter");
            assert_eq!(history, 1000 * t, "{opt}: thread {t}'s history");
            assert!(address != 1 && address % 64 == 0, "{opt}: thread {t}'s @wide at {address:#x}");
        }
        assert_eq!(call("bump", &[0]), 8, "{opt}: the main thread's counter is its own");
        assert_eq!(call("history_sum", &[]), 1, "{opt}: the main thread's history is its own");
    }
}

#[test]
fn jit_refuses_external_thread_locals_with_a_position() {
    let text = "@errno_like = external thread_local global i32\n\ndefine i32 @f() {\n  %v = load i32, ptr @errno_like\n  ret i32 %v\n}\n";
    let module = ir::parse("external_tls.ll", text).unwrap();
    let Err(e) = JitCode::compile(&module, &Options::default()) else { panic!("compiled an external thread_local") };
    let message = e.to_string();
    assert!(message.starts_with("external_tls.ll:1:1:"), "{message}");
    assert!(message.contains("external thread_local global '@errno_like' is not supported in the JIT"), "{message}");
}
