//! Lowering of vectors (`<N x T>`), lane by lane.
//!
//! Design: a vector value is its N lanes, one Cranelift scalar each, held like an aggregate's
//! leaves (in `Lowering::aggregates`, block parameters and phis alike); every operation is done
//! lane by lane with the scalar lowering (`half` lanes, `iN` lanes kept canonical and all).
//! Cranelift's own vector types appear only where the C ABI needs a vector register: an argument or
//! result crosses as 64-bit pieces (`F64`, in an XMM or D register) or 128-bit ones (`I8X16`, in
//! an XMM or Q register), packed and unpacked through a scratch slot in the frame with plain
//! loads and stores. So on x86-64 the code assumes SSE2 only (clang's default CPU, x86-64): the
//! instructions are scalar SSE2 and 128-bit unaligned moves (`movdqu`), never SSE3/SSSE3/SSE4.1
//! (Cranelift's x64 lane insertions, shuffles and blends that need them are not used); on
//! AArch64, NEON (baseline) loads and stores only. Correctness on every shape first: `<8 x i32>`,
//! `<3 x float>`, `<N x i1>` are all just lanes; speed (whole-register arithmetic) is left for later.
//!
//! Memory layout is LLVM's: lanes packed one after the other at their store size, `<N x i1>` one
//! bit each (lane 0 in bit 0), `ceil(N * bits / 8)` bytes touched.
//!
//! Length: up to `ir::MAX_VECTOR_LANES` (4096) lanes and `ir::MAX_VECTOR_BYTES`. Every operation
//! costs a Cranelift instruction or more per lane (a run-time lane index a compare and a select per
//! lane), so compile time grows linearly: a function adding, shuffling and reducing two
//! `<4096 x i64>` arguments compiles in about 2 s (tests/stackmaps/vectors.rs). The scratch slot
//! ABI pieces and bitcasts go through is made at the first use and again larger for a longer
//! vector. A `getelementptr` over vectors of pointers or indices is lane by lane too, scalar
//! operands splatted (`Lowering::vector_gep`).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{self, Type as ClifType};
use cranelift_codegen::ir::{self as clif, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind};

use super::{clif_type, Lowering};
use crate::arch::Arch;
use crate::ir::{CastOp, Const, IntrinsicOp, IrError, Operand, ReduceOp, Type, Value};

/// Bytes of a function's first scratch slot: any vector of up to 64 lanes of 8 bytes.
const SCRATCH_BYTES: u32 = 64 * 8;

/// How a vector crosses the C ABI: in `pieces` (an `F64` for 64 bits, in an XMM or D register;
/// `I8X16`s for 128 bits each, in XMM or Q registers), lane `i` at byte `i * stride` of them.
pub struct AbiShape {
    /// The registers' Cranelift types, in order.
    pub pieces: Vec<ClifType>,
    /// Bytes from one lane to the next: the lane's size, or more where LLVM promotes lanes.
    pub stride: u32,
}

impl AbiShape {
    /// The bytes the pieces of an `n`-lane vector of this shape fill.
    fn bytes(&self, n: u32) -> u32 {
        (n * self.stride).max(16 * self.pieces.len() as u32)
    }
}

/// The shape of vector `ty` at the C ABI on `arch`, as LLVM's type legalisation makes it, or why
/// it is not supported. Both targets widen a vector to the next legal register (x86-64 to 128
/// bits: `<2 x float>` in an XMM register's low half, `<3 x i32>` as `<4 x i32>`) and split a wider
/// one into 128-bit registers (`<8 x i32>` without AVX); AArch64 keeps 64-bit vectors in D
/// registers and promotes the lanes of narrower ones (`<4 x i8>` as `<4 x i16>`). Masks
/// (`<N x i1>`) are promoted to the lane width that fills a register (x86-64: `<4 x i1>` as
/// `<4 x i32>`; AArch64: as `<4 x i16>`), each lane 0 or 1.
pub fn abi_shape(arch: Arch, ty: &Type) -> Result<AbiShape, String> {
    let unsupported = |why: &str| format!("unsupported vector argument or result of type '{ty}': {why}");
    let Type::Vector(n, elem) = ty else { return Err(unsupported("not a vector")) };
    let n = *n;
    let size = match elem.int_bits() {
        Some(1) => 0,
        Some(8 | 16 | 32 | 64) | None if **elem != Type::Half => elem.store_size() as u32,
        _ => return Err(unsupported("lanes of this type are promoted in ways not modelled here")),
    };
    if n < 2 {
        return Err(unsupported("LLVM passes one-lane vectors as their lane"));
    }
    let stride = match (size, arch) {
        // A mask's lanes take the width that fills a register, of at least a byte.
        (0, Arch::X86_64) => (16 / n).max(1),
        (0, Arch::Aarch64) if n <= 8 => 8 / n,
        (0, Arch::Aarch64) => 1,
        (s, Arch::Aarch64) if n * s < 8 && n.is_power_of_two() => 8 / n,
        (s, Arch::Aarch64) if n * s < 8 => {
            let _ = s;
            return Err(unsupported("AArch64 widens and promotes such a vector in ways not modelled here"));
        }
        (s, _) => s,
    };
    let bytes = n * stride;
    let pieces = if bytes == 8 { vec![types::F64] } else { vec![types::I8X16; bytes.div_ceil(16) as usize] };
    Ok(AbiShape { pieces, stride })
}

/// The ABI pieces of a value of type `ty`, scalars and vectors nested in aggregates included.
pub fn push_abi_pieces(arch: Arch, ty: &Type, out: &mut Vec<ClifType>) -> Result<(), String> {
    match ty {
        Type::Vector(..) => out.extend(abi_shape(arch, ty)?.pieces),
        Type::Array(_, elem) if elem.leaf_count() == 0 => {}
        Type::Array(n, elem) => {
            for _ in 0..*n {
                push_abi_pieces(arch, elem, out)?;
            }
        }
        Type::Struct(s) => s.field_types().iter().try_for_each(|t| push_abi_pieces(arch, t, out))?,
        Type::Void | Type::Token => {}
        scalar => out.push(clif_type(scalar)),
    }
    Ok(())
}

/// Whether `ty` holds a vector (itself, or in a member).
pub fn holds_vector(ty: &Type) -> bool {
    match ty {
        Type::Vector(..) => true,
        Type::Array(_, elem) => holds_vector(elem),
        Type::Struct(s) => s.field_types().iter().any(holds_vector),
        _ => false,
    }
}

impl Lowering<'_> {
    /// The address of the frame slot vectors are packed and unpacked through, of at least `bytes`:
    /// made on first use, and made again larger for a longer vector (most functions need one small
    /// slot; the lane limit would make a fixed one 32 KiB).
    fn scratch_address(&mut self, bytes: u32) -> clif::Value {
        let slot = match self.vector_scratch {
            Some((slot, size)) if size >= bytes => slot,
            _ => {
                let size = bytes.max(SCRATCH_BYTES).next_multiple_of(16);
                let slot = self.b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, size, 4));
                self.vector_scratch = Some((slot, size));
                slot
            }
        };
        self.b.ins().stack_addr(types::I64, slot, 0)
    }

    /// The lanes of vector `ty` at `p`, in LLVM's memory layout.
    pub(super) fn load_vector(&mut self, ty: &Type, p: clif::Value) -> Vec<clif::Value> {
        let (n, elem) = (ty.lanes().unwrap_or(0), ty.lane_type().clone());
        if elem == Type::I1 {
            let flags = MemFlagsData::new();
            let bytes: Vec<clif::Value> =
                (0..n.div_ceil(8)).map(|i| self.b.ins().load(types::I8, flags, p, i as i32)).collect();
            return (0..n)
                .map(|i| {
                    let shifted = self.b.ins().ushr_imm_s(bytes[(i / 8) as usize], i64::from(i % 8));
                    self.b.ins().band_imm_s(shifted, 1)
                })
                .collect();
        }
        let size = elem.store_size() as i32;
        (0..n as i32).map(|i| self.load_scalar(&elem, p, i * size)).collect()
    }

    /// Stores the lanes of vector `ty` at `p`, in LLVM's memory layout.
    pub(super) fn store_vector(&mut self, ty: &Type, lanes: &[clif::Value], p: clif::Value) {
        let elem = ty.lane_type().clone();
        if elem == Type::I1 {
            let flags = MemFlagsData::new();
            for (i, chunk) in lanes.chunks(8).enumerate() {
                let mut byte = self.b.ins().iconst(types::I8, 0);
                for (bit, &lane) in chunk.iter().enumerate() {
                    let placed = self.b.ins().ishl_imm_s(lane, bit as i64);
                    byte = self.b.ins().bor(byte, placed);
                }
                self.b.ins().store(flags, byte, p, i as i32);
            }
            return;
        }
        let size = elem.store_size() as i32;
        for (i, &lane) in lanes.iter().enumerate() {
            self.store_scalar(&elem, lane, p, i as i32 * size);
        }
    }

    /// The ABI values of a value of type `ty` whose scalars (lanes and leaves) are `scalars`:
    /// vectors packed into their pieces ([`abi_shape`]), everything else as it is.
    pub(super) fn packed_for_abi(&mut self, ty: &Type, scalars: &[clif::Value]) -> Vec<clif::Value> {
        if !holds_vector(ty) {
            return scalars.to_vec();
        }
        let mut out = Vec::new();
        let mut at = 0;
        self.pack_walk(ty, scalars, &mut at, &mut out);
        out
    }

    fn pack_walk(&mut self, ty: &Type, scalars: &[clif::Value], at: &mut usize, out: &mut Vec<clif::Value>) {
        match ty {
            Type::Vector(n, elem) => {
                let lanes = &scalars[*at..*at + *n as usize];
                *at += *n as usize;
                let shape = abi_shape(self.arch, ty).expect("checked before lowering");
                let p = self.scratch_address(shape.bytes(*n));
                if shape.stride as u64 == elem.store_size() && **elem != Type::I1 {
                    self.store_vector(ty, lanes, p);
                } else {
                    // Promoted lanes: each zero-extended to the stride (LLVM's callee reads the low bits).
                    let wide = ClifType::int(8 * shape.stride as u16).expect("a stride of 1, 2, 4 or 8 bytes");
                    for (i, &lane) in lanes.iter().enumerate() {
                        let lane = if wide == clif_type(elem) { lane } else { self.b.ins().uextend(wide, lane) };
                        self.b.ins().store(MemFlagsData::new(), lane, p, i as i32 * shape.stride as i32);
                    }
                }
                for (i, piece) in shape.pieces.into_iter().enumerate() {
                    out.push(self.b.ins().load(piece, MemFlagsData::new(), p, 16 * i as i32));
                }
            }
            Type::Array(n, elem) if elem.leaf_count() > 0 => {
                (0..*n).for_each(|_| self.pack_walk(elem, scalars, at, out))
            }
            Type::Struct(s) => s.field_types().iter().for_each(|t| self.pack_walk(t, scalars, at, out)),
            _ => {
                let count = ty.leaf_count() as usize;
                out.extend_from_slice(&scalars[*at..*at + count]);
                *at += count;
            }
        }
    }

    /// The scalars (lanes and leaves) of a value of type `ty` that crossed the C ABI as `values`:
    /// the inverse of [`Lowering::packed_for_abi`].
    pub(super) fn unpacked_from_abi(&mut self, ty: &Type, values: &[clif::Value]) -> Vec<clif::Value> {
        if !holds_vector(ty) {
            return values.to_vec();
        }
        let mut out = Vec::new();
        let mut at = 0;
        self.unpack_walk(ty, values, &mut at, &mut out);
        out
    }

    fn unpack_walk(&mut self, ty: &Type, values: &[clif::Value], at: &mut usize, out: &mut Vec<clif::Value>) {
        match ty {
            Type::Vector(n, elem) => {
                let shape = abi_shape(self.arch, ty).expect("checked before lowering");
                let count = shape.pieces.len();
                let p = self.scratch_address(shape.bytes(*n));
                for (i, &piece) in values[*at..*at + count].iter().enumerate() {
                    self.b.ins().store(MemFlagsData::new(), piece, p, 16 * i as i32);
                }
                *at += count;
                if shape.stride as u64 == elem.store_size() && **elem != Type::I1 {
                    out.extend(self.load_vector(ty, p));
                } else {
                    for i in 0..*n as i32 {
                        let lane = self.load_scalar(elem, p, i * shape.stride as i32);
                        // A promoted mask lane: only its low bit is defined.
                        let lane = if **elem == Type::I1 { self.b.ins().band_imm_s(lane, 1) } else { lane };
                        out.push(lane);
                    }
                }
            }
            Type::Array(n, elem) if elem.leaf_count() > 0 => {
                (0..*n).for_each(|_| self.unpack_walk(elem, values, at, out))
            }
            Type::Struct(s) => s.field_types().iter().for_each(|t| self.unpack_walk(t, values, at, out)),
            _ => {
                let count = ty.leaf_count() as usize;
                out.extend_from_slice(&values[*at..*at + count]);
                *at += count;
            }
        }
    }

    /// `bitcast` to or from a vector: the bits go through memory, where both types' layouts
    /// (packed lanes, little-endian) are LLVM's.
    pub(super) fn vector_bitcast(&mut self, from: &Type, to: &Type, v: &[clif::Value]) -> Vec<clif::Value> {
        let p = self.scratch_address(from.store_size().max(to.store_size()) as u32);
        match from {
            Type::Vector(..) => self.store_vector(from, v, p),
            _ => self.store_scalar(from, v[0], p, 0),
        }
        match to {
            Type::Vector(..) => self.load_vector(to, p),
            _ => vec![self.load_scalar(to, p, 0)],
        }
    }

    /// Lane `index` of `lanes` (a constant or a run-time lane number of type `index_ty`); an index
    /// past the last lane is poison, which is lane 0 here.
    pub(super) fn extract_lane(&mut self, lanes: &[clif::Value], index: &Operand) -> Result<clif::Value, IrError> {
        if let Some(i) = constant_index(&index.value) {
            return Ok(match lanes.get(i as usize) {
                Some(&lane) => lane,
                None => lanes[0],
            });
        }
        let idx = self.value(&index.value, &index.ty)?;
        let mut chosen = lanes[0];
        for (i, &lane) in lanes.iter().enumerate().skip(1) {
            let hit = self.b.ins().icmp_imm_s(IntCC::Equal, idx, i as i64);
            chosen = self.select(hit, lane, chosen);
        }
        Ok(chosen)
    }

    /// `lanes` with lane `index` replaced by `val` (none replaced for an index past the last).
    pub(super) fn insert_lane(
        &mut self,
        lanes: &mut [clif::Value],
        val: clif::Value,
        index: &Operand,
    ) -> Result<(), IrError> {
        if let Some(i) = constant_index(&index.value) {
            if let Some(lane) = lanes.get_mut(i as usize) {
                *lane = val;
            }
            return Ok(());
        }
        let idx = self.value(&index.value, &index.ty)?;
        for (i, lane) in lanes.iter_mut().enumerate() {
            let hit = self.b.ins().icmp_imm_s(IntCC::Equal, idx, i as i64);
            *lane = self.select(hit, val, *lane);
        }
        Ok(())
    }

    /// A zero of lane type `elem`: what `poison` lanes are.
    pub(super) fn zero_lane(&mut self, elem: &Type) -> clif::Value {
        self.constant(&Const::Zero, elem)
    }

    /// A lane-wise cast of `lanes` from vector `from` to vector `to` (not a bitcast).
    pub(super) fn cast_lanes(&mut self, op: CastOp, from: &Type, to: &Type, lanes: &[clif::Value]) -> Vec<clif::Value> {
        let (f, t) = (from.lane_type().clone(), to.lane_type().clone());
        lanes.iter().map(|&v| self.cast(op, &f, &t, v)).collect()
    }

    /// `llvm.vector.reduce.*`: the lanes of `args`' vector folded from lane 0 up (the floating-point
    /// ones from their start value, in order, as LLVM defines them without `reassoc`).
    pub(super) fn reduce(&mut self, op: ReduceOp, args: &[Operand]) -> Result<clif::Value, IrError> {
        let (start, vector) = match args {
            [start, vector] => (Some(start), vector),
            [vector] => (None, vector),
            _ => unreachable!("verified signature"),
        };
        let lanes = self.scalars(&vector.value, &vector.ty)?;
        let elem = vector.ty.lane_type().clone();
        let mut acc = match start {
            Some(s) => self.value(&s.value, &s.ty)?,
            None => lanes[0],
        };
        let rest = if start.is_some() { &lanes[..] } else { &lanes[1..] };
        for &lane in rest {
            acc = match op {
                ReduceOp::Binary(bop) => self.lane_binary(bop, &elem, acc, lane),
                ReduceOp::Op(iop) => self.intrinsic_op(iop, &elem, &[acc, lane]),
            };
        }
        Ok(acc)
    }

    /// A lane-wise intrinsic operation: `args` may mix vectors of the result's shape and scalars
    /// (the `i1` flag of `ctlz`, `abs`), which every lane shares.
    pub(super) fn intrinsic_lanes(
        &mut self,
        op: IntrinsicOp,
        ty: &Type,
        args: &[Operand],
    ) -> Result<Vec<clif::Value>, IrError> {
        let n = ty.lanes().unwrap_or(1) as usize;
        let mut columns = Vec::with_capacity(args.len());
        for a in args {
            columns.push(match a.ty.is_vector() {
                true => self.scalars(&a.value, &a.ty)?,
                false => vec![self.value(&a.value, &a.ty)?; n],
            });
        }
        let elem = ty.lane_type().clone();
        Ok((0..n)
            .map(|i| {
                let operands: Vec<clif::Value> = columns.iter().map(|c| c[i]).collect();
                self.intrinsic_op(op, &elem, &operands)
            })
            .collect())
    }
}

/// The lane number of a constant index; `None` for a run-time one.
fn constant_index(v: &Value) -> Option<u64> {
    match v {
        Value::Const(Const::Int(i)) => Some(*i as u64),
        Value::Const(Const::Zero | Const::Undef | Const::Poison) => Some(0),
        _ => None,
    }
}
