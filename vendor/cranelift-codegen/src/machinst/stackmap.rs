//! `stackmap`, `patchpoint` and `statepoint_call` instructions after
//! lowering: the values a stack map observes, as operands that register
//! allocation may leave anywhere, a patch point's region with its call's
//! operands, and a call whose record at its return address names registers
//! that a runtime may rewrite.

use crate::ir::{ExternalName, InstructionData, Opcode, SigRef, Value, types};
use crate::machinst::{
    CallArgPair, CallInfo, CallRetPair, FrameLayout, Lower, MachBuffer, OperandVisitor,
    OperandVisitorImpl, Reg, RetLocation, StackmapLoc, TryCallInfo, VCodeInst, ValueRegs, Writable,
};
use crate::settings::RegallocAlgorithm;
use alloc::string::String;
use alloc::vec::Vec;
use regalloc2::{OperandConstraint, OperandKind, OperandPos, PReg, PRegSet};
use smallvec::SmallVec;

/// One value of a `stackmap`.
#[derive(Clone, Debug)]
pub enum StackmapOperand {
    /// A value in a register or a stack slot: an "any" use, so the allocator
    /// never moves a value for the stack map's sake.
    Value(Reg),
    /// A value in its spill slot: a "stack" use, made instead of an "any" use
    /// when the function is allocated by the single-pass allocator. That
    /// allocator gives an "any" use a register whenever one is free, so it
    /// would reload values a call before the point clobbered between the
    /// call and the point; a value already in its slot needs no move.
    Slot(Reg),
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
    /// Under the single-pass allocator, every allocatable register: seen as
    /// clobbered by the allocator only (never by prologue generation), so
    /// that it moves the values live in registers into their spill slots as
    /// a call before the stackmap would; the stackmap's own values, "stack"
    /// uses, then need no move between that call and the stackmap. Empty
    /// otherwise.
    pub evicted: PRegSet,
}

impl StackmapInfo {
    /// Lowers the operands of a `stackmap` instruction.
    pub fn new<I: VCodeInst>(ctx: &mut Lower<I>, id: u64, shadow: u32, args: &[Value]) -> Self {
        let evicted = if single_pass(ctx) {
            PRegSet::from(ctx.abi().machine_env())
        } else {
            PRegSet::empty()
        };
        StackmapInfo {
            id,
            shadow,
            operands: lower_recorded_values(ctx, args),
            evicted,
        }
    }

    /// Visits the register operands: "any" uses (or "stack" uses), with no
    /// definitions and no clobbers but [`StackmapInfo::evicted`].
    pub fn collect_operands(&mut self, collector: &mut impl OperandVisitor) {
        collect_recorded_values(&mut self.operands, collector);
        if self.evicted != PRegSet::empty() {
            collector.reg_clobbers(self.evicted);
        }
    }

    /// Where each value is, once the operands hold their allocations.
    pub fn locations<'a>(
        &'a self,
        layout: &'a FrameLayout,
    ) -> impl Iterator<Item = StackmapLoc> + 'a {
        self.operands
            .iter()
            .map(move |operand| operand.location(layout))
    }

    /// The instruction as disassembly shows it, with registers shown by `show_reg`.
    pub fn pretty_print(&self, show_reg: impl Fn(Reg) -> String) -> String {
        let mut s = alloc::format!("stackmap {}, {}", self.id, self.shadow);
        print_recorded_values(&mut s, &self.operands, show_reg);
        s
    }
}

impl StackmapOperand {
    /// Where the value is, once the operand holds its allocation.
    fn location(&self, layout: &FrameLayout) -> StackmapLoc {
        match self {
            StackmapOperand::Const(bits) => StackmapLoc::Const(*bits),
            StackmapOperand::Value(reg) | StackmapOperand::Slot(reg) => {
                allocated_location(*reg, layout)
            }
        }
    }
}

/// The location an allocated operand names.
fn allocated_location(reg: Reg, layout: &FrameLayout) -> StackmapLoc {
    if let Some(spillslot) = reg.to_spillslot() {
        StackmapLoc::SPOffset(layout.spillslot_sp_offset(spillslot))
    } else if let Some(realreg) = reg.to_real_reg() {
        StackmapLoc::Reg(realreg)
    } else {
        panic!("Virtual register present in stackmap after register allocation");
    }
}

/// Lowers values whose locations are recorded: `iconst`s as their constants,
/// the others as registers for "any" uses, or for "stack" uses under the
/// single-pass allocator.
fn lower_recorded_values<I: VCodeInst>(ctx: &mut Lower<I>, args: &[Value]) -> Vec<StackmapOperand> {
    let in_slots = single_pass(ctx);
    args.iter()
        .map(|&arg| {
            let dfg = ctx.dfg();
            let iconst = dfg
                .value_def(arg)
                .inst()
                .and_then(|inst| match dfg.insts[inst] {
                    InstructionData::UnaryImm {
                        opcode: Opcode::Iconst,
                        imm,
                    } => Some(imm.bits() as u64),
                    _ => None,
                });
            match iconst {
                Some(bits) => StackmapOperand::Const(bits),
                None => {
                    let reg = ctx.put_value_in_regs(arg).only_reg().unwrap();
                    if in_slots {
                        StackmapOperand::Slot(reg)
                    } else {
                        StackmapOperand::Value(reg)
                    }
                }
            }
        })
        .collect()
}

/// Whether the function is allocated by the single-pass allocator.
fn single_pass<I: VCodeInst>(ctx: &Lower<I>) -> bool {
    ctx.flags().regalloc_algorithm() == RegallocAlgorithm::SinglePass
}

/// Appends `, <register or constant>` for each recorded value.
fn print_recorded_values(
    s: &mut String,
    operands: &[StackmapOperand],
    show_reg: impl Fn(Reg) -> String,
) {
    for operand in operands {
        match operand {
            // After allocation an "any" use may name a spill slot, which the
            // backends' register printers do not know.
            StackmapOperand::Value(reg) | StackmapOperand::Slot(reg) => match reg.to_spillslot() {
                Some(slot) => s.push_str(&alloc::format!(", {slot}")),
                None => {
                    s.push_str(", ");
                    s.push_str(&show_reg(*reg));
                }
            },
            StackmapOperand::Const(bits) => s.push_str(&alloc::format!(", {bits:#x}")),
        }
    }
}

/// Visits recorded values as early "any" uses: a register of their class or a
/// stack slot, whichever they are in (their slots for [`StackmapOperand::Slot`]).
fn collect_recorded_values(operands: &mut [StackmapOperand], collector: &mut impl OperandVisitor) {
    collect_recorded_values_at(operands, collector, OperandPos::Early);
}

/// Visits recorded values as uses at `pos`: "any" uses, or "stack" uses for
/// [`StackmapOperand::Slot`].
fn collect_recorded_values_at(
    operands: &mut [StackmapOperand],
    collector: &mut impl OperandVisitor,
    pos: OperandPos,
) {
    for operand in operands {
        let (reg, constraint) = match operand {
            StackmapOperand::Value(reg) => (reg, OperandConstraint::Any),
            StackmapOperand::Slot(reg) => (reg, OperandConstraint::Stack),
            StackmapOperand::Const(_) => continue,
        };
        collector.add_operand(reg, constraint, OperandKind::Use, pos);
    }
}

/// A lowered `patchpoint` or `patchpoint_anyreg`: the `dest` of its
/// [`CallInfo`], whose uses, defs and clobbers are the C convention's call
/// (none for `patchpoint_anyreg`).
#[derive(Clone, Debug)]
pub struct PatchpointInfo {
    /// The instruction's `id`.
    pub id: u64,
    /// The region's length in bytes.
    pub bytes: u32,
    /// `patchpoint_anyreg`: the results, each in a register of the
    /// allocator's choosing.
    pub results: Vec<Writable<Reg>>,
    /// `patchpoint_anyreg`: the arguments, likewise.
    pub args: Vec<Reg>,
    /// The values whose locations are recorded.
    pub live: Vec<StackmapOperand>,
    /// The scratch register of the region's call sequence, when it is
    /// allocatable: a temporary defined in it at the region's start keeps
    /// every operand out of it.
    pub scratch: Option<(Writable<Reg>, PReg)>,
    /// The registers live after the region, as the emitter finds them in the
    /// allocated code.
    pub live_outs: PRegSet,
}

impl PatchpointInfo {
    /// Lowers a `patchpoint` (`anyreg` false) or `patchpoint_anyreg` with
    /// signature `sig_ref`, whose results are `outputs`; with `try_call`, a
    /// `try_patchpoint`, whose region also defines the exception payloads.
    pub fn lower<I: VCodeInst>(
        ctx: &mut Lower<I>,
        sig_ref: SigRef,
        id: u64,
        bytes: u32,
        args: &[Value],
        outputs: &[ValueRegs<Reg>],
        anyreg: bool,
        try_call: Option<TryCallInfo>,
    ) -> CallInfo<PatchpointInfo> {
        let params = ctx.dfg().signatures[sig_ref].params.len();
        let (call_args, live) = args.split_at(params);
        let scratch = I::patchpoint_scratch_reg()
            .map(|preg| (ctx.alloc_tmp(types::I64).only_reg().unwrap(), preg));
        let mut dest = PatchpointInfo {
            id,
            bytes,
            results: Vec::new(),
            args: Vec::new(),
            live: Vec::new(),
            scratch,
            live_outs: PRegSet::empty(),
        };
        let mut info = if anyreg {
            dest.args = call_args
                .iter()
                .map(|&arg| ctx.put_value_in_regs(arg).only_reg().unwrap())
                .collect();
            dest.results = outputs
                .iter()
                .map(|regs| Writable::from_reg(regs.only_reg().unwrap()))
                .collect();
            CallInfo::empty(dest, ctx.abi().call_conv())
        } else {
            let sig = ctx.sigs().abi_sig_for_sig_ref(sig_ref);
            let inputs: SmallVec<[ValueRegs<Reg>; 8]> = call_args
                .iter()
                .map(|&arg| ctx.put_value_in_regs(arg))
                .collect();
            let uses = ctx.gen_call_args(sig, &inputs);
            let defs = match try_call {
                Some(_) => ctx.gen_try_statepoint_call_rets(sig, outputs),
                None => ctx.gen_call_rets(sig, outputs),
            };
            let stack_space =
                ctx.sigs()[sig].sized_stack_ret_space() + ctx.sigs()[sig].sized_stack_arg_space();
            ctx.abi_mut().accumulate_outgoing_args_size(stack_space);
            ctx.gen_call_info(sig, dest, uses, defs, try_call, false)
        };
        // Lowered after the arguments, so that their moves come first.
        info.dest.live = lower_recorded_values(ctx, live);
        if let Some((_, preg)) = info.dest.scratch {
            info.clobbers.remove(preg);
        }
        info
    }

    /// Visits the operands of `info`: the call's fixed arguments, results
    /// and clobbers; `anyreg` arguments (early) and results (late) in any
    /// register; the recorded values as "any" uses; the scratch register.
    pub fn collect_operands(
        info: &mut CallInfo<PatchpointInfo>,
        collector: &mut impl OperandVisitor,
    ) {
        for CallArgPair { vreg, preg } in &mut info.uses {
            collector.reg_fixed_use(vreg, *preg);
        }
        for CallRetPair { vreg, location } in &mut info.defs {
            match location {
                RetLocation::Reg(preg, ..) => collector.reg_fixed_def(vreg, *preg),
                RetLocation::Stack(..) => collector.any_def(vreg),
            }
        }
        collector.reg_clobbers(info.clobbers);
        let dest = &mut info.dest;
        for arg in &mut dest.args {
            collector.reg_use(arg);
        }
        for result in &mut dest.results {
            collector.reg_def(result);
        }
        collect_recorded_values(&mut dest.live, collector);
        if let Some((tmp, preg)) = &mut dest.scratch {
            collector.add_operand(
                tmp.reg_mut(),
                OperandConstraint::FixedReg(*preg),
                OperandKind::Def,
                OperandPos::Early,
            );
        }
    }

    /// Adds the region's record at the current offset: the locations of
    /// the results, the arguments (`patchpoint_anyreg` only) and the
    /// recorded values, and the registers live after it.
    pub fn add_record<I: VCodeInst>(&self, sink: &mut MachBuffer<I>, layout: &FrameLayout) {
        let results = self
            .results
            .iter()
            .map(|r| allocated_location(r.to_reg(), layout));
        let args = self.args.iter().map(|&r| allocated_location(r, layout));
        let live = self.live.iter().map(|operand| operand.location(layout));
        sink.add_patchpoint(
            self.id,
            self.bytes,
            results.chain(args).chain(live),
            self.live_outs,
        );
    }

    /// The instruction as disassembly shows it, with registers shown by `show_reg`.
    pub fn pretty_print(&self, show_reg: impl Fn(Reg) -> String) -> String {
        let mut s = alloc::format!("patchpoint {}, {}", self.id, self.bytes);
        let results = self.results.iter().map(|r| r.to_reg());
        for reg in results.chain(self.args.iter().copied()) {
            s.push_str(", ");
            s.push_str(&show_reg(reg));
        }
        print_recorded_values(&mut s, &self.live, show_reg);
        s
    }
}

/// The target of a lowered `statepoint_call`.
#[derive(Clone, Debug)]
pub enum StatepointCallee {
    /// The address in a register.
    Reg(Reg),
    /// A colocated function whose address is the callee (a `func_addr` of
    /// it): a direct call (`call rel32`, `bl`), its address never
    /// materialized.
    Direct(ExternalName),
}

/// A lowered `statepoint_call`: the `dest` of its [`CallInfo`], whose uses,
/// defs and clobbers are the call's under its signature's convention.
///
/// Register allocation cannot move a relocated value between the return
/// address and its result: the use is fixed to a callee-saved register at the
/// call's start and the result is a late def fixed to the same register, so
/// both name one register that the callee preserves. (regalloc2's `Reuse`
/// constraint does not serve: it forces the call's other early uses, its
/// fixed argument registers, to the late point, where the call clobbers
/// them.) Read-only values are late "any" uses: live at the return address,
/// so never in a register the call clobbers.
#[derive(Clone, Debug)]
pub struct StatepointCallInfo {
    /// The instruction's `id`.
    pub id: u64,
    /// What is called.
    pub callee: StatepointCallee,
    /// Each relocated value: its use, its result, and the callee-saved
    /// register both are fixed to.
    pub relocated: Vec<(Reg, Writable<Reg>, PReg)>,
    /// The read-only values.
    pub read: Vec<StackmapOperand>,
}

impl StatepointCallInfo {
    /// Lowers a `statepoint_call` with signature `sig_ref` and `relocated`
    /// relocated values, whose results are `outputs` (the signature's returns,
    /// then the relocated values'); with `try_call`, a `try_statepoint_call`,
    /// whose call also defines the exception payloads.
    pub fn lower<I: VCodeInst>(
        ctx: &mut Lower<I>,
        sig_ref: SigRef,
        id: u64,
        relocated: u32,
        args: &[Value],
        outputs: &[ValueRegs<Reg>],
        try_call: Option<TryCallInfo>,
    ) -> CallInfo<StatepointCallInfo> {
        let params = ctx.dfg().signatures[sig_ref].params.len();
        let returns = ctx.dfg().signatures[sig_ref].returns.len();
        let (&callee, rest) = args.split_first().expect("a statepoint_call has a callee");
        let (call_args, recorded) = rest.split_at(params);
        let (moved, read) = recorded.split_at(relocated as usize);
        let (call_outputs, moved_outputs) = outputs.split_at(returns);
        let regs = I::statepoint_relocation_regs();
        assert!(
            moved.len() <= regs.len(),
            "statepoint_call relocates {} values: this target has {} callee-saved registers for them",
            moved.len(),
            regs.len()
        );
        let sig = ctx.sigs().abi_sig_for_sig_ref(sig_ref);
        let inputs: SmallVec<[ValueRegs<Reg>; 8]> = call_args
            .iter()
            .map(|&arg| ctx.put_value_in_regs(arg))
            .collect();
        let uses = ctx.gen_call_args(sig, &inputs);
        let defs = match try_call {
            Some(_) => ctx.gen_try_statepoint_call_rets(sig, call_outputs),
            None => ctx.gen_call_rets(sig, call_outputs),
        };
        let stack_space =
            ctx.sigs()[sig].sized_stack_ret_space() + ctx.sigs()[sig].sized_stack_arg_space();
        ctx.abi_mut().accumulate_outgoing_args_size(stack_space);
        let dfg = ctx.dfg();
        let near = dfg
            .value_def(callee)
            .inst()
            .and_then(|inst| match dfg.insts[inst] {
                InstructionData::FuncAddr {
                    opcode: Opcode::FuncAddr,
                    func_ref,
                } if dfg.ext_funcs[func_ref].colocated => Some(dfg.ext_funcs[func_ref].name.clone()),
                _ => None,
            });
        let callee = match near {
            Some(name) => StatepointCallee::Direct(name),
            None => StatepointCallee::Reg(ctx.put_value_in_regs(callee).only_reg().unwrap()),
        };
        let relocated = moved
            .iter()
            .zip(moved_outputs)
            .zip(regs)
            .map(|((&value, output), preg)| {
                let input = ctx.put_value_in_regs(value).only_reg().unwrap();
                (input, Writable::from_reg(output.only_reg().unwrap()), preg)
            })
            .collect();
        let dest = StatepointCallInfo {
            id,
            callee,
            relocated,
            read: Vec::new(),
        };
        let mut info = ctx.gen_call_info(sig, dest, uses, defs, try_call, false);
        for &(_, _, preg) in &info.dest.relocated {
            assert!(
                !info.clobbers.contains(preg),
                "statepoint_call: {preg:?} is not preserved by {:?}",
                info.callee_conv
            );
        }
        info.dest.read = lower_recorded_values(ctx, read);
        info
    }

    /// Visits the operands of `info`: the call's fixed arguments, results and
    /// clobbers; the callee in any register; each relocated value as an early
    /// use and a late def of its callee-saved register; the read-only values
    /// as late "any" uses.
    pub fn collect_operands(
        info: &mut CallInfo<StatepointCallInfo>,
        collector: &mut impl OperandVisitor,
    ) {
        for CallArgPair { vreg, preg } in &mut info.uses {
            collector.reg_fixed_use(vreg, *preg);
        }
        for CallRetPair { vreg, location } in &mut info.defs {
            match location {
                RetLocation::Reg(preg, ..) => collector.reg_fixed_def(vreg, *preg),
                RetLocation::Stack(..) => collector.any_def(vreg),
            }
        }
        collector.reg_clobbers(info.clobbers);
        let dest = &mut info.dest;
        if let StatepointCallee::Reg(callee) = &mut dest.callee {
            collector.reg_use(callee);
        }
        for (input, output, preg) in &mut dest.relocated {
            collector.reg_fixed_use(input, Reg::from(*preg));
            collector.reg_fixed_def(output, Reg::from(*preg));
        }
        collect_recorded_values_at(&mut dest.read, collector, OperandPos::Late);
    }

    /// Adds the call's record at the current offset, the return address of
    /// the call instruction that started at `call_start`: the locations of
    /// the relocated values' results, then of the read-only values.
    pub fn add_record<I: VCodeInst>(
        &self,
        sink: &mut MachBuffer<I>,
        layout: &FrameLayout,
        call_start: u32,
    ) {
        let call_bytes = sink.cur_offset() - call_start;
        let moved = self
            .relocated
            .iter()
            .map(|(_, output, _)| allocated_location(output.to_reg(), layout));
        let read = self.read.iter().map(|operand| operand.location(layout));
        sink.add_call_record(self.id, call_bytes, moved.chain(read));
    }

    /// The instruction as disassembly shows it, with registers shown by `show_reg`.
    pub fn pretty_print(&self, show_reg: impl Fn(Reg) -> String) -> String {
        let callee = match &self.callee {
            StatepointCallee::Reg(reg) => show_reg(*reg),
            StatepointCallee::Direct(name) => alloc::format!("{name:?}"),
        };
        let mut s = alloc::format!("statepoint_call {}, {callee}", self.id);
        for (input, output, _) in &self.relocated {
            s.push_str(&alloc::format!(", {} -> {}", show_reg(*input), show_reg(output.to_reg())));
        }
        print_recorded_values(&mut s, &self.read, show_reg);
        s
    }
}

#[cfg(test)]
mod tests {
    use crate::Context;
    use crate::cursor::{Cursor, FuncCursor};
    use crate::ir::{
        AbiParam, BlockArg, ExceptionTableData, ExceptionTableItem, ExceptionTag, ExtFuncData,
        ExternalName, Function, InstBuilder, MemFlagsData, Signature, StackmapRecordData,
        UserExternalName, types,
    };
    use crate::isa::{CallConv, OwnedTargetIsa, lookup};
    use crate::machinst::FinalizedMachExceptionHandler;
    use crate::machinst::{RegClass, StackmapLoc};
    use crate::settings::{self, Configurable};
    use alloc::vec::Vec;
    use core::str::FromStr;
    use target_lexicon::Triple;

    fn isa(triple: &str) -> OwnedTargetIsa {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").unwrap();
        flags.set("preserve_frame_pointers", "true").unwrap();
        flags.set("machine_code_cfg_info", "true").unwrap();
        lookup(Triple::from_str(triple).unwrap())
            .unwrap()
            .finish(settings::Flags::new(flags))
            .unwrap()
    }

    /// What a test function contains after its computation of `x + y`.
    #[derive(Clone, Copy, PartialEq)]
    enum Point {
        /// Nothing.
        None,
        /// A stackmap of `x`, `y` (an `f64`), `x + y` and a constant.
        Stackmap { shadow: u32 },
    }

    /// What follows the point.
    #[derive(Clone, Copy, PartialEq)]
    enum After {
        /// The return of `x + y`.
        Return,
        /// A call, then the return.
        Call,
        /// A jump to the next block, which returns.
        Jump,
    }

    /// `fn(x: i64, y: f64, p: ptr) -> i64 { let s = *p; [point]; [after]; (s + x) * s + (y as i64) }`,
    /// in which every stackmap value but the constant is live at the point anyway. (`s` is a
    /// load used twice, which stays where it is written: a pure value would be computed at its
    /// first use, which the stackmap moves, and a load used once would be folded into its use.)
    fn function(point: Point, after: After) -> Function {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(types::I64));
        sig.params.push(AbiParam::new(types::F64));
        sig.params.push(AbiParam::new(types::I64));
        sig.returns.push(AbiParam::new(types::I64));
        let mut func = Function::with_name_signature(Default::default(), sig);
        let callee_sig = func.import_signature(Signature::new(CallConv::SystemV));
        let callee_name = func.declare_imported_user_function(UserExternalName::new(0, 0));
        let callee = func.import_function(ExtFuncData {
            name: ExternalName::user(callee_name),
            signature: callee_sig,
            colocated: true,
            patchable: false,
        });
        let block0 = func.dfg.make_block();
        let block1 = func.dfg.make_block();
        let x = func.dfg.append_block_param(block0, types::I64);
        let y = func.dfg.append_block_param(block0, types::F64);
        let p = func.dfg.append_block_param(block0, types::I64);
        let mut pos = FuncCursor::new(&mut func);
        pos.insert_block(block0);
        let s = pos.ins().load(types::I64, MemFlagsData::new(), p, 0);
        if let Point::Stackmap { shadow } = point {
            let c = pos.ins().iconst(types::I64, -5);
            let record = pos
                .func
                .dfg
                .stackmap_records
                .push(StackmapRecordData { id: 7, imm: shadow });
            pos.ins().stackmap(record, &[x, y, s, c]);
        }
        match after {
            After::Return => {}
            After::Call => {
                pos.ins().call(callee, &[]);
            }
            After::Jump => {
                pos.ins().jump(block1, &[]);
                pos.insert_block(block1);
            }
        }
        let r = pos.ins().iadd(s, x);
        let r = pos.ins().imul(r, s);
        let yi = pos.ins().fcvt_to_sint_sat(types::I64, y);
        let r = pos.ins().iadd(r, yi);
        pos.ins().return_(&[r]);
        func
    }

    fn compile(isa: &OwnedTargetIsa, func: Function) -> crate::CompiledCode {
        let mut context = Context::for_function(func);
        context
            .compile(&**isa, &mut Default::default())
            .expect("expected compilation");
        context.compiled_code().unwrap().clone()
    }

    fn triples() -> Vec<&'static str> {
        let mut triples = Vec::new();
        if cfg!(feature = "x86") {
            triples.push("x86_64-unknown-linux-gnu");
        }
        if cfg!(feature = "arm64") {
            triples.push("aarch64-unknown-linux-gnu");
        }
        triples
    }

    #[test]
    fn stackmap_costs_no_code_and_records_locations() {
        for triple in triples() {
            let isa = isa(triple);
            for after in [After::Return, After::Call, After::Jump] {
                let plain = compile(&isa, function(Point::None, after));
                let mapped = compile(&isa, function(Point::Stackmap { shadow: 0 }, after));
                // The same code up to the allocator's choice of registers.
                assert_eq!(
                    plain.buffer.data().len(),
                    mapped.buffer.data().len(),
                    "{triple}: a zero-shadow stackmap of live values changed the code size"
                );
                let records: Vec<_> = mapped.buffer.stackmaps().collect();
                assert_eq!(records.len(), 1, "{triple}");
                let record = &records[0];
                assert_eq!((record.id, record.shadow), (7, 0));
                let [x, y, s, c] = record.locations else {
                    panic!("{triple}: expected 4 locations, got {:?}", record.locations)
                };
                // Nothing forces a value into memory here: x and s are in integer
                // registers, y in a float register, and the constant is recorded as such.
                for loc in [x, s] {
                    assert!(
                        matches!(loc, StackmapLoc::Reg(r) if r.class() == RegClass::Int),
                        "{triple}: {loc:?}"
                    );
                }
                // Across a call (which clobbers every float register the tests'
                // targets have but AArch64's v8-v15 low halves), y is where the
                // allocator keeps it: a float register or a stack slot.
                assert!(
                    matches!(y, StackmapLoc::Reg(r) if r.class() == RegClass::Float)
                        || (after == After::Call && matches!(y, StackmapLoc::SPOffset(_))),
                    "{triple}: {y:?}"
                );
                assert_eq!(*c, StackmapLoc::Const(-5i64 as u64), "{triple}");
            }
        }
    }

    #[test]
    fn shadow_is_padded_only_where_the_code_is_shorter() {
        for triple in triples() {
            let isa = isa(triple);
            let plain = compile(&isa, function(Point::Stackmap { shadow: 0 }, After::Return));
            let offset = plain.buffer.stackmaps().next().unwrap().offset;
            let tail = plain.buffer.data().len() as u32 - offset;
            for shadow in [4, tail, tail + 4, tail + 64] {
                let padded = compile(&isa, function(Point::Stackmap { shadow }, After::Return));
                let record = padded.buffer.stackmaps().next().unwrap();
                assert_eq!(record.offset, offset, "{triple}, shadow {shadow}");
                assert_eq!(
                    padded.buffer.data().len() as u32,
                    offset + tail.max(shadow),
                    "{triple}, shadow {shadow}: the code after the point is {tail} bytes"
                );
                assert_eq!(
                    &padded.buffer.data()[..(offset + tail) as usize],
                    plain.buffer.data(),
                    "{triple}, shadow {shadow}: nops go after the code that follows"
                );
            }
        }
    }

    #[test]
    fn shadow_holds_no_return_address_and_no_block_start() {
        for triple in triples() {
            let isa = isa(triple);
            for shadow in [4, 8, 12, 32] {
                // A call in the shadow: nops go before it, so a frame suspended in the
                // call never returns into the shadow.
                let code = compile(&isa, function(Point::Stackmap { shadow }, After::Call));
                let record = code.buffer.stackmaps().next().unwrap();
                for site in code.buffer.call_sites() {
                    assert!(
                        site.ret_addr >= record.offset + shadow,
                        "{triple}, shadow {shadow}: return address {} in [{}, +{shadow})",
                        site.ret_addr,
                        record.offset
                    );
                }
                // A jump to the next block: it stays (removing it would pull the next
                // block into the shadow), and the next block starts after the shadow.
                let code = compile(&isa, function(Point::Stackmap { shadow }, After::Jump));
                let record = code.buffer.stackmaps().next().unwrap();
                for &start in &code.bb_starts {
                    assert!(
                        start <= record.offset || start >= record.offset + shadow,
                        "{triple}, shadow {shadow}: block at {start} in [{}, +{shadow})",
                        record.offset
                    );
                }
                assert!(code.buffer.data().len() as u32 >= record.offset + shadow);
            }
        }
    }

    /// 24 values loaded before a call and used after it, with a stackmap of them right
    /// after the call when `with_stackmap`.
    fn pressure_function(with_stackmap: bool) -> Function {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(types::I64));
        sig.returns.push(AbiParam::new(types::I64));
        let mut func = Function::with_name_signature(Default::default(), sig);
        let callee_sig = func.import_signature(Signature::new(CallConv::SystemV));
        let callee_name = func.declare_imported_user_function(UserExternalName::new(0, 0));
        let callee = func.import_function(ExtFuncData {
            name: ExternalName::user(callee_name),
            signature: callee_sig,
            colocated: true,
            patchable: false,
        });
        let block0 = func.dfg.make_block();
        let p = func.dfg.append_block_param(block0, types::I64);
        let mut pos = FuncCursor::new(&mut func);
        pos.insert_block(block0);
        let values: Vec<_> = (0..24)
            .map(|i| pos.ins().load(types::I64, MemFlagsData::new(), p, 8 * i))
            .collect();
        pos.ins().call(callee, &[]);
        if with_stackmap {
            let record = pos
                .func
                .dfg
                .stackmap_records
                .push(StackmapRecordData { id: 1, imm: 0 });
            pos.ins().stackmap(record, &values);
        }
        let mut sum = values[0];
        for &v in &values[1..] {
            sum = pos.ins().iadd(sum, v);
        }
        pos.ins().return_(&[sum]);
        func
    }

    #[test]
    fn values_under_pressure_stay_in_registers_or_slots() {
        // 24 values loaded before a call and used after it: more than the callee-saved
        // registers, so some are in stack slots at the stackmap after the call; none is
        // moved for it.
        for triple in triples() {
            let isa = isa(triple);
            let plain = compile(&isa, pressure_function(false));
            let mut context = Context::for_function(pressure_function(true));
            context.set_disasm(true);
            context.compile(&*isa, &mut Default::default()).unwrap();
            let mapped = context.compiled_code().unwrap().clone();
            // The disassembly prints every location, slots included.
            let vcode = mapped.vcode.as_deref().unwrap();
            let line = vcode.lines().find(|l| l.contains("stackmap 1, 0")).unwrap();
            let record = mapped.buffer.stackmaps().next().unwrap();
            let slots = record
                .locations
                .iter()
                .filter(|loc| matches!(loc, StackmapLoc::SPOffset(_)))
                .count();
            assert_eq!(line.matches(", stack").count(), slots, "{triple}: {line}");
            assert_eq!(line.matches(", ").count(), 1 + 24, "{triple}: {line}");
            // The allocator may reload a value at the stackmap rather than at its next use: the
            // same code, in another order.
            assert_eq!(
                plain.buffer.data().len(),
                mapped.buffer.data().len(),
                "{triple}"
            );
            assert_eq!(record.locations.len(), 24);
            let frame = mapped.buffer.frame_layout().unwrap().frame_to_fp_offset;
            for loc in record.locations {
                match *loc {
                    StackmapLoc::SPOffset(offset) => assert!(offset < frame, "{triple}: {loc:?}"),
                    StackmapLoc::Reg(r) => assert_eq!(r.class(), RegClass::Int),
                    StackmapLoc::Const(_) => panic!("{triple}: {loc:?}"),
                }
            }
        }
    }

    /// Compiles with the single-pass allocator at `opt_level=none`, with
    /// regalloc2's checker.
    fn compile_single_pass(triple: &str, func: Function) -> crate::CompiledCode {
        let mut flags = settings::builder();
        flags.set("opt_level", "none").unwrap();
        flags.set("preserve_frame_pointers", "true").unwrap();
        flags.set("regalloc_algorithm", "single_pass").unwrap();
        flags.set("regalloc_checker", "true").unwrap();
        let isa = lookup(Triple::from_str(triple).unwrap())
            .unwrap()
            .finish(settings::Flags::new(flags))
            .unwrap();
        let mut context = Context::for_function(func);
        context.set_disasm(true);
        context
            .compile(&*isa, &mut Default::default())
            .expect("expected compilation");
        context.compiled_code().unwrap().clone()
    }

    #[test]
    fn single_pass_allocation_records_values_in_their_slots() {
        for triple in triples() {
            // A stackmap right after a call: with "any" uses the single-pass allocator
            // reloaded the values the call clobbered between the call and the stackmap.
            let code = compile_single_pass(triple, pressure_function(true));
            let record = code.buffer.stackmaps().next().unwrap();
            let sites: Vec<_> = code.buffer.call_sites().map(|s| s.ret_addr).collect();
            assert_eq!(
                sites,
                [record.offset],
                "{triple}: code between the call and the stackmap:\n{}",
                code.vcode.as_deref().unwrap()
            );
            assert_eq!(record.locations.len(), 24, "{triple}");
            for loc in record.locations {
                assert!(matches!(loc, StackmapLoc::SPOffset(_)), "{triple}: {loc:?}");
            }
            // The stackmap's clobbers move values only: the prologue saves what it saves
            // without the stackmap.
            let saves = |code: &crate::CompiledCode| {
                code.buffer
                    .unwind_info
                    .iter()
                    .filter(|(_, inst)| {
                        matches!(inst, crate::isa::unwind::UnwindInst::SaveReg { .. })
                    })
                    .count()
            };
            let plain = compile_single_pass(triple, pressure_function(false));
            assert_eq!(saves(&code), saves(&plain), "{triple}");
            // A statepoint_call: relocated values keep their callee-saved registers, the
            // read-only ones are in slots; the record stays at the return address.
            let code = compile_single_pass(triple, statepoint_function(true, 2, 3, 4));
            let record = code.buffer.stackmaps().next().unwrap();
            let sites: Vec<_> = code.buffer.call_sites().map(|s| s.ret_addr).collect();
            assert_eq!(sites, [record.offset], "{triple}");
            let (relocated, read_only) = record.locations.split_at(2);
            for loc in relocated {
                assert!(
                    matches!(loc, StackmapLoc::Reg(r) if preserved(triple).contains(&r.hw_enc())),
                    "{triple}: {loc:?}"
                );
            }
            assert_eq!(read_only.len(), 3, "{triple}");
            for loc in read_only {
                assert!(matches!(loc, StackmapLoc::SPOffset(_)), "{triple}: {loc:?}");
            }
            // Patch points: anyreg arguments and results keep their registers, the
            // recorded values are in slots.
            for (anyreg, nargs) in [(false, 2), (true, 3)] {
                let code = compile_single_pass(triple, patchpoint_function(anyreg, nargs, 16));
                let record = code.buffer.stackmaps().next().unwrap();
                let fixed = if anyreg { 1 + nargs } else { 0 };
                assert_eq!(record.locations.len(), fixed + 3, "{triple}");
                for loc in &record.locations[..fixed] {
                    assert!(
                        matches!(loc, StackmapLoc::Reg(r) if r.class() == RegClass::Int),
                        "{triple}: {loc:?}"
                    );
                }
                for loc in &record.locations[fixed..] {
                    assert!(matches!(loc, StackmapLoc::SPOffset(_)), "{triple}: {loc:?}");
                }
            }
        }
    }

    /// `fn(x: i64, y: f64, p: ptr) -> i64`: loads `s`, calls out, then a patch
    /// point of `bytes` bytes with `nargs` integer arguments (`s + i`) and
    /// result, recording `x`, `y` and `s`, which are used after it.
    fn patchpoint_function(anyreg: bool, nargs: usize, bytes: u32) -> Function {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(types::I64));
        sig.params.push(AbiParam::new(types::F64));
        sig.params.push(AbiParam::new(types::I64));
        sig.returns.push(AbiParam::new(types::I64));
        let mut func = Function::with_name_signature(Default::default(), sig);
        let callee_sig = func.import_signature(Signature::new(CallConv::SystemV));
        let callee_name = func.declare_imported_user_function(UserExternalName::new(0, 0));
        let callee = func.import_function(ExtFuncData {
            name: ExternalName::user(callee_name),
            signature: callee_sig,
            colocated: true,
            patchable: false,
        });
        let mut region_sig = Signature::new(CallConv::SystemV);
        region_sig
            .params
            .extend((0..nargs).map(|_| AbiParam::new(types::I64)));
        region_sig.returns.push(AbiParam::new(types::I64));
        let region_sig = func.import_signature(region_sig);
        let block0 = func.dfg.make_block();
        let x = func.dfg.append_block_param(block0, types::I64);
        let y = func.dfg.append_block_param(block0, types::F64);
        let p = func.dfg.append_block_param(block0, types::I64);
        let mut pos = FuncCursor::new(&mut func);
        pos.insert_block(block0);
        let s = pos.ins().load(types::I64, MemFlagsData::new(), p, 0);
        pos.ins().call(callee, &[]);
        let mut args: Vec<_> = (0..nargs)
            .map(|i| pos.ins().iadd_imm_s(s, i as i64 + 1))
            .collect();
        args.extend([x, y, s]);
        let record = pos
            .func
            .dfg
            .stackmap_records
            .push(StackmapRecordData { id: 9, imm: bytes });
        let point = if anyreg {
            pos.ins().patchpoint_anyreg(region_sig, record, &args)
        } else {
            pos.ins().patchpoint(region_sig, record, &args)
        };
        let result = pos.func.dfg.inst_results(point)[0];
        let r = pos.ins().iadd(s, x);
        let r = pos.ins().imul(r, result);
        let yi = pos.ins().fcvt_to_sint_sat(types::I64, y);
        let r = pos.ins().iadd(r, yi);
        pos.ins().return_(&[r]);
        func
    }

    #[test]
    fn patchpoint_is_one_region_of_nops() {
        for triple in triples() {
            let isa = isa(triple);
            for (anyreg, nargs) in [(false, 2), (false, 8), (true, 0), (true, 4)] {
                let code = compile(&isa, patchpoint_function(anyreg, nargs, 40));
                let record = code.buffer.stackmaps().next().unwrap();
                assert!(record.patchpoint);
                assert_eq!((record.id, record.shadow), (9, 40));
                let region = record.offset..record.offset + 40;
                let bytes = &code.buffer.data()[region.start as usize..region.end as usize];
                if triple.starts_with("aarch64") {
                    assert!(
                        bytes.chunks(4).all(|w| w == [0x1f, 0x20, 0x03, 0xd5]),
                        "{triple}: {bytes:x?}"
                    );
                } else {
                    // Cranelift's nops: 0x90, or 0x0f 0x1f with operand bytes.
                    let nop_bytes = [0x90, 0x66, 0x0f, 0x1f, 0x00, 0x40, 0x44, 0x80, 0x84];
                    assert!(
                        bytes.iter().all(|b| nop_bytes.contains(b)),
                        "{triple}: {bytes:x?}"
                    );
                }
                for &start in &code.bb_starts {
                    assert!(
                        !region.contains(&start) || start == region.start,
                        "{triple}"
                    );
                }
                for reloc in code.buffer.relocs() {
                    assert!(!region.contains(&reloc.offset), "{triple}: {reloc:?}");
                }
                for site in code.buffer.call_sites() {
                    assert!(
                        site.ret_addr <= region.start || site.ret_addr > region.end,
                        "{triple}"
                    );
                }
            }
        }
    }

    #[test]
    fn patchpoint_records_operands_and_live_outs() {
        for triple in triples() {
            let isa = isa(triple);
            // As many integer arguments as LLVM takes, but for AArch64's x18, which
            // Cranelift never allocates.
            let most = if triple.starts_with("aarch64") {
                26
            } else {
                13
            };
            for (anyreg, nargs) in [(false, 2), (true, 3), (true, most)] {
                let code = compile(&isa, patchpoint_function(anyreg, nargs, 16));
                let record = code.buffer.stackmaps().next().unwrap();
                // anyreg: result, arguments, then the recorded values; C: the values.
                let fixed = if anyreg { 1 + nargs } else { 0 };
                assert_eq!(record.locations.len(), fixed + 3, "{triple}");
                for loc in &record.locations[..fixed] {
                    assert!(
                        matches!(loc, StackmapLoc::Reg(r) if r.class() == RegClass::Int),
                        "{triple}: anyreg operands are in registers: {loc:?}"
                    );
                }
                for loc in record.locations {
                    // x64's call sequence overwrites r11 before calling.
                    if let (false, StackmapLoc::Reg(r)) = (triple.starts_with("aarch64"), loc) {
                        assert!(r.class() != RegClass::Int || r.hw_enc() != 11, "{triple}");
                    }
                }
                // x, y and s are read after the region: where they are registers,
                // they are live-outs.
                for loc in &record.locations[fixed..] {
                    if let StackmapLoc::Reg(r) = loc {
                        assert!(
                            record.live_outs.contains(r),
                            "{triple}: {loc:?} not live out"
                        );
                    }
                }
                // The result is read after the region, the arguments are not.
                if anyreg {
                    let StackmapLoc::Reg(result) = record.locations[0] else {
                        unreachable!()
                    };
                    assert!(record.live_outs.contains(&result), "{triple}");
                }
            }
        }
    }

    /// The callee-saved integer registers of the tests' conventions (System V
    /// x64, AAPCS64), by hardware encoding, frame pointers excluded.
    fn preserved(triple: &str) -> Vec<u8> {
        if triple.starts_with("aarch64") {
            (19..=28).collect()
        } else {
            alloc::vec![3, 12, 13, 14, 15]
        }
    }

    /// `fn(p: ptr, f: ptr) -> i64`: loads `moved` values `g` and `read`
    /// values `r` from `p`, and `pressure` more values `q`, calls `f(p)`
    /// and adds up its result, the values after the call (`g` relocated
    /// by a `statepoint_call` when `statepoint`, else as they were) and
    /// `q`. With `statepoint`, the call records `g` and `r` (id 3).
    fn statepoint_function(statepoint: bool, moved: usize, read: usize, pressure: usize) -> Function {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(types::I64));
        sig.params.push(AbiParam::new(types::I64));
        sig.returns.push(AbiParam::new(types::I64));
        let mut func = Function::with_name_signature(Default::default(), sig);
        let mut callee_sig = Signature::new(CallConv::SystemV);
        callee_sig.params.push(AbiParam::new(types::I64));
        callee_sig.returns.push(AbiParam::new(types::I64));
        let callee_sig = func.import_signature(callee_sig);
        let block0 = func.dfg.make_block();
        let p = func.dfg.append_block_param(block0, types::I64);
        let f = func.dfg.append_block_param(block0, types::I64);
        let mut pos = FuncCursor::new(&mut func);
        pos.insert_block(block0);
        let load = |pos: &mut FuncCursor, i: usize| {
            pos.ins()
                .load(types::I64, MemFlagsData::new(), p, 8 * i as i32)
        };
        let g: Vec<_> = (0..moved).map(|i| load(&mut pos, i)).collect();
        let r: Vec<_> = (0..read).map(|i| load(&mut pos, 16 + i)).collect();
        let q: Vec<_> = (0..pressure).map(|i| load(&mut pos, 32 + i)).collect();
        let (ret, after) = if statepoint {
            let mut args = alloc::vec![f, p];
            args.extend(&g);
            args.extend(&r);
            let record = pos.func.dfg.stackmap_records.push(StackmapRecordData {
                id: 3,
                imm: moved as u32,
            });
            let call = pos.ins().statepoint_call(callee_sig, record, &args);
            let results = pos.func.dfg.inst_results(call).to_vec();
            (results[0], results[1..].to_vec())
        } else {
            let call = pos.ins().call_indirect(callee_sig, f, &[p]);
            (pos.func.dfg.inst_results(call)[0], g.clone())
        };
        assert_eq!(after.len(), moved);
        let mut sum = ret;
        for &v in after.iter().chain(&q) {
            sum = pos.ins().iadd(sum, v);
        }
        pos.ins().return_(&[sum]);
        func
    }

    /// Compiles with regalloc2's checker, which proves that every use reads
    /// the value its vreg holds there, through the allocator's moves.
    fn compile_checked(triple: &str, func: Function) -> crate::CompiledCode {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").unwrap();
        flags.set("preserve_frame_pointers", "true").unwrap();
        flags.set("regalloc_checker", "true").unwrap();
        let isa = lookup(Triple::from_str(triple).unwrap())
            .unwrap()
            .finish(settings::Flags::new(flags))
            .unwrap();
        let mut context = Context::for_function(func);
        context.set_disasm(true);
        context
            .compile(&*isa, &mut Default::default())
            .expect("expected compilation");
        context.compiled_code().unwrap().clone()
    }

    /// The code's size less the x64 prologue's pushes and epilogue's pops of callee-saves (one
    /// return), whose lengths depend on the register (R8-R15 take a REX prefix): which
    /// callee-saves the allocator picks is no cost of the call.
    fn size_without_callee_saves(triple: &str, code: &crate::CompiledCode) -> usize {
        let size = code.buffer.data().len();
        if !triple.starts_with("x86_64") {
            return size;
        }
        let pushes: usize = code
            .buffer
            .unwind_info
            .iter()
            .map(|(_, inst)| match inst {
                crate::isa::unwind::UnwindInst::SaveReg { reg, .. } if reg.hw_enc() >= 8 => 2,
                crate::isa::unwind::UnwindInst::SaveReg { .. } => 1,
                _ => 0,
            })
            .sum();
        size - 2 * pushes
    }

    #[test]
    fn statepoint_call_records_preserved_registers_at_its_return_address() {
        for triple in triples() {
            let preserved = preserved(triple);
            for (moved, read) in [(1, 0), (2, 2), (3, 1), (preserved.len(), 0)] {
                let code = compile_checked(triple, statepoint_function(true, moved, read, 0));
                let records: Vec<_> = code.buffer.stackmaps().collect();
                assert_eq!(records.len(), 1, "{triple}");
                let record = &records[0];
                assert_eq!((record.id, record.shadow, record.patchpoint), (3, 0, false));
                // The record is at the call's return address: nothing runs between the
                // return and the point the record describes.
                let sites: Vec<_> = code.buffer.call_sites().map(|s| s.ret_addr).collect();
                assert_eq!(sites, [record.offset], "{triple}");
                // `call *%reg` (2 bytes, 3 with a REX prefix) or `blr`.
                let call = if triple.starts_with("aarch64") { 4..=4 } else { 2..=3 };
                assert!(call.contains(&record.call_bytes), "{triple}: {}", record.call_bytes);
                assert_eq!(record.locations.len(), moved + read, "{triple}");
                let saved: Vec<u8> = code
                    .buffer
                    .unwind_info
                    .iter()
                    .filter_map(|(_, inst)| match inst {
                        crate::isa::unwind::UnwindInst::SaveReg { reg, .. } => Some(reg.hw_enc()),
                        _ => None,
                    })
                    .collect();
                let (relocated, read_only) = record.locations.split_at(moved);
                let mut seen = Vec::new();
                for loc in relocated {
                    let StackmapLoc::Reg(r) = loc else {
                        panic!("{triple}: a relocated value is not in a register: {loc:?}")
                    };
                    assert_eq!(r.class(), RegClass::Int, "{triple}");
                    assert!(preserved.contains(&r.hw_enc()), "{triple}: {r:?}");
                    // The prologue saves it, so the caller's value survives too.
                    assert!(saved.contains(&r.hw_enc()), "{triple}: {r:?} not saved");
                    assert!(!seen.contains(r), "{triple}: {r:?} twice");
                    seen.push(*r);
                }
                for loc in read_only {
                    match loc {
                        StackmapLoc::Reg(r) => assert!(
                            r.class() == RegClass::Int && preserved.contains(&r.hw_enc()),
                            "{triple}: a read-only value in a register the call clobbers: {r:?}"
                        ),
                        StackmapLoc::SPOffset(_) => {}
                        StackmapLoc::Const(_) => panic!("{triple}: {loc:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn statepoint_call_costs_no_code_beyond_the_call() {
        for triple in triples() {
            for moved in [1, 2, 3] {
                // The same values live across an ordinary indirect call: the allocator keeps
                // them in callee-saved registers, as the statepoint_call requires.
                let plain = compile_checked(triple, statepoint_function(false, moved, 0, 0));
                let mapped = compile_checked(triple, statepoint_function(true, moved, 0, 0));
                assert_eq!(
                    size_without_callee_saves(triple, &plain),
                    size_without_callee_saves(triple, &mapped),
                    "{triple}, {moved} relocated:\n{}\n{}",
                    plain.vcode.as_deref().unwrap(),
                    mapped.vcode.as_deref().unwrap()
                );
            }
        }
    }

    #[test]
    fn statepoint_call_under_pressure_keeps_relocated_values_in_their_registers() {
        // 24 more values live across the call than there are callee-saved registers:
        // the relocated ones still get theirs, the read-only ones go to stack slots or
        // what registers are left, and the checker proves the code reads, after the
        // call, what the record names.
        for triple in triples() {
            let preserved = preserved(triple);
            for moved in [1, preserved.len()] {
                let code = compile_checked(triple, statepoint_function(true, moved, 3, 24));
                let record = code.buffer.stackmaps().next().unwrap();
                assert_eq!(record.locations.len(), moved + 3);
                for loc in &record.locations[..moved] {
                    assert!(
                        matches!(loc, StackmapLoc::Reg(r) if preserved.contains(&r.hw_enc())),
                        "{triple}: {loc:?}"
                    );
                }
                let frame = code.buffer.frame_layout().unwrap().frame_to_fp_offset;
                for loc in &record.locations[moved..] {
                    match *loc {
                        StackmapLoc::SPOffset(offset) => assert!(offset < frame, "{triple}"),
                        StackmapLoc::Reg(r) => assert!(preserved.contains(&r.hw_enc()), "{triple}"),
                        StackmapLoc::Const(_) => panic!("{triple}: {loc:?}"),
                    }
                }
                let vcode = code.vcode.as_deref().unwrap();
                assert!(vcode.contains("statepoint_call 3"), "{triple}: {vcode}");
            }
        }
    }

    #[test]
    fn statepoint_call_relocates_a_value_passed_twice_and_as_an_argument() {
        // `g` is the call's argument and relocated twice, and the old `g` is still read after
        // the call: each relocated result gets its own callee-saved register, the argument
        // register gets a copy, and the checker proves every read.
        for triple in triples() {
            let preserved = preserved(triple);
            let mut sig = Signature::new(CallConv::SystemV);
            sig.params.push(AbiParam::new(types::I64));
            sig.params.push(AbiParam::new(types::I64));
            sig.returns.push(AbiParam::new(types::I64));
            let mut func = Function::with_name_signature(Default::default(), sig);
            let mut callee_sig = Signature::new(CallConv::SystemV);
            callee_sig.params.push(AbiParam::new(types::I64));
            callee_sig.returns.push(AbiParam::new(types::I64));
            let callee_sig = func.import_signature(callee_sig);
            let block0 = func.dfg.make_block();
            let g = func.dfg.append_block_param(block0, types::I64);
            let f = func.dfg.append_block_param(block0, types::I64);
            let mut pos = FuncCursor::new(&mut func);
            pos.insert_block(block0);
            let record = pos.func.dfg.stackmap_records.push(StackmapRecordData { id: 5, imm: 2 });
            let call = pos.ins().statepoint_call(callee_sig, record, &[f, g, g, g, g]);
            let results = pos.func.dfg.inst_results(call).to_vec();
            assert_eq!(results.len(), 3);
            let sum = pos.ins().iadd(results[0], results[1]);
            let sum = pos.ins().iadd(sum, results[2]);
            let sum = pos.ins().iadd(sum, g);
            pos.ins().return_(&[sum]);
            let code = compile_checked(triple, func);
            let record = code.buffer.stackmaps().next().unwrap();
            let [StackmapLoc::Reg(a), StackmapLoc::Reg(b), read] = record.locations else {
                panic!("{triple}: {:?}", record.locations)
            };
            assert!(a != b && preserved.contains(&a.hw_enc()) && preserved.contains(&b.hw_enc()));
            assert!(
                matches!(read, StackmapLoc::SPOffset(_))
                    || matches!(read, StackmapLoc::Reg(r) if preserved.contains(&r.hw_enc())),
                "{triple}: {read:?}"
            );
        }
    }

    /// `fn(p: ptr, f: ptr) -> i64`: loads `moved` values `g`, one read-only
    /// value `r` and a value `q` the handler reads, then `try_statepoint_call`s
    /// `f(p)` (id 5) relocating `g`, with a handler for tag 9. The normal edge
    /// returns the call's result plus the relocated values, the handler the
    /// exception payload plus `q`.
    fn try_statepoint_function(moved: usize) -> Function {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(types::I64));
        sig.params.push(AbiParam::new(types::I64));
        sig.returns.push(AbiParam::new(types::I64));
        let mut func = Function::with_name_signature(Default::default(), sig);
        let mut callee_sig = Signature::new(CallConv::SystemV);
        callee_sig.params.push(AbiParam::new(types::I64));
        callee_sig.returns.push(AbiParam::new(types::I64));
        let callee_sig = func.import_signature(callee_sig);
        let (block0, returned, caught) = (
            func.dfg.make_block(),
            func.dfg.make_block(),
            func.dfg.make_block(),
        );
        let p = func.dfg.append_block_param(block0, types::I64);
        let f = func.dfg.append_block_param(block0, types::I64);
        let results: Vec<_> = (0..=moved)
            .map(|_| func.dfg.append_block_param(returned, types::I64))
            .collect();
        let exception = func.dfg.append_block_param(caught, types::I64);
        let normal = func.dfg.block_call(
            returned,
            &(0..=moved as u32)
                .map(BlockArg::TryCallRet)
                .collect::<Vec<_>>(),
        );
        let handler = func.dfg.block_call(caught, &[BlockArg::TryCallExn(0)]);
        let table = ExceptionTableData::new(
            callee_sig,
            normal,
            [ExceptionTableItem::Tag(ExceptionTag::from_u32(9), handler)],
        );
        let table = func.dfg.exception_tables.push(table);
        let mut pos = FuncCursor::new(&mut func);
        pos.insert_block(block0);
        let load = |pos: &mut FuncCursor, i: usize| {
            pos.ins()
                .load(types::I64, MemFlagsData::new(), p, 8 * i as i32)
        };
        let g: Vec<_> = (0..moved).map(|i| load(&mut pos, i)).collect();
        let r = load(&mut pos, 16);
        let q = load(&mut pos, 17);
        let mut args = alloc::vec![f, p];
        args.extend(&g);
        args.push(r);
        let record = pos.func.dfg.stackmap_records.push(StackmapRecordData {
            id: 5,
            imm: moved as u32,
        });
        pos.ins().try_statepoint_call(record, &args, table);
        pos.insert_block(returned);
        let mut sum = results[0];
        for &v in &results[1..] {
            sum = pos.ins().iadd(sum, v);
        }
        pos.ins().return_(&[sum]);
        pos.insert_block(caught);
        let sum = pos.ins().iadd(exception, q);
        pos.ins().return_(&[sum]);
        func
    }

    #[test]
    fn try_statepoint_call_records_at_a_call_site_with_its_handler() {
        for triple in triples() {
            let preserved = preserved(triple);
            for moved in [1, 3, preserved.len()] {
                let func = try_statepoint_function(moved);
                crate::verifier::verify_function(&func, &settings::Flags::new(settings::builder()))
                    .unwrap_or_else(|e| panic!("{triple}: {e}"));
                let code = compile_checked(triple, func);
                let records: Vec<_> = code.buffer.stackmaps().collect();
                assert_eq!(records.len(), 1, "{triple}");
                let record = &records[0];
                assert_eq!((record.id, record.shadow), (5, 0), "{triple}");
                // One call site, at the record's offset (the return address), whose one
                // handler is the tag's, outside the call.
                let sites: Vec<_> = code.buffer.call_sites().collect();
                assert_eq!(sites.len(), 1, "{triple}");
                assert_eq!(sites[0].ret_addr, record.offset, "{triple}");
                let handlers: Vec<_> = sites[0].exception_handlers.iter().collect();
                let [FinalizedMachExceptionHandler::Tag(tag, handler)] = handlers[..] else {
                    panic!("{triple}: {handlers:?}")
                };
                assert_eq!(tag.as_u32(), 9, "{triple}");
                assert!(
                    *handler as usize <= code.buffer.data().len() && *handler != record.offset,
                    "{triple}"
                );
                // The relocated values in distinct callee-saved registers, as `statepoint_call`'s;
                // the read-only value where the call does not clobber it.
                assert_eq!(record.locations.len(), moved + 1, "{triple}");
                let mut seen = Vec::new();
                for loc in &record.locations[..moved] {
                    let StackmapLoc::Reg(r) = loc else {
                        panic!("{triple}: {loc:?}")
                    };
                    assert!(
                        preserved.contains(&r.hw_enc()) && !seen.contains(r),
                        "{triple}: {r:?}"
                    );
                    seen.push(*r);
                }
                match &record.locations[moved] {
                    StackmapLoc::Reg(r) => {
                        assert!(preserved.contains(&r.hw_enc()), "{triple}: {r:?}")
                    }
                    StackmapLoc::SPOffset(_) => {}
                    loc => panic!("{triple}: {loc:?}"),
                }
            }
        }
    }

    /// `fn(x: i64, p: ptr) -> i64`: loads `s`, then `try_patchpoint`s a
    /// region of 16 bytes (id 6) taking `x` and recording `s`, with a handler
    /// for tag 9. The normal edge returns the result plus `s`, the handler
    /// the exception payload plus `s`.
    fn try_patchpoint_function() -> Function {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(types::I64));
        sig.params.push(AbiParam::new(types::I64));
        sig.returns.push(AbiParam::new(types::I64));
        let mut func = Function::with_name_signature(Default::default(), sig);
        let mut region_sig = Signature::new(CallConv::SystemV);
        region_sig.params.push(AbiParam::new(types::I64));
        region_sig.returns.push(AbiParam::new(types::I64));
        let region_sig = func.import_signature(region_sig);
        let (block0, returned, caught) = (
            func.dfg.make_block(),
            func.dfg.make_block(),
            func.dfg.make_block(),
        );
        let x = func.dfg.append_block_param(block0, types::I64);
        let p = func.dfg.append_block_param(block0, types::I64);
        let result = func.dfg.append_block_param(returned, types::I64);
        let exception = func.dfg.append_block_param(caught, types::I64);
        let normal = func.dfg.block_call(returned, &[BlockArg::TryCallRet(0)]);
        let handler = func.dfg.block_call(caught, &[BlockArg::TryCallExn(0)]);
        let table = ExceptionTableData::new(
            region_sig,
            normal,
            [ExceptionTableItem::Tag(ExceptionTag::from_u32(9), handler)],
        );
        let table = func.dfg.exception_tables.push(table);
        let mut pos = FuncCursor::new(&mut func);
        pos.insert_block(block0);
        let s = pos.ins().load(types::I64, MemFlagsData::new(), p, 0);
        let record = pos
            .func
            .dfg
            .stackmap_records
            .push(StackmapRecordData { id: 6, imm: 16 });
        pos.ins().try_patchpoint(record, &[x, s], table);
        pos.insert_block(returned);
        let sum = pos.ins().iadd(result, s);
        pos.ins().return_(&[sum]);
        pos.insert_block(caught);
        let sum = pos.ins().iadd(exception, s);
        pos.ins().return_(&[sum]);
        func
    }

    #[test]
    fn try_patchpoint_ends_its_region_with_a_call_site_and_its_handler() {
        for triple in triples() {
            let func = try_patchpoint_function();
            crate::verifier::verify_function(&func, &settings::Flags::new(settings::builder()))
                .unwrap_or_else(|e| panic!("{triple}: {e}"));
            let code = compile_checked(triple, func);
            let records: Vec<_> = code.buffer.stackmaps().collect();
            assert_eq!(records.len(), 1, "{triple}");
            let record = &records[0];
            assert!(record.patchpoint, "{triple}");
            assert_eq!((record.id, record.shadow), (6, 16), "{triple}");
            // The region is nops only; its end is the one call site, whose one handler is
            // the tag's, outside the region.
            let region = record.offset..record.offset + 16;
            let sites: Vec<_> = code.buffer.call_sites().collect();
            assert_eq!(sites.len(), 1, "{triple}");
            assert_eq!(sites[0].ret_addr, region.end, "{triple}");
            let handlers: Vec<_> = sites[0].exception_handlers.iter().collect();
            let [FinalizedMachExceptionHandler::Tag(tag, handler)] = handlers[..] else {
                panic!("{triple}: {handlers:?}")
            };
            assert_eq!(tag.as_u32(), 9, "{triple}");
            assert!(
                !region.contains(handler) && *handler as usize <= code.buffer.data().len(),
                "{triple}"
            );
            // The recorded value (the argument is where the convention passes it), live on
            // both edges: never where the region's call would clobber it.
            assert_eq!(record.locations.len(), 1, "{triple}");
            match &record.locations[0] {
                StackmapLoc::Reg(r) => {
                    assert!(preserved(triple).contains(&r.hw_enc()), "{triple}: {r:?}")
                }
                StackmapLoc::SPOffset(_) => {}
                loc => panic!("{triple}: {loc:?}"),
            }
        }
    }

    #[test]
    fn statepoint_call_of_a_colocated_function_is_a_direct_call() {
        // `statepoint_call` of `func_addr` of a colocated function: `call rel32` / `bl`, the
        // same code as an ordinary direct `call` with the same values live across it.
        for triple in triples() {
            let preserved = preserved(triple);
            let build = |statepoint: bool| {
                let mut sig = Signature::new(CallConv::SystemV);
                sig.params.push(AbiParam::new(types::I64));
                sig.returns.push(AbiParam::new(types::I64));
                let mut func = Function::with_name_signature(Default::default(), sig);
                let mut callee_sig = Signature::new(CallConv::SystemV);
                callee_sig.params.push(AbiParam::new(types::I64));
                callee_sig.returns.push(AbiParam::new(types::I64));
                let callee_sig = func.import_signature(callee_sig);
                let callee_name = func.declare_imported_user_function(UserExternalName::new(0, 0));
                let callee = func.import_function(ExtFuncData {
                    name: ExternalName::user(callee_name),
                    signature: callee_sig,
                    colocated: true,
                    patchable: false,
                });
                let block0 = func.dfg.make_block();
                let p = func.dfg.append_block_param(block0, types::I64);
                let mut pos = FuncCursor::new(&mut func);
                pos.insert_block(block0);
                let g = pos.ins().load(types::I64, MemFlagsData::new(), p, 0);
                let h = pos.ins().load(types::I64, MemFlagsData::new(), p, 8);
                let results = if statepoint {
                    let address = pos.ins().func_addr(types::I64, callee);
                    let record = pos
                        .func
                        .dfg
                        .stackmap_records
                        .push(StackmapRecordData { id: 4, imm: 2 });
                    let call = pos.ins().statepoint_call(callee_sig, record, &[address, p, g, h]);
                    pos.func.dfg.inst_results(call).to_vec()
                } else {
                    let call = pos.ins().call(callee, &[p]);
                    alloc::vec![pos.func.dfg.inst_results(call)[0], g, h]
                };
                let sum = pos.ins().iadd(results[0], results[1]);
                let sum = pos.ins().iadd(sum, results[2]);
                pos.ins().return_(&[sum]);
                func
            };
            let plain = compile_checked(triple, build(false));
            let code = compile_checked(triple, build(true));
            let record = code.buffer.stackmaps().next().unwrap();
            let call = if triple.starts_with("aarch64") { 4 } else { 5 };
            assert_eq!(record.call_bytes, call, "{triple}");
            let relocs: Vec<_> = code.buffer.relocs().iter().map(|r| r.offset).collect();
            assert_eq!(relocs, [record.offset - 4], "{triple}: the call's relocation only");
            for loc in record.locations {
                assert!(
                    matches!(loc, StackmapLoc::Reg(r) if preserved.contains(&r.hw_enc())),
                    "{triple}: {loc:?}"
                );
            }
            assert_eq!(
                size_without_callee_saves(triple, &plain),
                size_without_callee_saves(triple, &code),
                "{triple}:\n{}\n{}",
                plain.vcode.as_deref().unwrap(),
                code.vcode.as_deref().unwrap()
            );
        }
    }

    /// `fn(x: i64, y: f64) -> i64 { clobber int_regs, float_regs; stackmap x, y; [x + 1 | 1] }`.
    fn clobbering(int_regs: u32, float_regs: u32, use_after: bool) -> Function {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(types::I64));
        sig.params.push(AbiParam::new(types::F64));
        sig.returns.push(AbiParam::new(types::I64));
        let mut func = Function::with_name_signature(Default::default(), sig);
        let block0 = func.dfg.make_block();
        let x = func.dfg.append_block_param(block0, types::I64);
        let y = func.dfg.append_block_param(block0, types::F64);
        let mut pos = FuncCursor::new(&mut func);
        pos.insert_block(block0);
        if int_regs | float_regs != 0 {
            pos.ins().clobber(int_regs, float_regs);
        }
        let record = pos
            .func
            .dfg
            .stackmap_records
            .push(StackmapRecordData { id: 1, imm: 0 });
        pos.ins().stackmap(record, &[x, y]);
        let r = if use_after {
            pos.ins().iadd_imm_s(x, 1)
        } else {
            pos.ins().iconst(types::I64, 1)
        };
        pos.ins().return_(&[r]);
        func
    }

    #[test]
    fn clobber_moves_live_values_out_of_its_registers() {
        for triple in triples() {
            let isa = isa(triple);
            let code = compile(&isa, clobbering(0, 0, true));
            let record = code.buffer.stackmaps().next().unwrap();
            let [StackmapLoc::Reg(x), StackmapLoc::Reg(y)] = record.locations else {
                panic!("{triple}: {:?}", record.locations)
            };
            // Clobbering the registers x and y are in moves them elsewhere (the
            // allocator may reload x into any register after the clobber for its
            // use after the stackmap, so x is not used after it here).
            let x_bit = 1u32 << x.hw_enc();
            let y_bit = 1u32 << y.hw_enc();
            let code = compile(&isa, clobbering(x_bit, y_bit, false));
            let record = code.buffer.stackmaps().next().unwrap();
            for (loc, &was) in record.locations.iter().zip([x, y]) {
                assert_ne!(*loc, StackmapLoc::Reg(was), "{triple}: {loc:?}");
            }
            // Used after it, x is there: in a register or a slot.
            let code = compile(&isa, clobbering(u32::MAX, u32::MAX, true));
            let value = code.buffer.stackmaps().next().unwrap().locations[0];
            assert!(!matches!(value, StackmapLoc::Const(_)), "{triple}: {value:?}");
            // Every register clobbered: values used only by the stackmap are in slots.
            let code = compile(&isa, clobbering(u32::MAX, u32::MAX, false));
            let record = code.buffer.stackmaps().next().unwrap();
            for loc in record.locations.iter() {
                assert!(matches!(loc, StackmapLoc::SPOffset(_)), "{triple}: {loc:?}");
            }
        }
    }

    #[test]
    fn clobber_emits_no_code_and_saves_callee_saved_registers() {
        // x64: rbx (3) is callee-saved, rcx (1) caller-saved, rsp/rbp (4, 5) never
        // allocated, xmm1-xmm15 caller-saved (y is in xmm0); aarch64: x19 is callee-saved, x9
        // caller-saved, x16-x18 and fp/lr/sp never allocated, v16-v31 caller-saved.
        let cases: [(&str, u32, u32, u32); 2] = [
            (
                "x86_64-unknown-linux-gnu",
                1 << 3,
                (1 << 1) | (1 << 4) | (1 << 5),
                0xfffe,
            ),
            (
                "aarch64-unknown-linux-gnu",
                1 << 19,
                (1 << 9) | (0b111 << 16) | (0b111 << 29),
                0xffff_0000,
            ),
        ];
        for (triple, callee_saved, others, floats) in cases {
            if !triples().contains(&triple) {
                continue;
            }
            let isa = isa(triple);
            let plain = compile(&isa, clobbering(0, 0, false));
            let clobbered = compile(&isa, clobbering(0, floats, false));
            assert_eq!(
                plain.buffer.data(),
                clobbered.buffer.data(),
                "{triple}: clobbering caller-saved registers holding nothing costs nothing"
            );
            let clobbered = compile(&isa, clobbering(others, 0, false));
            assert_eq!(
                plain.buffer.data(),
                clobbered.buffer.data(),
                "{triple}: clobbering caller-saved or unallocated registers costs nothing"
            );
            let mut context = Context::for_function(clobbering(callee_saved, 0, false));
            context.set_disasm(true);
            context.compile(&*isa, &mut Default::default()).unwrap();
            let saved = context.compiled_code().unwrap().clone();
            assert!(
                saved.buffer.data().len() > plain.buffer.data().len(),
                "{triple}: a clobbered callee-saved register is saved and restored"
            );
            let text = saved.vcode.as_deref().unwrap();
            assert!(text.contains("clobber_regs"), "{triple}: {text}");
        }
    }
}
