//! The `.llvm_stackmaps` format alone (no Cranelift): model, writer, parser, printer, object files.
//!
//! Data enters as a [`StackMap`] built by the compiler (or from a parse) and leaves as section bytes
//! ([`StackMap::write`]) in version 1, 2 or 3, or the frame-table layout of the 2015 proposal
//! ([`Version::FrameTable`], see [`frame_table`]), and either byte order; section bytes enter through
//! [`parse_section`] / [`StackMapView::parse`] (zero-copy, validated once) and leave as the owned model
//! ([`StackMapView::to_model`]), as llvm-readobj text ([`print()`]), or through lookups by function,
//! instruction offset or address. [`object_file`] finds the section in ELF, Mach-O and COFF files,
//! dumps every blob and rewrites the section in another version.
//!
//! The byte layouts follow LLVM's `StackMaps.cpp` (see `docs/stackmap-format.md` of the project); output
//! of the writer is byte-identical to llc for the same content.
//!
//! ```
//! use patchmap::stackmap::{Endian, Location, Record, StackMap, StackMapView, Version};
//!
//! let mut map = StackMap::new();
//! let big = map.constant_location(1 << 40); // goes to the constant pool
//! map.push_function(0, 16, [Record {
//!     id: 7,
//!     instruction_offset: 8,
//!     locations: vec![Location::register(0, 8), Location::indirect(6, -8, 4), big],
//!     ..Record::default()
//! }]);
//! let bytes = map.write(Version::V3, Endian::Little).unwrap();
//! let view = StackMapView::parse(&bytes, Endian::Little).unwrap();
//! assert_eq!(view.record_at(0, 8).unwrap().unwrap().id(), 7);
//! assert_eq!(view.to_model(), map);
//! ```
#![deny(missing_docs)]

mod error;
pub mod frame_table;
pub mod malformed;
mod model;
pub mod object_file;
mod print;
mod read;
mod statepoint;
mod write;

pub use error::{Error, Result};
pub use model::{
    AmbiguousRecord, ConstantPool, Endian, Frame, FrameRegister, FunctionRecord, LiveOut, Location, LocationKind,
    Record, StackMap, UnknownVersion, Version, DYNAMIC_STACK_SIZE, MAX_RECORD_LOCATIONS, OVERFLOW_RECORD_ID,
};
pub use print::{print, print_with_symbols};
pub use read::{parse_section, AddressIndex, RecordView, StackMapView};
pub use statepoint::{NotAStatepoint, StatepointLayout};
