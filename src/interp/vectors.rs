//! Vector values in the interpreter: a vector is, like an aggregate, the address of its image,
//! laid out as LLVM lays the vector out in memory (lanes packed at their store size, `<N x i1>` a
//! bit each, lane 0 in bit 0), so that loads, stores and bitcasts are copies of bytes. Operations
//! read the lanes, compute each with the scalar rules of `scalar.rs`, and write a new image.

use super::{memory, scalar};
use crate::ir::{IntrinsicOp, ReduceOp, Type};

/// The lanes of the vector of type `ty` whose image is at `address`, each as value bits.
///
/// # Safety
/// `address` must hold an image of `ty` (its store size readable).
pub unsafe fn lanes(ty: &Type, address: u64) -> Vec<u64> {
    let (n, elem) = (u64::from(ty.lanes().unwrap_or(0)), ty.lane_type());
    if *elem == Type::I1 {
        // SAFETY: the bytes of the image (the caller's contract).
        return (0..n).map(|i| u64::from(unsafe { ((address + i / 8) as *const u8).read() } >> (i % 8)) & 1).collect();
    }
    let size = elem.store_size();
    // SAFETY: lane i lies within the image.
    (0..n).map(|i| unsafe { memory::load(elem, address + i * size) }).collect()
}

/// The image (allocation size, zero-padded) of a vector of type `ty` with `lanes`.
pub fn image(ty: &Type, lanes: &[u64]) -> Vec<u8> {
    let mut bytes = vec![0u8; ty.alloc_size() as usize];
    let elem = ty.lane_type();
    if *elem == Type::I1 {
        for (i, lane) in lanes.iter().enumerate() {
            bytes[i / 8] |= ((lane & 1) as u8) << (i % 8);
        }
        return bytes;
    }
    let size = elem.store_size() as usize;
    for (i, &lane) in lanes.iter().enumerate() {
        // SAFETY: lane i's store size lies within the allocation size.
        unsafe { memory::store(elem, bytes.as_mut_ptr().add(i * size) as u64, lane) };
    }
    bytes
}

/// `llvm.vector.reduce.*` of `lanes` (of lane type `elem`), from `start` if it has one, in lane
/// order.
pub fn reduce(op: ReduceOp, elem: &Type, start: Option<u64>, lanes: &[u64], fused: bool) -> Result<u64, String> {
    let (mut acc, rest) = match start {
        Some(s) => (s, lanes),
        None => (lanes[0], &lanes[1..]),
    };
    for &lane in rest {
        acc = match op {
            ReduceOp::Binary(bop) => scalar::binary(bop, elem, acc, lane)?,
            ReduceOp::Op(iop) => scalar::intrinsic(iop, elem, &[acc, lane], fused),
        };
    }
    Ok(acc)
}

/// A lane-wise intrinsic: `columns` holds each operand's lanes (a scalar operand repeated).
pub fn intrinsic(op: IntrinsicOp, elem: &Type, columns: &[Vec<u64>], fused: bool) -> Vec<u64> {
    let n = columns.first().map_or(0, Vec::len);
    (0..n)
        .map(|i| {
            let operands: Vec<u64> = columns.iter().map(|c| c[i]).collect();
            scalar::intrinsic(op, elem, &operands, fused)
        })
        .collect()
}
