//! The in-memory IR: a strict subset of LLVM IR (LLVM 15+ syntax, opaque `ptr`).
//!
//! Text enters through [`parse`] (lexer + parser with positions), in-memory construction through
//! [`builder`]; both produce a [`Module`] that [`verify()`] checks and that prints back as LLVM text
//! through its `Display` impl. Nothing here knows of Cranelift: `lower` consumes a verified module.
//!
//! Layout: a [`Module`] owns globals and functions; a [`Function`] owns an arena of instructions
//! ([`InstId`]) and a list of blocks ([`BlockId`]) that order them. Operands are [`Value`]s: the result
//! of an instruction, a parameter, a constant, or the address of a global or function.

pub mod builder;
pub mod error;
pub mod explicit;
pub mod half;
pub mod intrinsics;
pub mod lexer;
pub mod parser;
pub mod points;
pub mod print;
pub mod statepoints;
pub mod verify;

pub use error::{IrError, Span};
pub use intrinsics::{FloatRoutine, Intrinsic, IntrinsicOp, LibraryRoutine, MathFunction, Overflow, ReduceOp};
pub use parser::{parse, parse_file};
pub use points::{PatchPointCall, PointCall};
pub use statepoints::{StatepointCall, TokenUse};
pub use verify::{verify, verify_all};

use std::fmt;
use std::sync::Arc;

/// Most scalars an aggregate *value* (a register value, not memory) may hold: the lowering keeps
/// one Cranelift value per scalar, and front ends only make small ones (call results, coerced
/// arguments); larger aggregates stay in memory.
pub const MAX_AGGREGATE_VALUE_SCALARS: u64 = 64;

/// Most lanes a vector (`<N x T>`) may have. The lowering keeps one Cranelift value per lane
/// (`lower::vectors`), so code size and compile time grow with N: at this limit, a function
/// passing, adding and recording a `<4096 x i64>` compiles in about a second (issue 27's notes);
/// LLVM's own tests use up to 1024 lanes (`stackmap-large-location-size.ll`).
pub const MAX_VECTOR_LANES: u64 = 4096;

/// Most bytes a vector may take (4096 lanes of 8 bytes): a live vector is recorded as one location,
/// whose size field has 16 bits.
pub const MAX_VECTOR_BYTES: u64 = 32768;

/// A first-class or aggregate type of the subset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `void`: the result type of instructions and functions that return nothing.
    Void,
    /// `iN`, an integer of 1 to 64 bits, or `i128`. Widths other than 1, 8, 16, 32, 64 and 128 take
    /// the layout of LLVM's data layouts: `ceil(N/8)` bytes stored, aligned as the next larger of
    /// i8/i16/i32/i64; `i128` takes 16 bytes aligned to 16.
    Int(u8),
    /// `half`: IEEE 754 half precision. Both targets compute it as LLVM legalises it: in `float`,
    /// rounded back to `half` after each operation.
    Half,
    /// `float`: IEEE 754 single precision.
    Float,
    /// `double`: IEEE 754 double precision.
    Double,
    /// `ptr addrspace(N)`: an opaque 64-bit pointer; `ptr` is address space 0. Address spaces only
    /// tell pointers apart (statepoint programs keep GC pointers in `addrspace(1)`); every one below
    /// 256 is the same flat memory on both targets.
    Ptr(u32),
    /// `token`: the result of `llvm.experimental.gc.statepoint`, used only by `gc.result` and
    /// `gc.relocate`; it has no size and no machine representation.
    Token,
    /// `[N x T]`: in globals, allocas and GEP source types.
    Array(u64, Box<Type>),
    /// A struct: literal (`{ T, ... }`, `<{ T, ... }>` packed) or identified (`%name`, defined by
    /// `%name = type ...`), shared so that copies of a type are cheap.
    Struct(Arc<StructType>),
    /// `<N x T>`: a fixed-width vector of `N` lanes of a scalar type `T` (`iN`, `half`, `float`,
    /// `double`, `ptr`). Operations work lane by lane; in memory it takes LLVM's layout: the lanes
    /// packed one after the other (`<N x i1>` one bit each), `ceil(N * bits / 8)` bytes stored,
    /// aligned to that size rounded up to a power of two.
    Vector(u32, Box<Type>),
}

/// The width an `iN` is held and laid out in (one fact, kept with the other per-target facts).
pub use crate::arch::container_bits;

/// A struct type and its layout under the x86-64/AArch64 Linux data layouts (which agree for every
/// type of the subset): each field at the next multiple of its alignment, the size rounded up to
/// the largest field alignment; packed structs have neither padding nor alignment.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructType {
    /// The identified type's name without `%`; `None` for a literal struct type.
    pub name: Option<String>,
    /// `<{ ... }>`.
    pub packed: bool,
    /// The field types; `None` for `type opaque`, which has no size and cannot be used by value.
    pub fields: Option<Vec<Type>>,
    offsets: Vec<u64>,
    size: u64,
    align: u64,
    depth: usize,
}

impl StructType {
    /// A struct type with `fields` (`None`: opaque), named for an identified type.
    pub fn new(name: Option<String>, packed: bool, fields: Option<Vec<Type>>) -> StructType {
        let (mut offset, mut align, mut depth) = (0u64, 1u64, 0usize);
        let mut offsets = Vec::new();
        for field in fields.iter().flatten() {
            let a = if packed { 1 } else { field.align() };
            offset = offset.saturating_add(a - 1) & !(a - 1);
            offsets.push(offset);
            offset = offset.saturating_add(field.alloc_size());
            align = align.max(a);
            depth = depth.max(field.depth());
        }
        let size = offset.saturating_add(align - 1) & !(align - 1);
        StructType { name, packed, fields, offsets, size, align, depth: depth + 1 }
    }
    /// The field types; empty for an opaque struct.
    pub fn field_types(&self) -> &[Type] {
        self.fields.as_deref().unwrap_or(&[])
    }
    /// The byte offset of each field.
    pub fn offsets(&self) -> &[u64] {
        &self.offsets
    }
    /// Whether this is `type opaque`.
    pub fn is_opaque(&self) -> bool {
        self.fields.is_none()
    }
}

impl fmt::Display for StructType {
    /// The type as written where it is used: `%name` for an identified type, else its body.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "%{}", print::quote_name(name)),
            None => self.fmt_body(f),
        }
    }
}

impl StructType {
    /// The body as written in a definition: `{ T, ... }`, `<{ ... }>`, `{}` or `opaque`.
    pub fn fmt_body(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(fields) = &self.fields else { return f.write_str("opaque") };
        let (open, close) = if self.packed { ("<{", "}>") } else { ("{", "}") };
        if fields.is_empty() {
            return write!(f, "{open}{close}");
        }
        f.write_str(open)?;
        for (i, t) in fields.iter().enumerate() {
            write!(f, "{}{t}", if i == 0 { " " } else { ", " })?;
        }
        write!(f, " {close}")
    }
}

impl Type {
    /// `i1`, the type of comparison results and branch conditions.
    pub const I1: Type = Type::Int(1);
    /// `i8`.
    pub const I8: Type = Type::Int(8);
    /// `i16`.
    pub const I16: Type = Type::Int(16);
    /// `i32`.
    pub const I32: Type = Type::Int(32);
    /// `i64`.
    pub const I64: Type = Type::Int(64);
    /// `i128`.
    pub const I128: Type = Type::Int(128);
    /// `ptr`: a pointer in address space 0.
    pub const PTR: Type = Type::Ptr(0);

    /// Whether this is `ptr` of any address space.
    pub fn is_ptr(&self) -> bool {
        matches!(self, Type::Ptr(_))
    }

    /// Whether this is `iN` of any width (`ptr` is not).
    pub fn is_int(&self) -> bool {
        matches!(self, Type::Int(_))
    }
    /// Whether this is `half`, `float` or `double`.
    pub fn is_float(&self) -> bool {
        matches!(self, Type::Half | Type::Float | Type::Double)
    }
    /// Integer, float or pointer: what a register holds.
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Int(_) | Type::Half | Type::Float | Type::Double | Type::Ptr(_))
    }
    /// The width N of an `iN`; `None` for every other type.
    pub fn int_bits(&self) -> Option<u8> {
        match self {
            Type::Int(b) => Some(*b),
            _ => None,
        }
    }
    /// An array or a struct: a value held in memory or, in registers, as its scalar leaves.
    pub fn is_aggregate(&self) -> bool {
        matches!(self, Type::Array(..) | Type::Struct(_))
    }
    /// Whether this is a vector `<N x T>`.
    pub fn is_vector(&self) -> bool {
        matches!(self, Type::Vector(..))
    }
    /// The lane type of a vector; the type itself otherwise. Lane-wise operations check this.
    pub fn lane_type(&self) -> &Type {
        match self {
            Type::Vector(_, elem) => elem,
            other => other,
        }
    }
    /// The number of lanes of a vector; `None` for every other type.
    pub fn lanes(&self) -> Option<u32> {
        match self {
            Type::Vector(n, _) => Some(*n),
            _ => None,
        }
    }
    /// `ty` with this type's shape: `<N x ty>` for a vector of N lanes, else `ty` (the result type
    /// of a lane-wise comparison or cast).
    pub fn with_lanes_of(&self, ty: Type) -> Type {
        match self {
            Type::Vector(n, _) => Type::Vector(*n, Box::new(ty)),
            _ => ty,
        }
    }
    /// Held in registers as several scalars: an aggregate (its leaves) or a vector (its lanes).
    pub fn is_split(&self) -> bool {
        self.is_aggregate() || self.is_vector()
    }
    /// The bits a vector's lanes take in memory, packed: `N` times the lane's width (an `iN` lane
    /// takes N bits, not its container's).
    fn vector_bits(n: u32, elem: &Type) -> u64 {
        let lane = elem.int_bits().map_or(elem.alloc_size() * 8, u64::from);
        u64::from(n) * lane
    }
    /// A literal struct type of `fields`.
    pub fn structure(fields: Vec<Type>) -> Type {
        Type::Struct(Arc::new(StructType::new(None, false, Some(fields))))
    }
    /// Allocation size in bytes under the x86-64/AArch64 Linux data layouts (i1 takes a byte): the
    /// store size rounded up to the alignment (an `i24` takes 4, an `i40` 8).
    pub fn alloc_size(&self) -> u64 {
        match self {
            Type::Void | Type::Token => 0,
            Type::Int(bits) => u64::from(container_bits(*bits) / 8),
            Type::Half => 2,
            Type::Float => 4,
            Type::Double | Type::Ptr(_) => 8,
            Type::Array(n, elem) => n.saturating_mul(elem.alloc_size()),
            Type::Struct(s) => s.size,
            Type::Vector(..) => self.store_size().next_multiple_of(self.align()),
        }
    }
    /// How many bytes a load or store of a scalar touches: `ceil(N/8)` for `iN` (an `i24` load reads
    /// 3 bytes, as LLVM's `getTypeStoreSize`); the allocation size for every other type.
    pub fn store_size(&self) -> u64 {
        match self {
            Type::Int(bits) => u64::from(bits.div_ceil(8)),
            Type::Vector(n, elem) => Type::vector_bits(*n, elem).div_ceil(8),
            other => other.alloc_size(),
        }
    }
    /// ABI alignment in bytes under the same data layouts.
    pub fn align(&self) -> u64 {
        match self {
            Type::Void | Type::Token => 1,
            Type::Array(_, elem) => elem.align(),
            Type::Struct(s) => s.align,
            Type::Vector(..) => self.store_size().max(1).next_power_of_two(),
            other => other.alloc_size().max(1),
        }
    }
    /// How many array and struct types nest in this one (0 for a scalar): every pass over a type
    /// recurses once per level, so the parser bounds it.
    pub fn depth(&self) -> usize {
        match self {
            Type::Array(_, elem) | Type::Vector(_, elem) => 1 + elem.depth(),
            Type::Struct(s) => s.depth,
            _ => 0,
        }
    }
    /// Whether the type has a size: not `void`, not an opaque struct, nor an aggregate holding one.
    pub fn is_sized(&self) -> bool {
        match self {
            Type::Void | Type::Token => false,
            Type::Array(_, elem) => elem.is_sized(),
            Type::Struct(s) => s.fields.as_ref().is_some_and(|f| f.iter().all(Type::is_sized)),
            _ => true,
        }
    }
    /// The type of member `index` of an aggregate (a struct's field or an array's element) and its
    /// byte offset; `None` out of range or for a scalar.
    pub fn member(&self, index: u64) -> Option<(&Type, u64)> {
        match self {
            Type::Array(n, elem) if index < *n => Some((elem, index.saturating_mul(elem.alloc_size()))),
            Type::Struct(s) => {
                let i = usize::try_from(index).ok()?;
                Some((s.field_types().get(i)?, s.offsets[i]))
            }
            _ => None,
        }
    }
    /// One `getelementptr` step past the first index: into struct field `index` (which must exist)
    /// or to array element `index` (any, as LLVM allows), with the byte offset it adds; `None` for a
    /// missing field or a scalar type.
    pub fn gep_step(&self, index: i64) -> Option<(&Type, i64)> {
        match self {
            Type::Array(_, elem) => Some((elem, index.wrapping_mul(elem.alloc_size() as i64))),
            // Lanes of whole bytes only (the verifier refuses the others): they sit at their size.
            Type::Vector(_, elem) => Some((elem, index.wrapping_mul(elem.store_size() as i64))),
            Type::Struct(s) => {
                let i = usize::try_from(index).ok()?;
                Some((s.field_types().get(i)?, s.offsets[i] as i64))
            }
            _ => None,
        }
    }
    /// Calls `f` with the offset and type of each scalar this type holds, in memory order: what an
    /// aggregate value is made of in registers.
    pub fn for_each_leaf(&self, base: u64, f: &mut impl FnMut(u64, &Type)) {
        match self {
            // Elements without scalars (`[N x {}]`) may be numerous: nothing to visit.
            Type::Array(_, elem) if elem.leaf_count() == 0 => {}
            Type::Array(n, elem) => {
                let size = elem.alloc_size();
                for i in 0..*n {
                    elem.for_each_leaf(base + i * size, f);
                }
            }
            Type::Struct(s) => {
                for (t, off) in s.field_types().iter().zip(&s.offsets) {
                    t.for_each_leaf(base + off, f);
                }
            }
            // The offsets of lanes narrower than a byte mean nothing: vector memory is packed (see
            // `Type::Vector`), and loads and stores of vectors lay lanes out themselves.
            Type::Vector(n, elem) => {
                for i in 0..u64::from(*n) {
                    f(base + i * elem.store_size(), elem);
                }
            }
            Type::Void | Type::Token => {}
            scalar => f(base, scalar),
        }
    }
    /// How many scalars [`Type::for_each_leaf`] visits, saturating.
    pub fn leaf_count(&self) -> u64 {
        match self {
            Type::Array(n, elem) => n.saturating_mul(elem.leaf_count()),
            Type::Struct(s) => s.field_types().iter().fold(0u64, |a, t| a.saturating_add(t.leaf_count())),
            Type::Vector(n, _) => u64::from(*n),
            Type::Void | Type::Token => 0,
            _ => 1,
        }
    }
}

/// Index of a global variable in [`Module::globals`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalId(pub u32);
/// Index of a function in [`Module::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);
/// Index of a block in [`Function::blocks`]; block 0 is the entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);
/// Index of an instruction in [`Function::insts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstId(pub u32);

/// An operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// The result of an instruction of the same function.
    Inst(InstId),
    /// The n-th parameter of the enclosing function.
    Param(u32),
    /// A constant, typed by the context it appears in.
    Const(Const),
    /// The address of a global variable.
    Global(GlobalId),
    /// The address of a function.
    Func(FuncId),
}

/// A constant operand. Its type is given by the context it appears in, as in LLVM text.
#[derive(Clone, Debug, PartialEq)]
pub enum Const {
    /// An integer, kept sign-extended from its width to 64 bits (`i8 255` is stored as -1); an
    /// `i128` whose value is in the range of `i64` too.
    Int(i64),
    /// An `i128` outside the range of `i64` (see [`Const::int`]): boxed, as such constants are rare
    /// and every other operand stays small.
    WideInt(Box<i128>),
    /// A float or double; floats are stored widened to f64, which is exact.
    Float(f64),
    /// `null` (ptr) or `zeroinitializer`.
    Zero,
    /// `undef`; lowered as zero, and recorded in stack maps as a fixed constant.
    Undef,
    /// `poison`; treated like `undef`.
    Poison,
    /// `inttoptr (i64 C to ptr)`.
    IntToPtr(i64),
    /// The address of a global or function plus a byte offset: `@g`, or a `getelementptr` constant
    /// expression over it, folded (it prints back as `getelementptr (i8, ptr @g, i64 OFFSET)`). The
    /// offset is within ±2 GiB, as any object's (this keeps constants, and so operands, small).
    Address(Symbol, i32),
    /// `{ T v, ... }`, `<{ ... }>`, `[T v, ...]` or `c"..."` (one `i8` per byte) for a struct or array
    /// type: the members in order (boxed, as they are rare beside scalar operands).
    Aggregate(Box<Vec<Const>>),
    /// `trunc (sub (ptrtoint @target, ptrtoint @base))` and the like: the distance from one address
    /// to another, as LLVM's relative lookup tables and relative vtables hold it (32-bit
    /// PC-relative data in objects). Boxed: rare, and twice an address's size.
    Relative(Box<RelativeAddress>),
    /// `blockaddress(@f, %bb)`: a label's address for computed goto. Its value is the block's
    /// number in [`Module::block_addresses`], from 1 (never null), not a code address: only
    /// `indirectbr` gives it meaning (and comparisons, which numbers keep), as LangRef allows.
    BlockAddress(Box<BlockAddress>),
    /// `sub (ptrtoint blockaddress(@f, %a), ptrtoint blockaddress(@f, %b))`, truncated or not: the
    /// distance between two labels' numbers (see [`Const::BlockAddress`]), so that `%b`'s address
    /// plus it is `%a`'s, as computed goto through offset tables relies on.
    LabelDifference(Box<(BlockAddress, BlockAddress)>),
}

/// The operand of `blockaddress`: a function and one of its blocks, by label.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockAddress {
    /// The function.
    pub function: FuncId,
    /// The block's label without `%` (its number for unnamed blocks).
    pub block: String,
}

/// The value of a relative reference: `target`'s address less `base`'s, plus `offset`.
#[derive(Clone, Debug, PartialEq)]
pub struct RelativeAddress {
    /// What the reference refers to.
    pub target: Symbol,
    /// The place it is relative to (in LLVM's tables, the table's start).
    pub base: Symbol,
    /// Added to the distance: the target's offset less the base's.
    pub offset: i32,
}

impl Const {
    /// Calls `f` on every `blockaddress` in the constant.
    pub fn for_each_block_address<'a>(&'a self, f: &mut impl FnMut(&'a BlockAddress)) {
        match self {
            Const::BlockAddress(b) => f(b),
            Const::LabelDifference(pair) => {
                f(&pair.0);
                f(&pair.1);
            }
            Const::Aggregate(items) => items.iter().for_each(|c| c.for_each_block_address(f)),
            _ => {}
        }
    }

    /// The integer constant `v` (already sign-extended from its width): `Int` when it fits in 64
    /// bits, so that one form stands for each value.
    pub fn int(v: i128) -> Const {
        match i64::try_from(v) {
            Ok(small) => Const::Int(small),
            Err(_) => Const::WideInt(Box::new(v)),
        }
    }
    /// The value of an integer constant, sign-extended from its width; `None` for other constants.
    pub fn int_value(&self) -> Option<i128> {
        match self {
            Const::Int(v) => Some(i128::from(*v)),
            Const::WideInt(v) => Some(**v),
            _ => None,
        }
    }
    /// Whether every byte of the constant is zero (`undef` and `poison` lower as zero).
    pub fn is_zero(&self) -> bool {
        match self {
            Const::Float(x) => x.to_bits() == 0,
            Const::Int(0) | Const::IntToPtr(0) | Const::Zero | Const::Undef | Const::Poison => true,
            Const::Aggregate(items) => items.iter().all(Const::is_zero),
            _ => false,
        }
    }
}

/// A global or a function, as the target of an address constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    /// A global variable.
    Global(GlobalId),
    /// A function.
    Func(FuncId),
}

/// Object-file placement of a function or global.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Placement {
    /// `section "name"`.
    pub section: Option<String>,
    /// `comdat` (the object's own name) or `comdat($name)`: the COMDAT group it belongs to.
    pub comdat: Option<String>,
    /// A function's `align N` in bytes (globals keep theirs in [`Global::align`]).
    pub align: Option<u64>,
    /// A global's `thread_local` (any TLS model): one copy per thread, in `.tdata`/`.tbss`.
    pub thread_local: bool,
}

/// Whether LLVM's ELF lowering makes a section of this name NOBITS (`getELFKindForNamedSection`):
/// `.bss`, `.sbss`, their `.`-suffixed forms and the linkonce spellings. Zeros placed there take no
/// file bytes; in any other named section they are stored.
pub fn is_bss_section(name: &str) -> bool {
    name == ".bss"
        || name == ".sbss"
        || [".bss.", ".sbss.", ".gnu.linkonce.b.", ".llvm.linkonce.b.", ".gnu.linkonce.sb.", ".llvm.linkonce.sb."]
            .iter()
            .any(|prefix| name.starts_with(prefix))
}

/// `$name = comdat <kind>`: a COMDAT group the linker keeps one copy of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comdat {
    /// The group's name (its signature symbol).
    pub name: String,
    /// The selection kind as written: `any`, `nodeduplicate`, `exactmatch`, `largest`, `samesize`.
    pub kind: String,
    /// Where it was declared.
    pub span: Span,
}

/// The linkage of a global or function, as far as the subset distinguishes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Linkage {
    /// No linkage keyword: visible to other objects; the only linkage a declaration may have.
    External,
    /// `internal`: a local symbol of the object.
    Internal,
    /// `private`: like `internal` here (a local symbol), printed back as `private`.
    Private,
    /// `weak`: a definition another object's may replace (a weak symbol).
    Weak,
    /// `weak_odr`: as `weak`, all definitions being equivalent.
    WeakOdr,
    /// `linkonce`: as `weak`, and discardable if unused (emitted as weak).
    LinkOnce,
    /// `linkonce_odr`: as `linkonce`, all definitions being equivalent.
    LinkOnceOdr,
    /// `common`: a zero-initialised global the linker merges with others of the name (a weak
    /// definition in `.bss`).
    Common,
    /// `extern_weak`: a declaration whose address is null where nothing defines it.
    ExternWeak,
    /// `available_externally`: a copy of a definition that another object emits; not emitted (calls
    /// and references go to the other object's symbol).
    AvailableExternally,
    /// `appending`: only `@llvm.used` and `@llvm.compiler.used`, lists of symbols to keep, which are
    /// all emitted anyway, `@llvm.global_ctors`/`dtors` ([`Module::static_functions`]) and
    /// `@llvm.global.annotations` (`__attribute__((annotate))`, for tools reading IR); not emitted
    /// themselves.
    Appending,
}

impl Linkage {
    /// The keyword, with the space that follows it (none for `External`).
    pub fn keyword(self) -> &'static str {
        match self {
            Linkage::External => "",
            Linkage::Internal => "internal ",
            Linkage::Private => "private ",
            Linkage::Weak => "weak ",
            Linkage::WeakOdr => "weak_odr ",
            Linkage::LinkOnce => "linkonce ",
            Linkage::LinkOnceOdr => "linkonce_odr ",
            Linkage::Common => "common ",
            Linkage::ExternWeak => "extern_weak ",
            Linkage::AvailableExternally => "available_externally ",
            Linkage::Appending => "appending ",
        }
    }

    /// Whether a definition of this linkage may be replaced by another object's (a weak symbol).
    pub fn is_weak(self) -> bool {
        matches!(
            self,
            Linkage::Weak
                | Linkage::WeakOdr
                | Linkage::LinkOnce
                | Linkage::LinkOnceOdr
                | Linkage::Common
                | Linkage::ExternWeak
        )
    }

    /// Whether a symbol of this linkage is local to its object.
    pub fn is_local(self) -> bool {
        matches!(self, Linkage::Internal | Linkage::Private)
    }
}

/// Calling conventions of the subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CallConv {
    /// The platform C convention (System V on x86-64, AAPCS64 on AArch64); no keyword in the text.
    #[default]
    C,
    /// `anyregcc`: patch point arguments and result in registers of the compiler's choosing.
    AnyReg,
    /// `fastcc`: LLVM's convention for calls it can see both ends of; on x86-64 and AArch64 it
    /// passes arguments and results as the C convention does, which is how it is compiled.
    Fast,
    /// `coldcc`: for rarely called functions; LLVM's x86-64 and AArch64 backends treat it as C.
    Cold,
    /// `tailcc`: guarantees `musttail` calls; compiled as C (a `tail`/`musttail` call stays a call).
    Tail,
    /// `explicitcc` (the proposal of `../shared/seeds/004`, not in LLVM): every parameter arrives in
    /// the register its `hwreg` names, the function's `noclobber` registers come back unchanged,
    /// and `llvm.experimental.retwr` sets chosen registers at the return. For code called from a
    /// patched shadow or region; see [`explicit`].
    Explicit,
}

impl CallConv {
    /// LLVM's number for the convention (`CallingConv::ID`), which statepoint records hold.
    pub fn llvm_id(self) -> u32 {
        match self {
            CallConv::C => 0,
            CallConv::Fast => 8,
            CallConv::Cold => 9,
            CallConv::AnyReg => 13,
            CallConv::Tail => 18,
            // LLVM never numbered it; `CallingConv::MaxID`, which names no convention. No record
            // holds it: the verifier keeps `explicitcc` off statepoints.
            CallConv::Explicit => 1023,
        }
    }
}

/// A global variable's initial contents.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// A scalar constant of the global's type.
    Scalar(Const),
    /// `[T v, T v, ...]` for an array type; nested arrays nest.
    Array(Vec<Init>),
    /// `{ T v, ... }` (or `<{ ... }>`) for a struct type: one initialiser per field.
    Struct(Vec<Init>),
    /// `c"..."` for an `[N x i8]`.
    Bytes(Vec<u8>),
    /// `zeroinitializer`.
    Zero,
}

impl Init {
    /// Calls `f` on every constant in the initial contents.
    pub fn for_each_const<'a>(&'a self, f: &mut impl FnMut(&'a Const)) {
        match self {
            Init::Scalar(c) => f(c),
            Init::Array(items) | Init::Struct(items) => items.iter().for_each(|i| i.for_each_const(f)),
            Init::Bytes(_) | Init::Zero => {}
        }
    }

    /// Whether the initial contents hold a relative reference ([`Const::Relative`]).
    pub fn has_relative(&self) -> bool {
        self.holds(&|c| matches!(c, Const::Relative(_)))
    }

    /// Whether the initial contents hold an address ([`Const::Address`]), which the loader fills
    /// in when the code is position-independent.
    pub fn has_address(&self) -> bool {
        self.holds(&|c| matches!(c, Const::Address(..)))
    }

    /// Whether a constant of the initial contents (a scalar, or one within an aggregate) is one
    /// `kind` picks.
    fn holds(&self, kind: &dyn Fn(&Const) -> bool) -> bool {
        fn within(c: &Const, kind: &dyn Fn(&Const) -> bool) -> bool {
            match c {
                Const::Aggregate(items) => items.iter().any(|c| within(c, kind)),
                c => kind(c),
            }
        }
        match self {
            Init::Scalar(c) => within(c, kind),
            Init::Array(items) | Init::Struct(items) => items.iter().any(|i| i.holds(kind)),
            Init::Bytes(_) | Init::Zero => false,
        }
    }

    /// Whether every byte of the initial contents is zero (`undef` and `poison` lower as zero): such a
    /// writable global goes to `.bss`, as llc-19 puts it.
    pub fn is_zero(&self) -> bool {
        match self {
            Init::Scalar(c) => c.is_zero(),
            Init::Array(items) | Init::Struct(items) => items.iter().all(Init::is_zero),
            Init::Bytes(bytes) => bytes.iter().all(|&b| b == 0),
            Init::Zero => true,
        }
    }
}

/// A global variable: `@name = [linkage] global|constant T init[, align A]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    /// Where the data goes in an object: `section`, `comdat` (`align` is [`Global::align`]).
    pub placement: Placement,
    /// The symbol name without `@` and quotes.
    pub name: String,
    /// The type of the contents (the global itself is a `ptr`).
    pub ty: Type,
    /// The initial contents; `None` for an `external global` declaration defined elsewhere.
    pub init: Option<Init>,
    /// `constant` rather than `global`.
    pub constant: bool,
    /// The symbol's linkage.
    pub linkage: Linkage,
    /// `align A` in bytes, if written; otherwise the type's ABI alignment applies.
    pub align: Option<u64>,
    /// Where the definition starts in the text; 0:0 when built in memory.
    pub span: Span,
}

/// The section of the globals that hold annotations for tools reading IR (the strings of
/// `@llvm.global.annotations` and `llvm.var.annotation`): llc-19 leaves it out of objects.
pub const METADATA_SECTION: &str = "llvm.metadata";

impl Global {
    /// Whether an output defines this global when it has an initial value: not when it is
    /// `available_externally` (defined elsewhere) or `appending` (`@llvm.used` and kin name
    /// symbols, they are not data), nor in an object (`object`) when it is in [`METADATA_SECTION`].
    pub fn is_emitted(&self, object: bool) -> bool {
        let elsewhere = matches!(self.linkage, Linkage::AvailableExternally | Linkage::Appending);
        let annotation = object && self.placement.section.as_deref() == Some(METADATA_SECTION);
        !(elsewhere || annotation)
    }
}

/// A function parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The parameter's type.
    pub ty: Type,
    /// The name without `%`, if the text named it.
    pub name: Option<String>,
    /// How the argument is passed when not as a plain value (`byval`, `sret`).
    pub abi: ParamAbi,
    /// `signext` / `zeroext`: the caller extends the argument to 32 bits.
    pub ext: Extension,
}

/// `signext` or `zeroext` on an integer parameter or result: part of the C ABI on both targets
/// (as llc-19 compiles it). The side that passes the value (the caller for an argument, the
/// callee for a result) extends an integer narrower than 32 bits to 32 bits; llc-19's other side
/// relies on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Extension {
    /// Neither attribute: the bits above the value's width are undefined.
    #[default]
    None,
    /// `signext`: copies of the sign bit.
    Sign,
    /// `zeroext`: zeros.
    Zero,
}

impl Extension {
    /// The attribute's name, as in the text (empty for none).
    pub fn keyword(self) -> &'static str {
        match self {
            Extension::None => "",
            Extension::Sign => "signext",
            Extension::Zero => "zeroext",
        }
    }

    /// This extension, or else `other` (LLVM takes a direct call's from the call site or the callee).
    pub fn or(self, other: Extension) -> Extension {
        if self == Extension::None {
            other
        } else {
            self
        }
    }
}

/// The extensions of a function type's parameters and result, as a call site's attributes say.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Extensions {
    /// Per fixed or variadic argument; empty when none is extended.
    pub params: Box<[Extension]>,
    /// The result's.
    pub ret: Extension,
}

/// Parameter attributes that change how an argument is passed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum ParamAbi {
    /// A value in registers or stack slots, by its type.
    #[default]
    Plain,
    /// `ptr byval(T)`: the caller passes a copy of the `T` the pointer points to in the argument
    /// area (x86-64); the callee receives the copy's address.
    ByVal(Type),
    /// `ptr sret(T)`: the address where the callee writes its `T` result, passed in the register the
    /// target reserves for it (`x8` on AArch64, the first argument register on x86-64).
    StructRet(Type),
    /// `ptr elementtype(FNTY)`: the function type of a statepoint's call target.
    ElementType(Box<Signature>),
    /// `hwreg(metadata !{!"name"})`: in the named register (an `explicitcc` parameter or argument,
    /// or an operand of `llvm.experimental.retwr`).
    Register(RegisterName),
    /// `nest` on a parameter of an external declaration or on a call's argument (a patch point's
    /// and a statepoint's calls pass theirs as the call site says): the static chain, which llc-19
    /// passes in R10 on x86-64 (x18 on AArch64), the other arguments as in the C convention. (A local
    /// function's `nest` parameter is `Plain`: all its callers are compiled with it.)
    Nest,
}

/// A register as an `explicitcc` function names it: LLVM's name on the target (`rax`, `xmm3`,
/// `x19`, `d0`), resolved by [`explicit::resolve`] once the target is known.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RegisterName {
    /// The name, as in the metadata string.
    pub name: String,
    /// Where it is named: the `hwreg` attribute, or the string in a `noclobber` list; 0:0 when
    /// built in memory.
    pub span: Span,
}

impl RegisterName {
    /// The register `name`, without source position.
    pub fn new(name: &str) -> RegisterName {
        RegisterName { name: name.to_string(), span: Span::default() }
    }
}

/// The `"frame-pointer"` function attribute (LLVM's `FramePointerKind`): which functions must set up a
/// frame pointer, for profilers and frame walkers that follow the chain of saved frame pointers
/// (clang writes `"all"` at `-O0` and with `-fno-omit-frame-pointer`, `"non-leaf"` with
/// `-momit-leaf-frame-pointer`). Without it, a function keeps one only where its code needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum FramePointerKind {
    /// `"none"` or no attribute.
    #[default]
    None,
    /// `"non-leaf"`: every function that calls.
    NonLeaf,
    /// `"all"`, and `"reserved"` (the register kept out of allocation: a frame set up in it keeps
    /// it too).
    All,
}

impl FramePointerKind {
    /// The attribute's value, or `None` for a value LLVM does not define.
    pub fn from_attribute(value: &str) -> Option<FramePointerKind> {
        Some(match value {
            "none" => FramePointerKind::None,
            "non-leaf" => FramePointerKind::NonLeaf,
            "all" | "reserved" => FramePointerKind::All,
            _ => return None,
        })
    }

    /// The attribute's value, `None` for the default (no attribute).
    pub fn attribute_value(self) -> Option<&'static str> {
        match self {
            FramePointerKind::None => None,
            FramePointerKind::NonLeaf => Some("non-leaf"),
            FramePointerKind::All => Some("all"),
        }
    }
}

/// `noclobber(metadata !{!"rax", ...})` on an `explicitcc` function: the registers it preserves.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct NoClobber {
    /// The registers, in order as written.
    pub registers: Vec<RegisterName>,
    /// Where the attribute is; 0:0 when built in memory.
    pub span: Span,
}

/// The call-site attributes `"statepoint-id"="N"` and `"statepoint-num-patch-bytes"="N"`: the ID
/// and patch bytes of the statepoint record llc-19 makes of a call with a `"deopt"` bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct StatepointDirectives {
    /// The record's ID (LLVM's default: 0xABCDEF0F).
    pub id: Option<u64>,
    /// Bytes of nops in place of the call.
    pub patch_bytes: Option<u32>,
}

impl StatepointDirectives {
    /// The attribute names, as in the text.
    pub const ID: &'static str = "statepoint-id";
    /// The attribute names, as in the text.
    pub const PATCH_BYTES: &'static str = "statepoint-num-patch-bytes";

    /// Sets the directive `key` (one of the two names) from its text `value`; `false` if the value
    /// is not a number of the directive's range.
    pub fn set(&mut self, key: &str, value: &str) -> bool {
        match key {
            Self::ID => value.parse().map(|v| self.id = Some(v)).is_ok(),
            Self::PATCH_BYTES => value.parse().map(|v| self.patch_bytes = Some(v)).is_ok(),
            _ => false,
        }
    }

    /// Each directive of `other` that is set replaces this one's.
    pub fn merge(&mut self, other: &StatepointDirectives) {
        self.id = other.id.or(self.id);
        self.patch_bytes = other.patch_bytes.or(self.patch_bytes);
    }
}

/// An operand bundle of a call: `"tag"(T v, ...)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Bundle {
    /// What the operands are for.
    pub tag: BundleTag,
    /// The typed operands, in order.
    pub operands: Vec<Operand>,
}

/// The operand bundles the subset knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BundleTag {
    /// `"deopt"`: values a runtime needs to resume in an interpreter; a statepoint records them.
    Deopt,
    /// `"gc-live"`: the pointers a collector may move at a statepoint; `gc.relocate` indexes them.
    GcLive,
    /// `"gc-transition"`: arguments of the code run around a statepoint's call (none on these
    /// targets: the operands are evaluated and not recorded, as llc-19 does).
    GcTransition,
}

impl BundleTag {
    /// Every tag with its name in the text.
    pub const ALL: [(BundleTag, &'static str); 3] =
        [(BundleTag::Deopt, "deopt"), (BundleTag::GcLive, "gc-live"), (BundleTag::GcTransition, "gc-transition")];

    /// The tag's name in the text.
    pub fn name(self) -> &'static str {
        BundleTag::ALL.iter().find(|(t, _)| *t == self).map_or("", |(_, n)| n)
    }
}

/// A basic block: a label and the instructions it runs, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The label without `%`; unnamed blocks get their number as text.
    pub name: String,
    /// Instructions in order; the last one is the terminator.
    pub insts: Vec<InstId>,
    /// Where the label is in the text, or the first instruction for an unlabelled block.
    pub span: Span,
}

/// An instruction in its function's arena: what it does, its result, and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct InstData {
    /// The opcode and operands.
    pub kind: Inst,
    /// The result type; `Void` for instructions without a result.
    pub ty: Type,
    /// The result's name without `%`, if any. Numbered values (`%3`) carry their number as text.
    pub name: Option<ValueName>,
    /// Where the instruction starts in the text (its result name, if any); 0:0 when built in memory.
    pub span: Span,
    /// Where each operand of [`Inst::for_each_value`] starts in the text, in the same order; empty for IR
    /// built in memory. The verifier points its errors at the offending operand with these.
    pub operand_spans: OperandSpans,
}

/// The operand positions of an instruction: most instructions have one or two operands, kept in
/// place rather than in an allocation each (which, with the names', was a tenth of reading a body).
pub type OperandSpans = smallvec::SmallVec<[Span; 2]>;

impl InstData {
    /// An instruction without source position, as the builder makes them.
    pub fn new(kind: Inst, ty: Type, name: Option<String>) -> InstData {
        InstData {
            kind,
            ty,
            name: name.map(ValueName::from),
            span: Span::default(),
            operand_spans: OperandSpans::new(),
        }
    }

    /// The position of the `i`-th operand, or of the instruction when unknown.
    pub fn operand_span(&self, i: usize) -> Span {
        self.operand_spans.get(i).copied().unwrap_or(self.span)
    }
}

/// An instruction result's name as written, without `%`. A module has one per instruction, nearly
/// all of them short: those are kept in place rather than in an allocation each (see [`OperandSpans`]).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ValueName(NameText);

/// Up to [`INLINE_NAME_BYTES`] bytes in place (and their length), longer names on the heap.
#[derive(Clone, PartialEq, Eq, Hash)]
enum NameText {
    Inline(u8, [u8; INLINE_NAME_BYTES]),
    Heap(Box<str>),
}

/// As long as a name can be and keep [`ValueName`] as small as a `String`.
const INLINE_NAME_BYTES: usize = 22;

impl From<&str> for ValueName {
    fn from(name: &str) -> ValueName {
        if name.len() > INLINE_NAME_BYTES {
            return ValueName(NameText::Heap(name.into()));
        }
        let mut bytes = [0; INLINE_NAME_BYTES];
        bytes[..name.len()].copy_from_slice(name.as_bytes());
        ValueName(NameText::Inline(name.len() as u8, bytes))
    }
}

impl From<String> for ValueName {
    fn from(name: String) -> ValueName {
        if name.len() > INLINE_NAME_BYTES {
            return ValueName(NameText::Heap(name.into_boxed_str()));
        }
        ValueName::from(name.as_str())
    }
}

/// A numbered result (`%7`) named by its number, without formatting it in an allocation.
impl From<u32> for ValueName {
    fn from(mut n: u32) -> ValueName {
        let mut digits = [0; 10];
        let mut start = digits.len();
        loop {
            start -= 1;
            digits[start] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let len = digits.len() - start;
        let mut bytes = [0; INLINE_NAME_BYTES];
        bytes[..len].copy_from_slice(&digits[start..]);
        ValueName(NameText::Inline(len as u8, bytes))
    }
}

impl std::ops::Deref for ValueName {
    type Target = str;
    fn deref(&self) -> &str {
        match &self.0 {
            // Whole `str`s go in, so the bytes are always UTF-8.
            NameText::Inline(len, bytes) => std::str::from_utf8(&bytes[..*len as usize]).unwrap_or_default(),
            NameText::Heap(name) => name,
        }
    }
}

impl fmt::Debug for ValueName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl fmt::Display for ValueName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

/// A function definition (`define`) or declaration (`declare`).
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Where the code goes in an object: `section`, `comdat`, `align`.
    pub placement: Placement,
    /// The symbol name without `@` and quotes; intrinsics keep their full `llvm.` name.
    pub name: String,
    /// The symbol's linkage.
    pub linkage: Linkage,
    /// The calling convention callers must use.
    pub cc: CallConv,
    /// `gc "NAME"`: the collector strategy whose statepoints the function may contain.
    pub gc: Option<String>,
    /// `noclobber(metadata !N)`: the registers an `explicitcc` function preserves.
    pub noclobber: Option<NoClobber>,
    /// `personality ptr @name`: the function the unwinder asks whether a landing pad of this
    /// function handles an exception (C++'s `__gxx_personality_v0`), by name.
    pub personality: Option<Personality>,
    /// `"frame-pointer"`, on the function or in one of its attribute groups.
    pub frame_pointer: FramePointerKind,
    /// The return type; `Void` for none.
    pub ret: Type,
    /// `signext` / `zeroext` on the result: the callee extends it to 32 bits.
    pub ret_ext: Extension,
    /// The fixed parameters, in order; [`Value::Param`] indexes them.
    pub params: Vec<Param>,
    /// Whether the parameter list ends with `...`.
    pub varargs: bool,
    /// Empty for a declaration.
    pub blocks: Vec<Block>,
    /// Every instruction of the function, indexed by [`InstId`]; the blocks give their order.
    pub insts: Vec<InstData>,
    /// Where the `define` or `declare` starts in the text; 0:0 when built in memory.
    pub span: Span,
}

impl Function {
    /// Whether this is a `declare` (no body).
    pub fn is_declaration(&self) -> bool {
        self.blocks.is_empty()
    }
    /// The instruction `id`.
    ///
    /// # Panics
    /// If `id` is not an instruction of this function.
    pub fn inst(&self, id: InstId) -> &InstData {
        &self.insts[id.0 as usize]
    }
    /// The block `id`.
    ///
    /// # Panics
    /// If `id` is not a block of this function.
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.0 as usize]
    }
    /// Whether the function's code is emitted: a definition that is not `available_externally`.
    pub fn emits_code(&self) -> bool {
        !self.is_declaration() && self.linkage != Linkage::AvailableExternally
    }
    /// Which intrinsic this function is, by name.
    pub fn intrinsic(&self) -> Option<Intrinsic> {
        Intrinsic::from_name(&self.name)
    }
}

/// A function's `personality ptr @name`.
#[derive(Clone, Debug, PartialEq)]
pub struct Personality {
    /// The personality function's symbol name, without `@`.
    pub name: String,
    /// Where `personality` is written.
    pub span: Span,
}

/// The two destinations of an `invoke`: a call that ends its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InvokeDests {
    /// `to label %normal`: where a return continues.
    pub normal: BlockId,
    /// `unwind label %pad`: the landing pad an exception unwinds to.
    pub unwind: BlockId,
}

/// A clause of a `landingpad`: which exceptions it stops at.
#[derive(Clone, Debug, PartialEq)]
pub enum Clause {
    /// `catch ptr @typeinfo` (or `ptr null`: every exception).
    Catch(Operand),
    /// `filter [N x ptr] [...]`: the exceptions that may pass; any other stops here (C++'s
    /// dynamic exception specifications).
    Filter(Operand),
}

impl Clause {
    /// The clause's operand.
    pub fn operand(&self) -> &Operand {
        match self {
            Clause::Catch(o) | Clause::Filter(o) => o,
        }
    }

    /// The clause's operand, to rewrite it.
    pub fn operand_mut(&mut self) -> &mut Operand {
        match self {
            Clause::Catch(o) | Clause::Filter(o) => o,
        }
    }
}

/// Binary operators; integer ones wrap modulo 2^N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `add`: wrapping addition.
    Add,
    /// `sub`: wrapping subtraction.
    Sub,
    /// `mul`: wrapping multiplication, low N bits.
    Mul,
    /// `sdiv`: signed division, rounding toward zero.
    SDiv,
    /// `udiv`: unsigned division.
    UDiv,
    /// `srem`: signed remainder, with the sign of the dividend.
    SRem,
    /// `urem`: unsigned remainder.
    URem,
    /// `and`: bitwise and.
    And,
    /// `or`: bitwise or.
    Or,
    /// `xor`: bitwise exclusive or.
    Xor,
    /// `shl`: shift left.
    Shl,
    /// `lshr`: logical shift right, filling with zeros.
    LShr,
    /// `ashr`: arithmetic shift right, filling with the sign bit.
    AShr,
    /// `fadd`: floating-point addition.
    FAdd,
    /// `fsub`: floating-point subtraction.
    FSub,
    /// `fmul`: floating-point multiplication.
    FMul,
    /// `fdiv`: floating-point division.
    FDiv,
    /// `frem`: floating-point remainder, with the sign of the dividend (C `fmod`).
    FRem,
}

impl BinOp {
    /// Whether the operator takes `float`/`double` operands (`fadd` ... `frem`).
    pub fn is_float(self) -> bool {
        matches!(self, BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv | BinOp::FRem)
    }
    /// The opcode as written in LLVM text, such as `"sdiv"`.
    pub fn mnemonic(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "add",
            Sub => "sub",
            Mul => "mul",
            SDiv => "sdiv",
            UDiv => "udiv",
            SRem => "srem",
            URem => "urem",
            And => "and",
            Or => "or",
            Xor => "xor",
            Shl => "shl",
            LShr => "lshr",
            AShr => "ashr",
            FAdd => "fadd",
            FSub => "fsub",
            FMul => "fmul",
            FDiv => "fdiv",
            FRem => "frem",
        }
    }
}

/// `icmp` predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntPred {
    /// `eq`: equal.
    Eq,
    /// `ne`: not equal.
    Ne,
    /// `ugt`: unsigned greater than.
    Ugt,
    /// `uge`: unsigned greater or equal.
    Uge,
    /// `ult`: unsigned less than.
    Ult,
    /// `ule`: unsigned less or equal.
    Ule,
    /// `sgt`: signed greater than.
    Sgt,
    /// `sge`: signed greater or equal.
    Sge,
    /// `slt`: signed less than.
    Slt,
    /// `sle`: signed less or equal.
    Sle,
}

/// `fcmp` predicates. Ordered (`o..`) ones are false if either operand is NaN, unordered (`u..`)
/// ones are true.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatPred {
    /// `false`: always false.
    False,
    /// `oeq`: ordered and equal.
    Oeq,
    /// `ogt`: ordered and greater than.
    Ogt,
    /// `oge`: ordered and greater or equal.
    Oge,
    /// `olt`: ordered and less than.
    Olt,
    /// `ole`: ordered and less or equal.
    Ole,
    /// `one`: ordered and not equal.
    One,
    /// `ord`: neither operand is NaN.
    Ord,
    /// `ueq`: unordered or equal.
    Ueq,
    /// `ugt`: unordered or greater than.
    Ugt,
    /// `uge`: unordered or greater or equal.
    Uge,
    /// `ult`: unordered or less than.
    Ult,
    /// `ule`: unordered or less or equal.
    Ule,
    /// `une`: unordered or not equal.
    Une,
    /// `uno`: either operand is NaN.
    Uno,
    /// `true`: always true.
    True,
}

/// Conversion opcodes: `<op> <from> <val> to <to>`, the target type being the result type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    /// `zext`: widen an integer, filling with zeros.
    ZExt,
    /// `sext`: widen an integer, filling with the sign bit.
    SExt,
    /// `trunc`: narrow an integer to its low bits.
    Trunc,
    /// `sitofp`: signed integer to floating point.
    SIToFP,
    /// `uitofp`: unsigned integer to floating point.
    UIToFP,
    /// `fptosi`: floating point to signed integer, rounding toward zero.
    FPToSI,
    /// `fptoui`: floating point to unsigned integer, rounding toward zero.
    FPToUI,
    /// `fpext`: `float` to `double`.
    FPExt,
    /// `fptrunc`: `double` to `float`, rounding to nearest.
    FPTrunc,
    /// `bitcast`: reinterpret the bits as another type of the same size.
    BitCast,
    /// `ptrtoint`: a pointer's address as an integer.
    PtrToInt,
    /// `inttoptr`: an integer as a pointer.
    IntToPtr,
    /// `addrspacecast`: the same address as a pointer of another address space.
    AddrSpaceCast,
}

/// A typed operand, as in `i64 %x`.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    /// The type written before the value.
    pub ty: Type,
    /// The value.
    pub value: Value,
}

/// The instructions of the subset. Operand types are explicit where LLVM text writes them; the
/// result type lives in [`InstData::ty`].
#[derive(Clone, Debug, PartialEq)]
pub enum Inst {
    /// Integer or float binary operation; both operands have type `InstData::ty`.
    Binary {
        /// The operator.
        op: BinOp,
        /// The left operand.
        lhs: Value,
        /// The right operand (the shift amount for shifts, the divisor for divisions).
        rhs: Value,
    },
    /// `fneg T val`: flips the sign bit; the operand has the result's type.
    FNeg {
        /// The operand.
        val: Value,
    },
    /// Result `i1`; `ty` is the operands' type (integer or ptr).
    ICmp {
        /// The predicate.
        pred: IntPred,
        /// The operands' type.
        ty: Type,
        /// The left operand.
        lhs: Value,
        /// The right operand.
        rhs: Value,
    },
    /// `fcmp pred T lhs, rhs`: result `i1`; `ty` is the operands' type (`float` or `double`).
    FCmp {
        /// The predicate.
        pred: FloatPred,
        /// The operands' type.
        ty: Type,
        /// The left operand.
        lhs: Value,
        /// The right operand.
        rhs: Value,
    },
    /// `select i1 cond, T a, T b`: `a` if `cond` is 1, else `b`; both have the result's type. With a
    /// vector condition `<N x i1>` (of a vector result), each lane is chosen by its own.
    Select {
        /// Whether the condition is a vector, choosing lane by lane.
        lanewise: bool,
        /// The `i1` (or `<N x i1>`) condition.
        cond: Value,
        /// The result when `cond` is 1.
        if_true: Value,
        /// The result when `cond` is 0.
        if_false: Value,
    },
    /// `<op> from val to T`; the target type is the result type.
    Cast {
        /// The conversion.
        op: CastOp,
        /// The operand's type.
        from: Type,
        /// The operand.
        val: Value,
    },
    /// `alloca T[, i64 N][, align A]`; the result is a ptr.
    Alloca {
        /// The element type `T`.
        ty: Type,
        /// The element count `N`, if given (one element otherwise).
        count: Option<Operand>,
        /// `align A` in bytes, if given; the slot is aligned to at least `T`'s ABI alignment anyway.
        align: Option<u64>,
    },
    /// `load [volatile] T, ptr p[, align A]`; `T` is the result type.
    Load {
        /// The address loaded from.
        ptr: Value,
        /// `align A` in bytes, if given.
        align: Option<u64>,
        /// `load volatile`.
        volatile: bool,
        /// `load atomic ... <ordering>`.
        atomic: Option<Ordering>,
    },
    /// `store [volatile] T v, ptr p[, align A]`; no result.
    Store {
        /// The typed value stored.
        val: Operand,
        /// The address stored to.
        ptr: Value,
        /// `align A` in bytes, if given.
        align: Option<u64>,
        /// `store volatile`.
        volatile: bool,
        /// `store atomic ... <ordering>`.
        atomic: Option<Ordering>,
    },
    /// `atomicrmw [volatile] <op> ptr <ptr>, <ty> <val> <ordering>`: the old value; the result type
    /// is `val`'s.
    AtomicRmw {
        /// The operation.
        op: RmwOp,
        /// The address.
        ptr: Value,
        /// The operand.
        val: Operand,
        /// The memory ordering.
        ordering: Ordering,
    },
    /// `cmpxchg [weak] ptr <ptr>, <ty> <cmp>, <ty> <new> <success> <failure>`: `{ ty, i1 }`, the old
    /// value and whether it equalled `cmp` (and `new` was stored). `weak` may fail spuriously; it
    /// never does here.
    CmpXchg {
        /// The address.
        ptr: Value,
        /// The expected value.
        cmp: Operand,
        /// The replacement, of `cmp`'s type.
        new: Value,
        /// The ordering on success.
        success: Ordering,
        /// The ordering on failure.
        failure: Ordering,
    },
    /// `fence <ordering>`.
    Fence {
        /// The memory ordering.
        ordering: Ordering,
    },
    /// `freeze <ty> <val>`: `val`, with `undef` or `poison` fixed to some value (0 here).
    Freeze {
        /// The operand, of the instruction's type.
        val: Value,
    },
    /// `getelementptr [inbounds] T, ptr base, idx...`
    Gep {
        /// `inbounds` was written.
        inbounds: bool,
        /// The source element type `T` the first index steps over.
        source: Type,
        /// The base pointer.
        base: Value,
        /// The typed indices, outermost first; the first scales by `T`'s size, later ones step into arrays.
        indices: Vec<Operand>,
        /// The base is a vector of pointers (the result's type). With it or with any vector index
        /// the result is a vector of pointers, each lane computed from that lane of the vector
        /// operands and the scalar ones (LLVM's vector `getelementptr`).
        vector_base: bool,
    },
    /// `extractvalue T agg, idx...`: the member of an aggregate value at constant indices; the
    /// result type is that member's.
    ExtractValue {
        /// The aggregate operand.
        agg: Operand,
        /// Member indices, outermost first.
        indices: Vec<u32>,
    },
    /// `insertvalue T agg, U val, idx...`: `agg` (of the result type) with one member replaced.
    InsertValue {
        /// The aggregate operand, of the result type.
        agg: Value,
        /// The new member value.
        val: Operand,
        /// Member indices, outermost first.
        indices: Vec<u32>,
    },
    /// `extractelement <N x T> vec, iM index`: lane `index` (a constant or not) of a vector; the
    /// result type is `T`. An index past the last lane is poison (0 here).
    ExtractElement {
        /// The vector.
        vec: Operand,
        /// The lane number.
        index: Operand,
    },
    /// `insertelement <N x T> vec, T val, iM index`: `vec` (of the result type) with lane `index`
    /// replaced by `val`; an index past the last lane gives poison (`vec` unchanged here).
    InsertElement {
        /// The vector, of the result type.
        vec: Value,
        /// The new lane, of the lane type.
        val: Value,
        /// The lane number.
        index: Operand,
    },
    /// `shufflevector <N x T> a, <N x T> b, <M x i32> mask`: `<M x T>` whose lane `i` is lane
    /// `mask[i]` of `a` and `b` joined (`a`'s lanes first), or poison for a `poison`/`undef` lane.
    ShuffleVector {
        /// The first vector; its type is `b`'s too.
        a: Operand,
        /// The second vector.
        b: Value,
        /// The mask's lanes: an index into the `2N` lanes of `a` and `b`, or `None` for poison.
        mask: Vec<Option<u32>>,
    },
    /// `phi T [v, %pred], ...`: one entry per predecessor edge.
    Phi {
        /// The value flowing in from each predecessor block.
        incoming: Vec<(Value, BlockId)>,
    },
    /// A call; `sig` is the callee's type as written (`ret (params...)`), args are typed.
    Call {
        /// The calling convention written at the call site.
        cc: CallConv,
        /// [`Value::Func`] for a direct call, any pointer value for an indirect one.
        callee: Value,
        /// The callee's function type.
        sig: Signature,
        /// The typed arguments, including the varargs part.
        args: Vec<Operand>,
        /// The `tail`/`musttail`/`notail` marker.
        tail: TailKind,
        /// Operand bundles (`[ "deopt"(...), "gc-live"(...) ]`); empty for most calls.
        bundles: Box<[Bundle]>,
        /// `"statepoint-id"` and `"statepoint-num-patch-bytes"` of a call with a `"deopt"` bundle.
        directives: Option<Box<StatepointDirectives>>,
        /// `invoke ... to label %a unwind label %b`: the call ends its block; `None` for `call`.
        invoke: Option<InvokeDests>,
    },
    /// `landingpad T [cleanup] clauses...`: where an exception unwinding from an `invoke` lands; its
    /// value (`T` is `{ ptr, i32 }`) is the exception object and the selector the personality chose.
    LandingPad {
        /// `cleanup`: land for every exception, to run destructors and `resume`.
        cleanup: bool,
        /// The clauses, in order.
        clauses: Vec<Clause>,
    },
    /// `resume T val`: unwinding goes on with a landing pad's value.
    Resume {
        /// The landing pad's value.
        val: Operand,
    },
    /// `br label %dest`.
    Br {
        /// The block jumped to.
        dest: BlockId,
    },
    /// `br i1 cond, label %t, label %f`.
    CondBr {
        /// The `i1` condition.
        cond: Value,
        /// The block jumped to when `cond` is 1.
        if_true: BlockId,
        /// The block jumped to when `cond` is 0.
        if_false: BlockId,
    },
    /// `switch T val, label %default [ T c, label %b ... ]`.
    Switch {
        /// The integer type of `val` and the cases.
        ty: Type,
        /// The value switched on.
        val: Value,
        /// The block jumped to when no case matches.
        default: BlockId,
        /// Case values, sign-extended from `ty` to 64 bits, with their blocks.
        cases: Vec<(i64, BlockId)>,
    },
    /// `indirectbr ptr addr, [label %a, ...]`: a jump to `addr`, a `blockaddress` of this function
    /// that is one of `dests`.
    IndirectBr {
        /// The block's address.
        addr: Value,
        /// The blocks it may be.
        dests: Vec<BlockId>,
    },
    /// `ret T val` or `ret void`.
    Ret {
        /// The typed return value; `None` for `ret void`.
        val: Option<Operand>,
    },
    /// `unreachable`: control never gets here.
    Unreachable,
    /// `call void asm sideeffect "", "~{rax},~{memory},..."()`: inline asm whose template is empty or
    /// only `nop`s, with clobbers, as LLVM's tests write to push values out of registers. The
    /// code is the nops; the names are checked against the target when the function is lowered.
    /// With an empty template it may also name register outputs and inputs
    /// (`call <2 x double> asm sideeffect "", "={xmm2}"()`, `call void asm "", "{r8}"(i64 %a)`),
    /// as LLVM's tests write to pin values in registers: no code reads the inputs, and the output is
    /// whatever the register held, a value no program can depend on (lowered as `freeze poison`).
    ClobberAsm {
        /// The clobbered names as written between `~{` and `}`: registers, `memory`, `dirflag`, ...
        clobbers: Vec<RegisterName>,
        /// How many `nop` instructions the template has (0 for `""`).
        nops: u32,
        /// The register named by an output constraint `={reg}` (only with an empty template): the
        /// call's result.
        output: Option<RegisterName>,
        /// Each input constraint's register `{reg}` and its operand, in order.
        inputs: Vec<(RegisterName, Operand)>,
    },
}

/// The memory ordering of an atomic instruction (a `syncscope` is accepted and has no effect: the
/// code is the same for both scopes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ordering {
    /// `unordered`.
    Unordered,
    /// `monotonic`.
    Monotonic,
    /// `acquire`.
    Acquire,
    /// `release`.
    Release,
    /// `acq_rel`.
    AcqRel,
    /// `seq_cst`.
    SeqCst,
}

impl Ordering {
    /// The ordering's keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Ordering::Unordered => "unordered",
            Ordering::Monotonic => "monotonic",
            Ordering::Acquire => "acquire",
            Ordering::Release => "release",
            Ordering::AcqRel => "acq_rel",
            Ordering::SeqCst => "seq_cst",
        }
    }
}

/// The operation of an `atomicrmw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RmwOp {
    /// `xchg`: store the operand.
    Xchg,
    /// `add`.
    Add,
    /// `sub`.
    Sub,
    /// `and`.
    And,
    /// `nand`: `!(old & val)`.
    Nand,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `max`: signed.
    Max,
    /// `min`: signed.
    Min,
    /// `umax`.
    UMax,
    /// `umin`.
    UMin,
}

impl RmwOp {
    /// Every operation, with its keyword.
    pub const ALL: [(RmwOp, &'static str); 11] = [
        (RmwOp::Xchg, "xchg"),
        (RmwOp::Add, "add"),
        (RmwOp::Sub, "sub"),
        (RmwOp::And, "and"),
        (RmwOp::Nand, "nand"),
        (RmwOp::Or, "or"),
        (RmwOp::Xor, "xor"),
        (RmwOp::Max, "max"),
        (RmwOp::Min, "min"),
        (RmwOp::UMax, "umax"),
        (RmwOp::UMin, "umin"),
    ];

    /// The operation's keyword.
    pub fn keyword(self) -> &'static str {
        RmwOp::ALL.iter().find(|(op, _)| *op == self).map_or("", |(_, k)| k)
    }
}

/// The marker before `call`. Lowering compiles every call as an ordinary call; the marker is kept so
/// that the module prints back as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TailKind {
    /// No marker.
    #[default]
    None,
    /// `tail call`.
    Tail,
    /// `musttail call`.
    MustTail,
    /// `notail call`.
    NoTail,
}

/// A function type: `ret (params[, ...])`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    /// The return type; `Void` for none.
    pub ret: Type,
    /// The fixed parameter types.
    pub params: Vec<Type>,
    /// Whether the list ends with `...`.
    pub varargs: bool,
    /// How each fixed parameter is passed, as the call site's attributes say; empty when every one
    /// is [`ParamAbi::Plain`].
    pub abi: Box<[ParamAbi]>,
    /// `signext` / `zeroext` on the arguments and the result, as the call site's attributes say.
    pub ext: Extensions,
}

impl Signature {
    /// How fixed parameter `i` is passed.
    pub fn param_abi(&self, i: usize) -> &ParamAbi {
        self.abi.get(i).unwrap_or(&ParamAbi::Plain)
    }
    /// How argument `i` is extended.
    pub fn param_ext(&self, i: usize) -> Extension {
        self.ext.params.get(i).copied().unwrap_or_default()
    }
}

impl Inst {
    /// Whether this ends a block: `br`, `switch`, `ret`, `unreachable`, `invoke` or `resume`.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            Inst::Br { .. }
                | Inst::CondBr { .. }
                | Inst::Switch { .. }
                | Inst::IndirectBr { .. }
                | Inst::Ret { .. }
                | Inst::Resume { .. }
                | Inst::Unreachable
                | Inst::Call { invoke: Some(_), .. }
        )
    }

    /// Blocks this terminator may transfer control to.
    pub fn successors(&self) -> Vec<BlockId> {
        match self {
            Inst::Br { dest } => vec![*dest],
            Inst::CondBr { if_true, if_false, .. } => vec![*if_true, *if_false],
            Inst::IndirectBr { dests, .. } => dests.clone(),
            Inst::Switch { default, cases, .. } => {
                let mut v = vec![*default];
                v.extend(cases.iter().map(|c| c.1));
                v
            }
            Inst::Call { invoke: Some(d), .. } => vec![d.normal, d.unwind],
            _ => Vec::new(),
        }
    }

    /// Calls `f` on every value operand, in the order of [`Inst::for_each_value`], to change it.
    pub fn for_each_value_mut(&mut self, mut f: impl FnMut(&mut Value)) {
        match self {
            Inst::Binary { lhs, rhs, .. } | Inst::ICmp { lhs, rhs, .. } | Inst::FCmp { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            Inst::FNeg { val } | Inst::Cast { val, .. } | Inst::Freeze { val } => f(val),
            Inst::Select { cond, if_true, if_false, .. } => {
                f(cond);
                f(if_true);
                f(if_false);
            }
            Inst::Alloca { count, .. } => count.iter_mut().for_each(|c| f(&mut c.value)),
            Inst::Load { ptr, .. } => f(ptr),
            Inst::Store { val, ptr, .. } => {
                f(&mut val.value);
                f(ptr);
            }
            Inst::AtomicRmw { ptr, val, .. } => {
                f(ptr);
                f(&mut val.value);
            }
            Inst::CmpXchg { ptr, cmp, new, .. } => {
                f(ptr);
                f(&mut cmp.value);
                f(new);
            }
            Inst::ExtractValue { agg, .. } => f(&mut agg.value),
            Inst::InsertValue { agg, val, .. } => {
                f(agg);
                f(&mut val.value);
            }
            Inst::ExtractElement { vec, index } => {
                f(&mut vec.value);
                f(&mut index.value);
            }
            Inst::InsertElement { vec, val, index } => {
                f(vec);
                f(val);
                f(&mut index.value);
            }
            Inst::ShuffleVector { a, b, .. } => {
                f(&mut a.value);
                f(b);
            }
            Inst::Gep { base, indices, .. } => {
                f(base);
                indices.iter_mut().for_each(|i| f(&mut i.value));
            }
            Inst::Phi { incoming } => incoming.iter_mut().for_each(|i| f(&mut i.0)),
            Inst::Call { callee, args, .. } => {
                f(callee);
                args.iter_mut().for_each(|a| f(&mut a.value));
            }
            Inst::CondBr { cond, .. } => f(cond),
            Inst::Switch { val, .. } | Inst::IndirectBr { addr: val, .. } => f(val),
            Inst::Ret { val } => val.iter_mut().for_each(|v| f(&mut v.value)),
            Inst::LandingPad { clauses, .. } => clauses.iter_mut().for_each(|c| f(&mut c.operand_mut().value)),
            Inst::Resume { val } => f(&mut val.value),
            Inst::ClobberAsm { inputs, .. } => inputs.iter_mut().for_each(|i| f(&mut i.1.value)),
            Inst::Br { .. } | Inst::Fence { .. } | Inst::Unreachable => {}
        }
    }

    /// Calls `f` on every block this instruction names: successors and phi predecessors.
    pub fn for_each_block(&self, mut f: impl FnMut(BlockId)) {
        match self {
            Inst::Br { dest } => f(*dest),
            Inst::CondBr { if_true, if_false, .. } => {
                f(*if_true);
                f(*if_false);
            }
            Inst::Switch { default, cases, .. } => {
                f(*default);
                cases.iter().for_each(|c| f(c.1));
            }
            Inst::IndirectBr { dests, .. } => dests.iter().for_each(|d| f(*d)),
            Inst::Phi { incoming } => incoming.iter().for_each(|i| f(i.1)),
            Inst::Call { invoke: Some(d), .. } => {
                f(d.normal);
                f(d.unwind);
            }
            _ => {}
        }
    }

    /// [`Inst::for_each_block`], to rewrite the blocks.
    pub fn for_each_block_mut(&mut self, mut f: impl FnMut(&mut BlockId)) {
        match self {
            Inst::Br { dest } => f(dest),
            Inst::CondBr { if_true, if_false, .. } => {
                f(if_true);
                f(if_false);
            }
            Inst::Switch { default, cases, .. } => {
                f(default);
                cases.iter_mut().for_each(|c| f(&mut c.1));
            }
            Inst::IndirectBr { dests, .. } => dests.iter_mut().for_each(f),
            Inst::Phi { incoming } => incoming.iter_mut().for_each(|i| f(&mut i.1)),
            Inst::Call { invoke: Some(d), .. } => {
                f(&mut d.normal);
                f(&mut d.unwind);
            }
            _ => {}
        }
    }

    /// Calls `f` with every value operand, in textual order (no list is built: module-wide scans call
    /// it for every instruction).
    pub fn for_each_value<'v>(&'v self, mut f: impl FnMut(&'v Value)) {
        match self {
            Inst::Binary { lhs, rhs, .. } | Inst::ICmp { lhs, rhs, .. } | Inst::FCmp { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            Inst::FNeg { val } | Inst::Cast { val, .. } | Inst::Freeze { val } => f(val),
            Inst::Select { cond, if_true, if_false, .. } => [cond, if_true, if_false].into_iter().for_each(f),
            Inst::ExtractElement { vec, index } => [&vec.value, &index.value].into_iter().for_each(f),
            Inst::InsertElement { vec, val, index } => [vec, val, &index.value].into_iter().for_each(f),
            Inst::ShuffleVector { a, b, .. } => [&a.value, b].into_iter().for_each(f),
            Inst::Alloca { count, .. } => count.iter().for_each(|c| f(&c.value)),
            Inst::Load { ptr, .. } => f(ptr),
            Inst::Store { val, ptr, .. } => [&val.value, ptr].into_iter().for_each(f),
            Inst::AtomicRmw { ptr, val, .. } => [ptr, &val.value].into_iter().for_each(f),
            Inst::CmpXchg { ptr, cmp, new, .. } => [ptr, &cmp.value, new].into_iter().for_each(f),
            Inst::ExtractValue { agg, .. } => f(&agg.value),
            Inst::InsertValue { agg, val, .. } => [agg, &val.value].into_iter().for_each(f),
            Inst::Gep { base, indices, .. } => {
                f(base);
                indices.iter().for_each(|i| f(&i.value));
            }
            Inst::Phi { incoming } => incoming.iter().for_each(|i| f(&i.0)),
            Inst::Call { callee, args, .. } => {
                f(callee);
                args.iter().for_each(|a| f(&a.value));
            }
            Inst::CondBr { cond, .. } => f(cond),
            Inst::Switch { val, .. } => f(val),
            Inst::IndirectBr { addr, .. } => f(addr),
            Inst::Ret { val } => val.iter().for_each(|v| f(&v.value)),
            Inst::LandingPad { clauses, .. } => clauses.iter().for_each(|c| f(&c.operand().value)),
            Inst::Resume { val } => f(&val.value),
            Inst::ClobberAsm { inputs, .. } => inputs.iter().for_each(|i| f(&i.1.value)),
            Inst::Br { .. } | Inst::Fence { .. } | Inst::Unreachable => {}
        }
    }
}

/// A whole translation unit.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Module {
    /// `$name = comdat <kind>` declarations, in order.
    pub comdats: Vec<Comdat>,
    /// The file name used in error messages (`file:line:col`).
    pub file: String,
    /// `source_filename = "..."`; also the compiled object's name (else [`file`](Self::file) is).
    pub source_filename: Option<String>,
    /// `target datalayout = "..."`, kept to print back; the layout used is always the target's own.
    pub datalayout: Option<String>,
    /// `target triple = "..."`; chooses the target when none is given explicitly.
    pub triple: Option<String>,
    /// Where `target triple` is written, for errors about it (0:0 when absent or built in memory).
    pub triple_span: Span,
    /// Identified struct types (`%name = type ...`), in textual order.
    pub types: Vec<Arc<StructType>>,
    /// Global variables, indexed by [`GlobalId`], in textual order.
    pub globals: Vec<Global>,
    /// Definitions and declarations, indexed by [`FuncId`], in textual order.
    pub functions: Vec<Function>,
}

impl Module {
    /// The function `id`.
    ///
    /// # Panics
    /// If `id` is not a function of this module.
    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }
    /// The global `id`.
    ///
    /// # Panics
    /// If `id` is not a global of this module.
    pub fn global(&self, id: GlobalId) -> &Global {
        &self.globals[id.0 as usize]
    }
    /// The function named `name` (without `@`), defined or declared.
    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions.iter().position(|f| f.name == name).map(|i| FuncId(i as u32))
    }
    /// Resets every source position to 0:0, so that a parsed module compares equal to the same IR
    /// built in memory or printed and parsed again.
    pub fn clear_spans(&mut self) {
        self.triple_span = Span::default();
        for g in &mut self.globals {
            g.span = Span::default();
        }
        for f in &mut self.functions {
            f.span = Span::default();
            if let Some(p) = &mut f.personality {
                p.span = Span::default();
            }
            if let Some(n) = &mut f.noclobber {
                n.span = Span::default();
                n.registers.iter_mut().for_each(|r| r.span = Span::default());
            }
            for p in &mut f.params {
                if let ParamAbi::Register(r) = &mut p.abi {
                    r.span = Span::default();
                }
            }
            for b in &mut f.blocks {
                b.span = Span::default();
            }
            for i in &mut f.insts {
                i.span = Span::default();
                i.operand_spans.clear();
                if let Inst::Call { sig, .. } = &mut i.kind {
                    for abi in sig.abi.iter_mut() {
                        if let ParamAbi::Register(r) = abi {
                            r.span = Span::default();
                        }
                    }
                }
                if let Inst::ClobberAsm { clobbers, output, inputs, .. } = &mut i.kind {
                    let named = clobbers.iter_mut().chain(output).chain(inputs.iter_mut().map(|i| &mut i.0));
                    named.for_each(|c| c.span = Span::default());
                }
            }
        }
    }

    /// Whether any function calls a stack map or patch point intrinsic.
    pub fn has_stack_map_points(&self) -> bool {
        self.functions.iter().any(|f| f.intrinsic().is_some())
    }

    /// An error positioned in this module's file.
    pub fn error(&self, span: Span, message: impl Into<String>) -> IrError {
        IrError::new(&self.file, span, message)
    }

    /// Every block whose address the module takes (`blockaddress`), once each, in the order of
    /// first mention (globals' initialisers, then instructions): the value of a `blockaddress` is
    /// its block's position here plus 1. Labels no function has are left out (the verifier names
    /// them).
    pub fn block_addresses(&self) -> Vec<(FuncId, BlockId)> {
        let mut out = Vec::new();
        let mut note = |c: &Const| {
            c.for_each_block_address(&mut |b| {
                let f = self.function(b.function);
                if let Some(i) = f.blocks.iter().position(|x| x.name == b.block) {
                    let key = (b.function, BlockId(i as u32));
                    if !out.contains(&key) {
                        out.push(key);
                    }
                }
            })
        };
        for g in &self.globals {
            if let Some(init) = &g.init {
                init.for_each_const(&mut note);
            }
        }
        for f in &self.functions {
            for inst in &f.insts {
                inst.kind.for_each_value(|v| {
                    if let Value::Const(c) = v {
                        note(c);
                    }
                });
            }
        }
        out
    }

    /// The value of `blockaddress` `b`: see [`Module::block_addresses`]; `None` for a label its
    /// function does not have.
    pub fn block_address_value(&self, addresses: &[(FuncId, BlockId)], b: &BlockAddress) -> Option<u64> {
        let f = self.function(b.function);
        let block = BlockId(f.blocks.iter().position(|x| x.name == b.block)? as u32);
        addresses.iter().position(|&a| a == (b.function, block)).map(|i| i as u64 + 1)
    }

    /// The value of label difference `(a, b)`: `a`'s number less `b`'s.
    pub fn label_difference_value(&self, addresses: &[(FuncId, BlockId)], pair: &(BlockAddress, BlockAddress)) -> u64 {
        let value = |b| self.block_address_value(addresses, b).unwrap_or(0);
        value(&pair.0).wrapping_sub(value(&pair.1))
    }

    /// The static constructors (`@llvm.global_ctors`) and destructors (`@llvm.global_dtors`) in
    /// the lists' order: `{ i32 priority, ptr function, ptr data }` entries (the data, which puts
    /// an entry in a COMDAT, is ignored); an entry whose function is null is skipped. An entry of
    /// another form is an error at its list.
    pub fn static_functions(&self) -> Result<Vec<StaticFunction>, IrError> {
        let mut out = Vec::new();
        for g in &self.globals {
            let phase = match g.name.as_str() {
                "llvm.global_ctors" => StaticPhase::Constructor,
                "llvm.global_dtors" => StaticPhase::Destructor,
                _ => continue,
            };
            let malformed = |what: &str| {
                self.error(
                    g.span,
                    format!("'@{}': {what} (entries are {{ i32 priority, ptr function, ptr data }})", g.name),
                )
            };
            let entries: Vec<&Init> = match g.init.as_ref() {
                None | Some(Init::Zero) => continue,
                Some(Init::Array(entries)) => entries.iter().collect(),
                Some(Init::Scalar(Const::Zero)) => continue,
                Some(_) => return Err(malformed("the list is not an array")),
            };
            for entry in entries {
                let members: Vec<&Const> = match entry {
                    Init::Struct(items) => items
                        .iter()
                        .map(|i| match i {
                            Init::Scalar(c) => Some(c),
                            Init::Zero => Some(&Const::Zero),
                            _ => None,
                        })
                        .collect::<Option<_>>()
                        .ok_or_else(|| malformed("an entry has an aggregate member"))?,
                    Init::Scalar(Const::Aggregate(items)) => items.iter().collect(),
                    _ => return Err(malformed("an entry is not a struct")),
                };
                let (priority, function) = match members[..] {
                    [Const::Int(p), f] | [Const::Int(p), f, _] => (*p, f),
                    _ => return Err(malformed("an entry does not start with an i32 priority")),
                };
                let priority = u16::try_from(priority)
                    .map_err(|_| malformed(&format!("priority {priority} is not 0 to 65535")))?;
                match function {
                    Const::Address(Symbol::Func(function), 0) => {
                        out.push(StaticFunction { phase, priority, function: *function })
                    }
                    Const::Zero | Const::Undef | Const::Poison => {}
                    _ => return Err(malformed("an entry's function is not a function")),
                }
            }
        }
        Ok(out)
    }
}

/// When a static function runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaticPhase {
    /// Before `main` (`@llvm.global_ctors`): lower priorities first.
    Constructor,
    /// At exit (`@llvm.global_dtors`): higher priorities first.
    Destructor,
}

/// An entry of `@llvm.global_ctors` or `@llvm.global_dtors`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaticFunction {
    /// Constructor or destructor.
    pub phase: StaticPhase,
    /// 0 to 65535; 65535 is C's default (no priority given).
    pub priority: u16,
    /// The function, which takes no arguments and returns void.
    pub function: FuncId,
}

impl StaticFunction {
    /// The functions of `phase` in the order a program linked from an ELF object runs them: the
    /// linker sorts the sections by priority (the default, 65535, last), constructors run forward
    /// and destructors backward.
    pub fn run_order(list: &[StaticFunction], phase: StaticPhase) -> Vec<FuncId> {
        let mut selected: Vec<&StaticFunction> = list.iter().filter(|s| s.phase == phase).collect();
        selected.sort_by_key(|s| s.priority);
        if phase == StaticPhase::Destructor {
            selected.reverse();
        }
        selected.into_iter().map(|s| s.function).collect()
    }

    /// The section its pointer goes to in an ELF object, as llc-19 names it: `.init_array` or
    /// `.fini_array`, with `.PRIORITY` unless the priority is the default, so that the linker sorts
    /// the entries by priority (`SORT_BY_INIT_PRIORITY`).
    pub fn elf_section(&self) -> String {
        let base = match self.phase {
            StaticPhase::Constructor => ".init_array",
            StaticPhase::Destructor => ".fini_array",
        };
        if self.priority == u16::MAX {
            base.to_string()
        } else {
            format!("{base}.{}", self.priority)
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Void => f.write_str("void"),
            Type::Int(b) => write!(f, "i{b}"),
            Type::Half => f.write_str("half"),
            Type::Float => f.write_str("float"),
            Type::Double => f.write_str("double"),
            Type::Ptr(0) => f.write_str("ptr"),
            Type::Ptr(n) => write!(f, "ptr addrspace({n})"),
            Type::Token => f.write_str("token"),
            Type::Array(n, t) => write!(f, "[{n} x {t}]"),
            Type::Vector(n, t) => write!(f, "<{n} x {t}>"),
            Type::Struct(s) => write!(f, "{s}"),
        }
    }
}
