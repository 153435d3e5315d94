//! Parses arbitrary bytes as a stack map section in both byte orders; whatever parses must print,
//! answer lookups and re-encode to a section that parses to the same model. The frame-table layout
//! (`rfc2`) is also tried directly, without the check against LLVM 4.0's version 2.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchmap::stackmap::{self, Endian, StackMapView, Version};

fn exercise(blob: &StackMapView<'_>, endian: Endian) {
    stackmap::print(blob, &mut std::io::sink()).unwrap();
    let _ = blob.record_at(0, 0);
    let _ = blob.frame_registers(0).count();
    if let Ok(index) = blob.address_index() {
        let _ = blob.records_at_address(&index, 0).count();
    }
    let model = blob.to_model();
    match model.write(blob.version(), endian) {
        Ok(bytes) => {
            let again = StackMapView::parse_version(&bytes, blob.version(), endian).unwrap().to_model();
            assert_eq!(again, model);
        }
        // A frame table whose re-encoding also reads as LLVM 4.0's v2 is refused, not written.
        Err(stackmap::Error::AmbiguousVersion2 { .. }) => assert_eq!(blob.version(), Version::FrameTable),
        Err(e) => panic!("a parsed blob does not re-encode: {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    for endian in [Endian::Little, Endian::Big] {
        if let Ok(blobs) = stackmap::parse_section(data, endian) {
            for blob in &blobs {
                exercise(blob, endian);
            }
        }
        if let Ok(blob) = StackMapView::parse_version(data, Version::FrameTable, endian) {
            exercise(&blob, endian);
        }
    }
    let _ = Endian::guess(data);
});
