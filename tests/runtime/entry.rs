//! The runtime entry (`runtime::entry::Entry`) on x86-64: every register captured exactly as
//! generated code held it and restored as the handler changed it, the return address obeyed. (The
//! AArch64 side runs under qemu in `frame_walk`.)

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
#[test]
fn every_register_is_captured_and_restored_exactly_and_the_return_address_obeyed_on_x86_64() {
    use crate::register_bank::{call_with_every_register, change, check, Bank};
    use patchmap::runtime::entry::Entry;

    let before = Bank::sentinels();
    let seen = std::rc::Rc::new(std::cell::Cell::new(None));
    let record = seen.clone();
    let entry = Entry::with_closure(move |registers| {
        record.set(Some(*registers));
        change(registers);
        registers.return_address += 2; // past the `ud2`
    })
    .unwrap();
    let mut after = Bank::default();
    call_with_every_register(&before, &mut after, entry.address() as u64);
    let captured = seen.get().expect("the handler ran");
    check("entry", &before, &captured, &after);
}
