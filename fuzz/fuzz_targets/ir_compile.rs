//! Parses, verifies and compiles arbitrary text as IR to x86-64 and AArch64 objects: every input is
//! rejected with an error or compiles to an object whose stack maps read back, never a panic, hang or
//! runaway allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchmap::compile::Options;
use patchmap::ir;
use patchmap::stackmap::{object_file, Error};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(mut module) = ir::parse("fuzz.ll", text) else { return };
    if ir::verify(&module).is_err() {
        return;
    }
    let _ = Options::default().resolve_target(&module);
    // Both targets for every module: a `target triple` naming one of them would stop the other.
    module.triple = None;
    // The version from the input, so all three section writers get exercised.
    let version = 1 + (data.len() % 3) as u8;
    for triple in ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"] {
        let options = Options::new(Some(triple), "speed", version).unwrap();
        let Ok(object) = patchmap::emit::object::compile(&module, &options) else { continue };
        match object_file::dump(&object, true, &mut std::io::sink()) {
            Ok(()) | Err(Error::NoStackMapSection) => {}
            Err(e) => panic!("{triple}: our own object does not read back: {e}"),
        }
    }
});
