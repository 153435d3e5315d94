//! What an exit costs (`runtime::exits`): bytes of stub per exit on both targets, and the time of
//! one exit and resume on this host: a stub called from `exits::call`'s activation whose handler
//! answers `Resume::Continue` (the stub saves every register, the handler runs, every register is
//! restored, the code goes on after the call) or `Resume::Return` (the activation returns instead),
//! against a plain function called through the same activation. Run with
//! `cargo bench --bench exits`; prints `TABLE|what|value` lines too.

use std::hint::black_box;
use std::time::Instant;

use patchmap::arch::Arch;
use patchmap::runtime::exits::{self, Exits, Resume};

extern "C" fn plain(x: u64) -> u64 {
    x.wrapping_add(1)
}

/// Nanoseconds per call of `f`, the best of five rounds of `n`.
fn per_call(n: u32, mut f: impl FnMut(u64) -> u64) -> f64 {
    (0..5)
        .map(|_| {
            let start = Instant::now();
            let mut acc = 0u64;
            for i in 0..n {
                acc = acc.wrapping_add(f(u64::from(i)));
            }
            black_box(acc);
            start.elapsed().as_nanos() as f64 / f64::from(n)
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    for arch in Arch::ALL {
        let (stub, group) = (arch.exit_stub_size(), arch.exit_group_size());
        println!(
            "{arch:?}: {stub} bytes per exit stub, {group}-byte groups of {}: {:.1} bytes per exit with the \
             group's prologue and addresses; the exit call patched in is {} bytes",
            Arch::EXITS_PER_GROUP,
            group as f64 / f64::from(Arch::EXITS_PER_GROUP),
            arch.exit_call_len()
        );
        println!("TABLE|{arch:?} bytes per exit stub|{stub}");
        println!(
            "TABLE|{arch:?} bytes per exit, group included|{:.1}",
            group as f64 / f64::from(Arch::EXITS_PER_GROUP)
        );
    }
    let Some(arch) = Arch::host() else {
        println!("no exit stubs on this host: no timings");
        return;
    };
    let continuing = Exits::new(|state, number| {
        state.registers_mut().general[0] = u64::from(number);
        Resume::Continue
    })
    .expect("exit stubs");
    let leaving = Exits::new(|_, number| Resume::Return(u64::from(number))).expect("exit stubs");
    let (c, l) = (continuing.stub(40).unwrap() as *const u8, leaving.stub(40).unwrap() as *const u8);
    let n = 200_000;
    // SAFETY: each is called as a function of one integer returning one.
    let base = per_call(n, |i| unsafe { exits::call(plain as *const u8, &[i]) }.unwrap());
    let cont = per_call(n, |i| unsafe { exits::call(c, &[i]) }.unwrap());
    let leave = per_call(n, |i| unsafe { exits::call(l, &[i]) }.unwrap());
    println!("{arch:?} host: exits::call of a plain function {base:.1} ns");
    println!("{arch:?} host: exit + Resume::Continue {cont:.1} ns ({:.1} ns over the plain call)", cont - base);
    println!("{arch:?} host: exit + Resume::Return {leave:.1} ns ({:.1} ns over the plain call)", leave - base);
    println!("TABLE|ns per exit and resume (continue)|{:.1}", cont - base);
    println!("TABLE|ns per exit and leave (return)|{:.1}", leave - base);
}
