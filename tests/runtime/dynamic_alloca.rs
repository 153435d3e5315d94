//! Dynamic allocas (run-time counts, allocas outside the entry block) live in a per-thread arena
//! (`src/lower/dynamic_stack.rs`): JIT code called from many threads at once keeps each caller's data
//! its own; a frame left without returning (an exit stub, `longjmp`) gives its space back at the next
//! entry at or above its stack pointer; objects link with the system's `cc` and run, natively and on
//! AArch64 under qemu, with two pthreads allocating at once; running past the arena is a trap that
//! `patchmap run` names.

use crate::support;

use std::process::Command;

use patchmap::compile::Options;
use patchmap::emit::jit::JitCode;
use support::Arch;

/// `@check(rounds, n, seed)`: each round allocates `n` i64s inside the loop (a dynamic alloca), fills
/// them with a pattern of its own, calls `@scribble` (which allocates and fills `n` i64s of its own),
/// and counts the words that no longer hold the pattern. `@grab(n, fill)` allocates `n` bytes, writes
/// the last one and leaves through `@escape`, which never returns normally.
const PROGRAM: &str = "declare void @escape(ptr)

define i64 @scribble(i64 %n, i64 %v) {
entry:
  %p = alloca i64, i64 %n, align 8
  br label %loop
loop:
  %j = phi i64 [ 0, %entry ], [ %j1, %loop ]
  %q = getelementptr i64, ptr %p, i64 %j
  store i64 %v, ptr %q
  %j1 = add i64 %j, 1
  %more = icmp ult i64 %j1, %n
  br i1 %more, label %loop, label %done
done:
  %first = load i64, ptr %p
  ret i64 %first
}

define i64 @check(i64 %rounds, i64 %n, i64 %seed) {
entry:
  br label %round
round:
  %r = phi i64 [ 0, %entry ], [ %r1, %verified ]
  %bad = phi i64 [ 0, %entry ], [ %bad2, %verified ]
  %buf = alloca i64, i64 %n, align 8
  %base = mul i64 %seed, 1000003
  %rb = add i64 %base, %r
  br label %write
write:
  %j = phi i64 [ 0, %round ], [ %j1, %write ]
  %q = getelementptr i64, ptr %buf, i64 %j
  %val = add i64 %rb, %j
  store i64 %val, ptr %q
  %j1 = add i64 %j, 1
  %wm = icmp ult i64 %j1, %n
  br i1 %wm, label %write, label %call
call:
  %other = xor i64 %seed, -1
  %x = call i64 @scribble(i64 %n, i64 %other)
  br label %read
read:
  %k = phi i64 [ 0, %call ], [ %k1, %read ]
  %acc = phi i64 [ %bad, %call ], [ %bad2, %read ]
  %q2 = getelementptr i64, ptr %buf, i64 %k
  %got = load i64, ptr %q2
  %want = add i64 %rb, %k
  %ne = icmp ne i64 %got, %want
  %nez = zext i1 %ne to i64
  %bad2 = add i64 %acc, %nez
  %k1 = add i64 %k, 1
  %rm = icmp ult i64 %k1, %n
  br i1 %rm, label %read, label %verified
verified:
  %r1 = add i64 %r, 1
  %more = icmp ult i64 %r1, %rounds
  br i1 %more, label %round, label %done
done:
  ret i64 %bad2
}

define i64 @grab(i64 %n, ptr %exit) {
entry:
  %p = alloca i8, i64 %n, align 16
  %last = getelementptr i8, ptr %p, i64 %n
  %at = getelementptr i8, ptr %last, i64 -1
  store i8 7, ptr %at
  call void @escape(ptr %exit)
  ret i64 0
}
";

/// Runs the test `name` of this binary alone in a child process (with `PATCHMAP_DYNAMIC_CHILD=1`, where
/// [`in_child`] returns true), so that a trap in generated code fails that test with its signal
/// instead of ending the whole test binary.
fn in_child(name: &str) -> bool {
    if std::env::var_os("PATCHMAP_DYNAMIC_CHILD").is_some() {
        return true;
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env("PATCHMAP_DYNAMIC_CHILD", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name} in a child process: {:?}\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    false
}

fn jit_host(what: &str) -> bool {
    support::host_has(matches!(std::env::consts::ARCH, "x86_64" | "aarch64"), what)
}

/// Never called: `grab`'s escape target, replaced per test by a real one.
extern "C" fn no_escape(_: *mut u64) {
    panic!("escape called without an exit path");
}

fn jit(escape: *const u8) -> JitCode {
    let module = patchmap::ir::parse("dynamic.ll", PROGRAM).unwrap();
    JitCode::compile_with_symbols(&module, &Options::default(), &[("escape", escape)]).unwrap()
}

/// Eight threads run `@check` at once, for 300 ms: every round's buffer must keep its own
/// pattern through a callee's dynamic alloca, which with one module-wide arena lands on another
/// thread's buffer (or resets the top under it).
#[test]
fn jit_dynamic_allocas_from_many_threads_keep_their_own_data() {
    if !jit_host("a JIT for this host") || !in_child("jit_dynamic_allocas_from_many_threads_keep_their_own_data") {
        return;
    }
    let code = jit(no_escape as *const u8);
    let check = code.function("check").unwrap().address as usize;
    let start = std::sync::Barrier::new(8);
    std::thread::scope(|s| {
        let workers: Vec<_> = (1..=8i64)
            .map(|seed| {
                let start = &start;
                s.spawn(move || {
                    // SAFETY: `check` takes three i64s and returns one; it touches only its allocas.
                    let f: extern "C" fn(i64, i64, i64) -> i64 = unsafe { std::mem::transmute(check) };
                    start.wait();
                    // For 300 ms, so that the threads overlap even on a loaded machine.
                    let end = std::time::Instant::now() + std::time::Duration::from_millis(300);
                    let mut bad = 0;
                    while std::time::Instant::now() < end {
                        bad += (0..100).map(|_| f(10, 64 + seed, seed)).sum::<i64>();
                    }
                    bad
                })
            })
            .collect();
        for (seed, worker) in workers.into_iter().enumerate() {
            assert_eq!(worker.join().unwrap(), 0, "thread {} saw words of another caller", seed + 1);
        }
    });
}

/// `@grab` takes a megabyte of the arena and leaves through an exit stub (`runtime::exits`, called
/// as `@escape`) whose handler answers `Resume::Return(42)`: the `exits::call` that called `@grab`
/// returns 42, discarding every frame between. A thousand times (a gigabyte in all, 128 arenas'
/// worth): each entry must give back what the abandoned frames held, and the frames that do return
/// must still see their own data afterwards.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[test]
fn jit_frames_left_through_an_exit_give_their_space_back() {
    use patchmap::runtime::exits::{self, Exits, Resume};
    if !jit_host("a JIT for this host") || !in_child("jit_frames_left_through_an_exit_give_their_space_back") {
        return;
    }
    let exits = Exits::new(|_, _| Resume::Return(42)).unwrap();
    let code = jit(exits.stub(0).unwrap() as *const u8);
    let grab = code.function("grab").unwrap().address;
    let check = code.function("check").unwrap().address as usize;
    for i in 0..1000 {
        // SAFETY: `grab` takes two integers and leaves through the exit stub.
        let r = unsafe { exits::call(grab, &[1 << 20, 0]) }.unwrap();
        assert_eq!(r, 42, "exit {i}");
        // SAFETY: as in the threaded test.
        let f: extern "C" fn(i64, i64, i64) -> i64 = unsafe { std::mem::transmute(check) };
        assert_eq!(f(10, 1000, i), 0, "after exit {i}");
    }
}

/// A C driver: two pthreads running `@check` at once; with an argument, `longjmp` out of `@grab` (a
/// megabyte each) a hundred times, then `@check`.
const DRIVER: &str = r#"
#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

int64_t check(int64_t rounds, int64_t n, int64_t seed);
int64_t grab(int64_t n, void *exit);

void escape(void *exit) { longjmp(*(jmp_buf *)exit, 1); }

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* For 300 ms, so that the threads overlap even on a loaded machine. */
static void *worker(void *arg) {
    int64_t bad = 0;
    for (double end = now() + 0.3; now() < end;)
        for (int i = 0; i < 100; i++) bad += check(10, 64, (int64_t)(intptr_t)arg);
    return (void *)(intptr_t)bad;
}

int main(int argc, char **argv) {
    if (argc > 1) {
        /* Frames left by longjmp, a megabyte each: a hundred arenas' worth. */
        jmp_buf here;
        volatile int exits = 0;
        for (int i = 0; i < 100; i++) {
            if (setjmp(here) == 0) grab(1 << 20, &here);
            else exits++;
        }
        printf("exits %d\n", exits);
        printf("main bad %lld\n", (long long)check(100, 1000, 3));
        return 0;
    }
    pthread_t threads[2];
    for (intptr_t t = 0; t < 2; t++) pthread_create(&threads[t], 0, worker, (void *)(t + 1));
    int64_t bad = 0;
    for (int t = 0; t < 2; t++) {
        void *r;
        pthread_join(threads[t], &r);
        bad += (int64_t)(intptr_t)r;
    }
    printf("threads bad %lld\n", (long long)bad);
    return 0;
}
"#;

#[test]
fn objects_with_dynamic_allocas_link_and_run_with_threads_and_longjmp() {
    let dir = tempfile::tempdir().unwrap();
    let driver = dir.path().join("driver.c");
    std::fs::write(&driver, DRIVER).unwrap();
    let module = patchmap::ir::parse("dynamic.ll", PROGRAM).unwrap();
    for arch in Arch::ALL {
        let Some(toolchain) = support::toolchain(arch) else { continue };
        for opt in ["none", "speed"] {
            let name = format!("dynamic.{}.{opt}", arch.triple());
            let options = Options::new(Some(arch.triple()), opt, 3).unwrap();
            let object = patchmap::emit::object::compile(&module, &options).unwrap();
            let obj = dir.path().join(format!("{name}.o"));
            let exe = dir.path().join(&name);
            std::fs::write(&obj, &object).unwrap();
            let mut link = Command::new(&toolchain.linker);
            link.arg(&driver).arg(&obj).arg("-o").arg(&exe).arg("-pthread");
            if arch == Arch::Aarch64 {
                link.arg("-static");
            }
            let (code, _, err) = support::run(&mut link);
            assert_eq!(code, 0, "{name}: linking failed: {err}");
            for (arg, expected) in [(None, "threads bad 0\n"), (Some("exit"), "exits 100\nmain bad 0\n")] {
                let mut run = toolchain.command(&exe);
                run.args(arg);
                let (status, stdout) =
                    support::run_with_deadline(&mut run, std::time::Duration::from_secs(60)).unwrap();
                assert_eq!((status, stdout.as_str()), (Some(0), expected), "{name} {arg:?}");
            }
        }
    }
}

/// Past the arena's 8 MiB is still a trap, which `patchmap run` names; a huge count (whose size in
/// bytes wraps around 2^64) too.
#[test]
fn running_past_the_arena_is_a_stack_overflow_trap() {
    if !jit_host("a JIT for this host") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("overflow.ll");
    std::fs::write(
        &ll,
        "define i64 @big(i64 %n) {\n  %p = alloca i64, i64 %n\n  store i64 1, ptr %p\n  ret i64 0\n}\n",
    )
    .unwrap();
    let run = |n: &str| {
        Command::new(support::patchmap_bin())
            .args(["run", ll.to_str().unwrap(), "--entry", "big", "--", n])
            .output()
            .unwrap()
    };
    let ok = run("1000");
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    // 2^61 i64s are 2^64 bytes: zero once wrapped.
    for n in ["2000000", "2305843009213693952", "-1"] {
        let out = run(n);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{n}: {err}");
        assert!(err.contains("stack overflow (") && err.contains("in function 'big'"), "{n}: {err}");
    }
}
