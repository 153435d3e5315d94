//! Lowering of one IR function onto Cranelift IR through cranelift-frontend.
//!
//! Input: a verified `ir::Module` and the [`Symbols`] declared for the output; output: a Cranelift
//! `Function` ready for `compile`. Lowering is pure (it never touches the output module), so the
//! functions of a module lower and compile in parallel.
//!
//! Representation: integers keep their width (`i1` lives in an `I8` holding 0 or 1), `ptr` is an `I64`,
//! an aggregate value (array or struct) is its scalars in memory order, one Cranelift value each (in
//! parameters, results, phis and calls alike), a vector is its lanes likewise (see `lower/vectors.rs` for
//! the design and the CPU features assumed), `phi`s become block parameters, and blocks are lowered
//! in reverse postorder so every definition is lowered before its uses; unreachable blocks are dropped.

pub mod dynamic_stack;
pub mod exceptions;
mod explicit;
mod intrinsics;
pub mod points;
mod statepoints;
pub mod symbols;
mod variadic;
mod vectors;

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{self, Type as ClifType};
use cranelift_codegen::ir::{
    self as clif, AtomicRmwOp, BlockArg, ExtFuncData, ExternalName, FuncRef, GlobalValue, GlobalValueData, InstBuilder,
    MemFlagsData, StackSlot, StackSlotData, StackSlotKind, TrapCode, UserExternalName, UserFuncName,
};
use cranelift_codegen::isa::TargetIsa;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch};
use cranelift_module::{DataId, FuncId};

use crate::arch::{Arch, RegisterClass};
use crate::ir::{
    self, BinOp, BlockId, CastOp, Const, FloatPred, Inst, InstId, IntPred, IrError, ParamAbi, Symbol, Type, Value,
};
pub use points::{PlannedLocation, PlannedPoint};
pub use statepoints::StatepointRegisters;
pub use symbols::{zero_section, HelperError, Symbols};

/// The user trap code `unreachable` lowers to (Cranelift's own codes cover the other traps the
/// lowering emits); `compile::trap` names it.
pub(crate) const UNREACHABLE_TRAP: TrapCode = TrapCode::unwrap_user(1);

/// External-name namespaces: functions and data, as cranelift-module numbers them.
const FUNCTION_NAMESPACE: u32 = 0;
const DATA_NAMESPACE: u32 = 1;

/// The stack pointer's alignment at calls on both targets.
const STACK_ALIGN: u64 = 16;

/// Most bytes a function's frame allocas may take: half of Cranelift's 1 GiB frame limit, leaving the
/// rest to its spill slots and outgoing arguments.
const MAX_FRAME_ALLOCA_BYTES: u64 = 1 << 29;

/// The integer type an atomic access of an IR scalar type moves (floats travel as their bits).
fn atomic_type(t: &Type) -> ClifType {
    match t {
        Type::Half => types::I16,
        Type::Float => types::I32,
        Type::Double => types::I64,
        other => clif_type(other),
    }
}

fn rmw_op(op: ir::RmwOp) -> AtomicRmwOp {
    match op {
        ir::RmwOp::Xchg => AtomicRmwOp::Xchg,
        ir::RmwOp::Add => AtomicRmwOp::Add,
        ir::RmwOp::Sub => AtomicRmwOp::Sub,
        ir::RmwOp::And => AtomicRmwOp::And,
        ir::RmwOp::Nand => AtomicRmwOp::Nand,
        ir::RmwOp::Or => AtomicRmwOp::Or,
        ir::RmwOp::Xor => AtomicRmwOp::Xor,
        ir::RmwOp::Max => AtomicRmwOp::Smax,
        ir::RmwOp::Min => AtomicRmwOp::Smin,
        ir::RmwOp::UMax => AtomicRmwOp::Umax,
        ir::RmwOp::UMin => AtomicRmwOp::Umin,
    }
}

/// The Cranelift type that holds a value of an IR scalar type.
///
/// An `iN` lives in the next larger of I8/I16/I32/I64, zero-extended: the bits above N are always
/// clear (an `i1` is 0 or 1, an `i24` -1 is 0x00ff_ffff). Operations whose results can set them
/// (add, shl, trunc, sext...) mask them off; signed ones sign-extend within the container first.
/// An `i128` is Cranelift's I128 (a register pair on both targets).
pub fn clif_type(t: &Type) -> ClifType {
    match t {
        Type::Int(bits) => match ir::container_bits(*bits) {
            8 => types::I8,
            16 => types::I16,
            32 => types::I32,
            64 => types::I64,
            _ => types::I128,
        },
        Type::Half => types::F16,
        Type::Float => types::F32,
        Type::Double => types::F64,
        _ => types::I64,
    }
}

/// Integer constant `c` of type `ty` as [`clif_type`]'s container holds it: zero-extended from
/// the type's width (an `i1` keeps only its low bit), as Cranelift wants narrow immediates.
fn masked_int(c: &Const, ty: &Type) -> i128 {
    let v = c.int_value().unwrap_or(0);
    let bits = ty.int_bits().unwrap_or(64);
    if bits >= 64 {
        v
    } else {
        v & ((1i128 << bits) - 1)
    }
}

/// The Cranelift type an argument or result of type `t` crosses the C ABI as: an `iN` that
/// `signext` or `zeroext` extends ([`Extension`](ir::Extension)) travels as the extended 32-bit integer, which the
/// passing side computes (see [`crate::arch::EXTENDED_INTEGER_BITS`]). Cranelift's own
/// `AbiParam` extension is not used: its AArch64 backend ignores it outside Apple's convention.
pub fn abi_type(t: &Type, ext: ir::Extension) -> ClifType {
    match t.int_bits() {
        Some(bits) if ext != ir::Extension::None && ir::container_bits(bits) < crate::arch::EXTENDED_INTEGER_BITS => {
            types::I32
        }
        _ => clif_type(t),
    }
}

/// Lowers function `id` of `module` (which must be a definition) into `func` for `isa`, whose
/// architecture is `arch`, with statepoints keeping in registers what `registers` allows; it clears
/// `func` first,
/// and returns its stack map points in IR order (see [`points`]). `fctx` is scratch space, reused
/// across functions to save allocations.
// One caller passes what it holds per function and per worker; a struct would only rename them.
#[allow(clippy::too_many_arguments)]
pub fn lower_function(
    module: &ir::Module,
    id: ir::FuncId,
    isa: &dyn TargetIsa,
    arch: Arch,
    symbols: &Symbols,
    registers: StatepointRegisters,
    func: &mut clif::Function,
    fctx: &mut FunctionBuilderContext,
) -> Result<(Vec<PlannedPoint>, exceptions::ExceptionTables), IrError> {
    let f = module.function(id);
    let own = symbols.function(id).expect("only intrinsics lack a symbol, and they have no body");
    let (mut sig, param_padding) = if f.cc == ir::CallConv::Explicit {
        // The registers are checked for this target (the verifier may have guessed it).
        (explicit::signature(module, f, arch)?, vec![Vec::new(); f.params.len()])
    } else {
        symbols::plan(
            isa.default_call_conv(),
            arch,
            (&f.ret, f.ret_ext),
            f.params.iter().map(|p| (&p.ty, &p.abi, p.ext)),
        )
    };
    let named_arguments = f.varargs.then(|| variadic::receive_all_registers(arch, &mut sig));
    func.clear();
    func.name = UserFuncName::user(FUNCTION_NAMESPACE, own.as_u32());
    func.signature = sig;
    let builder = FunctionBuilder::new(func, fctx);
    let mut lowering = Lowering {
        module,
        f,
        id,
        isa,
        arch,
        symbols,
        registers,
        b: builder,
        blocks: Vec::new(),
        values: vec![None; f.insts.len()],
        aggregates: HashMap::new(),
        params: Vec::new(),
        param_start: Vec::new(),
        param_padding,
        func_refs: HashMap::new(),
        data_refs: HashMap::new(),
        dynamic_stack: None,
        slots: HashMap::new(),
        frame_alloca_bytes: 0,
        points: Vec::new(),
        statepoint_slots: Vec::new(),
        relocates: None,
        folded: HashMap::new(),
        pad_relocates: HashMap::new(),
        register_returns: None,
        variadic: None,
        exceptions: exceptions::ExceptionTables::default(),
        vector_scratch: None,
        block_constants: (isa.flags().opt_level() != cranelift_codegen::settings::OptLevel::None)
            .then(rustc_hash::FxHashMap::default),
    };
    if let Err(error) = lowering.run(named_arguments) {
        drop(lowering);
        // A builder left mid-function keeps its blocks and variables in `fctx`, which the next
        // function's builder would start from: start it clean instead.
        *fctx = FunctionBuilderContext::new();
        func.clear();
        return Err(error);
    }
    lowering.b.seal_all_blocks();
    let config = isa.frontend_config();
    lowering.b.finalize(config);
    Ok((lowering.points, lowering.exceptions))
}

/// The state of lowering one function.
struct Lowering<'a> {
    module: &'a ir::Module,
    /// The function being lowered, and its id.
    f: &'a ir::Function,
    id: ir::FuncId,
    isa: &'a dyn TargetIsa,
    /// The target's facts, for the ISA.
    arch: Arch,
    symbols: &'a Symbols,
    /// What statepoints may leave in registers.
    registers: StatepointRegisters,
    b: FunctionBuilder<'a>,
    /// The Cranelift block of each IR block (`None` for unreachable blocks).
    blocks: Vec<Option<clif::Block>>,
    /// The Cranelift value of each instruction's scalar result, once lowered.
    values: Vec<Option<clif::Value>>,
    /// The scalars of each instruction's aggregate result, once lowered.
    aggregates: HashMap<InstId, Vec<clif::Value>>,
    /// The entry block's parameters: each IR parameter's scalars, from `param_start`.
    params: Vec<clif::Value>,
    param_start: Vec<usize>,
    /// The unused arguments before each IR parameter (see [`symbols::plan`]).
    param_padding: Vec<Vec<ClifType>>,
    func_refs: HashMap<ir::FuncId, FuncRef>,
    data_refs: HashMap<DataId, GlobalValue>,
    /// `(this thread's arena state, this frame's header)` in functions with dynamic allocas (see
    /// [`dynamic_stack`]).
    dynamic_stack: Option<(clif::Value, clif::Value)>,
    /// The frame slot of each static alloca whose address is the slot's start.
    slots: HashMap<InstId, StackSlot>,
    /// Bytes the frame allocas lowered so far take, the realignment's slack included.
    frame_alloca_bytes: u64,
    points: Vec<PlannedPoint>,
    /// The operands of the `llvm.experimental.retwr` just lowered, which the `ret void` after it
    /// returns in their registers (an `explicitcc` function's signature says which).
    register_returns: Option<Vec<clif::Value>>,
    /// In a variadic definition: the register save area and what the named parameters take.
    variadic: Option<(StackSlot, variadic::NamedArguments)>,
    /// The frame slots statepoints store recorded values in, shared by all of them.
    statepoint_slots: Vec<StackSlot>,
    /// Each statepoint's `gc.relocate`s, found at the first statepoint.
    relocates: Option<HashMap<InstId, Vec<statepoints::Relocate>>>,
    /// Relocates folded into their base's relocate plus an offset, as llc-19 folds them.
    folded: HashMap<InstId, (InstId, i64)>,
    /// The `gc.relocate`s of each landing pad a statepoint's `invoke` unwinds to, read back as the
    /// pad is entered.
    pad_relocates: HashMap<InstId, Vec<statepoints::PadRelocate>>,
    /// The type table and the landing pads' selectors, for `llvm.eh.typeid.for` and the LSDA.
    exceptions: exceptions::ExceptionTables,
    /// The frame slot vectors cross between lanes and ABI registers through, and its size (see
    /// [`vectors`]).
    vector_scratch: Option<(StackSlot, u32)>,
    /// With Cranelift's optimiser on: the scalar constants made so far, by the block they are in,
    /// their type and bits, so that a constant used again in its block is the same value. The
    /// optimiser merges equal constants anyway (each is then rematerialised where it is used), so the
    /// code is the same; the function it is given is smaller. Off at `-O none`, whose code would
    /// change (one register for the uses instead of one constant each).
    block_constants: Option<rustc_hash::FxHashMap<(clif::Block, ClifType, u128), clif::Value>>,
}

impl<'a> Lowering<'a> {
    /// The registers a clobber-only inline asm clobbers, as the `clobber` instruction's sets of
    /// hardware encodings (integer, float), after checking each name against the target: a
    /// register it has or one of its clobber keywords (`memory`, the flags), which clobber no
    /// register.
    ///
    /// The asm has no code, so the program computes the same whatever it clobbers; the clobbers
    /// only move the values live across it out of those registers, as llc-19 moves them (a record
    /// there locates them where llc-19's does). Registers Cranelift never allocates (the stack and
    /// frame pointers, AArch64's x16-x18 and lr) hold no value to move and are left out by the
    /// instruction.
    fn clobbered_registers(&self, clobbers: &[ir::RegisterName]) -> Result<(u32, u32), IrError> {
        let (mut int_regs, mut float_regs) = (0u32, 0u32);
        for c in clobbers {
            let Some(register) = self.arch.clobbered_register(&c.name) else {
                if self.arch.is_clobber_keyword(&c.name) {
                    continue;
                }
                return Err(self.error(
                    c.span,
                    format!("inline asm clobbers '{}', which is not a register of {}", c.name, self.arch.name()),
                ));
            };
            // AArch64's sp has no general-register encoding; nothing is allocated there anyway.
            let Some(hw) = self.arch.hardware_encoding(register) else { continue };
            match register.class {
                RegisterClass::General => int_regs |= 1 << hw,
                RegisterClass::Float => float_regs |= 1 << hw,
            }
        }
        Ok((int_regs, float_regs))
    }

    /// The class and hardware encoding of the register an inline asm output or input of type `ty`
    /// names, after checking that the target has it and that it is of the value's class (x86-64's
    /// `ymmN` names the register whose low half is `xmmN`).
    fn asm_operand_register(&self, name: &ir::RegisterName, ty: &Type) -> Result<(RegisterClass, Option<u8>), IrError> {
        let Some(register) = self.arch.clobbered_register(&name.name) else {
            return Err(self.error(
                name.span,
                format!("inline asm names '{}', which is not a register of {}", name.name, self.arch.name()),
            ));
        };
        let float = ty.is_float() || ty.is_vector();
        if float != (register.class == RegisterClass::Float) {
            return Err(self.error(
                name.span,
                format!("inline asm puts a '{ty}' in '{}', a register of the wrong class for it", name.name),
            ));
        }
        Ok((register.class, self.arch.hardware_encoding(register)))
    }

    fn error(&self, span: ir::Span, message: impl Into<String>) -> IrError {
        self.module.error(span, message)
    }

    fn run(&mut self, named_arguments: Option<variadic::NamedArguments>) -> Result<(), IrError> {
        if let Some(message) = symbols::result_unsupported(self.arch, &self.f.ret) {
            return Err(self.error(self.f.span, message));
        }
        if let Some(message) = self.f.params.iter().find_map(|p| symbols::byval_unsupported(&p.abi)) {
            return Err(self.error(self.f.span, message));
        }
        for ty in self.f.params.iter().map(|p| &p.ty).chain([&self.f.ret]) {
            vectors::push_abi_pieces(self.arch, ty, &mut Vec::new())
                .map_err(|message| self.error(self.f.span, message))?;
        }
        let order = reverse_postorder(self.f);
        self.blocks = vec![None; self.f.blocks.len()];
        for &block in &order {
            let clif_block = self.b.create_block();
            self.blocks[block.0 as usize] = Some(clif_block);
            for &inst in &self.f.block(block).insts {
                let data = self.f.inst(inst);
                if !matches!(data.kind, Inst::Phi { .. }) {
                    break;
                }
                if data.ty.is_split() {
                    let mut leaves = Vec::new();
                    data.ty.for_each_leaf(0, &mut |_, t| leaves.push(clif_type(t)));
                    let params = leaves.into_iter().map(|t| self.b.append_block_param(clif_block, t)).collect();
                    self.aggregates.insert(inst, params);
                } else {
                    let param = self.b.append_block_param(clif_block, clif_type(&data.ty));
                    self.values[inst.0 as usize] = Some(param);
                }
            }
            // A landing pad's block also receives the exception's payload registers.
            if exceptions::landing_pad(self.f, block).is_some() {
                self.b.append_block_param(clif_block, types::I64);
                self.b.append_block_param(clif_block, types::I64);
            }
        }
        let entry = self.blocks[0].expect("the entry block is reachable");
        self.b.append_block_params_for_function_params(entry);
        let raw = self.b.block_params(entry).to_vec();
        self.b.switch_to_block(entry);
        // Each parameter's scalars (vectors unpacked into lanes), from `param_start`.
        let mut next = 0;
        let f = self.f;
        for (i, p) in f.params.iter().enumerate() {
            next += self.param_padding[i].len();
            let pieces = match p.abi {
                ParamAbi::Plain if p.ty.is_split() => {
                    let mut pieces = Vec::new();
                    vectors::push_abi_pieces(self.arch, &p.ty, &mut pieces).expect("checked above");
                    pieces.len()
                }
                _ => 1,
            };
            self.param_start.push(self.params.len());
            let scalars = match p.abi {
                ParamAbi::Plain => self.unpacked_from_abi(&p.ty, &raw[next..next + pieces]),
                _ => raw[next..next + pieces].to_vec(),
            };
            self.params.extend(scalars);
            next += pieces;
        }
        // What follows the named parameters (the variadic save area's view of them) keeps its place.
        self.params.extend_from_slice(&raw[next..]);
        // Callers (llc's code among them) leave the bits above N undefined: make them canonical.
        for (i, p) in self.f.params.iter().enumerate() {
            if p.abi == ParamAbi::Plain && !p.ty.is_split() {
                let at = self.param_start[i];
                let param = self.narrowed(&p.ty, self.params[at]);
                self.params[at] = self.canonical(&p.ty, param);
            }
        }
        if let Some(named) = named_arguments {
            self.save_argument_registers(named);
        }
        if self.symbols.needs_dynamic_stack(self.id) {
            self.enter_dynamic_stack();
        }
        for block in order {
            let clif_block = self.blocks[block.0 as usize].expect("blocks in the order are reachable");
            if block.0 != 0 {
                self.b.switch_to_block(clif_block);
            }
            if let Some(pad) = exceptions::landing_pad(self.f, block) {
                self.exceptions.add_pad(self.f, pad);
            }
            for &inst in &self.f.block(block).insts {
                self.lower_inst(block, inst)?;
            }
        }
        Ok(())
    }

    fn lower_inst(&mut self, block: BlockId, id: InstId) -> Result<(), IrError> {
        let data = self.f.inst(id);
        let ty = &data.ty;
        let result = match &data.kind {
            Inst::Phi { .. } => return Ok(()),
            Inst::Binary { op, lhs, rhs } if ty.is_vector() => {
                let (l, r) = (self.scalars(lhs, ty)?, self.scalars(rhs, ty)?);
                let elem = ty.lane_type();
                let lanes = l.iter().zip(&r).map(|(&l, &r)| self.lane_binary(*op, elem, l, r)).collect();
                self.aggregates.insert(id, lanes);
                None
            }
            Inst::FNeg { val } if ty.is_vector() => {
                let lanes = self.scalars(val, ty)?;
                let elem = ty.lane_type();
                let negated = lanes.iter().map(|&v| self.lane_fneg(elem, v)).collect();
                self.aggregates.insert(id, negated);
                None
            }
            Inst::ICmp { pred, ty: operand_ty, lhs, rhs } if operand_ty.is_vector() => {
                let (l, r) = (self.scalars(lhs, operand_ty)?, self.scalars(rhs, operand_ty)?);
                let elem = operand_ty.lane_type();
                let lanes = l.iter().zip(&r).map(|(&l, &r)| self.lane_icmp(*pred, elem, l, r)).collect();
                self.aggregates.insert(id, lanes);
                None
            }
            Inst::FCmp { pred, ty: operand_ty, lhs, rhs } if operand_ty.is_vector() => {
                let (l, r) = (self.scalars(lhs, operand_ty)?, self.scalars(rhs, operand_ty)?);
                let elem = operand_ty.lane_type();
                let lanes = l.iter().zip(&r).map(|(&l, &r)| self.lane_fcmp(*pred, elem, l, r)).collect();
                self.aggregates.insert(id, lanes);
                None
            }
            Inst::Select { lanewise: true, cond, if_true, if_false } => {
                let c = self.scalars(cond, &ty.with_lanes_of(Type::I1))?;
                let t = self.scalars(if_true, ty)?;
                let f = self.scalars(if_false, ty)?;
                let chosen = c.iter().zip(t.iter().zip(&f)).map(|(&c, (&t, &f))| self.select(c, t, f)).collect();
                self.aggregates.insert(id, chosen);
                None
            }
            Inst::Cast { op: CastOp::BitCast, from, val } if from.is_vector() || ty.is_vector() => {
                let v = self.scalars(val, from)?;
                let mut out = self.vector_bitcast(from, ty, &v);
                if ty.is_vector() {
                    self.aggregates.insert(id, out);
                    None
                } else {
                    out.pop()
                }
            }
            Inst::Cast { op, from, val } if from.is_vector() => {
                if from.lane_type().is_float() != ty.lane_type().is_float()
                    && (*from.lane_type() == Type::I128 || *ty.lane_type() == Type::I128)
                {
                    return Err(self.error(
                        data.span,
                        format!("unsupported conversion from '{from}' to '{ty}': integers of more than 64 bits"),
                    ));
                }
                let v = self.scalars(val, from)?;
                let lanes = self.cast_lanes(*op, from, ty, &v);
                self.aggregates.insert(id, lanes);
                None
            }
            Inst::ExtractElement { vec, index } => {
                let lanes = self.scalars(&vec.value, &vec.ty)?;
                Some(self.extract_lane(&lanes, index)?)
            }
            Inst::InsertElement { vec, val, index } => {
                let mut lanes = self.scalars(vec, ty)?;
                let v = self.value(val, ty.lane_type())?;
                self.insert_lane(&mut lanes, v, index)?;
                self.aggregates.insert(id, lanes);
                None
            }
            Inst::ShuffleVector { a, b, mask } => {
                let mut joined = self.scalars(&a.value, &a.ty)?;
                joined.extend(self.scalars(b, &a.ty)?);
                let elem = ty.lane_type();
                let lanes = mask
                    .iter()
                    .map(|lane| match lane {
                        Some(i) => joined[*i as usize],
                        None => self.zero_lane(elem),
                    })
                    .collect();
                self.aggregates.insert(id, lanes);
                None
            }
            Inst::Load { ptr, volatile, atomic: None, .. } if ty.is_vector() => {
                let p = self.value(ptr, &Type::PTR)?;
                if *volatile {
                    self.b.ins().sequence_point();
                }
                let lanes = self.load_vector(ty, p);
                self.aggregates.insert(id, lanes);
                None
            }
            Inst::Store { val, ptr, volatile, atomic: None, .. } if val.ty.is_vector() => {
                let lanes = self.scalars(&val.value, &val.ty)?;
                let p = self.value(ptr, &Type::PTR)?;
                if *volatile {
                    self.b.ins().sequence_point();
                }
                self.store_vector(&val.ty, &lanes, p);
                if *volatile {
                    self.b.ins().sequence_point();
                }
                None
            }
            Inst::Binary { op, lhs, rhs } if *ty == Type::Half => {
                // LLVM promotes: computed in float, rounded back to half.
                let l = self.value(lhs, ty)?;
                let r = self.value(rhs, ty)?;
                let (l, r) = (self.half_to_float(l), self.half_to_float(r));
                let v = self.binary(*op, &Type::Float, l, r);
                Some(self.rounded_to_half(v))
            }
            Inst::Binary { op, lhs, rhs } => {
                let l = self.value(lhs, ty)?;
                let r = self.value(rhs, ty)?;
                Some(self.binary(*op, ty, l, r))
            }
            Inst::FNeg { val } if *ty == Type::Half => {
                // As llc-19 on x86-64: through float (AArch64's llc flips the sign bit; the two
                // differ only on a signaling NaN, which the round trip quiets).
                let v = self.value(val, ty)?;
                let wide = self.half_to_float(v);
                let negated = self.b.ins().fneg(wide);
                Some(self.rounded_to_half(negated))
            }
            Inst::FNeg { val } => {
                let v = self.value(val, ty)?;
                Some(self.b.ins().fneg(v))
            }
            Inst::ICmp { pred, ty: operand_ty, lhs, rhs } => {
                let mut l = self.value(lhs, operand_ty)?;
                let mut r = self.value(rhs, operand_ty)?;
                let cc = int_cc(*pred);
                // An iN is held zero-extended; signed comparisons see its sign bit as the container's.
                if is_signed(*pred) {
                    l = self.signed(operand_ty, l);
                    r = self.signed(operand_ty, r);
                }
                Some(self.b.ins().icmp(cc, l, r))
            }
            Inst::FCmp { pred, ty: operand_ty, lhs, rhs } => {
                let mut l = self.value(lhs, operand_ty)?;
                let mut r = self.value(rhs, operand_ty)?;
                if *operand_ty == Type::Half {
                    // Widening is exact: float compares as half would.
                    (l, r) = (self.half_to_float(l), self.half_to_float(r));
                }
                Some(match float_cc(*pred) {
                    Some(cc) => self.b.ins().fcmp(cc, l, r),
                    None => self.b.ins().iconst(types::I8, i64::from(*pred == FloatPred::True)),
                })
            }
            Inst::Select { cond, if_true, if_false, .. } if ty.is_split() => {
                let c = self.value(cond, &Type::I1)?;
                let t = self.scalars(if_true, ty)?;
                let f = self.scalars(if_false, ty)?;
                let chosen = t.iter().zip(&f).map(|(&t, &f)| self.select(c, t, f)).collect();
                self.aggregates.insert(id, chosen);
                None
            }
            Inst::Select { cond, if_true, if_false, .. } => {
                let c = self.value(cond, &Type::I1)?;
                let t = self.value(if_true, ty)?;
                let f = self.value(if_false, ty)?;
                Some(self.select(c, t, f))
            }
            Inst::Cast { op, from, val } => {
                if (from.is_float() || ty.is_float()) && (*from == Type::I128 || *ty == Type::I128) {
                    // llc-19 calls __floattidf, __fixdfti and their kin; Cranelift converts up to 64 bits.
                    return Err(self.error(
                        data.span,
                        format!("unsupported conversion from '{from}' to '{ty}': integers of more than 64 bits"),
                    ));
                }
                let v = self.value(val, from)?;
                Some(self.cast(*op, from, ty, v))
            }
            Inst::Alloca { ty: elem, count, align } => Some(self.alloca(block, id, elem, count.as_ref(), *align)?),
            Inst::Load { ptr, atomic: Some(_), .. } => {
                // Cranelift's atomic load is sequentially consistent: enough for every ordering.
                let p = self.value(ptr, &Type::PTR)?;
                let v = self.b.ins().atomic_load(atomic_type(ty), MemFlagsData::new(), p);
                Some(if ty.is_float() { self.b.ins().bitcast(clif_type(ty), MemFlagsData::new(), v) } else { v })
            }
            Inst::Store { val, ptr, atomic: Some(_), .. } => {
                let v = self.value(&val.value, &val.ty)?;
                let p = self.value(ptr, &Type::PTR)?;
                let v = if val.ty.is_float() {
                    self.b.ins().bitcast(atomic_type(&val.ty), MemFlagsData::new(), v)
                } else {
                    v
                };
                self.b.ins().atomic_store(MemFlagsData::new(), v, p);
                None
            }
            Inst::AtomicRmw { op, ptr, val, .. } => {
                let p = self.value(ptr, &Type::PTR)?;
                let v = self.value(&val.value, &val.ty)?;
                let int = atomic_type(&val.ty);
                let v = if val.ty.is_float() { self.b.ins().bitcast(int, MemFlagsData::new(), v) } else { v };
                let old = self.b.ins().atomic_rmw(int, MemFlagsData::new(), rmw_op(*op), p, v);
                Some(if val.ty.is_float() {
                    self.b.ins().bitcast(clif_type(ty), MemFlagsData::new(), old)
                } else {
                    old
                })
            }
            Inst::Fence { .. } => {
                self.b.ins().fence();
                None
            }
            Inst::ClobberAsm { clobbers, nops, output, inputs } => {
                // No code reads the inputs: naming their registers only checks them. The output
                // register is written, so it is clobbered like the others.
                for (name, input) in inputs {
                    self.asm_operand_register(name, &input.ty)?;
                }
                let (mut int_regs, mut float_regs) = self.clobbered_registers(clobbers)?;
                if let Some(name) = output {
                    match self.asm_operand_register(name, ty)? {
                        (RegisterClass::General, Some(hw)) => int_regs |= 1 << hw,
                        (RegisterClass::Float, Some(hw)) => float_regs |= 1 << hw,
                        (_, None) => {}
                    }
                }
                if int_regs | float_regs != 0 {
                    self.b.ins().clobber(int_regs, float_regs);
                }
                if *nops > 0 {
                    self.inline_asm_nops(*nops);
                }
                // The output is whatever the asm left in its register, which no program can depend
                // on (the template is empty): a defined arbitrary value, 0, as `freeze poison`.
                match output {
                    None => None,
                    Some(_) if ty.is_split() => {
                        let zeros = self.scalars(&Value::Const(Const::Zero), ty)?;
                        self.aggregates.insert(id, zeros);
                        None
                    }
                    Some(_) => Some(self.value(&Value::Const(Const::Zero), ty)?),
                }
            }
            Inst::CmpXchg { ptr, cmp, new, .. } => {
                let p = self.value(ptr, &Type::PTR)?;
                let expected = self.value(&cmp.value, &cmp.ty)?;
                let replacement = self.value(new, &cmp.ty)?;
                let old = self.b.ins().atomic_cas(MemFlagsData::new(), p, expected, replacement);
                let stored = self.b.ins().icmp(IntCC::Equal, old, expected);
                self.aggregates.insert(id, vec![old, stored]);
                None
            }
            Inst::Freeze { val } if ty.is_split() => {
                // Undefined members are already fixed values (zero) in the code: freezing changes nothing.
                let scalars = self.scalars(val, ty)?;
                self.aggregates.insert(id, scalars);
                None
            }
            Inst::Freeze { val } => Some(self.value(val, ty)?),
            Inst::Load { ptr, volatile, .. } => {
                let p = self.value(ptr, &Type::PTR)?;
                if *volatile {
                    // Cranelift has no volatile access; a sequence point (no code) is a fence to its
                    // alias analysis, so the load is neither merged with an earlier one nor moved.
                    self.b.ins().sequence_point();
                }
                if ty.is_aggregate() {
                    let mut leaves = Vec::new();
                    ty.for_each_leaf(0, &mut |offset, t| leaves.push((offset, t.clone())));
                    let loaded = leaves.into_iter().map(|(offset, t)| self.load_scalar(&t, p, offset as i32)).collect();
                    self.aggregates.insert(id, loaded);
                    None
                } else {
                    Some(self.load_scalar(ty, p, 0))
                }
            }
            Inst::Store { val, ptr, volatile, .. } => {
                let values = self.scalars(&val.value, &val.ty)?;
                let p = self.value(ptr, &Type::PTR)?;
                // As for loads, on both sides: the store is not removed as dead before a later one.
                if *volatile {
                    self.b.ins().sequence_point();
                }
                let mut leaves = Vec::with_capacity(values.len());
                val.ty.for_each_leaf(0, &mut |offset, t| leaves.push((offset, t.clone())));
                if !val.ty.is_aggregate() {
                    leaves = vec![(0, val.ty.clone())];
                }
                for (v, (offset, t)) in values.into_iter().zip(leaves) {
                    self.store_scalar(&t, v, p, offset as i32);
                }
                if *volatile {
                    self.b.ins().sequence_point();
                }
                None
            }
            Inst::ExtractValue { agg, indices } => {
                let scalars = self.scalars(&agg.value, &agg.ty)?;
                let (start, count) = member_scalars(&agg.ty, indices);
                let member = scalars[start..start + count].to_vec();
                if ty.is_split() {
                    self.aggregates.insert(id, member);
                    None
                } else {
                    Some(member[0])
                }
            }
            Inst::InsertValue { agg, val, indices } => {
                let mut scalars = self.scalars(agg, ty)?;
                let (start, count) = member_scalars(ty, indices);
                let member = self.scalars(&val.value, &val.ty)?;
                scalars.splice(start..start + count, member);
                self.aggregates.insert(id, scalars);
                None
            }
            Inst::Gep { source, base, indices, vector_base, .. } if ty.is_vector() => {
                let lanes = self.vector_gep(ty, source, base, indices, *vector_base)?;
                self.aggregates.insert(id, lanes);
                None
            }
            Inst::Gep { source, base, indices, .. } => Some(self.gep(source, base, indices)?),
            Inst::Call { cc: ir::CallConv::Explicit, .. } => {
                // An explicitcc function is reached by a call patched in at run time; a call in IR
                // would need the callee's preserved set at the call site, which Cranelift's
                // clobbers cannot express yet.
                return Err(self.error(
                    self.f.inst(id).span,
                    "calls of explicitcc functions are not supported: the runtime reaches them by a call patched \
                     into a shadow or region",
                ));
            }
            Inst::Call { callee, sig, args, invoke: None, .. } => return self.call(id, callee, sig, args),
            Inst::Call { callee, sig, args, invoke: Some(dests), .. } => {
                return self.invoke(block, id, callee, sig, args, *dests)
            }
            Inst::LandingPad { .. } => {
                self.landing_pad_value(block, id);
                self.unwound_relocates(id);
                None
            }
            Inst::Resume { val } => {
                self.resume(data.span, val)?;
                None
            }
            Inst::Br { dest } => {
                let args = self.edge_args(block, *dest)?;
                let target = self.block(*dest);
                self.b.ins().jump(target, &args);
                None
            }
            Inst::CondBr { cond, if_true, if_false } => {
                let c = self.value(cond, &Type::I1)?;
                let t_args = self.edge_args(block, *if_true)?;
                let f_args = self.edge_args(block, *if_false)?;
                let (t, f) = (self.block(*if_true), self.block(*if_false));
                self.b.ins().brif(c, t, &t_args, f, &f_args);
                None
            }
            Inst::Switch { ty: switch_ty, val, default, cases } => {
                self.switch(block, switch_ty, val, Some(*default), cases)?;
                None
            }
            // A block's address is its number (`Const::BlockAddress`): a switch over the numbers of
            // the destinations; any other value is undefined behaviour, and traps.
            Inst::IndirectBr { addr, dests } => {
                let this = self.module.functions.iter().position(|g| std::ptr::eq(g, self.f));
                let cases: Vec<(i64, BlockId)> = (self.symbols.block_addresses.iter().enumerate())
                    .filter(|(_, (f, b))| Some(f.0 as usize) == this && dests.contains(b))
                    .map(|(i, &(_, b))| (i as i64 + 1, b))
                    .collect();
                self.switch(block, &Type::I64, addr, None, &cases)?;
                None
            }
            Inst::Ret { val } => {
                let values = match val {
                    Some(operand) if !operand.ty.is_split() && self.f.ret_ext != ir::Extension::None => {
                        let v = self.value(&operand.value, &operand.ty)?;
                        vec![self.extended(&operand.ty, self.f.ret_ext, v)]
                    }
                    Some(operand) => {
                        let scalars = self.scalars(&operand.value, &operand.ty)?;
                        self.packed_for_abi(&operand.ty, &scalars)
                    }
                    None => self.register_returns.take().unwrap_or_default(),
                };
                if let Some((state, header)) = self.dynamic_stack {
                    // Pop this frame: the arena's top back to its header, the newest frame its caller's.
                    let flags = MemFlagsData::trusted();
                    let prev = self.b.ins().load(types::I64, flags, header, dynamic_stack::HEADER_PREV);
                    self.b.ins().store(flags, header, state, dynamic_stack::TOP);
                    self.b.ins().store(flags, prev, state, dynamic_stack::LAST);
                }
                self.b.ins().return_(&values);
                None
            }
            Inst::Unreachable => {
                self.b.ins().trap(UNREACHABLE_TRAP);
                None
            }
        };
        self.values[id.0 as usize] = result;
        Ok(())
    }

    fn block(&self, id: BlockId) -> clif::Block {
        self.blocks[id.0 as usize].expect("a successor of a reachable block is reachable")
    }

    /// The Cranelift value of an operand used at type `ty`.
    fn value(&mut self, v: &Value, ty: &Type) -> Result<clif::Value, IrError> {
        if ty.is_vector() {
            // Every vector operand is lowered through `scalars`; a place that is not yet is refused.
            return Err(self.error(self.f.span, format!("unsupported use of a '{ty}' vector value here")));
        }
        Ok(match v {
            Value::Inst(id) => self.values[id.0 as usize].expect("a verified use is dominated by its definition"),
            Value::Param(n) => self.params[self.param_start[*n as usize]],
            Value::Const(Const::Address(symbol, offset)) => {
                let base = match symbol {
                    Symbol::Global(g) => self.value(&Value::Global(*g), &Type::PTR)?,
                    Symbol::Func(f) => self.value(&Value::Func(*f), &Type::PTR)?,
                };
                let address = if *offset == 0 { base } else { self.b.ins().iadd_imm_s(base, i64::from(*offset)) };
                match ty {
                    Type::Int(bits @ 8..=32) => self.b.ins().ireduce(clif_type(&Type::Int(*bits)), address),
                    _ => address,
                }
            }
            Value::Const(Const::Relative(r)) => {
                let target = self.value(&Value::Const(Const::Address(r.target, r.offset)), &Type::PTR)?;
                let base = self.value(&Value::Const(Const::Address(r.base, 0)), &Type::PTR)?;
                let distance = self.b.ins().isub(target, base);
                match ty {
                    Type::Int(bits @ 8..=32) => self.b.ins().ireduce(clif_type(&Type::Int(*bits)), distance),
                    _ => distance,
                }
            }
            Value::Const(Const::BlockAddress(b)) => {
                let value = self.module.block_address_value(&self.symbols.block_addresses, b);
                let value = value.ok_or_else(|| {
                    self.error(
                        self.f.span,
                        format!("'@{}' has no block '%{}'", self.module.function(b.function).name, b.block),
                    )
                })?;
                self.b.ins().iconst(types::I64, value as i64)
            }
            Value::Const(Const::LabelDifference(pair)) => {
                let value = self.module.label_difference_value(&self.symbols.block_addresses, pair);
                self.b.ins().iconst(clif_type(ty), scalar_bits(ty, value))
            }
            Value::Const(c) => self.constant(c, ty),
            Value::Global(g) => {
                let global = self.module.global(*g);
                match self.symbols.emulated_tls.as_ref().and_then(|tls| Some((tls.get_address, tls.control(*g)?))) {
                    Some((get_address, control)) => {
                        let control = self.data_address(control, true, false);
                        let sig = symbols::EmulatedTls::get_address_signature(self.isa.default_call_conv());
                        let callee = self.import(get_address, sig);
                        let call = self.b.ins().call(callee, &[control]);
                        self.b.inst_results(call)[0]
                    }
                    None => {
                        self.data_address(self.symbols.global(*g), global.init.is_some(), global.placement.thread_local)
                    }
                }
            }
            Value::Func(fid) => {
                let f = self.module.function(*fid);
                if f.intrinsic().is_some() {
                    return Err(self.error(f.span, format!("the address of intrinsic '@{}' cannot be taken", f.name)));
                }
                let r = self.func_ref(*fid)?;
                self.b.ins().func_addr(types::I64, r)
            }
        })
    }

    /// The Cranelift values of an operand of type `ty`: its scalars in memory order for an aggregate,
    /// its lanes for a vector, else the one value.
    fn scalars(&mut self, v: &Value, ty: &Type) -> Result<Vec<clif::Value>, IrError> {
        if !ty.is_split() {
            return Ok(vec![self.value(v, ty)?]);
        }
        Ok(match v {
            Value::Inst(id) => self.aggregates[id].clone(),
            Value::Param(n) => {
                let start = self.param_start[*n as usize];
                self.params[start..start + ty.leaf_count() as usize].to_vec()
            }
            Value::Const(c) => {
                let mut out = Vec::new();
                self.constant_scalars(c, ty, &mut out)?;
                out
            }
            Value::Global(_) | Value::Func(_) => unreachable!("a verified address is no aggregate"),
        })
    }

    /// The scalars of aggregate constant `c` of type `ty`, appended to `out`.
    fn constant_scalars(&mut self, c: &Const, ty: &Type, out: &mut Vec<clif::Value>) -> Result<(), IrError> {
        if ty.leaf_count() == 0 {
            return Ok(());
        }
        if !ty.is_split() {
            out.push(self.value(&Value::Const(c.clone()), ty)?);
            return Ok(());
        }
        if let Type::Vector(n, elem) = ty {
            for i in 0..*n as usize {
                let item = match c {
                    Const::Aggregate(items) => &items[i],
                    other => other,
                };
                self.constant_scalars(item, elem, out)?;
            }
            return Ok(());
        }
        let count = match ty {
            Type::Array(n, _) => *n,
            Type::Struct(s) => s.field_types().len() as u64,
            _ => 0,
        };
        for i in 0..count {
            let member = ty.member(i).expect("in range").0;
            // `zeroinitializer`, `undef` and `poison` are the same in each member.
            let item = match c {
                Const::Aggregate(items) => &items[i as usize],
                other => other,
            };
            self.constant_scalars(item, member, out)?;
        }
        Ok(())
    }

    fn constant(&mut self, c: &Const, ty: &Type) -> clif::Value {
        let Some(block) = self.block_constants.as_ref().and_then(|_| self.b.current_block()) else {
            return self.new_constant(c, ty);
        };
        let t = clif_type(ty);
        let bits = match (c, ty) {
            (Const::Float(x), Type::Half) => u128::from(ir::half::constant_bits(*x)),
            (Const::Float(x), Type::Float) => u128::from((*x as f32).to_bits()),
            (Const::Float(x), _) => u128::from(x.to_bits()),
            (Const::Zero | Const::Undef | Const::Poison, _) => 0,
            (Const::IntToPtr(v), _) => *v as u64 as u128,
            (Const::Int(_) | Const::WideInt(_), _) => masked_int(c, ty) as u128,
            _ => return self.new_constant(c, ty),
        };
        // Looked up once: the map is taken out of `self` while a missing constant is made.
        let Some(mut known) = self.block_constants.take() else { return self.new_constant(c, ty) };
        let v = *known.entry((block, t, bits)).or_insert_with(|| self.new_constant(c, ty));
        self.block_constants = Some(known);
        v
    }

    /// A new instruction making constant `c` of type `ty`.
    fn new_constant(&mut self, c: &Const, ty: &Type) -> clif::Value {
        let ins = self.b.ins();
        match (c, ty) {
            (Const::Float(x), Type::Half) => {
                ins.f16const(clif::immediates::Ieee16::with_bits(ir::half::constant_bits(*x)))
            }
            (Const::Zero | Const::Undef | Const::Poison, Type::Half) => {
                ins.f16const(clif::immediates::Ieee16::with_bits(0))
            }
            (Const::Float(x), Type::Float) => ins.f32const(*x as f32),
            (Const::Float(x), _) => ins.f64const(*x),
            (Const::Zero | Const::Undef | Const::Poison, Type::Float) => ins.f32const(0.0),
            (Const::Zero | Const::Undef | Const::Poison, Type::Double) => ins.f64const(0.0),
            (Const::Zero | Const::Undef | Const::Poison, _) => self.int_const(clif_type(ty), 0),
            (Const::IntToPtr(v), _) => ins.iconst(types::I64, *v),
            (Const::Int(_) | Const::WideInt(_), _) => self.int_const(clif_type(ty), masked_int(c, ty)),
            (
                Const::Address(..)
                | Const::Relative(_)
                | Const::BlockAddress(_)
                | Const::LabelDifference(_)
                | Const::Aggregate(_),
                _,
            ) => {
                unreachable!("addresses and aggregates are lowered by `value` and `scalars`")
            }
        }
    }

    /// An integer constant of Cranelift type `t` (`v` as Cranelift wants it, see [`Lowering::constant`]):
    /// an I128 joins two 64-bit halves, as `iconst` stops at 64 bits.
    fn int_const(&mut self, t: ClifType, v: i128) -> clif::Value {
        if t != types::I128 {
            return self.b.ins().iconst(t, v as i64);
        }
        let low = self.b.ins().iconst(types::I64, v as i64);
        let high = self.b.ins().iconst(types::I64, (v >> 64) as i64);
        self.b.ins().iconcat(low, high)
    }

    /// `c ? t : f`. An I128 is chosen a half at a time: Cranelift's optimiser turns a select of
    /// compared values into min/max, which neither backend has at 128 bits.
    fn select(&mut self, c: clif::Value, t: clif::Value, f: clif::Value) -> clif::Value {
        if self.b.func.dfg.value_type(t) != types::I128 {
            return self.b.ins().select(c, t, f);
        }
        let (t_low, t_high) = self.b.ins().isplit(t);
        let (f_low, f_high) = self.b.ins().isplit(f);
        let low = self.b.ins().select(c, t_low, f_low);
        let high = self.b.ins().select(c, t_high, f_high);
        self.b.ins().iconcat(low, high)
    }

    /// `op` on scalars of type `ty`, `half` included (computed in `float`, as LLVM promotes it).
    fn lane_binary(&mut self, op: BinOp, ty: &Type, l: clif::Value, r: clif::Value) -> clif::Value {
        if *ty != Type::Half {
            return self.binary(op, ty, l, r);
        }
        let (l, r) = (self.half_to_float(l), self.half_to_float(r));
        let v = self.binary(op, &Type::Float, l, r);
        self.rounded_to_half(v)
    }

    /// `fneg` of a scalar of type `ty` (see the `FNeg` lowering for `half`).
    fn lane_fneg(&mut self, ty: &Type, v: clif::Value) -> clif::Value {
        if *ty != Type::Half {
            return self.b.ins().fneg(v);
        }
        let wide = self.half_to_float(v);
        let negated = self.b.ins().fneg(wide);
        self.rounded_to_half(negated)
    }

    /// `icmp` of scalars of type `ty`: an `i1` (I8 0 or 1).
    fn lane_icmp(&mut self, pred: IntPred, ty: &Type, mut l: clif::Value, mut r: clif::Value) -> clif::Value {
        // An iN is held zero-extended; signed comparisons see its sign bit as the container's.
        if is_signed(pred) {
            l = self.signed(ty, l);
            r = self.signed(ty, r);
        }
        self.b.ins().icmp(int_cc(pred), l, r)
    }

    /// `fcmp` of scalars of type `ty`: an `i1` (I8 0 or 1).
    fn lane_fcmp(&mut self, pred: FloatPred, ty: &Type, mut l: clif::Value, mut r: clif::Value) -> clif::Value {
        if *ty == Type::Half {
            (l, r) = (self.half_to_float(l), self.half_to_float(r));
        }
        match float_cc(pred) {
            Some(cc) => self.b.ins().fcmp(cc, l, r),
            None => self.b.ins().iconst(types::I8, i64::from(pred == FloatPred::True)),
        }
    }

    fn binary(&mut self, op: BinOp, ty: &Type, l: clif::Value, r: clif::Value) -> clif::Value {
        if let Some(routine) = self.symbols.i128_division(op).filter(|_| *ty == Type::I128) {
            // Neither backend divides 128-bit integers: call the C runtime's routine, as llc-19 does.
            let sig = symbols::signature(
                self.isa.default_call_conv(),
                self.arch,
                (ty, ir::Extension::None),
                [(ty, &ParamAbi::Plain, ir::Extension::None), (ty, &ParamAbi::Plain, ir::Extension::None)],
            );
            let callee = self.import(routine, sig);
            let call = self.b.ins().call(callee, &[l, r]);
            return self.b.inst_results(call)[0];
        }
        let (l, r) = match op {
            BinOp::SDiv | BinOp::SRem => (self.signed(ty, l), self.signed(ty, r)),
            BinOp::AShr => (self.signed(ty, l), r),
            _ => (l, r),
        };
        let ins = self.b.ins();
        let v = match op {
            BinOp::Add => ins.iadd(l, r),
            BinOp::Sub => ins.isub(l, r),
            BinOp::Mul => ins.imul(l, r),
            BinOp::SDiv => ins.sdiv(l, r),
            BinOp::UDiv => ins.udiv(l, r),
            BinOp::SRem => ins.srem(l, r),
            BinOp::URem => ins.urem(l, r),
            BinOp::And => ins.band(l, r),
            BinOp::Or => ins.bor(l, r),
            BinOp::Xor => ins.bxor(l, r),
            BinOp::Shl => ins.ishl(l, r),
            BinOp::LShr => ins.ushr(l, r),
            BinOp::AShr => ins.sshr(l, r),
            BinOp::FAdd => ins.fadd(l, r),
            BinOp::FSub => ins.fsub(l, r),
            BinOp::FMul => ins.fmul(l, r),
            BinOp::FDiv => ins.fdiv(l, r),
            BinOp::FRem => {
                let libm = if *ty == Type::Float { self.symbols.fmodf } else { self.symbols.fmod };
                let plain = (ty, &ParamAbi::Plain, ir::Extension::None);
                let sig = symbols::signature(
                    self.isa.default_call_conv(),
                    self.arch,
                    (ty, ir::Extension::None),
                    [plain, plain],
                );
                let callee = self.import(libm.expect("fmod is declared when frem is used"), sig);
                let call = self.b.ins().call(callee, &[l, r]);
                return self.b.inst_results(call)[0];
            }
        };
        if matches!(op, BinOp::And | BinOp::Or | BinOp::Xor) {
            v
        } else {
            self.canonical(ty, v)
        }
    }

    /// `v`, a canonical `iN` in its container, extended as `ext` says to the type it crosses the C
    /// ABI as ([`abi_type`]).
    fn extended(&mut self, ty: &Type, ext: ir::Extension, v: clif::Value) -> clif::Value {
        let wide = abi_type(ty, ext);
        match ext {
            ir::Extension::None => v,
            ir::Extension::Sign => {
                let v = self.signed(ty, v);
                if wide == clif_type(ty) {
                    v
                } else {
                    self.b.ins().sextend(wide, v)
                }
            }
            // Canonical values have zeros above N already.
            ir::Extension::Zero if wide == clif_type(ty) => v,
            ir::Extension::Zero => self.b.ins().uextend(wide, v),
        }
    }

    /// `v`, a scalar of type `ty` as it crossed the C ABI, in `ty`'s container: an extended
    /// argument or result narrowed back (its extension bits not relied on).
    fn narrowed(&mut self, ty: &Type, v: clif::Value) -> clif::Value {
        let t = clif_type(ty);
        if self.b.func.dfg.value_type(v) == t || ty.is_float() || !ty.is_sized() {
            v
        } else {
            self.b.ins().ireduce(t, v)
        }
    }

    /// `v`, an `iN` in its container, with the bits above N cleared (the canonical form).
    fn canonical(&mut self, ty: &Type, v: clif::Value) -> clif::Value {
        match ty.int_bits() {
            Some(bits) if bits < ir::container_bits(bits) => self.b.ins().band_imm_u(v, ((1u64 << bits) - 1) as i64),
            _ => v,
        }
    }

    /// `v`, an `iN` in its container, sign-extended from bit N-1 to the container's width.
    fn signed(&mut self, ty: &Type, v: clif::Value) -> clif::Value {
        match ty.int_bits() {
            // 0 or 1: its negation is the sign-extended value, one instruction instead of two shifts.
            Some(1) => self.b.ins().ineg(v),
            Some(bits) if bits < ir::container_bits(bits) => {
                let unused = i64::from(ir::container_bits(bits) - bits);
                let high = self.b.ins().ishl_imm_s(v, unused);
                self.b.ins().sshr_imm_s(high, unused)
            }
            _ => v,
        }
    }

    /// A load of a scalar of type `ty` at `p + offset`, touching its store size only: an `i24`
    /// reads 3 bytes (2 then 1), an `i56` 7 (4, 2, 1); the bits above N it brings are cleared.
    fn load_scalar(&mut self, ty: &Type, p: clif::Value, offset: i32) -> clif::Value {
        let t = clif_type(ty);
        let flags = MemFlagsData::new();
        let mut value = None;
        for (at, piece) in store_pieces(ty) {
            let part = self.b.ins().load(piece, flags, p, offset + at as i32);
            let part = if piece == t { part } else { self.b.ins().uextend(t, part) };
            let part = if at == 0 { part } else { self.b.ins().ishl_imm_s(part, i64::from(8 * at)) };
            value = Some(match value {
                Some(low) => self.b.ins().bor(low, part),
                None => part,
            });
        }
        let value = value.expect("a scalar has at least one byte");
        self.canonical(ty, value)
    }

    /// A store of scalar `v` of type `ty` at `p + offset`, writing its store size only.
    fn store_scalar(&mut self, ty: &Type, v: clif::Value, p: clif::Value, offset: i32) {
        let t = clif_type(ty);
        let flags = MemFlagsData::new();
        for (at, piece) in store_pieces(ty) {
            let part = if at == 0 { v } else { self.b.ins().ushr_imm_s(v, i64::from(8 * at)) };
            let part = if piece == t { part } else { self.b.ins().ireduce(piece, part) };
            self.b.ins().store(flags, part, p, offset + at as i32);
        }
    }

    /// `v`, a `half`, widened exactly to `float`: AArch64's `fcvt`, or on x86-64 the libcall
    /// llc-19 calls ([`Arch::converts_half_by_libcall`]).
    fn half_to_float(&mut self, v: clif::Value) -> clif::Value {
        match self.symbols.half_libcalls {
            Some(calls) => self.half_libcall(calls.extend_to_float, &Type::Half, &Type::Float, v),
            None => self.b.ins().fpromote(types::F32, v),
        }
    }

    /// `v`, a `float` or `double`, rounded to `half` (to nearest, ties to even) in one step.
    fn rounded_to_half(&mut self, v: clif::Value) -> clif::Value {
        let from = if self.b.func.dfg.value_type(v) == types::F64 { Type::Double } else { Type::Float };
        match self.symbols.half_libcalls {
            Some(calls) => {
                let callee = if from == Type::Double { calls.trunc_double } else { calls.trunc_float };
                self.half_libcall(callee, &from, &Type::Half, v)
            }
            None => self.b.ins().fdemote(types::F16, v),
        }
    }

    fn half_libcall(&mut self, id: FuncId, from: &Type, to: &Type, v: clif::Value) -> clif::Value {
        let plain = (from, &ParamAbi::Plain, ir::Extension::None);
        let sig = symbols::signature(self.isa.default_call_conv(), self.arch, (to, ir::Extension::None), [plain]);
        let callee = self.import(id, sig);
        let call = self.b.ins().call(callee, &[v]);
        self.b.inst_results(call)[0]
    }

    fn cast(&mut self, op: CastOp, from: &Type, to: &Type, v: clif::Value) -> clif::Value {
        // `half` converts through `float` (a double narrows to half in one step, as llc-19 does).
        if *from == Type::Half && op != CastOp::BitCast {
            let wide = self.half_to_float(v);
            return match op {
                CastOp::FPExt if *to == Type::Float => wide,
                _ => self.cast(op, &Type::Float, to, wide),
            };
        }
        if *to == Type::Half && op != CastOp::BitCast {
            let wide = match op {
                CastOp::FPTrunc => v,
                _ => self.cast(op, from, &Type::Float, v),
            };
            return self.rounded_to_half(wide);
        }
        let (ft, tt) = (clif_type(from), clif_type(to));
        let ins = self.b.ins();
        match op {
            CastOp::ZExt | CastOp::PtrToInt | CastOp::IntToPtr if ft.bits() < tt.bits() => ins.uextend(tt, v),
            CastOp::SExt if from.int_bits() == Some(1) && ft.bits() < tt.bits() => {
                // 0 or 1, widened then negated: the mid-end turns `sext a + zext b` (how clang writes
                // a comparator's `(x > y) - (x < y)`) into `zext b - zext a`.
                let wide = ins.uextend(tt, v);
                let negated = self.b.ins().ineg(wide);
                self.canonical(to, negated)
            }
            CastOp::SExt => {
                let extended = self.signed(from, v);
                let wide = if ft.bits() < tt.bits() { self.b.ins().sextend(tt, extended) } else { extended };
                self.canonical(to, wide)
            }
            CastOp::Trunc | CastOp::PtrToInt | CastOp::IntToPtr => {
                let narrowed = if ft.bits() > tt.bits() { ins.ireduce(tt, v) } else { v };
                self.canonical(to, narrowed)
            }
            CastOp::ZExt | CastOp::AddrSpaceCast => v,
            CastOp::SIToFP | CastOp::UIToFP => {
                let signed = op == CastOp::SIToFP;
                let v = if signed { self.signed(from, v) } else { v };
                let wide = match ft.bits() < 32 {
                    true if signed => self.b.ins().sextend(types::I32, v),
                    true => self.b.ins().uextend(types::I32, v),
                    false => v,
                };
                if signed {
                    self.b.ins().fcvt_from_sint(tt, wide)
                } else {
                    self.b.ins().fcvt_from_uint(tt, wide)
                }
            }
            CastOp::FPToSI | CastOp::FPToUI => {
                // Out-of-range conversions are poison in LLVM; the saturating forms never trap.
                let wide = if tt.bits() < 32 { types::I32 } else { tt };
                let converted =
                    if op == CastOp::FPToSI { ins.fcvt_to_sint_sat(wide, v) } else { ins.fcvt_to_uint_sat(wide, v) };
                let narrowed = if wide != tt { self.b.ins().ireduce(tt, converted) } else { converted };
                self.canonical(to, narrowed)
            }
            CastOp::FPExt => ins.fpromote(tt, v),
            CastOp::FPTrunc => ins.fdemote(tt, v),
            CastOp::BitCast if ft == tt => v,
            CastOp::BitCast => ins.bitcast(tt, MemFlagsData::new(), v),
        }
    }

    fn alloca(
        &mut self,
        block: BlockId,
        id: InstId,
        elem: &Type,
        count: Option<&ir::Operand>,
        align: Option<u64>,
    ) -> Result<clif::Value, IrError> {
        let align = align.unwrap_or(1).max(elem.align()).max(1);
        let constant_count = match count {
            None => Some(1),
            Some(ir::Operand { value: Value::Const(Const::Int(n)), ty }) => {
                // The count is unsigned; keep it within its width.
                let bits = ty.int_bits().unwrap_or(64);
                Some(if bits >= 64 { *n as u64 } else { (*n as u64) & ((1u64 << bits) - 1) })
            }
            Some(_) => None,
        };
        if let (0, Some(n)) = (block.0, constant_count) {
            // An alignment beyond the stack's 16 bytes makes Cranelift realign the frame (patch
            // 0007): the slot's address is still a constant offset from SP, a `Direct` location. The
            // realignment may take up to `align - 16` bytes more, which the frame limit counts.
            let slack = align.saturating_sub(STACK_ALIGN);
            let size = elem.alloc_size().checked_mul(n);
            let frame = size.and_then(|s| s.checked_add(slack)).and_then(|s| s.checked_add(self.frame_alloca_bytes));
            let (Some(size), Some(frame @ ..=MAX_FRAME_ALLOCA_BYTES)) = (size, frame) else {
                return Err(self.error(
                    self.f.inst(id).span,
                    format!(
                        "alloca of {n} x {elem} does not fit in the stack frame: \
                         a function's allocas may take at most {MAX_FRAME_ALLOCA_BYTES} bytes"
                    ),
                ));
            };
            self.frame_alloca_bytes = frame;
            let slot = self.b.create_sized_stack_slot(StackSlotData::new(
                StackSlotKind::ExplicitSlot,
                size as u32,
                align.trailing_zeros() as u8,
            ));
            self.slots.insert(id, slot);
            return Ok(self.b.ins().stack_addr(types::I64, slot, 0));
        }
        // Outside the entry block, or with a run-time count: bump this thread's arena, which each
        // return resets to the frame's header.
        let (state, _) = self.dynamic_stack.expect("set up for functions with dynamic allocas");
        let n = match count {
            Some(operand) => {
                let v = self.value(&operand.value, &operand.ty)?;
                let t = clif_type(&operand.ty);
                match t.bits() {
                    ..64 => self.b.ins().uextend(types::I64, v),
                    64 => v,
                    _ => self.b.ins().ireduce(types::I64, v),
                }
            }
            None => self.b.ins().iconst(types::I64, 1),
        };
        let elem_size = elem.alloc_size();
        let flags = MemFlagsData::trusted();
        let top = self.b.ins().load(types::I64, flags, state, dynamic_stack::TOP);
        let limit = self.b.ins().load(types::I64, flags, state, dynamic_stack::LIMIT);
        // Aligned to at most MAX_ALIGN (16 MiB), the top stays far from wrapping around.
        let rounded = self.b.ins().iadd_imm_s(top, align as i64 - 1);
        let aligned = self.b.ins().band_imm_s(rounded, -(align as i64));
        let size = self.b.ins().imul_imm_s(n, elem_size as i64);
        let end = self.b.ins().iadd(aligned, size);
        let mut overflow = self.b.ins().icmp(IntCC::UnsignedGreaterThan, end, limit);
        if let Some(max) = dynamic_stack::ARENA_BYTES.checked_div(elem_size) {
            // A count whose size in bytes wraps around 2^64 must not pass for a small one.
            let too_many = self.b.ins().icmp_imm_s(IntCC::UnsignedGreaterThan, n, max as i64);
            overflow = self.b.ins().bor(overflow, too_many);
        }
        self.b.ins().trapnz(overflow, TrapCode::STACK_OVERFLOW);
        self.b.ins().store(flags, end, state, dynamic_stack::TOP);
        Ok(aligned)
    }

    /// On entry to a function with dynamic allocas: `__patchmap_dynamic_stack_enter(sp)` releases
    /// the frames left without returning and pushes this one's header (0: no arena, a trap).
    fn enter_dynamic_stack(&mut self) {
        let helpers = self.symbols.dynamic_stack.expect("declared for every function that needs it");
        let sig = dynamic_stack::sig(self.isa.default_call_conv(), 1, true);
        let enter = self.import(helpers.enter, sig);
        let sp = self.b.ins().get_stack_pointer(types::I64);
        let call = self.b.ins().call(enter, &[sp]);
        let state = self.b.inst_results(call)[0];
        self.b.ins().trapz(state, TrapCode::STACK_OVERFLOW);
        let header = self.b.ins().load(types::I64, MemFlagsData::trusted(), state, dynamic_stack::LAST);
        self.dynamic_stack = Some((state, header));
    }

    fn gep(&mut self, source: &Type, base: &Value, indices: &[ir::Operand]) -> Result<clif::Value, IrError> {
        let address = self.value(base, &Type::PTR)?;
        let steps = indices
            .iter()
            .map(|index| {
                Ok(match &index.value {
                    Value::Const(Const::Int(n)) => GepIndex::Constant(*n),
                    Value::Const(Const::Zero | Const::Undef | Const::Poison) => GepIndex::Constant(0),
                    other => GepIndex::Value(self.value(other, &index.ty)?, index.ty.clone()),
                })
            })
            .collect::<Result<Vec<_>, IrError>>()?;
        Ok(self.gep_address(address, source, &steps))
    }

    /// A vector `getelementptr` of type `ty`: lane by lane, each from that lane of the vector operands
    /// and the scalar ones (as LLVM splats them).
    fn vector_gep(
        &mut self,
        ty: &Type,
        source: &Type,
        base: &Value,
        indices: &[ir::Operand],
        vector_base: bool,
    ) -> Result<Vec<clif::Value>, IrError> {
        let n = ty.lanes().unwrap_or(1) as usize;
        let bases = match vector_base {
            true => self.scalars(base, ty)?,
            false => vec![self.value(base, ty.lane_type())?; n],
        };
        let mut per_index: Vec<Vec<GepIndex>> = Vec::with_capacity(indices.len());
        for index in indices {
            let lane_ty = index.ty.lane_type().clone();
            per_index.push(match (&index.value, index.ty.is_vector()) {
                (Value::Const(Const::Int(v)), false) => vec![GepIndex::Constant(*v); n],
                (Value::Const(Const::Zero | Const::Undef | Const::Poison), _) => vec![GepIndex::Constant(0); n],
                // Constant lanes stay constants: a struct field is chosen by one.
                (Value::Const(Const::Aggregate(lanes)), true) => lanes
                    .iter()
                    .map(|c| match c {
                        Const::Int(v) => GepIndex::Constant(*v),
                        _ => GepIndex::Constant(0),
                    })
                    .collect(),
                (value, true) => {
                    self.scalars(value, &index.ty)?.into_iter().map(|v| GepIndex::Value(v, lane_ty.clone())).collect()
                }
                (value, false) => vec![GepIndex::Value(self.value(value, &index.ty)?, lane_ty); n],
            });
        }
        Ok((0..n)
            .map(|lane| {
                let steps: Vec<GepIndex> = per_index.iter().map(|p| p[lane].clone()).collect();
                self.gep_address(bases[lane], source, &steps)
            })
            .collect())
    }

    /// `address` advanced by the indices `steps` over `source`, as `getelementptr` computes it.
    fn gep_address(&mut self, mut address: clif::Value, source: &Type, steps: &[GepIndex]) -> clif::Value {
        let mut constant_offset: i64 = 0;
        let mut current = source.clone();
        for (i, index) in steps.iter().enumerate() {
            if i > 0 {
                current = match current {
                    // A vector's lanes (whole bytes: verified) sit at their store size.
                    Type::Array(_, elem) | Type::Vector(_, elem) => *elem,
                    Type::Struct(_) => {
                        // A field, chosen by a constant (verified): its offset.
                        let n = match index {
                            GepIndex::Constant(n) => *n,
                            GepIndex::Value(..) => 0,
                        };
                        let (field, offset) = current.gep_step(n).expect("a verified field index");
                        constant_offset = constant_offset.wrapping_add(offset);
                        current = field.clone();
                        continue;
                    }
                    other => other,
                };
            }
            let stride = current.alloc_size() as i64;
            match index {
                GepIndex::Constant(n) => {
                    constant_offset = constant_offset.wrapping_add(n.wrapping_mul(stride));
                }
                GepIndex::Value(v, index_ty) => {
                    let v = *v;
                    let t = clif_type(index_ty);
                    let wide = match t.bits() {
                        64 => v,
                        // LLVM truncates a wider index to the pointer's width.
                        128 => self.b.ins().ireduce(types::I64, v),
                        _ if *index_ty == Type::I1 => {
                            let negated = self.b.ins().ineg(v);
                            self.b.ins().sextend(types::I64, negated)
                        }
                        _ => self.b.ins().sextend(types::I64, v),
                    };
                    let scaled = if stride == 1 { wide } else { self.b.ins().imul_imm_s(wide, stride) };
                    address = self.b.ins().iadd(address, scaled);
                }
            }
        }
        if constant_offset != 0 {
            address = self.b.ins().iadd_imm_s(address, constant_offset);
        }
        address
    }

    fn call(&mut self, id: InstId, callee: &Value, sig: &ir::Signature, args: &[ir::Operand]) -> Result<(), IrError> {
        let data = self.f.inst(id);
        if let Inst::Call { bundles, .. } = &data.kind {
            // Stack maps' and patch points' vectors are passed and recorded (see `points`),
            // statepoints' deopt and gc-live ones too (see `statepoints`); the others are not yet.
            let (operands, what): (Vec<&ir::Operand>, &str) = match ir::PointCall::decode(self.module, data) {
                Some(_) => (Vec::new(), ""),
                None if !bundles.is_empty() || ir::StatepointCall::decode(self.module, data).is_some() => {
                    let unrecorded = bundles.iter().filter(|b| b.tag == ir::BundleTag::GcTransition);
                    (args.iter().chain(unrecorded.flat_map(|b| b.operands.iter())).collect(), "a statepoint")
                }
                None => (Vec::new(), ""),
            };
            let refused = operands.iter().find(|a| vectors::holds_vector(&a.ty)).map(|a| (&a.ty, what));
            if let Some((ty, what)) = refused {
                return Err(self.error(data.span, format!("unsupported vector of type '{ty}' as {what}")));
            }
        }
        match ir::PointCall::decode(self.module, data) {
            Some(Ok(ir::PointCall::StackMap { id: record, shadow, live })) => {
                return self.stackmap(id, record, shadow, live)
            }
            Some(Ok(ir::PointCall::PatchPoint(call))) => {
                return self.patchpoint(None, id, &call);
            }
            Some(Err(_)) => return Err(self.error(data.span, "stack map or patch point operands not verified")),
            None => {}
        }
        match (ir::StatepointCall::decode(self.module, data), ir::TokenUse::decode(self.module, self.f, data)) {
            (Some(Ok(call)), _) if data.ty == Type::Token => {
                return self.statepoint(None, id, &call);
            }
            (None, None) => {
                if let Some(call) = ir::StatepointCall::of_deopt_call(self.module, data) {
                    return self.statepoint(None, id, &call);
                }
            }
            (_, Some(Ok(token_use))) => {
                self.token_use(id, token_use);
                return Ok(());
            }
            (Some(Err(_)), _) | (_, Some(Err(_))) => {
                return Err(self.error(data.span, "statepoint operands not verified"))
            }
            _ => {}
        }
        if explicit::is_retwr(self.module, callee) {
            let mut values = Vec::with_capacity(args.len());
            for a in args {
                values.push(self.value(&a.value, &a.ty)?);
            }
            self.register_returns = Some(values);
            return Ok(());
        }
        if let Value::Func(fid) = callee {
            if let Some(intrinsic) = self.module.function(*fid).intrinsic() {
                self.values[id.0 as usize] = self.intrinsic(id, intrinsic, args)?;
                return Ok(());
            }
        }
        self.plain_call(id, callee, sig, args, None).map(|_| ())
    }

    /// An `invoke` (in `block`) of a function, a pointer or a statepoint: stack maps, patch points
    /// and other intrinsics are refused, as their lowerings make plain calls.
    fn invoke(
        &mut self,
        block: BlockId,
        id: InstId,
        callee: &Value,
        sig: &ir::Signature,
        args: &[ir::Operand],
        dests: ir::InvokeDests,
    ) -> Result<(), IrError> {
        let data = self.f.inst(id);
        if let (Some(Ok(call)), Type::Token) = (ir::StatepointCall::decode(self.module, data), &data.ty) {
            self.statepoint(Some((block, dests)), id, &call)?;
            return self.invoke_returned(block, dests);
        }
        if let Some(Ok(ir::PointCall::PatchPoint(call))) = ir::PointCall::decode(self.module, data) {
            self.patchpoint(Some((block, dests)), id, &call)?;
            return self.invoke_returned(block, dests);
        }
        if let Value::Func(fid) = callee {
            let f = self.module.function(*fid);
            if f.intrinsic().is_some() {
                let message = format!(
                    "unsupported 'invoke' of intrinsic '@{}': only calls of functions and pointers may unwind here \
                     (statepoints and patch points excepted)",
                    f.name
                );
                return Err(self.error(data.span, message));
            }
        }
        // As llc-19, a call with a "deopt" bundle is a statepoint: its record, with the exception edge.
        if let Some(call) = ir::StatepointCall::of_deopt_call(self.module, data) {
            self.statepoint(Some((block, dests)), id, &call)?;
            return self.invoke_returned(block, dests);
        }
        self.plain_call_from(Some((block, dests)), id, callee, sig, args, None)?;
        self.invoke_returned(block, dests)
    }

    /// A call of a function or pointer (not an intrinsic), whose result becomes `id`'s.
    fn plain_call(
        &mut self,
        id: InstId,
        callee: &Value,
        sig: &ir::Signature,
        args: &[ir::Operand],
        recorded: Option<&statepoints::RecordedOperands>,
    ) -> Result<Vec<clif::Value>, IrError> {
        self.plain_call_from(None, id, callee, sig, args, recorded)
    }

    /// [`Self::plain_call`], or with `invoke` (its block and destinations) a `try_call`.
    fn plain_call_from(
        &mut self,
        invoke: Option<(BlockId, ir::InvokeDests)>,
        id: InstId,
        callee: &Value,
        sig: &ir::Signature,
        args: &[ir::Operand],
        recorded: Option<&statepoints::RecordedOperands>,
    ) -> Result<Vec<clif::Value>, IrError> {
        let data = self.f.inst(id);
        if let Some(message) = symbols::result_unsupported(self.arch, &sig.ret) {
            return Err(self.error(data.span, message));
        }
        if let Some(message) = sig.abi.iter().find_map(symbols::byval_unsupported) {
            return Err(self.error(data.span, message));
        }
        for ty in args.iter().map(|a| &a.ty).chain([&sig.ret]) {
            vectors::push_abi_pieces(self.arch, ty, &mut Vec::new())
                .map_err(|message| self.error(data.span, message))?;
        }
        // A direct call passes arguments as the callee's declaration says (its attributes).
        let declared = match callee {
            Value::Func(fid) if !sig.varargs => Some(self.module.function(*fid)),
            _ => None,
        };
        // `nest` is the call site's or the declaration's, as LLVM reads either; a local definition
        // takes its chain as an ordinary parameter (see the parser), and its direct callers pass it so.
        let abi = |i: usize| match (sig.param_abi(i), declared) {
            (_, Some(f)) if !f.is_declaration() => &f.params[i].abi,
            (ParamAbi::Nest, _) => &ParamAbi::Nest,
            (site, None) => site,
            (_, Some(f)) => &f.params[i].abi,
        };
        // `signext`/`zeroext` are the call site's or, in a direct call, the callee's (as in LLVM).
        let named = match callee {
            Value::Func(fid) => Some(self.module.function(*fid)),
            _ => None,
        };
        let ext =
            |i: usize| sig.param_ext(i).or(named.and_then(|f| f.params.get(i)).map_or(ir::Extension::None, |p| p.ext));
        let ret_ext = sig.ext.ret.or(named.map_or(ir::Extension::None, |f| f.ret_ext));
        let (call_sig, padding) = symbols::plan(
            self.isa.default_call_conv(),
            self.arch,
            (&sig.ret, ret_ext),
            args.iter().enumerate().map(|(i, a)| (&a.ty, abi(i), ext(i))),
        );
        let mut values = Vec::with_capacity(args.len());
        for (i, (arg, padding)) in args.iter().zip(&padding).enumerate() {
            for &t in padding {
                let filler = if t.is_float() { self.b.ins().f64const(0.0) } else { self.b.ins().iconst(t, 0) };
                values.push(filler);
            }
            let scalars = self.scalars(&arg.value, &arg.ty)?;
            if let ([v], false) = (scalars.as_slice(), arg.ty.is_split()) {
                let v = self.extended(&arg.ty, ext(i), *v);
                values.push(v);
            } else {
                let abi_values = self.packed_for_abi(&arg.ty, &scalars);
                values.extend(abi_values);
            }
        }
        // Extensions the call site adds to the declaration's change the signature this call uses.
        let adds_extension = declared
            .is_some_and(|f| ret_ext != f.ret_ext || f.params.iter().enumerate().any(|(i, p)| ext(i) != p.ext))
            && declared.is_some_and(|f| f.cc != ir::CallConv::Explicit);
        // So does a chain the call site passes where the declaration has an ordinary parameter.
        let adds_chain = declared.is_some_and(|f| {
            f.cc != ir::CallConv::Explicit
                && f.is_declaration()
                && f.params
                    .iter()
                    .enumerate()
                    .any(|(i, p)| p.abi != ParamAbi::Nest && *sig.param_abi(i) == ParamAbi::Nest)
        });
        let target = match callee {
            Value::Func(fid) if !sig.varargs => {
                let r = if adds_extension || adds_chain {
                    let id = self.symbols.function(*fid).expect("intrinsics are lowered before calls");
                    self.import(id, call_sig)
                } else {
                    self.func_ref(*fid)?
                };
                statepoints::Callee::Direct(r)
            }
            _ => {
                // A variadic call passes its extra arguments like fixed ones on the targets we support;
                // SysV x86-64 adds %al, an upper bound of the vector registers used, which a thunk sets.
                let extra = &args[sig.params.len().min(args.len())..];
                let thunk = match callee {
                    Value::Func(fid) if sig.varargs && extra.iter().any(|a| a.ty.is_float()) => {
                        self.symbols.variadic_thunk(*fid)
                    }
                    _ => None,
                };
                if let Some(thunk) = thunk {
                    let r = self.import(thunk, call_sig);
                    statepoints::Callee::Direct(r)
                } else {
                    if sig.varargs {
                        self.check_variadic_args(data.span, extra)?;
                    }
                    let sig_ref = self.b.import_signature(call_sig);
                    let address = self.value(callee, &Type::PTR)?;
                    statepoints::Callee::Indirect(sig_ref, address)
                }
            }
        };
        // A statepoint_call's relocated values follow the call's results.
        let mut results = match invoke {
            Some((block, dests)) => {
                self.emit_invoke(block, exceptions::Invoked::Call(target, recorded), &values, dests)?
            }
            None => {
                let call = self.emit_call(target, &values, recorded);
                self.b.inst_results(call).to_vec()
            }
        };
        let relocated = results.split_off(results.len() - recorded.map_or(0, |r| r.relocated.len()));
        if sig.ret.is_split() {
            let scalars = self.unpacked_from_abi(&sig.ret, &results);
            self.aggregates.insert(id, scalars);
        } else if let Some(&result) = results.first() {
            // As for parameters: the callee leaves the bits above N undefined (even when it is to
            // extend them: x86-64's llc-19 does not extend a `signext i8` result).
            let result = self.narrowed(&sig.ret, result);
            self.values[id.0 as usize] = Some(self.canonical(&sig.ret, result));
        }
        Ok(relocated)
    }

    /// Where variadic calls with floating-point arguments need a thunk (SysV x86-64's %al), a call
    /// through a function pointer has none: refuse it rather than miscompile.
    fn check_variadic_args(&self, span: ir::Span, extra: &[ir::Operand]) -> Result<(), IrError> {
        if self.arch.variadic_thunk(self.symbols.colocated).is_some() && extra.iter().any(|a| a.ty.is_float()) {
            return Err(self.error(
                span,
                format!(
                    "floating-point arguments to a variadic function called through a pointer are not \
                     supported on {} (call it by name, or through a non-variadic wrapper)",
                    self.arch.name()
                ),
            ));
        }
        Ok(())
    }

    fn switch(
        &mut self,
        block: BlockId,
        ty: &Type,
        val: &Value,
        default: Option<BlockId>,
        cases: &[(i64, BlockId)],
    ) -> Result<(), IrError> {
        let v = self.value(val, ty)?;
        let bits = ty.int_bits().unwrap_or(64);
        let mask: u128 = if bits >= 64 { u64::MAX as u128 } else { (1u128 << bits) - 1 };
        // LLVM's rule on both targets (`-min-jump-table-entries`): fewer cases compare one by one,
        // which beats a bounds check and an indirect jump.
        const MIN_JUMP_TABLE_CASES: usize = 4;
        if cases.len() < MIN_JUMP_TABLE_CASES {
            for &(value, target) in cases {
                let k = self.b.ins().iconst(clif_type(ty), ((value as u64 as u128) & mask) as i64);
                let equal = self.b.ins().icmp(IntCC::Equal, v, k);
                let args = self.edge_args(block, target)?;
                let (dest, next) = (self.block(target), self.b.create_block());
                self.b.ins().brif(equal, dest, &args, next, &[]);
                self.b.switch_to_block(next);
            }
            match default {
                Some(default) => {
                    let (args, dest) = (self.edge_args(block, default)?, self.block(default));
                    self.b.ins().jump(dest, &args);
                }
                None => {
                    self.b.ins().trap(UNREACHABLE_TRAP);
                }
            }
            return Ok(());
        }
        // Cranelift's switch passes no block arguments: edges into blocks with phis go through a
        // block of their own that supplies them.
        let mut edge_blocks: HashMap<BlockId, clif::Block> = HashMap::new();
        let mut edges = Vec::new();
        let mut edge_to = |this: &mut Self, target: BlockId| {
            if !this.has_phis(target) {
                return this.block(target);
            }
            *edge_blocks.entry(target).or_insert_with(|| {
                let edge = this.b.create_block();
                edges.push((edge, target));
                edge
            })
        };
        let mut switch = Switch::new();
        for &(value, target) in cases {
            let dest = edge_to(self, target);
            switch.set_entry((value as u64 as u128) & mask, dest);
        }
        let default_dest = match default {
            Some(default) => edge_to(self, default),
            None => self.b.create_block(),
        };
        switch.emit(&mut self.b, v, default_dest);
        if default.is_none() {
            self.b.switch_to_block(default_dest);
            self.b.ins().trap(UNREACHABLE_TRAP);
        }
        for (edge, target) in edges {
            self.b.switch_to_block(edge);
            let args = self.edge_args(block, target)?;
            let dest = self.block(target);
            self.b.ins().jump(dest, &args);
        }
        Ok(())
    }

    fn has_phis(&self, block: BlockId) -> bool {
        self.f.block(block).insts.first().is_some_and(|&i| matches!(self.f.inst(i).kind, Inst::Phi { .. }))
    }

    /// The values the phis of `to` take on the edge from `from`.
    fn edge_args(&mut self, from: BlockId, to: BlockId) -> Result<Vec<BlockArg>, IrError> {
        let mut args = Vec::new();
        for &inst in &self.f.block(to).insts {
            let data = self.f.inst(inst);
            let Inst::Phi { incoming } = &data.kind else { break };
            let (value, _) = incoming
                .iter()
                .find(|(_, pred)| *pred == from)
                .ok_or_else(|| self.error(data.span, "phi has no incoming value for a predecessor"))?;
            if data.ty.is_split() {
                args.extend(self.scalars(value, &data.ty)?.into_iter().map(BlockArg::Value));
            } else {
                // As `scalars` has it, without a vector for the one value.
                args.push(BlockArg::Value(self.value(value, &data.ty)?));
            }
        }
        Ok(args)
    }

    fn func_ref(&mut self, fid: ir::FuncId) -> Result<FuncRef, IrError> {
        if let Some(&r) = self.func_refs.get(&fid) {
            return Ok(r);
        }
        let module_id = self.symbols.function(fid).expect("intrinsics are never referenced as functions");
        let f = self.module.function(fid);
        if let Some(message) = f.params.iter().find_map(|p| symbols::byval_unsupported(&p.abi)) {
            return Err(self.error(f.span, message));
        }
        let sig = symbols::signature(
            self.isa.default_call_conv(),
            self.arch,
            (&f.ret, f.ret_ext),
            f.params.iter().map(|p| (&p.ty, &p.abi, p.ext)),
        );
        let r = self.import(module_id, sig);
        self.func_refs.insert(fid, r);
        Ok(r)
    }

    /// Imports a declared function into this function with the given signature. In objects even
    /// imported functions are called directly: the linker routes calls into shared libraries through
    /// the PLT, as it does for llc's `call f@PLT`.
    fn import(&mut self, id: cranelift_module::FuncId, sig: clif::Signature) -> FuncRef {
        let signature = self.b.import_signature(sig);
        let name = self.b.func.declare_imported_user_function(UserExternalName::new(FUNCTION_NAMESPACE, id.as_u32()));
        self.b.import_function(ExtFuncData {
            name: ExternalName::user(name),
            signature,
            colocated: self.symbols.colocated,
            patchable: false,
        })
    }

    /// The address of data object `id` (this thread's copy for thread-local data, `tls`).
    fn data_address(&mut self, id: DataId, defined: bool, tls: bool) -> clif::Value {
        let gv = match self.data_refs.get(&id) {
            Some(&gv) => gv,
            None => {
                let name =
                    self.b.func.declare_imported_user_function(UserExternalName::new(DATA_NAMESPACE, id.as_u32()));
                let gv = self.b.create_global_value(GlobalValueData::Symbol {
                    name: ExternalName::user(name),
                    offset: 0.into(),
                    colocated: self.symbols.colocated && defined,
                    tls,
                });
                self.data_refs.insert(id, gv);
                gv
            }
        };
        if tls {
            self.b.ins().tls_value(types::I64, gv)
        } else {
            self.b.ins().symbol_value(types::I64, gv)
        }
    }
}

/// Where the member that `extractvalue`/`insertvalue` indices select lies among `ty`'s scalars: the
/// first one's index and how many.
fn member_scalars(ty: &Type, indices: &[u32]) -> (usize, usize) {
    let mut start = 0u64;
    let mut current = ty;
    for &i in indices {
        start += match current {
            Type::Array(_, elem) => u64::from(i) * elem.leaf_count(),
            Type::Struct(s) => s.field_types()[..i as usize].iter().map(Type::leaf_count).sum(),
            _ => 0,
        };
        current = current.member(u64::from(i)).expect("verified indices").0;
    }
    (start as usize, current.leaf_count() as usize)
}

/// Reachable blocks in reverse postorder from the entry: every block after its dominators.
/// The accesses that move a scalar of type `ty`, as (byte offset, Cranelift type): one of its
/// container type when its store size is a power of two, else pieces of 4, 2 and 1 bytes
/// little-endian, so that no byte past the store size is touched.
fn store_pieces(ty: &Type) -> Vec<(u32, ClifType)> {
    let t = clif_type(ty);
    let size = ty.store_size() as u32;
    if t.is_float() || size == t.bytes() {
        return vec![(0, t)];
    }
    let mut pieces = Vec::with_capacity(3);
    let mut at = 0;
    for bytes in [4u32, 2, 1] {
        if size - at >= bytes {
            pieces.push((at, ClifType::int(8 * bytes as u16).expect("an integer type of 1, 2 or 4 bytes")));
            at += bytes;
        }
    }
    pieces
}

fn reverse_postorder(f: &ir::Function) -> Vec<BlockId> {
    let n = f.blocks.len();
    let mut visited = vec![false; n];
    let mut post = Vec::with_capacity(n);
    let successors = |b: BlockId| {
        let last = *f.block(b).insts.last().expect("a verified block ends with a terminator");
        f.inst(last).kind.successors()
    };
    let mut stack = vec![(BlockId(0), successors(BlockId(0)), 0usize)];
    visited[0] = true;
    while let Some((block, succs, next)) = stack.last_mut() {
        if let Some(&s) = succs.get(*next) {
            *next += 1;
            if !visited[s.0 as usize] {
                visited[s.0 as usize] = true;
                let ss = successors(s);
                stack.push((s, ss, 0));
            }
        } else {
            post.push(*block);
            stack.pop();
        }
    }
    post.reverse();
    post
}

fn int_cc(p: IntPred) -> IntCC {
    match p {
        IntPred::Eq => IntCC::Equal,
        IntPred::Ne => IntCC::NotEqual,
        IntPred::Ugt => IntCC::UnsignedGreaterThan,
        IntPred::Uge => IntCC::UnsignedGreaterThanOrEqual,
        IntPred::Ult => IntCC::UnsignedLessThan,
        IntPred::Ule => IntCC::UnsignedLessThanOrEqual,
        IntPred::Sgt => IntCC::SignedGreaterThan,
        IntPred::Sge => IntCC::SignedGreaterThanOrEqual,
        IntPred::Slt => IntCC::SignedLessThan,
        IntPred::Sle => IntCC::SignedLessThanOrEqual,
    }
}

fn is_signed(p: IntPred) -> bool {
    matches!(p, IntPred::Sgt | IntPred::Sge | IntPred::Slt | IntPred::Sle)
}

/// `None` for the constant predicates `false` and `true`.
fn float_cc(p: FloatPred) -> Option<FloatCC> {
    Some(match p {
        FloatPred::False | FloatPred::True => return None,
        FloatPred::Oeq => FloatCC::Equal,
        FloatPred::Ogt => FloatCC::GreaterThan,
        FloatPred::Oge => FloatCC::GreaterThanOrEqual,
        FloatPred::Olt => FloatCC::LessThan,
        FloatPred::Ole => FloatCC::LessThanOrEqual,
        FloatPred::One => FloatCC::OrderedNotEqual,
        FloatPred::Ord => FloatCC::Ordered,
        FloatPred::Ueq => FloatCC::UnorderedOrEqual,
        FloatPred::Ugt => FloatCC::UnorderedOrGreaterThan,
        FloatPred::Uge => FloatCC::UnorderedOrGreaterThanOrEqual,
        FloatPred::Ult => FloatCC::UnorderedOrLessThan,
        FloatPred::Ule => FloatCC::UnorderedOrLessThanOrEqual,
        FloatPred::Une => FloatCC::NotEqual,
        FloatPred::Uno => FloatCC::Unordered,
    })
}

/// `value` kept to the width of integer type `ty`, as Cranelift wants narrow immediates.
fn scalar_bits(ty: &Type, value: u64) -> i64 {
    match ty.int_bits() {
        Some(bits) if bits < 64 => (value & ((1u64 << bits) - 1)) as i64,
        _ => value as i64,
    }
}

/// One `getelementptr` index as the address computation takes it.
#[derive(Clone)]
enum GepIndex {
    /// A constant index (struct fields are chosen by these).
    Constant(i64),
    /// A run-time index and its IR integer type.
    Value(clif::Value, Type),
}
