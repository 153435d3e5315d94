//! Parses arbitrary bytes as a stack map section in both byte orders; whatever parses must print,
//! answer lookups and re-encode to a section that parses to the same model.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchmap::stackmap::{self, Endian, StackMapView};

fuzz_target!(|data: &[u8]| {
    for endian in [Endian::Little, Endian::Big] {
        let Ok(blobs) = stackmap::parse_section(data, endian) else { continue };
        for blob in &blobs {
            stackmap::print(blob, &mut std::io::sink()).unwrap();
            let _ = blob.record_at(0, 0);
            if let Ok(index) = blob.address_index() {
                let _ = blob.records_at_address(&index, 0).count();
            }
            let model = blob.to_model();
            let bytes = model.write(blob.version(), endian).unwrap();
            let again = StackMapView::parse(&bytes, endian).unwrap().to_model();
            assert_eq!(again, model);
        }
    }
    let _ = Endian::guess(data);
});
