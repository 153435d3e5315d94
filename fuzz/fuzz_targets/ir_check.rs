//! Parses and verifies arbitrary text as IR (the fast half of `ir_compile`, for volume): every input
//! is accepted or rejected with a positioned error, never a panic, hang or runaway allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchmap::ir;

fuzz_target!(|data: &[u8]| {
    // The parser takes `&str`; the command line refuses non-UTF-8 before it gets there.
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(module) = ir::parse("fuzz.ll", text) else { return };
    let _ = ir::verify_all(&module);
});
