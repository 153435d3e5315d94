//! `runtime::exits` (issue 25, seed 003): exit stubs in groups of 32 made on demand, the common
//! handler that saves every register into an `ExitState`, and resumption. Natively on x86-64: every
//! register arrives with the value generated code held and goes back as the handler changed it;
//! numbers across several groups; eight threads exiting at once while groups are added; a stack
//! map's shadow patched with a call to a stub, its values read through `ExitState`, and the frame
//! finished in the interpreter. On AArch64 under qemu: the library's routine, activation and
//! group bytes linked with a C driver (`tests/exits/driver.c`).

use crate::support;

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Barrier, Mutex};

use patchmap::runtime::exits::{self, ExitError, ExitState, Exits, Resume};
use patchmap::runtime::Registers;
use support::Arch;

/// What `x0` (first argument) generated code called a stub with: RDI on x86-64, x0 on AArch64.
fn first_argument(state: &ExitState) -> u64 {
    let arch = Arch::host().unwrap();
    state.registers().get(arch, arch.integer_arguments()[0]).unwrap()
}

#[test]
fn groups_are_made_on_demand_and_stubs_are_laid_out_as_the_seed_says() {
    for arch in Arch::ALL {
        let size = arch.exit_group_size();
        let group = arch.exit_group(64, 0x1111_2222_3333_4444, 0x5555_6666_7777_8888);
        assert_eq!(group.len(), size, "{arch:?}");
        assert_eq!(size % arch.instruction_size() as usize, 0);
        let stub = arch.exit_stub_size();
        assert!(32 * stub < size);
        let literal = |v: u64| group.windows(8).position(|w| w == v.to_le_bytes());
        assert!(literal(0x1111_2222_3333_4444).unwrap() >= 32 * stub);
        assert!(literal(0x5555_6666_7777_8888).unwrap() >= 32 * stub);
        if arch == Arch::X86_64 {
            // push imm8; jmp rel8 to the prologue right after the 32 stubs.
            for i in 0..32 {
                assert_eq!(group[4 * i], 0x6a);
                assert_eq!(group[4 * i + 1], i as u8);
                assert_eq!(group[4 * i + 2], 0xeb);
                assert_eq!(4 * i + 4 + group[4 * i + 3] as usize, 128);
            }
        }
    }
    let Some(_) = Arch::host() else { return };
    let exits = Exits::new(|_, _| Resume::Continue).unwrap();
    assert_eq!(exits.group_count(), 0);
    let s0 = exits.stub(0).unwrap();
    let made = exits.group_count();
    assert!(made >= 1);
    let arch = Arch::host().unwrap();
    assert_eq!(exits.stub(31).unwrap(), s0 + 31 * arch.exit_stub_size() as u64);
    assert_eq!(exits.number_at(exits.stub(17).unwrap()), Some(17));
    assert_eq!(exits.number_at(s0 + 1), None);
    // A number past what the first mapping holds adds a mapping; existing stubs stay put.
    let far = 32 * (made as u32 + 3) + 5;
    let s_far = exits.stub(far).unwrap();
    assert!(exits.group_count() > made);
    assert_eq!(exits.stub(0).unwrap(), s0);
    assert_eq!(exits.number_at(s_far), Some(far));
    assert!(matches!(exits.stub(exits::MAX_EXITS), Err(ExitError::TooMany(_))));
    // Enough groups for a trace's exits, all at once.
    let fresh = Exits::new(|_, _| Resume::Continue).unwrap();
    fresh.reserve(0).unwrap();
    assert_eq!(fresh.group_count(), 0);
    fresh.reserve(20 * 32 + 1).unwrap();
    assert!(fresh.group_count() >= 21);
}

#[test]
fn more_than_a_hundred_exits_over_five_groups_arrive_with_their_numbers_and_resume() {
    if !support::host_has(Arch::host().is_some() && cfg!(target_os = "linux"), "exit stubs") {
        return;
    }
    // Odd numbers continue with a new result register; even ones leave with a value.
    let exits = Exits::new(|state, number| {
        let arg = first_argument(state);
        let value = u64::from(number) * 1000 + arg;
        if number % 2 == 1 {
            state.registers_mut().general[0] = value;
            Resume::Continue
        } else {
            Resume::Return(value)
        }
    })
    .unwrap();
    for number in 0..160u32 {
        let stub = exits.stub(number).unwrap();
        // SAFETY: a stub called as a function returns (Continue) or leaves `call` (Return), with
        // the result register set, as a function of one integer would.
        let result = unsafe { exits::call(stub as *const u8, &[u64::from(number) + 7]) }.unwrap();
        assert_eq!(result, u64::from(number) * 1000 + u64::from(number) + 7, "exit {number}");
    }
    assert!(exits.group_count() >= 5);
}

#[test]
fn eight_threads_exit_at_once_while_groups_are_added() {
    if !support::host_has(Arch::host().is_some() && cfg!(target_os = "linux"), "exit stubs") {
        return;
    }
    let seen = Arc::new(AtomicU64::new(0));
    let count = seen.clone();
    let exits = Arc::new(
        Exits::new(move |state, number| {
            count.fetch_add(1, Ordering::Relaxed);
            Resume::Return(first_argument(state) ^ u64::from(number))
        })
        .unwrap(),
    );
    let start = Arc::new(Barrier::new(8));
    let threads: Vec<_> = (0..8u64)
        .map(|t| {
            let (exits, start) = (exits.clone(), start.clone());
            std::thread::spawn(move || {
                start.wait();
                let mut wrong = Vec::new();
                for k in 0..400u32 {
                    // Every thread climbs through new groups, racing the others to add them.
                    let number = k + (t as u32 % 3);
                    let stub = exits.stub(number).unwrap();
                    let arg = (t << 32) | u64::from(k);
                    // SAFETY: as in the test above.
                    let r = unsafe { exits::call(stub as *const u8, &[arg]) }.unwrap();
                    if r != arg ^ u64::from(number) {
                        wrong.push((number, r));
                    }
                }
                wrong
            })
        })
        .collect();
    for (t, thread) in threads.into_iter().enumerate() {
        assert_eq!(thread.join().unwrap(), vec![], "thread {t}");
    }
    assert_eq!(seen.load(Ordering::Relaxed), 8 * 400);
    assert!(exits.group_count() >= 13);
}

/// A C handler: adds the exit number to the counter its context points to and leaves with the
/// first argument times two.
unsafe extern "C" fn c_handler(state: &mut ExitState, number: u32, context: *mut std::ffi::c_void) -> Resume {
    // SAFETY: the test's context is a live `AtomicU64`.
    let total = unsafe { &*(context as *const AtomicU64) };
    total.fetch_add(u64::from(number), Ordering::SeqCst);
    Resume::Return(first_argument(state) * 2)
}

#[test]
fn a_c_handler_gets_the_number_and_its_context() {
    if !support::host_has(Arch::host().is_some() && cfg!(target_os = "linux"), "exit stubs") {
        return;
    }
    let total = Box::new(AtomicU64::new(0));
    // SAFETY: `c_handler` is sound with a pointer to `total`, which outlives the area.
    let exits =
        unsafe { Exits::with_c_handler(c_handler, &*total as *const AtomicU64 as *mut std::ffi::c_void) }.unwrap();
    for (number, arg) in [(3u32, 10u64), (64, 21), (95, 1)] {
        // SAFETY: the stub, called as a function of one integer, leaves with one.
        let r = unsafe { exits::call(exits.stub(number).unwrap() as *const u8, &[arg]) }.unwrap();
        assert_eq!(r, arg * 2);
    }
    assert_eq!(total.load(Ordering::SeqCst), 3 + 64 + 95);
}

#[test]
fn a_region_shorter_than_the_exit_call_is_refused() {
    let Some(arch) = Arch::host() else { return };
    let exits = Exits::new(|_, _| Resume::Continue).unwrap();
    let mut code = vec![0u8; 64];
    // SAFETY: refused before anything is written.
    let e = unsafe { exits.patch_call(code.as_mut_ptr(), arch.exit_call_len() - 1, 3) }.unwrap_err();
    assert!(matches!(e, ExitError::RegionTooSmall { .. }), "{e}");
    assert!(e.to_string().contains(&format!("needs {} bytes", arch.exit_call_len())), "{e}");
    assert!(matches!(unsafe { exits::call(code.as_ptr(), &[0; 9]) }, Err(ExitError::Arguments(9, _))));
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
#[test]
fn sentinels_in_every_register_arrive_in_the_exit_state_and_changes_are_resumed_with_on_x86_64() {
    use crate::register_bank::{call_with_every_register, change, check, Bank};

    let before = Bank::sentinels();
    let seen: Arc<Mutex<Vec<(u32, Registers)>>> = Arc::default();
    let record = seen.clone();
    let exits = Exits::new(move |state, number| {
        record.lock().unwrap().push((number, *state.registers()));
        change(state.registers_mut());
        Resume::At(state.return_address() + 2) // past the `ud2`
    })
    .unwrap();
    // Stubs in the first group, and in later ones.
    for number in [0u32, 31, 32, 77, 130] {
        let mut after = Bank::default();
        call_with_every_register(&before, &mut after, exits.stub(number).unwrap());
        let (got, captured) = seen.lock().unwrap().pop().expect("the handler ran");
        assert_eq!(got, number);
        check(&format!("exit {number}"), &before, &captured, &after);
    }
}

/// The AArch64 side, under qemu: `tests/exits/driver.c` linked with the library's routine and
/// activation (its own assembly text) and five groups of the library's stub bytes.
#[test]
fn aarch64_exits_capture_every_register_number_across_groups_and_resume_under_qemu() {
    let arch = Arch::Aarch64;
    let Some(toolchain) = support::toolchain(arch) else { return };
    let dir = tempfile::tempdir().unwrap();
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/exits/driver.c");
    let assembly = dir.path().join("exits.s");
    std::fs::write(&assembly, aarch64_assembly(5)).unwrap();
    let exe = dir.path().join("exits");
    let mut link = std::process::Command::new(&toolchain.linker);
    link.arg(&driver).arg(&assembly).arg("-static").arg("-o").arg(&exe);
    let (code, _, err) = support::run(&mut link);
    assert_eq!(code, 0, "linking failed: {err}");

    // Numbers: 160 exits over 5 groups, odd ones continuing, even ones leaving.
    let mut command = toolchain.command(&exe);
    command.arg("numbers");
    let (status, stdout) = support::run_with_deadline(&mut command, std::time::Duration::from_secs(20)).unwrap();
    assert_eq!(status, Some(0), "{stdout}");
    let expected: String = (0..160u64).map(|n| format!("exit {n} number {n} result {}\n", n * 1000 + n + 7)).collect();
    assert_eq!(stdout, expected);

    for number in [0u32, 33, 159] {
        let mut command = toolchain.command(&exe);
        command.arg("exact").arg(number.to_string());
        let (status, stdout) = support::run_with_deadline(&mut command, std::time::Duration::from_secs(20)).unwrap();
        assert_eq!(status, Some(0), "{stdout}");
        let registers = |name: &str| {
            let hex =
                stdout.lines().find_map(|l| l.strip_prefix(name)).unwrap_or_else(|| panic!("no {name}:\n{stdout}"));
            let bytes: Vec<u8> =
                (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()).collect();
            Registers::from_bytes(&bytes).unwrap()
        };
        let (before, captured, after) = (registers("before "), registers("captured "), registers("after "));
        assert!(stdout.contains(&format!("number {number}\n")), "{stdout}");
        // x16 carried the stub's address and then its index; x30 is the return address.
        for i in (0..30).filter(|&i| i != 16) {
            assert_eq!(captured.general[i], before.general[i], "exit {number}: captured x{i}");
            assert_eq!(after.general[i], before.general[i] ^ (0x1111 * (i as u64 + 1)), "exit {number}: resumed x{i}");
        }
        assert_eq!(captured.general[30], captured.return_address, "x30 is the return address");
        assert_eq!(captured.general[31], captured.stack_pointer);
        for i in 0..32 {
            assert_eq!(captured.vector[i], before.vector[i], "exit {number}: captured v{i}");
            assert_eq!(after.vector[i], [!before.vector[i][0], before.vector[i][1] ^ 0xff00], "resumed v{i}");
        }
        assert_eq!(captured.flags & 0xf000_0000, before.flags);
        assert_eq!(after.flags & 0xf000_0000, before.flags ^ 0x6000_0000);
    }
}

/// The entry's routine and the exits' activation (the library's text) and `exit_groups`: `groups`
/// groups of the library's bytes with the driver's `exit_descriptor` and the routine as their
/// addresses, for GNU as (Intel syntax on x86-64, as `global_asm!` reads it).
pub(crate) fn library_assembly(arch: Arch, groups: u32) -> String {
    const DESCRIPTOR: u64 = 0x4444_3333_2222_1111;
    const SAVE: u64 = 0x8888_7777_6666_5555;
    let syntax = if arch == Arch::X86_64 { "    .intel_syntax noprefix\n" } else { "" };
    let mut out = format!(
        "{syntax}{}\n{}\n    .text\n    .globl exit_groups\n    .p2align 4\nexit_groups:\n",
        patchmap::runtime::entry::assembly(arch),
        exits::assembly(arch)
    );
    for g in 0..groups {
        let bytes = arch.exit_group(g * 32, DESCRIPTOR, SAVE);
        let mut at = 0;
        while at < bytes.len() {
            let word = bytes.get(at..at + 8).map(|w| u64::from_le_bytes(w.try_into().unwrap()));
            if at % 8 == 0 && word == Some(DESCRIPTOR) {
                out.push_str("    .quad exit_descriptor\n");
                at += 8;
            } else if at % 8 == 0 && word == Some(SAVE) {
                out.push_str("    .quad patchmap_entry_save\n");
                at += 8;
            } else {
                out.push_str(&format!("    .byte {:#04x}\n", bytes[at]));
                at += 1;
            }
        }
    }
    if arch == Arch::X86_64 {
        out.push_str("    .att_syntax prefix\n");
    }
    out
}

/// [`library_assembly`] and `exactness`, which reaches stub `exit_target` with the exit call's
/// `blr x16`.
fn aarch64_assembly(groups: u32) -> String {
    library_assembly(Arch::Aarch64, groups)
        + &crate::frame_walk::EXACTNESS
            .replace("bl runtime_entry", "adrp x16, exit_target\n    ldr x16, [x16, :lo12:exit_target]\n    blr x16")
}

const COUNTER: &str = "declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)
declare void @safepoint(i64)

define i64 @kernel(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i64 [ 1, %entry ], [ %acc1, %loop ]
  call void @safepoint(i64 %i)
  call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 3, i32 16, ptr null, i32 0, i64 %i, i64 %acc, i64 %n)
  %m = mul i64 %acc, 3
  %acc1 = add i64 %m, %i
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret i64 %acc1
}
";

/// The counter kernel's result when `%acc` is increased by `bump` at iteration `at`.
fn counter(n: u64, at: u64, bump: u64) -> u64 {
    let mut acc = 1u64;
    for i in 0..n {
        if i == at {
            acc = acc.wrapping_add(bump);
        }
        acc = acc.wrapping_mul(3).wrapping_add(i);
    }
    acc
}

/// The counter test's regions to patch, the exit area, and the iteration to patch them at.
type CounterExit = Option<(Vec<*mut u8>, Arc<Exits>, i64)>;

/// What the counter test's handler saw at each exit: the number, `%i`, `%acc`, where `%acc` was and,
/// in the realigned kernel, the over-aligned object's address and what it holds.
type CounterExits = Arc<Mutex<Vec<(u32, u64, u64, Option<patchmap::stackmap::LocationKind>, Option<(u64, u64)>)>>>;

/// The counter kernel with an alloca aligned to 64 bytes (a realigned frame: its slots are found
/// from SP) holding `%n`, which the patch point records last (`Direct [SP + off]`).
fn counter_realigned() -> String {
    COUNTER
        .replace(
            "entry:\n  br label %loop",
            "entry:\n  %object = alloca i64, align 64\n  store volatile i64 %n, ptr %object\n  br label %loop",
        )
        .replace("i64 %acc, i64 %n)", "i64 %acc, i64 %n, ptr %object)")
}

thread_local! {
    static COUNTER_EXIT: std::cell::RefCell<CounterExit> = const { std::cell::RefCell::new(None) };
}

extern "C" fn counter_safepoint(i: i64) {
    COUNTER_EXIT.with(|c| {
        if let Some((points, exits, at)) = &*c.borrow() {
            if i == *at {
                for &point in points {
                    // SAFETY: the region is the kernel's; this thread is in the hook, before it.
                    unsafe { exits.patch_call(point, 16, 70) }.unwrap();
                }
            }
        }
    });
}

/// JIT code whose patch point region (16 bytes of nops: a stack map's shadow may hold the code
/// after the point, which a call patched over it would skip) is patched with a call to exit 70 at
/// iteration `at`: from then on every iteration exits; the handler reads `%i` and `%acc` through the record's locations from
/// the `ExitState`, bumps `%acc` at the first exit (in its register, or its spill slot) and
/// continues; the kernel must finish with the bumped value's result, having exited `n - at` times.
/// A second run leaves at the first exit with the result the interpreter computes from after the
/// patch point, which must be the uninterrupted JIT run's. The kernel runs as written and with a
/// frame realigned for an over-aligned object, whose `Direct` location must be its aligned address.
#[test]
fn jit_code_exits_through_a_patched_shadow_and_continues_with_a_changed_value_or_finishes_in_the_interpreter() {
    use patchmap::compile::Options;
    use patchmap::emit::jit::JitCode;
    use patchmap::interp::{self, Interpreter};
    use patchmap::runtime::Frame as _;
    use patchmap::runtime::{read_location, Memory, ProcessMemory};
    use patchmap::stackmap::{Endian, LocationKind, StackMapView};

    let Some(arch) = Arch::host() else { return };
    if !support::host_has(cfg!(target_os = "linux"), "a JIT for this host") {
        return;
    }
    let symbols = [("safepoint", counter_safepoint as *const u8)];
    for (realigned, opt) in [(false, "none"), (false, "speed"), (true, "none"), (true, "speed")] {
        let text = if realigned { counter_realigned() } else { COUNTER.to_string() };
        let module = patchmap::ir::parse("counter.ll", &text).unwrap();
        let kernel = module.function_by_name("kernel").unwrap();
        let jit = JitCode::compile_with_symbols(&module, &Options::new(None, opt, 3).unwrap(), &symbols).unwrap();
        let code = jit.function("kernel").unwrap().address;
        let points = jit.record_addresses(3);
        let originals: Vec<Vec<u8>> =
            points.iter().map(|&p| unsafe { std::slice::from_raw_parts(p, 16) }.to_vec()).collect();
        let map = StackMapView::parse(jit.stack_map_section(), Endian::native()).unwrap();
        let index = map.address_index().unwrap();
        let constants: Vec<u64> = map.constants().collect();
        let (n, at, bump) = (40u64, 25u64, 1_000_000u64);
        for leave in [false, true] {
            let seen: CounterExits = Arc::default();
            let record = seen.clone();
            let (section, index, constants, module) =
                (jit.stack_map_section().to_vec(), index.clone(), constants.clone(), module.clone());
            let exits = Arc::new(
                Exits::new(move |state, number| {
                    let map = StackMapView::parse(&section, Endian::native()).unwrap();
                    let point = state.return_address() - arch.exit_call_return_offset();
                    let Some(rec) = map.records_at_address(&index, point).next() else {
                        record.lock().unwrap().push((number, u64::MAX, u64::MAX, None, None));
                        return Resume::Return(0);
                    };
                    let locations: Vec<_> = rec.locations().collect();
                    let value = |k: usize| read_location(&locations[k], &constants, state).unwrap();
                    let (i, acc) = (value(0), value(1));
                    let first = record.lock().unwrap().is_empty();
                    let object = (locations.len() == 4 && locations[3].kind == LocationKind::Direct).then(|| {
                        let address = value(3);
                        (address, state.memory(address, 8).unwrap_or(u64::MAX))
                    });
                    record.lock().unwrap().push((number, i, acc, Some(locations[1].kind), object));
                    if leave {
                        // Finish in the interpreter from after the stack map.
                        let at_call = interp::stack_map_call(&module, kernel, 3).unwrap();
                        let operands = interp::stack_map_operands(&module, kernel, at_call).unwrap();
                        let bound: Vec<_> =
                            operands.iter().enumerate().map(|(k, o)| (o.value.clone(), value(k))).collect();
                        let mut interpreter = Interpreter::new(&module);
                        interpreter.external("safepoint", |_| Ok(0));
                        // SAFETY: the kernel touches no memory.
                        let r = unsafe { interpreter.resume(kernel, at_call, &bound) }.unwrap().unwrap();
                        return Resume::Return(r);
                    }
                    if first {
                        let location = &locations[1];
                        match location.kind {
                            LocationKind::Register => {
                                state.registers_mut().set(arch, location.dwarf_reg, 8, acc + bump).unwrap();
                            }
                            LocationKind::Indirect => {
                                let base = state.registers().get(arch, location.dwarf_reg).unwrap();
                                let address = base.wrapping_add(location.offset as i64 as u64);
                                // SAFETY: the spill slot is in the stopped kernel's frame.
                                let mut memory = unsafe { ProcessMemory::new() };
                                memory.write(address, 8, acc + bump).unwrap();
                            }
                            other => panic!("%acc is not a constant: {other:?}"),
                        }
                    }
                    Resume::Continue
                })
                .unwrap(),
            );
            COUNTER_EXIT.with(|c| *c.borrow_mut() = Some((points.clone(), exits.clone(), at as i64)));
            // SAFETY: the kernel takes one integer and returns one.
            let result = unsafe { exits::call(code, &[n]) }.unwrap();
            COUNTER_EXIT.with(|c| *c.borrow_mut() = None);
            for (&point, original) in points.iter().zip(&originals) {
                // SAFETY: no thread runs the kernel now.
                unsafe { patchmap::runtime::patch_code(arch, point, 16, original) }.unwrap();
            }
            let seen = seen.lock().unwrap();
            let context = format!("-O {opt}, realigned {realigned}, leave {leave}: exits {seen:?}");
            assert_eq!(seen[0].0, 70, "{context}");
            if realigned {
                // Each exit finds the object at an address aligned to 64, the same in every
                // iteration, holding what the kernel stored.
                let object = seen[0].4.expect("the object's Direct location");
                assert!(object.0.is_multiple_of(64) && object.1 == n, "{context}");
                assert!(seen.iter().all(|e| e.4 == Some(object)), "{context}");
            }
            assert_eq!((seen[0].1, seen[0].2), (at, counter(at, u64::MAX, 0)), "{context}: %i and %acc at the exit");
            if leave {
                assert_eq!(seen.len(), 1, "{context}");
                assert_eq!(
                    result,
                    counter(n, u64::MAX, 0),
                    "{context}: the interpreter finishes with the JIT's result"
                );
            } else {
                assert_eq!(seen.len() as u64, n - at, "{context}");
                for (k, &(_, i, _, _, _)) in seen.iter().enumerate() {
                    assert_eq!(i, at + k as u64, "{context}");
                }
                assert_eq!(seen[1].2, counter(at + 1, at, bump), "{context}: the bumped %acc was used");
                assert_eq!(result, counter(n, at, bump), "{context}");
            }
        }
    }
}
