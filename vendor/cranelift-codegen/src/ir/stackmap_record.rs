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

#[cfg(test)]
mod tests {
    use super::StackmapRecordData;
    use crate::cursor::{Cursor, FuncCursor};
    use crate::entity::EntityRef;
    use crate::ir::{AbiParam, Function, InstBuilder, Signature, StackmapRecord, types};
    use crate::isa::CallConv;
    use crate::settings;
    use crate::verifier::verify_function;
    use alloc::string::ToString;

    /// `fn(v0: i64) { stackmap <record>, v0; return }`, the record made by `record`.
    fn with_stackmap(record: impl FnOnce(&mut Function) -> StackmapRecord) -> Function {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(types::I64));
        let mut func = Function::with_name_signature(Default::default(), sig);
        let block0 = func.dfg.make_block();
        let v0 = func.dfg.append_block_param(block0, types::I64);
        let record = record(&mut func);
        let mut pos = FuncCursor::new(&mut func);
        pos.insert_block(block0);
        pos.ins().stackmap(record, &[v0]);
        pos.ins().return_(&[]);
        func
    }

    #[test]
    fn text_form_shows_the_record_in_place() {
        let flags = settings::Flags::new(settings::builder());
        for (id, shadow, text) in [
            (7, 16, "stackmap 7, 16, v0"),
            (
                u64::MAX,
                65536,
                "stackmap 0xffff_ffff_ffff_ffff, 0x0001_0000, v0",
            ),
        ] {
            let func = with_stackmap(|f| {
                f.dfg
                    .stackmap_records
                    .push(StackmapRecordData { id, imm: shadow })
            });
            verify_function(&func, &flags).unwrap();
            let printed = func.to_string();
            assert!(printed.contains(text), "{printed}");
        }
    }

    #[test]
    fn a_record_not_in_the_table_is_a_verifier_error() {
        let func = with_stackmap(|_| StackmapRecord::new(3));
        let flags = settings::Flags::new(settings::builder());
        let errors = verify_function(&func, &flags).unwrap_err().to_string();
        assert!(
            errors.contains("invalid stack map record reference record3"),
            "{errors}"
        );
        // Printed, as an error report prints it, the instruction shows the reference.
        let printed = func.to_string();
        assert!(printed.contains("stackmap record3, v0"), "{printed}");
    }
}
