//! Exceptions in the Itanium C++ ABI's model (LLVM's `invoke`, `landingpad`, `resume`): an
//! `invoke` becomes Cranelift's `try_call`, whose exceptional edge the unwinder enters with the
//! exception object and the selector in the payload registers (x86-64 RAX and RDX, AArch64 X0 and
//! X1, as the personality's `_Unwind_SetGR` leaves them); a `landingpad` reads them, `resume` calls
//! `_Unwind_Resume`. The type table and the landing pads' selector lists are built here as LLVM's
//! `MachineFunction::addLandingPad` builds them, so that `llvm.eh.typeid.for` gives the selector
//! the function's LSDA (`emit::lsda`) makes the personality return.

use std::collections::HashMap;

use cranelift_codegen::ir::{
    self as clif, types, BlockArg, BlockCall, ExceptionTableData, ExceptionTableItem, ExceptionTag, InstBuilder,
};

use super::{statepoints, Lowering};
use crate::ir::{self, BlockId, Clause, Const, GlobalId, Inst, InstId, IrError, Symbol, Value};

/// A function's exception tables, in LLVM's numbering.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExceptionTables {
    /// The type table: the type information each catch clause (and `llvm.eh.typeid.for`) names,
    /// type id `i + 1` at index `i`; `None` is `catch ptr null` (every exception).
    pub types: Vec<Option<GlobalId>>,
    /// The filters' type ids, each list ended by 0: the LSDA's exception specification table.
    pub filter_ids: Vec<u32>,
    /// Each landing pad's type ids in LLVM's order: 0 first for `cleanup` when there are clauses,
    /// then the clauses last to first (a catch's type id, a filter's `-(1 + its start in
    /// `filter_ids`)`). Empty for a cleanup alone.
    pub pads: HashMap<InstId, Vec<i32>>,
}

impl ExceptionTables {
    /// Adds landing pad `id` (a `landingpad` of `f`): its type ids, new types added to the table.
    /// Called as the lowering reaches the pad's block, in reverse postorder as LLVM's instruction
    /// selection does, so that `llvm.eh.typeid.for` numbers types as llc-19 does.
    pub fn add_pad(&mut self, f: &ir::Function, id: InstId) {
        let Inst::LandingPad { cleanup, clauses } = &f.inst(id).kind else { return };
        let mut ids = Vec::new();
        if *cleanup && !clauses.is_empty() {
            ids.push(0);
        }
        for clause in clauses.iter().rev() {
            match clause {
                Clause::Catch(o) => {
                    let id = self.type_id(typeinfo(&o.value));
                    ids.push(id as i32);
                }
                Clause::Filter(o) => {
                    let list: Vec<u32> = match &o.value {
                        Value::Const(Const::Aggregate(items)) => {
                            items.iter().map(|c| self.type_id(typeinfo(&Value::Const(c.clone())))).collect()
                        }
                        _ => Vec::new(),
                    };
                    let start = self.filter_ids.len() as i32;
                    self.filter_ids.extend(list);
                    self.filter_ids.push(0);
                    ids.push(-(1 + start));
                }
            }
        }
        self.pads.insert(id, ids);
    }

    /// The type id of `info`, added to the type table if new (LLVM's `getTypeIDFor`).
    pub fn type_id(&mut self, info: Option<GlobalId>) -> u32 {
        match self.types.iter().position(|t| *t == info) {
            Some(i) => i as u32 + 1,
            None => {
                self.types.push(info);
                self.types.len() as u32
            }
        }
    }
}

/// The type information a clause operand names: a global, or `None` for `null`.
fn typeinfo(v: &Value) -> Option<GlobalId> {
    match v {
        Value::Global(g) | Value::Const(Const::Address(Symbol::Global(g), _)) => Some(*g),
        _ => None,
    }
}

/// The exception tag of the handler of an invoke that unwinds to landing pad `pad`: the
/// instruction's number, which `compile` reads back from the code's call sites.
pub fn pad_tag(pad: InstId) -> ExceptionTag {
    ExceptionTag::from_u32(pad.0)
}

/// The landing pad instruction that tag [`pad_tag`] names.
pub fn tagged_pad(tag: ExceptionTag) -> InstId {
    InstId(tag.as_u32())
}

/// The landing pad instruction of block `b`: its first instruction after the phis.
pub fn landing_pad(f: &ir::Function, b: BlockId) -> Option<InstId> {
    f.block(b)
        .insts
        .iter()
        .copied()
        .find(|&i| !matches!(f.inst(i).kind, Inst::Phi { .. }))
        .filter(|&i| matches!(f.inst(i).kind, Inst::LandingPad { .. }))
}

impl Lowering<'_> {
    /// The call of an `invoke` from `block`: a `try_call` whose normal return goes on to `dests.normal`
    /// with the call's results, and whose exceptional edge goes to the landing pad's block with the
    /// payload registers after the phis' values. Returns the results as the call returned them.
    /// A `try_statepoint_call`'s results go on with the relocated values.
    pub(super) fn emit_invoke(
        &mut self,
        block: BlockId,
        invoked: Invoked,
        values: &[clif::Value],
        dests: ir::InvokeDests,
    ) -> Result<Vec<clif::Value>, IrError> {
        let (sig, recorded) = match &invoked {
            Invoked::Call(statepoints::Callee::Direct(r), recorded) => {
                (self.b.func.dfg.ext_funcs[*r].signature, *recorded)
            }
            Invoked::Call(statepoints::Callee::Indirect(sig, _), recorded) => (*sig, *recorded),
            Invoked::Region { sig, .. } => (*sig, None),
        };
        let mut returns: Vec<types::Type> =
            self.b.func.dfg.signatures[sig].returns.iter().map(|r| r.value_type).collect();
        returns.extend(recorded.iter().flat_map(|r| r.relocated.iter().map(|_| types::I64)));
        let payload = self.b.func.dfg.signatures[sig].call_conv.exception_payload_types(types::I64).to_vec();
        let pad = landing_pad(self.f, dests.unwind).expect("verified: an unwind edge leads to a landing pad");
        let returned = self.b.create_block();
        let results: Vec<clif::Value> = returns.iter().map(|&t| self.b.append_block_param(returned, t)).collect();
        let unwound = self.b.create_block();
        let exception: Vec<clif::Value> = payload.iter().map(|&t| self.b.append_block_param(unwound, t)).collect();
        let pool = &mut self.b.func.dfg.value_lists;
        let normal = BlockCall::new(returned, (0..returns.len() as u32).map(BlockArg::TryCallRet), pool);
        let handler = BlockCall::new(unwound, (0..payload.len() as u32).map(BlockArg::TryCallExn), pool);
        let table = ExceptionTableData::new(sig, normal, [ExceptionTableItem::Tag(pad_tag(pad), handler)]);
        let table = self.b.func.dfg.exception_tables.push(table);
        match invoked {
            Invoked::Call(callee, Some(recorded)) => self.emit_try_statepoint_call(callee, values, recorded, table),
            Invoked::Call(statepoints::Callee::Direct(r), None) => {
                self.b.ins().try_call(r, values, table);
            }
            Invoked::Call(statepoints::Callee::Indirect(_, address), None) => {
                self.b.ins().try_call_indirect(address, values, table);
            }
            Invoked::Region { index, bytes, .. } => {
                // Built as a `try_call_indirect` with the same table, then replaced, as
                // `emit_try_statepoint_call` does (the frontend knows only its own branches).
                let address = self.b.ins().iconst(types::I64, 0);
                let call = self.b.ins().try_call_indirect(address, values, table);
                let record = self.stackmap_record(index, bytes);
                self.b.func.replace(call).try_patchpoint(record, values, table);
            }
        }
        // The landing pad's block takes its phis' values on this edge, then the payload.
        self.b.switch_to_block(unwound);
        let mut args = self.edge_args(block, dests.unwind)?;
        args.extend(exception.into_iter().take(2).map(BlockArg::Value));
        let target = self.block(dests.unwind);
        self.b.ins().jump(target, &args);
        self.b.switch_to_block(returned);
        Ok(results)
    }

    /// Ends an invoke's normal return: the jump to `dests.normal`, once the results are the
    /// instruction's (its phis may read them).
    pub(super) fn invoke_returned(&mut self, block: BlockId, dests: ir::InvokeDests) -> Result<(), IrError> {
        let args = self.edge_args(block, dests.normal)?;
        let target = self.block(dests.normal);
        self.b.ins().jump(target, &args);
        Ok(())
    }

    /// `landingpad`: the exception object and the selector the unwinder left in the payload
    /// registers, which the block receives after its phis.
    pub(super) fn landing_pad_value(&mut self, block: BlockId, id: InstId) {
        if self.f.inst(id).ty == ir::Type::Token {
            return;
        }
        let clif_block = self.block(block);
        let params = self.b.block_params(clif_block);
        let (exception, selector) = (params[params.len() - 2], params[params.len() - 1]);
        let selector = self.b.ins().ireduce(types::I32, selector);
        self.aggregates.insert(id, vec![exception, selector]);
    }

    /// `resume`: unwinding goes on from here with the landing pad's exception object.
    pub(super) fn resume(&mut self, span: ir::Span, val: &ir::Operand) -> Result<(), IrError> {
        let scalars = self.scalars(&val.value, &val.ty)?;
        let Some(resume) = self.symbols.unwind_resume else {
            return Err(self.error(span, "'resume' needs '_Unwind_Resume', which was not declared"));
        };
        let mut sig = clif::Signature::new(self.isa.default_call_conv());
        sig.params.push(clif::AbiParam::new(types::I64));
        let r = self.import(resume, sig);
        self.b.ins().call(r, &scalars[..1]);
        self.b.ins().trap(super::UNREACHABLE_TRAP);
        Ok(())
    }

    /// `llvm.eh.typeid.for(ptr @info)`: the type id of `info` in this function's type table.
    pub(super) fn type_id_for(&mut self, span: ir::Span, arg: &ir::Operand) -> Result<clif::Value, IrError> {
        let info = match &arg.value {
            Value::Global(g) => Some(*g),
            Value::Const(Const::Zero) => None,
            _ => return Err(self.error(span, "'llvm.eh.typeid.for' takes a global's type information")),
        };
        let id = self.exceptions.type_id(info);
        Ok(self.b.ins().iconst(types::I32, i64::from(id)))
    }
}

/// What an `invoke` calls.
pub(super) enum Invoked<'r> {
    /// A function or pointer: Cranelift's `try_call`, or with the operands a statepoint records in
    /// registers, the vendored `try_statepoint_call`.
    Call(statepoints::Callee, Option<&'r statepoints::RecordedOperands>),
    /// A patch point's region (the vendored `try_patchpoint`): its signature, point index and length.
    Region { sig: clif::SigRef, index: u64, bytes: u32 },
}

/// An `invoke`'s call in the finished code: where it returns and where its landing pad starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Landing {
    /// The first byte the unwinder finds this landing pad from: the call's last byte, or the
    /// start of a patch point's region (a call written there returns inside the region).
    pub start: u32,
    /// The call's return address, from the function's start.
    pub ret_addr: u32,
    /// The landing pad's code (the handler that jumps to it), from the function's start.
    pub pad_offset: u32,
    /// The `landingpad` instruction.
    pub pad: InstId,
}

/// What a function's LSDA is made of: its tables, and its `invoke`s in code order.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionExceptions {
    /// The type table and the landing pads' selectors.
    pub tables: ExceptionTables,
    /// Each `invoke`'s call, by return address.
    pub landings: Vec<Landing>,
}
