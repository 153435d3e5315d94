//! Vectors at statepoints (issue 27, item 1): `tests/vectors/statepoints/statepoints.ll`, compiled
//! by patchmap and by llc-19 for both targets, gives records whose locations have the same kinds
//! and sizes: a vector (of GC pointers in gc-live, a deopt value, a constant) is one `Indirect`
//! location of its size, the frame slot it is stored in whole. At run time, the moving collector
//! relocates such vectors lane by lane (`tests/gc_collector/gc_vectors.ll`, in `gc_collector`).

use crate::support;

use std::path::Path;

use patchmap::stackmap::LocationKind::{self, Constant, Indirect};
use support::Arch;

#[test]
fn vector_locations_are_recorded_as_llc_19_records_them() {
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let ll = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/statepoints/statepoints.ll");
    // The calling convention, the flags and the deopt count, then the locations.
    let with = |rest: &[(LocationKind, u16)]| [&[(Constant, 8); 3][..], rest].concat();
    let expected = vec![
        (1, with(&[(Indirect, 16), (Indirect, 16)])),
        (2, with(&[(Indirect, 8), (Indirect, 8), (Indirect, 16)])),
        (3, with(&[(Indirect, 16), (Indirect, 16)])),
        (4, with(&[(Indirect, 16), (Indirect, 16), (Indirect, 8)])),
    ];
    for arch in Arch::ALL {
        let (ours, reference) = support::record_shapes_of_both(&llc, &ll, arch, dir.path());
        assert_eq!(ours, expected, "{arch:?}: patchmap's records");
        assert_eq!(ours, reference, "{arch:?}: patchmap's records against llc-19's");
    }
}
