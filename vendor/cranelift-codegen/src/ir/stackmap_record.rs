//! The immediates of a stack map record, held out of line.

#[cfg(feature = "enable-serde")]
use serde_derive::{Deserialize, Serialize};

/// What the record of a `stackmap`, `patchpoint` or `statepoint_call`
/// instruction holds besides locations: its ID, and its shadow, region length
/// or number of relocated values. A [`StackmapRecord`](super::StackmapRecord) in the instruction
/// refers to it in [`DataFlowGraph::stackmap_records`](super::DataFlowGraph),
/// since a 64-bit ID and a 32-bit count beside a value list do not fit in
/// `InstructionData`'s 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "enable-serde", derive(Serialize, Deserialize))]
pub struct StackmapRecordData {
    /// The identifier passed on to the record.
    pub id: u64,
    /// `stackmap`: the shadow, in bytes; `patchpoint` and
    /// `patchpoint_anyreg`: the region's length, in bytes; `statepoint_call`:
    /// the number of relocated values.
    pub imm: u32,
}
