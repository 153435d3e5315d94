//! What a runtime uses while generated code runs: reading a value through a stack map location, given
//! the registers and stack captured where the code stopped; walking the frames of generated code and
//! finding their GC roots through statepoint records ([`frames`]); and patching code regions (W^X
//! kept, instruction cache flushed on AArch64); [`crate::arch::Arch`] encodes the calls written there.
//!
//! Like [`crate::stackmap`], this needs no compiler: it builds with `default-features = false`.

pub mod frames;
pub mod patch;
pub mod values;

pub use patch::{patch_code, PatchError};
pub use values::{read_location, Frame, ReadError};
