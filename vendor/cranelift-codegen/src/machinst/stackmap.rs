//! `stackmap` instructions after lowering: the values a stack map observes,
//! as operands that register allocation may leave anywhere.

use crate::ir::{InstructionData, Opcode, Value};
use crate::machinst::reg::OperandVisitorImpl;
use crate::machinst::{FrameLayout, Lower, OperandVisitor, Reg, StackmapLoc, VCodeInst};
use alloc::string::String;
use alloc::vec::Vec;

/// One value of a `stackmap`.
#[derive(Clone, Debug)]
pub enum StackmapOperand {
    /// A value in a register or a stack slot: an "any" use, so the allocator
    /// never moves a value for the stack map's sake.
    Value(Reg),
    /// A value defined by an `iconst`: recorded as its constant rather than
    /// materialized into a register.
    Const(u64),
}

/// A lowered `stackmap` instruction.
#[derive(Clone, Debug)]
pub struct StackmapInfo {
    /// The instruction's `id`.
    pub id: u64,
    /// The instruction's `shadow` in bytes.
    pub shadow: u32,
    /// The observed values, in operand order.
    pub operands: Vec<StackmapOperand>,
}

impl StackmapInfo {
    /// Lowers the operands of a `stackmap` instruction.
    pub fn new<I: VCodeInst>(ctx: &mut Lower<I>, id: u64, shadow: u32, args: &[Value]) -> Self {
        let operands = args
            .iter()
            .map(|&arg| {
                let dfg = ctx.dfg();
                let iconst = dfg.value_def(arg).inst().and_then(|inst| match dfg.insts[inst] {
                    InstructionData::UnaryImm {
                        opcode: Opcode::Iconst,
                        imm,
                    } => Some(imm.bits() as u64),
                    _ => None,
                });
                match iconst {
                    Some(bits) => StackmapOperand::Const(bits),
                    None => StackmapOperand::Value(ctx.put_value_in_regs(arg).only_reg().unwrap()),
                }
            })
            .collect();
        StackmapInfo {
            id,
            shadow,
            operands,
        }
    }

    /// Visits the register operands: "any" uses, with no definitions and no
    /// clobbers.
    pub fn collect_operands(&mut self, collector: &mut impl OperandVisitor) {
        for operand in &mut self.operands {
            if let StackmapOperand::Value(reg) = operand {
                collector.any_late_use(reg);
            }
        }
    }

    /// Where each value is, once the operands hold their allocations.
    pub fn locations<'a>(
        &'a self,
        layout: &'a FrameLayout,
    ) -> impl Iterator<Item = StackmapLoc> + 'a {
        self.operands.iter().map(move |operand| match operand {
            StackmapOperand::Const(bits) => StackmapLoc::Const(*bits),
            StackmapOperand::Value(reg) => {
                if let Some(spillslot) = reg.to_spillslot() {
                    // The spillslot offset is relative to the "fixed
                    // storage area", which comes after outgoing args.
                    let offset = layout.spillslot_offset(spillslot)
                        + i64::from(layout.outgoing_args_size);
                    StackmapLoc::SPOffset(
                        u32::try_from(offset)
                            .expect("SP offset cannot be negative or larger than 4GiB"),
                    )
                } else if let Some(realreg) = reg.to_real_reg() {
                    StackmapLoc::Reg(realreg)
                } else {
                    panic!("Virtual register present in stackmap after register allocation");
                }
            }
        })
    }

    /// The instruction as disassembly shows it, with registers shown by `show_reg`.
    pub fn pretty_print(&self, show_reg: impl Fn(Reg) -> String) -> String {
        let mut s = alloc::format!("stackmap {}, {}", self.id, self.shadow);
        for operand in &self.operands {
            match operand {
                StackmapOperand::Value(reg) => {
                    s.push_str(", ");
                    s.push_str(&show_reg(*reg));
                }
                StackmapOperand::Const(bits) => s.push_str(&alloc::format!(", {bits:#x}")),
            }
        }
        s
    }
}
