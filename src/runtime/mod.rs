//! What a runtime uses while generated code runs: reading a value through a stack map location, given
//! the registers and stack captured where the code stopped, and patching code regions (W^X kept,
//! instruction cache flushed on AArch64), with encoders for the calls it writes there.
//!
//! Like [`crate::stackmap`], this needs no compiler: it builds with `default-features = false`.

pub mod patch;
pub mod values;

pub use patch::{encode_call, encode_exit_call, exit_call_return_offset, patch_code, PatchError, PatchTarget};
pub use values::{read_location, Frame, ReadError};
