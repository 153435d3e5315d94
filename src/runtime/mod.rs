//! What a runtime uses while generated code runs: an entry from generated code that captures every
//! register ([`entry`], [`registers`]); exit stubs in groups, made on demand, whose handler decides
//! where generated code goes on ([`exits`]); reading a value through a stack map location, given the
//! registers and stack captured where the code stopped; walking the frames of generated code, with
//! the frame table's saved registers or through statepoint records for GC roots ([`frames`]); and
//! patching code regions (W^X kept, instruction cache flushed on AArch64); [`crate::arch::Arch`]
//! encodes the calls written there.
//!
//! Like [`crate::stackmap`], this needs no compiler: it builds with `default-features = false`.

pub mod entry;
pub mod exits;
pub mod frames;
pub mod memory;
pub mod patch;
pub mod registers;
pub mod values;

pub use entry::{Entry, EntryError};
pub use exits::{ExitError, ExitState, Exits, Resume};
pub use memory::{Memory, ProcessMemory, StackDump};
pub use patch::{patch_code, PatchError};
pub use registers::{Registers, Stopped};
pub use values::{read_location, Frame, ReadError};
