//! Feeds arbitrary bytes to the object-file entry points: they return errors, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchmap::stackmap::{object_file, Version};

fuzz_target!(|data: &[u8]| {
    let _ = object_file::dump(data, true, &mut std::io::sink());
    let _ = object_file::convert(data, 1);
    let _ = object_file::convert_to(data, Version::FrameTable);
});
