//! The verifier: the checks LLVM's verifier makes on the subset, plus the stack map and patch point
//! rules that llc-19 only enforces by crashing or hanging.
//!
//! A [`Module`] enters from the parser or the builder and leaves unchanged; the result is the first
//! error ([`verify`]) or all of them ([`verify_all`]), each positioned at the offending instruction
//! or, for parsed IR, at the offending operand. After `verify` succeeds the lowering may rely on:
//! well-typed operands, terminated blocks, phis first in their block with one entry per
//! predecessor edge, SSA dominance, in-range ids, call arguments matching the callee, and
//! constant stack map / patch point operands.

use std::collections::HashMap;

use super::points::{patch_bytes_error, MAX_MODULE_PATCH_BYTES};
use super::print::{const_in, Names};
use super::{
    BlockId, BundleTag, CallConv, CastOp, Clause, Const, Extension, Extensions, Function, Init, Inst, InstData, InstId,
    Intrinsic, IrError, Linkage, Module, Ordering, ParamAbi, PointCall, RmwOp, Signature, Span, StatepointCall, Symbol,
    TokenUse, Type, Value, MAX_AGGREGATE_VALUE_SCALARS,
};
use crate::stackmap::MAX_RECORD_LOCATIONS;

/// Largest alignment of a global or an `alloca`, in bytes (16 MiB). LLVM accepts up to 2^32, but an
/// object pads its section to the alignment and an over-aligned `alloca` reserves it in the frame:
/// llc-19 writes a 2 GiB object for a global aligned to 2^31.
const MAX_ALIGN: u64 = 1 << 24;

/// Deepest frame `llvm.frameaddress` may reach (LLVM has no limit, and emits a load per frame).
const MAX_FRAME_DEPTH: i64 = 1 << 10;

/// Largest global, in bytes (4 GiB).
const MAX_GLOBAL_BYTES: u64 = 1 << 32;

/// Largest global whose bytes are stored (a constant, a non-zero initializer, or zeros in a named
/// section that is not a `.bss`), in bytes (256 MiB):
/// its contents are built in memory and copied on their way into the object, where a writable zero
/// global costs nothing (`.bss`). Nested arrays of `zeroinitializer` make them huge in a few lines.
const MAX_STORED_BYTES: u64 = 1 << 28;

/// Checks a module; returns the first error in module order.
pub fn verify(m: &Module) -> Result<(), IrError> {
    match verify_all(m).into_iter().next() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Checks a module; returns every error found, in module order. Errors in a function's structure
/// (blocks, terminators, ids) stop the checks of that function that depend on it.
pub fn verify_all(m: &Module) -> Vec<IrError> {
    let mut v = Verifier { m, errors: Vec::new(), phi_blocks: Default::default() };
    v.module();
    v.errors
}

/// The signature an intrinsic must be declared with.
fn intrinsic_signature(f: &Function) -> Option<Signature> {
    match f.intrinsic()? {
        Intrinsic::StackMap => Some(Signature {
            ret: Type::Void,
            params: vec![Type::I64, Type::I32],
            varargs: true,
            abi: Box::default(),
            ext: Default::default(),
        }),
        Intrinsic::PatchPoint => Some(Signature {
            ret: super::points::patchpoint_result(&f.name)?,
            params: vec![Type::I64, Type::I32, Type::PTR, Type::I32],
            varargs: true,
            abi: Box::default(),
            ext: Default::default(),
        }),
        // Any first-class result (the statepoint's target's, checked at each use).
        Intrinsic::GcResult if !matches!(f.ret, Type::Void | Type::Token) => Some(Signature {
            ret: f.ret.clone(),
            params: vec![Type::Token],
            varargs: false,
            abi: Box::default(),
            ext: Default::default(),
        }),
        other => other.signature(&f.name),
    }
}

pub(crate) fn signature_of(f: &Function) -> Signature {
    let mut abi: Vec<ParamAbi> = f.params.iter().map(|p| p.abi.clone()).collect();
    if abi.iter().all(|a| *a == ParamAbi::Plain) {
        abi.clear();
    }
    let mut ext: Vec<Extension> = f.params.iter().map(|p| p.ext).collect();
    if ext.iter().all(|e| *e == Extension::None) {
        ext.clear();
    }
    Signature {
        ret: f.ret.clone(),
        params: f.params.iter().map(|p| p.ty.clone()).collect(),
        varargs: f.varargs,
        abi: abi.into(),
        ext: Extensions { params: ext.into(), ret: f.ret_ext },
    }
}

/// LLVM's rule: `signext` and `zeroext` apply to integers only ("applied to incompatible type").
fn extension_applies(ext: Extension, ty: &Type) -> Result<(), String> {
    if ext == Extension::None || ty.int_bits().is_some() {
        return Ok(());
    }
    Err(format!("'{}' applies to integers, not '{ty}'", ext.keyword()))
}

fn fits(v: i64, bits: u8) -> bool {
    if bits >= 64 {
        // An i128 beyond 64 bits is a `Const::WideInt`.
        return true;
    }
    let shift = 64 - bits as u32;
    (v << shift) >> shift == v
}

/// The immediate-dominator tree of a function's reachable blocks, numbered for O(1) queries.
struct Dominators {
    /// Pre/post order numbers in the dominator tree; `None` for unreachable blocks.
    order: Vec<Option<(u32, u32)>>,
}

impl Dominators {
    /// Cooper, Harvey and Kennedy's iterative algorithm over reverse postorder.
    fn compute(succs: &[Vec<u32>], preds: &[Vec<u32>]) -> Dominators {
        let n = succs.len();
        let mut rpo_index = vec![u32::MAX; n];
        let mut postorder = Vec::with_capacity(n);
        let mut visited = vec![false; n];
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        visited[0] = true;
        while let Some(top) = stack.last_mut() {
            let b = top.0;
            if let Some(&s) = succs[b as usize].get(top.1) {
                top.1 += 1;
                if !visited[s as usize] {
                    visited[s as usize] = true;
                    stack.push((s, 0));
                }
            } else {
                postorder.push(b);
                stack.pop();
            }
        }
        let rpo: Vec<u32> = postorder.iter().rev().copied().collect();
        for (i, &b) in rpo.iter().enumerate() {
            rpo_index[b as usize] = i as u32;
        }
        let mut idom = vec![u32::MAX; n];
        idom[0] = 0;
        let intersect = |idom: &[u32], mut a: u32, mut b: u32| {
            while a != b {
                while rpo_index[a as usize] > rpo_index[b as usize] {
                    a = idom[a as usize];
                }
                while rpo_index[b as usize] > rpo_index[a as usize] {
                    b = idom[b as usize];
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new_idom = u32::MAX;
                for &p in &preds[b as usize] {
                    if idom[p as usize] == u32::MAX {
                        continue;
                    }
                    new_idom = if new_idom == u32::MAX { p } else { intersect(&idom, p, new_idom) };
                }
                if new_idom != u32::MAX && idom[b as usize] != new_idom {
                    idom[b as usize] = new_idom;
                    changed = true;
                }
            }
        }
        let mut children = vec![Vec::new(); n];
        for &b in rpo.iter().skip(1) {
            children[idom[b as usize] as usize].push(b);
        }
        let mut order = vec![None; n];
        let mut pre = vec![0u32; n];
        let mut counter = 1u32;
        pre[0] = counter;
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        while let Some(top) = stack.last_mut() {
            let b = top.0 as usize;
            if let Some(&c) = children[b].get(top.1) {
                top.1 += 1;
                counter += 1;
                pre[c as usize] = counter;
                stack.push((c, 0));
            } else {
                counter += 1;
                order[b] = Some((pre[b], counter));
                stack.pop();
            }
        }
        Dominators { order }
    }

    fn reachable(&self, b: u32) -> bool {
        self.order[b as usize].is_some()
    }

    /// Whether `a` dominates `b`; every block "dominates" an unreachable one, as in LLVM.
    fn dominates(&self, a: u32, b: u32) -> bool {
        match (self.order[a as usize], self.order[b as usize]) {
            (_, None) => true,
            (None, Some(_)) => false,
            (Some((pa, qa)), Some((pb, qb))) => pa <= pb && qb <= qa,
        }
    }
}

/// Printable names of a function's values and blocks, computed on the first error that needs them:
/// numbering a whole function costs more than checking it.
struct LazyNames<'m> {
    f: &'m Function,
    names: std::cell::OnceCell<Names>,
}

impl LazyNames<'_> {
    fn get(&self) -> &Names {
        self.names.get_or_init(|| Names::of(self.f))
    }
}

struct Verifier<'m> {
    m: &'m Module,
    errors: Vec<IrError>,
    /// A phi's predecessors and incoming blocks, sorted: kept to spare two allocations per phi.
    phi_blocks: (Vec<u32>, Vec<u32>),
}

/// Per-function context for instruction checks.
struct FnCx<'m> {
    f: &'m Function,
    names: LazyNames<'m>,
    /// Block and index of each instruction placed in a block.
    place: Vec<Option<(u32, u32)>>,
    preds: Vec<Vec<u32>>,
    dom: Dominators,
}

impl<'m> Verifier<'m> {
    fn error(&mut self, span: Span, message: String) {
        self.errors.push(self.m.error(span, message));
    }

    fn module(&mut self) {
        let m = self.m;
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for g in &m.globals {
            if seen.insert(&g.name, g.span).is_some() {
                self.error(g.span, format!("redefinition of '@{}'", g.name));
            }
            self.global(g);
        }
        match m.static_functions() {
            Err(e) => self.errors.push(e),
            Ok(list) => {
                for s in list {
                    let f = m.function(s.function);
                    if f.ret != Type::Void || !f.params.is_empty() || f.intrinsic().is_some() {
                        let g =
                            m.globals.iter().find(|g| g.name.starts_with("llvm.global_")).map_or(f.span, |g| g.span);
                        self.error(
                            g,
                            format!("static constructor or destructor '@{}' must be a 'void ()' function", f.name),
                        );
                    }
                }
            }
        }
        for f in &m.functions {
            if seen.insert(&f.name, f.span).is_some() {
                self.error(f.span, format!("redefinition of '@{}'", f.name));
            }
        }
        // Functions are checked independently: large modules spread them over the cores, keeping
        // the errors in module order.
        let arch = super::explicit::module_arch(m);
        let check = |f: &'m Function| {
            let mut v = Verifier { m, errors: Vec::new(), phi_blocks: Default::default() };
            v.function(f);
            for (span, message) in super::explicit::check(m, f, arch) {
                v.error(span, message);
            }
            let padding: u64 = patch_areas(m, f).map(|(_, bytes)| bytes).sum();
            (v.errors, padding)
        };
        let results = crate::workers::map(&m.functions, 64, check);
        let mut total = 0u64;
        for (f, (errors, padding)) in m.functions.iter().zip(results) {
            self.errors.extend(errors);
            if total <= MAX_MODULE_PATCH_BYTES && total + padding > MAX_MODULE_PATCH_BYTES {
                // Named at the point that crosses the limit.
                let mut running = total;
                let crossing = patch_areas(m, f).find(|&(_, bytes)| {
                    running += bytes;
                    running > MAX_MODULE_PATCH_BYTES
                });
                self.error(
                    crossing.map_or(f.span, |(span, _)| span),
                    format!(
                        "the stack map shadows, patch point regions and statepoint patch areas of this module add \
                         up to more than the limit, {MAX_MODULE_PATCH_BYTES} bytes (patchmap writes them as nops)"
                    ),
                );
            }
            total += padding;
        }
    }

    /// A function's or global's `section` and `comdat`: the group is declared, of a kind ELF has.
    fn placement(&mut self, span: Span, name: &str, placement: &super::Placement) {
        if let Some(c) = &placement.comdat {
            match self.m.comdats.iter().find(|d| d.name == *c) {
                None => self.error(span, format!("'@{name}' is in comdat '${c}', which is not declared")),
                Some(d) if !matches!(d.kind.as_str(), "any" | "nodeduplicate") => self.error(
                    d.span,
                    format!("comdat '${c}': ELF supports the 'any' and 'nodeduplicate' kinds, not '{}'", d.kind),
                ),
                Some(_) => {}
            }
        }
        // A second `.llvm_stackmaps` would be read as stack maps (by llvm-readobj, `patchmap dump` and
        // runtimes that look the section up by name), so the name is the compiler's alone.
        if placement.section.as_deref() == Some(crate::stackmap::object_file::SECTION_NAME) {
            self.error(
                span,
                format!(
                    "section '{}' of '@{name}' is reserved for the stack map section; choose another name",
                    crate::stackmap::object_file::SECTION_NAME
                ),
            );
        }
        if let Some(a) = placement.align {
            if !a.is_power_of_two() || a > MAX_ALIGN {
                self.error(span, format!("function alignment {a} of '@{name}' must be a power of 2 up to {MAX_ALIGN}"));
            }
        }
    }

    fn global(&mut self, g: &super::Global) {
        self.placement(g.span, &g.name, &g.placement);
        if g.placement.thread_local && (g.placement.section.is_some() || g.placement.comdat.is_some()) {
            self.error(g.span, format!("thread_local global '@{}' cannot have a section or comdat", g.name));
        }
        if !g.ty.is_scalar() && !g.ty.is_split() {
            self.error(g.span, format!("global '@{}' cannot have type '{}'", g.name, g.ty));
        }
        if g.init.is_none() && !matches!(g.linkage, Linkage::External | Linkage::ExternWeak) {
            self.error(
                g.span,
                format!("global '@{}' without an initializer must have external or extern_weak linkage", g.name),
            );
        }
        if g.init.is_some() && g.linkage == Linkage::ExternWeak {
            self.error(g.span, format!("'extern_weak' global '@{}' cannot have an initializer", g.name));
        }
        if let Some(init) = &g.init {
            // ELF data relocations are relative to their own place: a distance between two other
            // symbols would need a pair of them.
            let this = self
                .m
                .globals
                .iter()
                .position(|x| std::ptr::eq(x, g))
                .map(|i| super::Symbol::Global(super::GlobalId(i as u32)));
            let mut other_base = None;
            fn other_bases(c: &Const, this: Option<super::Symbol>, out: &mut Option<super::Symbol>) {
                match c {
                    Const::Relative(r) if Some(r.base) != this => *out = out.or(Some(r.base)),
                    Const::Aggregate(items) => items.iter().for_each(|c| other_bases(c, this, out)),
                    _ => {}
                }
            }
            init.for_each_const(&mut |c| other_bases(c, this, &mut other_base));
            if let Some(base) = other_base {
                let base = super::print::const_in(Some(self.m), &Const::Address(base, 0), &Type::PTR);
                self.error(
                    g.span,
                    format!(
                        "unsupported relative reference in '@{}': relative to '{base}' (only references relative to \
                         the global that holds them are supported)",
                        g.name
                    ),
                );
            }
        }
        const APPENDING: [&str; 5] =
            ["llvm.used", "llvm.compiler.used", "llvm.global_ctors", "llvm.global_dtors", "llvm.global.annotations"];
        if g.linkage == Linkage::Appending && !APPENDING.contains(&g.name.as_str()) {
            self.error(
                g.span,
                format!(
                    "unsupported 'appending' linkage on '@{}' (only @llvm.used, @llvm.compiler.used, \
                     @llvm.global_ctors, @llvm.global_dtors and @llvm.global.annotations are 'appending')",
                    g.name
                ),
            );
        }
        if g.linkage == Linkage::Common && (g.constant || !g.init.as_ref().is_some_and(|i| i.is_zero())) {
            self.error(g.span, format!("'common' global '@{}' must be a zero-initialised variable", g.name));
        }
        if let Some(a) = g.align {
            if !a.is_power_of_two() {
                self.error(g.span, format!("alignment {a} of '@{}' is not a power of 2", g.name));
            } else if a > MAX_ALIGN {
                self.error(g.span, format!("alignment {a} of '@{}' is larger than the limit, {MAX_ALIGN}", g.name));
            }
        }
        if g.ty.alloc_size() > MAX_GLOBAL_BYTES {
            self.error(
                g.span,
                format!("global '@{}' of type '{}' is larger than the limit, {MAX_GLOBAL_BYTES} bytes", g.name, g.ty),
            );
        }
        if let Some(init) = &g.init {
            if let Err(msg) = self.init(init, &g.ty) {
                self.error(g.span, format!("initializer of '@{}': {msg}", g.name));
            }
            let size = g.ty.alloc_size();
            // Zeros in a named section other than a `.bss` are stored in the object too.
            let stored_zeros = g.placement.section.as_deref().is_some_and(|s| !super::is_bss_section(s));
            if (g.constant || !init.is_zero() || stored_zeros) && size > MAX_STORED_BYTES && size <= MAX_GLOBAL_BYTES {
                let (what, why) = if g.constant || !init.is_zero() {
                    (
                        if g.constant { "constant" } else { "initialised global" },
                        "only a zero-initialised 'global' is not stored",
                    )
                } else {
                    ("global", "zeros in a named section other than .bss are stored")
                };
                self.error(
                    g.span,
                    format!(
                        "{what} '@{}' of type '{}' is larger than the limit for stored contents, {MAX_STORED_BYTES} \
                         bytes ({why})",
                        g.name, g.ty
                    ),
                );
            }
        }
    }

    fn init(&self, init: &Init, ty: &Type) -> Result<(), String> {
        match (init, ty) {
            (Init::Zero, _) => Ok(()),
            (Init::Bytes(b), Type::Array(n, elem)) if **elem == Type::I8 => {
                if b.len() as u64 == *n {
                    Ok(())
                } else {
                    Err(format!("{} bytes for type '{ty}'", b.len()))
                }
            }
            (Init::Array(items), Type::Array(n, elem)) => {
                if items.len() as u64 != *n {
                    return Err(format!("{} elements for type '{ty}'", items.len()));
                }
                items.iter().try_for_each(|i| self.init(i, elem))
            }
            (Init::Struct(items), Type::Struct(s)) => {
                if items.len() != s.field_types().len() {
                    return Err(format!("{} fields for type '{ty}'", items.len()));
                }
                items.iter().zip(s.field_types()).try_for_each(|(i, t)| self.init(i, t))
            }
            (Init::Scalar(Const::Undef | Const::Poison), _) => Ok(()),
            (Init::Scalar(Const::Address(s, _)), Type::Ptr(0)) => self.symbol(*s),
            (Init::Scalar(c @ Const::BlockAddress(_)), Type::Ptr(0)) => const_fits(self.m, c, ty),
            (Init::Scalar(c), t) if t.is_scalar() => const_fits(self.m, c, t),
            (Init::Scalar(c), t @ Type::Vector(..)) if vector_in_memory(t).is_ok() => {
                self.addresses(c).and_then(|()| const_fits(self.m, c, t))
            }
            _ => Err(format!("does not match type '{ty}'")),
        }
    }

    /// An address constant's target exists.
    fn symbol(&self, s: super::Symbol) -> Result<(), String> {
        let exists = match s {
            super::Symbol::Global(g) => (g.0 as usize) < self.m.globals.len(),
            super::Symbol::Func(f) => (f.0 as usize) < self.m.functions.len(),
        };
        if exists {
            Ok(())
        } else {
            Err(format!("address of {s:?}, which the module does not have"))
        }
    }

    /// The targets of the addresses in constant `c` exist.
    fn addresses(&self, c: &Const) -> Result<(), String> {
        match c {
            Const::Address(s, _) => self.symbol(*s),
            Const::Relative(r) => self.symbol(r.target).and_then(|()| self.symbol(r.base)),
            Const::Aggregate(items) => items.iter().try_for_each(|c| self.addresses(c)),
            _ => Ok(()),
        }
    }

    fn function(&mut self, f: &'m Function) {
        let what = if f.is_declaration() { "declaration" } else { "definition" };
        self.placement(f.span, &f.name, &f.placement);
        if f.is_declaration() && !matches!(f.linkage, Linkage::External | Linkage::ExternWeak) {
            self.error(f.span, format!("{what} of '@{}' must have external or extern_weak linkage", f.name));
        }
        if !f.is_declaration() && matches!(f.linkage, Linkage::ExternWeak | Linkage::Common) {
            self.error(f.span, format!("{what} of '@{}' cannot have '{}' linkage", f.name, f.linkage.keyword().trim()));
        }
        // The statepoint intrinsics' declarations are checked against their signatures, tokens included.
        let gc_intrinsic =
            matches!(f.intrinsic(), Some(Intrinsic::Statepoint | Intrinsic::GcResult | Intrinsic::GcRelocate));
        if let Some(gc) = &f.gc {
            if !super::statepoints::GC_STRATEGIES.contains(&gc.as_str()) {
                self.error(
                    f.span,
                    format!(
                        "'@{}': unsupported garbage collector \"{gc}\" (statepoints work with {})",
                        f.name,
                        super::statepoints::GC_STRATEGIES.map(|n| format!("\"{n}\"")).join(" or ")
                    ),
                );
            }
        }
        if let Err(msg) = value_type_supported(&f.ret, true).or_else(|e| if gc_intrinsic { Ok(()) } else { Err(e) }) {
            self.error(f.span, format!("return type of '@{}': {msg}", f.name));
        }
        let sret: Vec<usize> =
            f.params.iter().enumerate().filter(|(_, p)| matches!(p.abi, ParamAbi::StructRet(_))).map(|p| p.0).collect();
        // LLVM's rules: the hidden result pointer replaces the result.
        if sret.len() > 1 || sret.first().is_some_and(|&i| i > 1) {
            self.error(f.span, format!("'@{}': one 'sret' parameter at most, first or second", f.name));
        } else if !sret.is_empty() && f.ret != Type::Void {
            self.error(f.span, format!("'@{}' has an 'sret' parameter, so it must return void", f.name));
        }
        for (i, p) in f.params.iter().enumerate() {
            if let Err(msg) = value_type_supported(&p.ty, false) {
                if !gc_intrinsic {
                    self.error(f.span, format!("parameter {i} of '@{}': {msg}", f.name));
                }
            }
            if matches!(p.abi, ParamAbi::ElementType(_)) {
                self.error(
                    f.span,
                    format!("parameter {i} of '@{}': 'elementtype' applies to statepoint targets", f.name),
                );
            } else if !matches!(p.abi, ParamAbi::Plain | ParamAbi::Register(_)) && p.ty != Type::PTR {
                self.error(f.span, format!("parameter {i} of '@{}': 'byval' and 'sret' apply to 'ptr'", f.name));
            }
            if let Err(msg) = byval_size(&p.abi) {
                self.error(f.span, format!("parameter {i} of '@{}': {msg}", f.name));
            }
            if let Err(msg) = extension_applies(p.ext, &p.ty) {
                self.error(f.span, format!("parameter {i} of '@{}': {msg}", f.name));
            }
        }
        if let Err(msg) = extension_applies(f.ret_ext, &f.ret) {
            self.error(f.span, format!("the result of '@{}': {msg}", f.name));
        }
        if f.varargs && !f.is_declaration() && f.params.iter().any(|p| matches!(p.abi, ParamAbi::ByVal(_))) {
            self.error(
                f.span,
                format!("unsupported variadic function definition '@{}' with a 'byval' parameter", f.name),
            );
        }
        if f.name.starts_with("llvm.") {
            match intrinsic_signature(f) {
                None if f.name.starts_with("llvm.experimental.patchpoint.") => self.error(
                    f.span,
                    format!(
                        "unsupported patch point '@{}': a patch point returns void, an integer, ptr, half, float or \
                         double (suffix void, i1-i64, p0, f16, f32 or f64), or a vector of them (v4i32)",
                        f.name
                    ),
                ),
                None => self.error(f.span, format!("unsupported intrinsic '@{}'", f.name)),
                Some(sig) => {
                    let declared = Signature { ext: Extensions::default(), ..signature_of(f) };
                    if !f.is_declaration() {
                        self.error(f.span, format!("intrinsic '@{}' cannot be defined", f.name));
                    } else if declared != sig && !f.intrinsic().is_some_and(|i| i.later_form(&f.name, &declared)) {
                        self.error(
                            f.span,
                            format!("intrinsic '@{}' must be declared as '{sig}', found '{}'", f.name, signature_of(f)),
                        );
                    }
                }
            }
        }
        if f.is_declaration() {
            if !f.insts.is_empty() {
                self.error(f.span, format!("declaration of '@{}' has instructions but no blocks", f.name));
            }
            return;
        }
        if let Some(cx) = self.structure(f) {
            self.exception_edges(&cx);
            self.instructions(&cx);
        }
    }

    /// The rules of LLVM's verifier for `invoke`, `landingpad` and `resume`: a landing pad is the
    /// first instruction of its block after the phis, the block is reached by unwind edges only
    /// (the unwinder enters it with the exception in registers), every unwind edge leads to one,
    /// and a function that has them names its personality.
    fn exception_edges(&mut self, cx: &FnCx<'m>) {
        let f = cx.f;
        let label = |b: BlockId| cx.names.get().block(b);
        let first_non_phi =
            |b: BlockId| f.block(b).insts.iter().copied().find(|&i| !matches!(f.inst(i).kind, Inst::Phi { .. }));
        let is_pad = |b: BlockId| first_non_phi(b).is_some_and(|i| matches!(f.inst(i).kind, Inst::LandingPad { .. }));
        let mut needs_personality = None;
        for (bi, b) in f.blocks.iter().enumerate() {
            let block = BlockId(bi as u32);
            for (ii, &id) in b.insts.iter().enumerate() {
                let d = f.inst(id);
                match &d.kind {
                    Inst::LandingPad { .. } => {
                        needs_personality.get_or_insert(d.span);
                        if first_non_phi(block) != Some(id) || ii == 0 && bi == 0 {
                            self.error(
                                d.span,
                                format!(
                                    "'landingpad' must be the first instruction of block '{}' after its phis, \
                                     and not in the entry block",
                                    label(block)
                                ),
                            );
                        }
                        for &p in &cx.preds[bi] {
                            let term = f.inst(*f.blocks[p as usize].insts.last().expect("checked: not empty"));
                            let by_unwind = matches!(&term.kind,
                                Inst::Call { invoke: Some(e), .. } if e.unwind == block && e.normal != block);
                            if !by_unwind {
                                self.error(
                                    term.span,
                                    format!(
                                        "'{}' branches to landing pad block '{}', which only unwind edges of \
                                         'invoke' may reach",
                                        mnemonic(&term.kind),
                                        label(block)
                                    ),
                                );
                            }
                        }
                    }
                    Inst::Resume { .. } => {
                        needs_personality.get_or_insert(d.span);
                    }
                    Inst::Call { invoke: Some(e), callee, .. } => {
                        needs_personality.get_or_insert(d.span);
                        // LLVM's verifier lets these intrinsics be invoked, and no others.
                        if let Value::Func(fid) = callee {
                            let target = self.m.function(*fid);
                            let invokable = matches!(
                                target.intrinsic(),
                                None | Some(Intrinsic::PatchPoint | Intrinsic::Statepoint)
                            ) || target.name == "llvm.donothing";
                            if !invokable {
                                self.error(
                                    d.span,
                                    format!(
                                        "cannot invoke intrinsic '@{}': only patch points, statepoints and \
                                         'llvm.donothing' may be invoked",
                                        target.name
                                    ),
                                );
                            }
                        }
                        if !is_pad(e.unwind) {
                            self.error(
                                d.span,
                                format!(
                                    "the unwind destination '{}' of 'invoke' does not start with a 'landingpad'",
                                    label(e.unwind)
                                ),
                            );
                        }
                    }
                    _ => {}
                }
            }
        }
        if let (Some(span), None) = (needs_personality, &f.personality) {
            self.error(
                span,
                format!(
                    "'@{}' uses exception handling but names no personality function \
                     ('personality ptr @__gxx_personality_v0' for C++)",
                    f.name
                ),
            );
        }
    }

    /// Blocks, terminators, phi placement and the CFG; `None` when the instructions cannot be
    /// checked further.
    fn structure(&mut self, f: &'m Function) -> Option<FnCx<'m>> {
        let names = LazyNames { f, names: std::cell::OnceCell::new() };
        let nblocks = f.blocks.len() as u32;
        let mut place = vec![None; f.insts.len()];
        let before = self.errors.len();
        for (bi, b) in f.blocks.iter().enumerate() {
            let label = || names.get().block(BlockId(bi as u32));
            let Some(&last) = b.insts.last() else {
                self.error(b.span, format!("block '{}' is empty; every block needs a terminator", label()));
                continue;
            };
            let mut after_phis = false;
            for (ii, &id) in b.insts.iter().enumerate() {
                let Some(inst) = f.insts.get(id.0 as usize) else {
                    self.error(
                        b.span,
                        format!(
                            "block '{label}' refers to instruction #{} which does not exist",
                            id.0,
                            label = label()
                        ),
                    );
                    continue;
                };
                if place[id.0 as usize].replace((bi as u32, ii as u32)).is_some() {
                    self.error(inst.span, format!("instruction #{} is placed in more than one block", id.0));
                }
                if inst.kind.is_terminator() && id != last {
                    self.error(
                        inst.span,
                        format!(
                            "terminator '{}' in the middle of block '{label}'",
                            mnemonic(&inst.kind),
                            label = label()
                        ),
                    );
                }
                match inst.kind {
                    Inst::Phi { .. } if after_phis => self.error(
                        inst.span,
                        format!(
                            "'phi' after a non-phi instruction in block '{label}'; phis must come first",
                            label = label()
                        ),
                    ),
                    Inst::Phi { .. } => {}
                    _ => after_phis = true,
                }
                let mut bad_target = None;
                inst.kind.for_each_block(|t| {
                    if t.0 >= nblocks {
                        bad_target = Some(t.0);
                    }
                });
                if let Some(t) = bad_target {
                    self.error(
                        inst.span,
                        format!("'{}' refers to block #{t} which does not exist", mnemonic(&inst.kind)),
                    );
                }
            }
            if let Some(inst) = f.insts.get(last.0 as usize) {
                if !inst.kind.is_terminator() {
                    self.error(
                        inst.span,
                        format!(
                            "block '{label}' does not end with a terminator (last is '{}')",
                            mnemonic(&inst.kind),
                            label = label()
                        ),
                    );
                }
            }
        }
        if f.blocks.is_empty() {
            self.error(f.span, format!("definition of '@{}' has no blocks", f.name));
        }
        if self.errors.len() != before {
            return None;
        }
        let mut succs = vec![Vec::new(); f.blocks.len()];
        let mut preds = vec![Vec::new(); f.blocks.len()];
        for (bi, b) in f.blocks.iter().enumerate() {
            let term = f.inst(*b.insts.last().unwrap());
            for s in term.kind.successors() {
                succs[bi].push(s.0);
                preds[s.0 as usize].push(bi as u32);
                if s.0 == 0 {
                    self.error(
                        term.span,
                        format!(
                            "'{}' branches to the entry block '{}', which must have no predecessors",
                            mnemonic(&term.kind),
                            names.get().block(s)
                        ),
                    );
                }
            }
        }
        let dom = Dominators::compute(&succs, &preds);
        Some(FnCx { f, names, place, preds, dom })
    }

    fn instructions(&mut self, cx: &FnCx<'m>) {
        for (bi, b) in cx.f.blocks.iter().enumerate() {
            for &id in &b.insts {
                self.instruction(cx, bi as u32, id);
            }
        }
    }

    /// The type of a non-constant value, or an error message if it refers to nothing.
    /// Borrowed rather than cloned: the verifier asks for the type of every operand.
    fn value_type(&self, cx: &FnCx<'m>, v: &Value) -> Result<Option<&'m Type>, String> {
        /// The type of a global's or function's address.
        static ADDRESS: Type = Type::PTR;
        match v {
            Value::Inst(id) => match cx.f.insts.get(id.0 as usize) {
                Some(d) => Ok(Some(&d.ty)),
                None => Err(format!("use of instruction #{} which does not exist", id.0)),
            },
            Value::Param(i) => match cx.f.params.get(*i as usize) {
                Some(p) => Ok(Some(&p.ty)),
                None => {
                    Err(format!("use of parameter #{i}, but '@{}' has {} parameters", cx.f.name, cx.f.params.len()))
                }
            },
            Value::Global(g) => match self.m.globals.get(g.0 as usize) {
                Some(_) => Ok(Some(&ADDRESS)),
                None => Err(format!("use of global #{} which does not exist", g.0)),
            },
            Value::Func(func) => match self.m.functions.get(func.0 as usize) {
                Some(_) => Ok(Some(&ADDRESS)),
                None => Err(format!("use of function #{} which does not exist", func.0)),
            },
            Value::Const(_) => Ok(None),
        }
    }

    /// Checks operand `index` of `inst` against the type it must have.
    /// Checks operand `index`, a pointer of any address space, and returns its type (`ptr` for a
    /// constant).
    fn pointer_operand(&mut self, cx: &FnCx<'m>, at: (u32, InstId), index: usize, v: &Value, role: &str) -> Type {
        let ty = match self.value_type(cx, v) {
            Ok(Some(t)) if t.is_ptr() => t.clone(),
            _ => Type::PTR,
        };
        self.operand(cx, at, index, v, &ty, role);
        ty
    }

    fn operand(&mut self, cx: &FnCx<'m>, at: (u32, InstId), index: usize, v: &Value, ty: &Type, role: &str) {
        let inst = cx.f.inst(at.1);
        let span = inst.operand_span(index);
        // Named only in errors.
        let op = || mnemonic(&inst.kind);
        match self.value_type(cx, v) {
            Err(msg) => self.error(span, format!("{msg} in '{}'", op())),
            Ok(Some(found)) => {
                if found != ty {
                    let name = cx.names.get().value(self.m, v);
                    let op = op();
                    self.error(span, format!("{role} {name} of '{op}' has type '{found}' but '{ty}' is expected"));
                }
                if let Value::Inst(def) = v {
                    self.dominance(cx, at, index, *def);
                }
                if let Value::Func(fid) = v {
                    let callee = self.m.function(*fid);
                    let direct_call = matches!(&inst.kind, Inst::Call { callee: c, .. } if c == v) && index == 0;
                    if callee.intrinsic().is_some() && !direct_call {
                        self.error(span, format!("intrinsic '@{}' can only be called directly", callee.name));
                    }
                }
            }
            Ok(None) => {
                let Value::Const(c) = v else { return };
                if *ty == Type::Void {
                    self.error(span, format!("{role} of '{}' cannot be a void constant", op()));
                } else if let (Const::Address(s, _), Type::Int(8..=32)) = (c, ty) {
                    // A truncated address: computed in the code (an initialiser would need a
                    // narrower relocation, which PIE links refuse).
                    if let Err(msg) = self.symbol(*s) {
                        self.error(span, format!("{role} of '{}': {msg}", op()));
                    }
                } else if let Err(msg) = const_fits(self.m, c, ty).and_then(|()| self.addresses(c)) {
                    self.error(span, format!("{role} of '{}': {msg}", op()));
                }
            }
        }
    }

    fn dominance(&mut self, cx: &FnCx<'m>, (use_block, use_id): (u32, InstId), index: usize, def: InstId) {
        let inst = cx.f.inst(use_id);
        let span = inst.operand_span(index);
        let name = || cx.names.get().value(self.m, &Value::Inst(def));
        let Some((def_block, def_index)) = cx.place[def.0 as usize] else {
            self.error(span, format!("use of {}, which is not placed in any block", name()));
            return;
        };
        if cx.f.inst(def).ty == Type::Void {
            self.error(span, format!("use of {}, which has no value (its type is void)", name()));
            return;
        }
        let dominated = if let Inst::Phi { incoming } = &inst.kind {
            // A phi operand is used at the end of its incoming block.
            let from = incoming[index].1 .0;
            def_block == from || cx.dom.dominates(def_block, from)
        } else if def_block == use_block {
            def_index < cx.place[use_id.0 as usize].unwrap().1
        } else {
            cx.dom.dominates(def_block, use_block)
        };
        // An invoke's result exists on its normal edge only: the edge must dominate the use.
        let on_normal_edge = match &cx.f.inst(def).kind {
            Inst::Call { invoke: Some(e), .. } => {
                let n = e.normal.0;
                let edge_dominates =
                    |b: u32| n == b && cx.preds[n as usize].iter().all(|&p| p == def_block || cx.dom.dominates(n, p));
                match &inst.kind {
                    Inst::Phi { incoming } if incoming[index].1 .0 == def_block => use_block == n,
                    Inst::Phi { incoming } => {
                        let from = incoming[index].1 .0;
                        edge_dominates(n) && (from == n || cx.dom.dominates(n, from))
                    }
                    _ => edge_dominates(n) && (use_block == n || cx.dom.dominates(n, use_block)),
                }
            }
            _ => true,
        };
        if !(dominated && on_normal_edge) && cx.dom.reachable(use_block) {
            self.error(span, format!("use of {} does not dominate its use in '{}'", name(), mnemonic(&inst.kind)));
        }
    }

    fn instruction(&mut self, cx: &FnCx<'m>, block: u32, id: InstId) {
        let f = cx.f;
        let d: &InstData = f.inst(id);
        let at = (block, id);
        let span = d.span;
        let op = mnemonic(&d.kind);
        // Decoded once: the layout errors are reported with the call's below.
        let statepoint = StatepointCall::decode(self.m, d);
        let token_pad = matches!(d.kind, Inst::LandingPad { .. }) && d.ty == Type::Token;
        if d.ty != Type::Void && !(statepoint.is_some() && d.ty == Type::Token) && !token_pad {
            if let Err(msg) = value_type_supported(&d.ty, false) {
                self.error(span, format!("'{op}': {msg}"));
                return;
            }
        }
        match &d.kind {
            Inst::Binary { op: bop, lhs, rhs } => {
                let lane = d.ty.lane_type();
                let ok = if bop.is_float() { lane.is_float() } else { lane.is_int() };
                if !ok {
                    let kind = if bop.is_float() { "a floating-point" } else { "an integer" };
                    self.error(span, format!("'{op}' requires {kind} type, found '{}'", d.ty));
                    return;
                }
                self.operand(cx, at, 0, lhs, &d.ty, "operand");
                self.operand(cx, at, 1, rhs, &d.ty, "operand");
            }
            Inst::AtomicRmw { op: rmw, ptr, val, ordering } => {
                self.result(d, &val.ty);
                let ok = match rmw {
                    RmwOp::Xchg => val.ty.is_scalar(),
                    _ => val.ty.is_int(),
                };
                if !ok || !is_atomic_width(&val.ty) {
                    self.error(span, format!("'atomicrmw {}' of type '{}' is not supported", rmw.keyword(), val.ty));
                    return;
                }
                if *ordering == Ordering::Unordered {
                    self.error(span, "'atomicrmw' cannot have 'unordered' ordering".to_string());
                }
                self.pointer_operand(cx, at, 0, ptr, "address");
                self.operand(cx, at, 1, &val.value, &val.ty, "operand");
            }
            Inst::CmpXchg { ptr, cmp, new, success, failure } => {
                if !(cmp.ty.is_int() || cmp.ty.is_ptr()) || !is_atomic_width(&cmp.ty) {
                    self.error(span, format!("'cmpxchg' of type '{}' is not supported", cmp.ty));
                    return;
                }
                let weak = |o: &Ordering| matches!(o, Ordering::Unordered | Ordering::Monotonic);
                if *success == Ordering::Unordered
                    || matches!(failure, Ordering::Unordered | Ordering::Release | Ordering::AcqRel)
                {
                    self.error(
                        span,
                        format!("'cmpxchg' cannot have orderings '{}' and '{}'", success.keyword(), failure.keyword()),
                    );
                } else if weak(success) && !weak(failure) {
                    self.error(
                        span,
                        "'cmpxchg' failure ordering cannot be stronger than its success ordering".to_string(),
                    );
                }
                self.pointer_operand(cx, at, 0, ptr, "address");
                self.operand(cx, at, 1, &cmp.value, &cmp.ty, "expected value");
                self.operand(cx, at, 2, new, &cmp.ty, "new value");
            }
            Inst::ClobberAsm { output: None, inputs, .. } => {
                self.result(d, &Type::Void);
                for (i, (_, input)) in inputs.iter().enumerate() {
                    self.operand(cx, at, i, &input.value, &input.ty, "inline asm input");
                }
            }
            Inst::ClobberAsm { output: Some(output), inputs, .. } => {
                if !matches!(
                    d.ty,
                    Type::Int(_) | Type::Half | Type::Float | Type::Double | Type::Vector(..) | Type::Ptr(_)
                ) {
                    self.error(output.span, format!("an inline asm output of type '{}' is not supported", d.ty));
                }
                for (i, (_, input)) in inputs.iter().enumerate() {
                    self.operand(cx, at, i, &input.value, &input.ty, "inline asm input");
                }
            }
            Inst::Fence { ordering } => {
                self.result(d, &Type::Void);
                if matches!(ordering, Ordering::Unordered | Ordering::Monotonic) {
                    self.error(span, format!("'fence' cannot have '{}' ordering", ordering.keyword()));
                }
            }
            Inst::Freeze { val } => {
                if !d.ty.is_scalar() && !d.ty.is_split() {
                    self.error(span, format!("'freeze' of type '{}' is not supported", d.ty));
                    return;
                }
                self.operand(cx, at, 0, val, &d.ty, "operand");
            }
            Inst::FNeg { val } => {
                if !d.ty.lane_type().is_float() {
                    self.error(span, format!("'fneg' requires a floating-point type, found '{}'", d.ty));
                    return;
                }
                self.operand(cx, at, 0, val, &d.ty, "operand");
            }
            Inst::ICmp { ty, lhs, rhs, .. } | Inst::FCmp { ty, lhs, rhs, .. } => {
                let float = matches!(d.kind, Inst::FCmp { .. });
                let lane = ty.lane_type();
                let ok = if float { lane.is_float() } else { lane.is_int() || lane.is_ptr() };
                if !ok {
                    let kind = if float { "floating-point" } else { "integer or pointer" };
                    self.error(span, format!("'{op}' requires {kind} operands, found '{ty}'"));
                    return;
                }
                self.result(d, &ty.with_lanes_of(Type::I1));
                self.operand(cx, at, 0, lhs, ty, "operand");
                self.operand(cx, at, 1, rhs, ty, "operand");
            }
            Inst::Select { lanewise, cond, if_true, if_false } => {
                let cty = if *lanewise { d.ty.with_lanes_of(Type::I1) } else { Type::I1 };
                if *lanewise && !d.ty.is_vector() {
                    self.error(span, format!("'select' by a vector condition of '{}', which is no vector", d.ty));
                    return;
                }
                if let Ok(Some(t)) = self.value_type(cx, cond) {
                    if *t != cty {
                        self.error(d.operand_span(0), format!("'select' condition must be {cty}, found {t}"));
                    }
                }
                self.operand(cx, at, 0, cond, &cty, "condition");
                self.operand(cx, at, 1, if_true, &d.ty, "operand");
                self.operand(cx, at, 2, if_false, &d.ty, "operand");
            }
            Inst::Cast { op: cop, from, val } => {
                if !cast_is_valid(*cop, from, &d.ty) {
                    self.error(span, format!("invalid cast '{op}' from '{from}' to '{}'", d.ty));
                    return;
                }
                self.operand(cx, at, 0, val, from, "operand");
            }
            Inst::Alloca { ty, count, align } => {
                if !ty.is_sized() {
                    self.error(span, format!("'alloca' of unsized type '{ty}'"));
                }
                self.result(d, &Type::PTR);
                if let Some(a) = align {
                    if !a.is_power_of_two() {
                        self.error(span, format!("alignment {a} is not a power of 2"));
                    } else if *a > MAX_ALIGN {
                        self.error(span, format!("'alloca' alignment {a} is larger than the limit, {MAX_ALIGN}"));
                    }
                }
                if let Some(c) = count {
                    if !c.ty.is_int() {
                        self.error(
                            d.operand_span(0),
                            format!("'alloca' element count must be an integer, found '{}'", c.ty),
                        );
                    } else {
                        self.operand(cx, at, 0, &c.value, &c.ty, "element count");
                    }
                }
            }
            Inst::Load { ptr, align, atomic, .. } => {
                if let Err(message) = vector_in_memory(&d.ty) {
                    self.error(span, format!("'load': {message}"));
                }
                self.alignment(span, *align);
                if let Some(ordering) = atomic {
                    if matches!(ordering, Ordering::Release | Ordering::AcqRel) {
                        self.error(span, format!("atomic 'load' cannot have '{}' ordering", ordering.keyword()));
                    }
                    self.atomic_access(span, &d.ty, *align, "load");
                }
                self.pointer_operand(cx, at, 0, ptr, "address");
            }
            Inst::Store { val, ptr, align, atomic, .. } => {
                self.result(d, &Type::Void);
                if let Err(message) = vector_in_memory(&val.ty) {
                    self.error(span, format!("'store': {message}"));
                }
                if let Some(ordering) = atomic {
                    if matches!(ordering, Ordering::Acquire | Ordering::AcqRel) {
                        self.error(span, format!("atomic 'store' cannot have '{}' ordering", ordering.keyword()));
                    }
                    self.atomic_access(span, &val.ty, *align, "store");
                }
                if let Err(msg) = value_type_supported(&val.ty, false) {
                    self.error(d.operand_span(0), format!("'store': {msg}"));
                } else {
                    self.operand(cx, at, 0, &val.value, &val.ty, "stored value");
                }
                self.alignment(span, *align);
                self.pointer_operand(cx, at, 1, ptr, "address");
            }
            Inst::Gep { source, base, indices, vector_base, .. } => {
                if *vector_base || d.ty.is_vector() {
                    // A vector getelementptr: the parser made the result `<N x ptr>` of the base's
                    // lanes or the vector indices' (all alike).
                    if !matches!(&d.ty, Type::Vector(_, lane) if lane.is_ptr()) {
                        self.error(
                            span,
                            format!("a vector 'getelementptr' produces '{}', not a vector of pointers", d.ty),
                        );
                        return;
                    }
                    let base_ty = if *vector_base { d.ty.clone() } else { d.ty.lane_type().clone() };
                    self.operand(cx, at, 0, base, &base_ty, "base");
                    for (i, idx) in indices.iter().enumerate() {
                        if idx.ty.lanes().is_some_and(|n| Some(n) != d.ty.lanes()) {
                            self.error(d.operand_span(i + 1), format!("'getelementptr' index of type '{}'", idx.ty));
                        }
                    }
                } else {
                    let base_ty = self.pointer_operand(cx, at, 0, base, "base");
                    self.result(d, &base_ty);
                }
                if !source.is_sized() {
                    self.error(span, format!("'getelementptr' over unsized type '{source}'"));
                    return;
                }
                let mut ty = source;
                for (i, idx) in indices.iter().enumerate() {
                    if i > 0 {
                        match ty {
                            Type::Array(_, elem) => ty = elem,
                            Type::Vector(_, elem) if vector_in_memory(ty).is_ok() && **elem != Type::I1 => ty = elem,
                            Type::Struct(_) => {
                                // Struct fields are chosen by constant indices only.
                                let n = match &idx.value {
                                    Value::Const(Const::Int(n)) => Some(*n),
                                    Value::Const(Const::Zero) => Some(0),
                                    // A vector index: the same field in every lane, as LLVM requires.
                                    Value::Const(Const::Aggregate(lanes)) => match lanes.first() {
                                        Some(Const::Int(n)) if lanes.iter().all(|l| *l == Const::Int(*n)) => Some(*n),
                                        _ => None,
                                    },
                                    _ => None,
                                };
                                let Some(field) = n.and_then(|n| ty.gep_step(n)).map(|m| m.0) else {
                                    let message = match n {
                                        Some(n) => format!("'getelementptr' index {i}: '{ty}' has no field {n}"),
                                        None => format!(
                                            "'getelementptr' index {i} into struct type '{ty}' must be a constant \
                                             field number"
                                        ),
                                    };
                                    self.error(d.operand_span(i + 1), message);
                                    break;
                                };
                                ty = field;
                            }
                            _ => {
                                self.error(
                                    d.operand_span(i + 1),
                                    format!("'getelementptr' index {i} steps into non-aggregate type '{ty}'"),
                                );
                                break;
                            }
                        }
                    }
                    if !idx.ty.lane_type().is_int() {
                        self.error(
                            d.operand_span(i + 1),
                            format!("'getelementptr' index must be an integer or a vector of them, found '{}'", idx.ty),
                        );
                    } else {
                        self.operand(cx, at, i + 1, &idx.value, &idx.ty, "index");
                    }
                }
            }
            Inst::ExtractElement { vec, index } => {
                self.result(d, vec.ty.lane_type());
                self.operand(cx, at, 0, &vec.value, &vec.ty, "vector");
                self.operand(cx, at, 1, &index.value, &index.ty, "lane index");
            }
            Inst::InsertElement { vec, val, index } => {
                if !d.ty.is_vector() {
                    self.error(span, format!("'insertelement' into '{}', which is no vector", d.ty));
                    return;
                }
                self.operand(cx, at, 0, vec, &d.ty, "vector");
                self.operand(cx, at, 1, val, d.ty.lane_type(), "inserted element");
                self.operand(cx, at, 2, &index.value, &index.ty, "lane index");
            }
            Inst::ShuffleVector { a, b, mask } => {
                let (Some(n), false) = (a.ty.lanes(), mask.is_empty()) else {
                    self.error(span, "'shufflevector' of non-vectors or with an empty mask".to_string());
                    return;
                };
                self.result(d, &Type::Vector(mask.len() as u32, Box::new(a.ty.lane_type().clone())));
                if let Some(l) = mask.iter().flatten().find(|&&l| l >= 2 * n) {
                    self.error(
                        span,
                        format!("'shufflevector' mask lane {l} is past the {} lanes of both vectors", 2 * n),
                    );
                }
                self.operand(cx, at, 0, &a.value, &a.ty, "vector");
                self.operand(cx, at, 1, b, &a.ty, "vector");
            }
            Inst::ExtractValue { agg, indices } => {
                match member_type(&agg.ty, indices) {
                    Some(member) => self.result(d, member),
                    None => self.error(span, format!("'extractvalue' indices do not select a member of '{}'", agg.ty)),
                }
                self.operand(cx, at, 0, &agg.value, &agg.ty, "aggregate");
            }
            Inst::InsertValue { agg, val, indices } => {
                match member_type(&d.ty, indices) {
                    Some(member) if *member == val.ty => {}
                    Some(member) => self.error(
                        d.operand_span(1),
                        format!("'insertvalue' inserts '{}' where '{}' has '{member}'", val.ty, d.ty),
                    ),
                    None => self.error(span, format!("'insertvalue' indices do not select a member of '{}'", d.ty)),
                }
                self.operand(cx, at, 0, agg, &d.ty, "aggregate");
                self.operand(cx, at, 1, &val.value, &val.ty, "inserted value");
            }
            Inst::Phi { incoming } => self.phi(cx, at, incoming),
            Inst::Call { cc, callee, sig, args, bundles, directives, .. } => {
                self.call(cx, at, *cc, callee, sig, args);
                if let Some(decoded) = statepoint {
                    self.statepoint(cx, at, args.len(), bundles, decoded.err());
                } else if let Some(b) = bundles.iter().find(|b| b.tag != BundleTag::Deopt) {
                    self.error(
                        span,
                        format!(
                            "operand bundle \"{}\" on a call other than llvm.experimental.gc.statepoint",
                            b.tag.name()
                        ),
                    );
                } else if !bundles.is_empty() {
                    // A "deopt" call: lowered as a statepoint of the call itself.
                    let intrinsic = matches!(callee, Value::Func(f) if self.m.function(*f).intrinsic().is_some());
                    if intrinsic {
                        self.error(
                            span,
                            "a \"deopt\" operand bundle on an intrinsic call is not supported".to_string(),
                        );
                    }
                    self.bundle_operands(cx, at, args.len(), bundles);
                    let patch_bytes = directives.as_deref().and_then(|d| d.patch_bytes).unwrap_or(0);
                    if let Some(message) = patch_bytes_error("\"statepoint-num-patch-bytes\"", patch_bytes.into()) {
                        self.error(span, message);
                    }
                }
            }
            Inst::Br { .. } | Inst::Unreachable => {}
            Inst::CondBr { cond, .. } => {
                if let Ok(Some(t)) = self.value_type(cx, cond) {
                    if *t != Type::I1 {
                        self.error(d.operand_span(0), format!("'br' condition must be i1, found {t}"));
                        return;
                    }
                }
                self.operand(cx, at, 0, cond, &Type::I1, "condition");
            }
            Inst::Switch { ty, val, cases, .. } => {
                let Type::Int(bits) = ty else {
                    self.error(span, format!("'switch' requires an integer type, found '{ty}'"));
                    return;
                };
                self.operand(cx, at, 0, val, ty, "operand");
                let mut seen = HashMap::new();
                for (v, _) in cases {
                    if !fits(*v, *bits) {
                        self.error(span, format!("'switch' case value {v} does not fit in {ty}"));
                    } else if seen.insert(*v, ()).is_some() {
                        self.error(span, format!("duplicate case value {v} in 'switch'"));
                    }
                }
            }
            Inst::IndirectBr { addr, dests } => {
                self.pointer_operand(cx, at, 0, addr, "address");
                if dests.is_empty() {
                    self.error(span, "'indirectbr' has no destinations".to_string());
                }
            }
            Inst::LandingPad { clauses, .. } => {
                for (i, c) in clauses.iter().enumerate() {
                    let o = c.operand();
                    let typeinfo = |c: &Const| matches!(c, Const::Zero | Const::Address(Symbol::Global(_), 0));
                    let ok = match (c, &o.value) {
                        (Clause::Catch(_), Value::Global(_) | Value::Const(Const::Zero)) => true,
                        (Clause::Filter(_), Value::Const(Const::Zero)) => true,
                        (Clause::Filter(_), Value::Const(Const::Aggregate(items))) => items.iter().all(typeinfo),
                        _ => false,
                    };
                    if !ok {
                        self.error(
                            d.operand_span(i),
                            "a 'landingpad' clause names type information: a global variable, 'null', or (in a \
                             'filter') an array of them"
                                .to_string(),
                        );
                    }
                }
            }
            Inst::Resume { val } => self.operand(cx, at, 0, &val.value, &val.ty, "operand"),
            Inst::Ret { val } => match (val, &f.ret) {
                (None, Type::Void) => {}
                (None, t) => self.error(span, format!("'ret void' but '@{}' returns '{t}'", f.name)),
                (Some(v), Type::Void) => {
                    self.error(d.operand_span(0), format!("'ret' returns '{}' but '@{}' returns void", v.ty, f.name))
                }
                (Some(v), t) => {
                    if v.ty != *t {
                        self.error(
                            d.operand_span(0),
                            format!("'ret' returns '{}' but '@{}' returns '{t}'", v.ty, f.name),
                        );
                    } else {
                        self.operand(cx, at, 0, &v.value, t, "returned value");
                    }
                }
            },
        }
        if d.kind.is_terminator() && d.ty != Type::Void && !matches!(d.kind, Inst::Call { .. }) {
            self.error(span, format!("'{op}' has no result but its type is '{}'", d.ty));
        }
    }

    fn result(&mut self, d: &InstData, ty: &Type) {
        if d.ty != *ty {
            self.error(d.span, format!("'{}' produces '{ty}' but its result type is '{}'", mnemonic(&d.kind), d.ty));
        }
    }

    fn alignment(&mut self, span: Span, align: Option<u64>) {
        if let Some(a) = align {
            if !a.is_power_of_two() {
                self.error(span, format!("alignment {a} is not a power of 2"));
            }
        }
    }

    /// An atomic load or store: a type of 8 to 64 bits, aligned to its size (as LLVM's verifier
    /// requires, and Cranelift's atomic instructions too).
    fn atomic_access(&mut self, span: Span, ty: &Type, align: Option<u64>, what: &str) {
        if !ty.is_scalar() || !is_atomic_width(ty) {
            self.error(span, format!("atomic '{what}' of type '{ty}' is not supported"));
            return;
        }
        match align {
            None => self.error(span, format!("atomic '{what}' must have an explicit alignment")),
            Some(a) if a < ty.alloc_size() => self.error(
                span,
                format!("atomic '{what}' of '{ty}' must be aligned to at least {} bytes", ty.alloc_size()),
            ),
            Some(_) => {}
        }
    }

    fn phi(&mut self, cx: &FnCx<'m>, at: (u32, InstId), incoming: &[(Value, BlockId)]) {
        let d = cx.f.inst(at.1);
        for (i, (v, _)) in incoming.iter().enumerate() {
            self.operand(cx, at, i, v, &d.ty, "incoming value");
        }
        // One entry per predecessor edge; entries for the same block must agree.
        let (mut want, mut have) = std::mem::take(&mut self.phi_blocks);
        want.clear();
        want.extend_from_slice(&cx.preds[at.0 as usize]);
        want.sort_unstable();
        have.clear();
        have.extend(incoming.iter().map(|(_, b)| b.0));
        have.sort_unstable();
        let agree = want == have;
        self.phi_blocks = (want, have);
        if !agree {
            let (want, have) = (&self.phi_blocks.0[..], &self.phi_blocks.1[..]);
            let label = |b: u32| cx.names.get().block(BlockId(b));
            let count = |list: &[u32], b: u32| list.iter().filter(|&&x| x == b).count();
            let message = if let Some(&b) = want.iter().find(|&&b| !have.contains(&b)) {
                format!("'phi' has no entry for predecessor '{}'", label(b))
            } else if let Some(&b) = have.iter().find(|&&b| !want.contains(&b)) {
                format!("'phi' has an entry for '{}', which is not a predecessor", label(b))
            } else {
                let b = *want.iter().chain(have).find(|&&b| count(want, b) != count(have, b)).unwrap();
                format!(
                    "'phi' has {} entries for '{}', which branches here {} time(s)",
                    count(have, b),
                    label(b),
                    count(want, b)
                )
            };
            self.error(d.span, message);
            return;
        }
        for (i, (v, b)) in incoming.iter().enumerate() {
            if let Some((_, (w, _))) = incoming.iter().enumerate().find(|(j, (_, c))| *j < i && c == b) {
                if w != v {
                    self.error(
                        d.operand_span(i),
                        format!("'phi' has different values for the same predecessor '{}'", cx.names.get().block(*b)),
                    );
                }
            }
        }
    }

    fn call(
        &mut self,
        cx: &FnCx<'m>,
        at: (u32, InstId),
        cc: CallConv,
        callee: &Value,
        sig: &Signature,
        args: &[super::Operand],
    ) {
        let d = cx.f.inst(at.1);
        if d.ty != sig.ret {
            self.error(d.span, format!("'call' result type '{}' differs from the function type's '{}'", d.ty, sig.ret));
        }
        self.operand(cx, at, 0, callee, &Type::PTR, "callee");
        let target = match callee {
            Value::Func(id) if (id.0 as usize) < self.m.functions.len() => Some(self.m.function(*id)),
            _ => None,
        };
        if target.is_some_and(|t| t.intrinsic() == Some(Intrinsic::VaStart)) && !cx.f.varargs {
            self.error(d.span, format!("'llvm.va_start' in '@{}', which is not variadic", cx.f.name));
        }
        if let Some(t) = target {
            // Attributes (`byval`, `sret`) are the declaration's; the call site's may be left out.
            // Compared in place: a signature built per call would allocate.
            let same = t.ret == sig.ret
                && t.varargs == sig.varargs
                && t.params.len() == sig.params.len()
                && t.params.iter().zip(&sig.params).all(|(p, ty)| p.ty == *ty);
            if !same {
                let declared = signature_of(t);
                let hint = if t.varargs && !sig.varargs {
                    " (calls to varargs functions need the explicit function type)"
                } else {
                    ""
                };
                self.error(
                    d.operand_span(0),
                    format!("call type '{sig}' does not match '@{}' of type '{declared}'{hint}", t.name),
                );
                return;
            }
        }
        let fixed = sig.params.len();
        if args.len() < fixed || (!sig.varargs && args.len() > fixed) {
            let expected = if sig.varargs { format!("at least {fixed}") } else { fixed.to_string() };
            self.error(
                d.span,
                format!("'call' has {} arguments but the function type '{sig}' takes {expected}", args.len()),
            );
            return;
        }
        // A statepoint's own variadic arguments are its target's: their attributes are the target's.
        let statepoint = matches!(target.and_then(|t| t.intrinsic()), Some(Intrinsic::Statepoint));
        // A patch point's call arguments are its variadic ones: llc-19 passes a `nest` one as the chain.
        let patchpoint = matches!(target.and_then(|t| t.intrinsic()), Some(Intrinsic::PatchPoint));
        let passing = |a: &ParamAbi| match a {
            ParamAbi::Plain | ParamAbi::Register(_) => false,
            ParamAbi::Nest => !patchpoint,
            _ => true,
        };
        if sig.abi.iter().skip(sig.params.len()).any(passing) && !statepoint {
            self.error(d.span, "'byval', 'sret' or 'nest' on a variadic argument is not supported".to_string());
        }
        for (i, abi) in sig.abi.iter().enumerate() {
            if let Err(msg) = byval_size(abi) {
                self.error(d.operand_span(i + 1), format!("argument {i}: {msg}"));
            }
        }
        if let Err(msg) = extension_applies(sig.ext.ret, &sig.ret) {
            self.error(d.span, format!("the call's result: {msg}"));
        }
        let target_intrinsic = target.and_then(|t| t.intrinsic());
        for (i, a) in args.iter().enumerate() {
            if let Err(msg) = extension_applies(sig.param_ext(i), &a.ty) {
                self.error(d.operand_span(i + 1), format!("argument {i}: {msg}"));
            }
            let token_use = i == 0 && matches!(target_intrinsic, Some(Intrinsic::GcResult | Intrinsic::GcRelocate));
            if let Err(msg) = value_type_supported(&a.ty, false) {
                if !(token_use && a.ty == Type::Token) {
                    self.error(d.operand_span(i + 1), format!("argument {i}: {msg}"));
                    continue;
                }
            }
            if matches!(sig.param_abi(i), ParamAbi::ElementType(_))
                && !(i == 2 && target_intrinsic == Some(Intrinsic::Statepoint))
            {
                self.error(d.operand_span(i + 1), "'elementtype' applies to the target of a statepoint".to_string());
            }
            if let Some(p) = sig.params.get(i) {
                if *p != a.ty {
                    self.error(
                        d.operand_span(i + 1),
                        format!("argument {i} has type '{}' but the function type expects '{p}'", a.ty),
                    );
                    continue;
                }
            }
            self.operand(cx, at, i + 1, &a.value, &a.ty, "argument");
        }
        let intrinsic = target.and_then(|t| t.intrinsic().map(|i| (i, t)));
        if let (Some((which @ (Intrinsic::FrameAddress | Intrinsic::ReturnAddress), _)), Some(depth)) =
            (intrinsic, args.first())
        {
            // The lowering follows the chain with one load per frame.
            if !matches!(depth.value, Value::Const(Const::Int(0..=MAX_FRAME_DEPTH))) {
                let name = if which == Intrinsic::FrameAddress { "frameaddress" } else { "returnaddress" };
                self.error(
                    d.operand_span(1),
                    format!("llvm.{name} takes a constant depth from 0 to {MAX_FRAME_DEPTH}"),
                );
            }
        }
        if let (Some((Intrinsic::IsFpClass, _)), Some(mask)) = (intrinsic, args.get(1)) {
            if !matches!(mask.value, Value::Const(Const::Int(_))) {
                self.error(d.operand_span(2), "llvm.is.fpclass takes a constant class mask".to_string());
            }
        }
        if cc == CallConv::AnyReg && !matches!(intrinsic, Some((Intrinsic::PatchPoint, _))) {
            self.error(d.span, "'anyregcc' is only allowed on calls of llvm.experimental.patchpoint".to_string());
        }
        let errors = match (PointCall::decode(self.m, d), TokenUse::decode(self.m, cx.f, d)) {
            (Some(Err(errors)), _) | (_, Some(Err(errors))) => errors,
            _ => Vec::new(),
        };
        for e in errors {
            self.error(e.operand.map_or(d.span, |i| d.operand_span(i)), e.message);
        }
    }

    /// The checks of a statepoint beyond those of any call: its layout, its function's collector,
    /// and its bundles' operands (numbered after the call's arguments).
    fn statepoint(
        &mut self,
        cx: &FnCx<'m>,
        at: (u32, InstId),
        nargs: usize,
        bundles: &[super::Bundle],
        layout_errors: Option<Vec<super::points::LayoutError>>,
    ) {
        let d = cx.f.inst(at.1);
        if cx.f.gc.is_none() {
            self.error(
                d.span,
                format!(
                    "a statepoint needs its function to name a garbage collector ('@{}' has no gc \"...\")",
                    cx.f.name
                ),
            );
        }
        if let Some(errors) = layout_errors {
            for e in errors {
                self.error(e.operand.map_or(d.span, |i| d.operand_span(i)), e.message);
            }
        }
        self.bundle_operands(cx, at, nargs, bundles);
    }

    /// Checks the operands of a call's bundles, numbered after its `nargs` arguments.
    fn bundle_operands(&mut self, cx: &FnCx<'m>, at: (u32, InstId), nargs: usize, bundles: &[super::Bundle]) {
        let mut index = nargs + 1;
        for b in bundles {
            // The record holds 3 constants and a location per deopt value, then pairs and allocas
            // that only the lowering counts (it refuses the record past the limit too).
            let locations = STATEPOINT_RECORD_CONSTANTS + b.operands.len();
            if b.tag == BundleTag::Deopt && locations > MAX_RECORD_LOCATIONS {
                self.error(
                    cx.f.inst(at.1).operand_span(index + MAX_RECORD_LOCATIONS - STATEPOINT_RECORD_CONSTANTS),
                    format!(
                        "this statepoint's record would hold at least {locations} locations (3 and one per deopt \
                         value): a stack map record holds at most {MAX_RECORD_LOCATIONS} (the format counts them \
                         in 16 bits)"
                    ),
                );
            }
            for o in &b.operands {
                if let Err(msg) = value_type_supported(&o.ty, false) {
                    self.error(cx.f.inst(at.1).operand_span(index), format!("{} operand: {msg}", b.tag.name()));
                } else {
                    self.operand(cx, at, index, &o.value, &o.ty, b.tag.name());
                }
                index += 1;
            }
        }
    }
}

/// The bytes of shadow, region or patch area each stack map, patch point and statepoint of `f`
/// asks for, with its position; calls whose operands do not decode have their own errors.
fn patch_areas<'m>(m: &'m Module, f: &'m Function) -> impl Iterator<Item = (Span, u64)> + 'm {
    f.blocks.iter().flat_map(|b| &b.insts).filter_map(move |&id| {
        let d = f.inst(id);
        if !matches!(d.kind, Inst::Call { .. }) {
            return None;
        }
        let bytes = match (PointCall::decode(m, d), StatepointCall::decode(m, d)) {
            (Some(Ok(PointCall::StackMap { shadow, .. })), _) => shadow,
            (Some(Ok(PointCall::PatchPoint(p))), _) => p.bytes,
            (_, Some(Ok(s))) => s.patch_bytes,
            (Some(Err(_)), _) | (_, Some(Err(_))) => return None,
            (None, None) => StatepointCall::of_deopt_call(m, d)?.patch_bytes,
        };
        (bytes > 0).then_some((d.span, u64::from(bytes)))
    })
}

/// The constants that start a statepoint's record: calling convention, flags, deopt count.
const STATEPOINT_RECORD_CONSTANTS: usize = 3;

/// Largest `byval` object, in bytes (1 MiB): it is copied into the stack argument area at each call.
const MAX_BYVAL_BYTES: u64 = 1 << 20;

fn byval_size(abi: &ParamAbi) -> Result<(), String> {
    match abi {
        ParamAbi::ByVal(t) if t.alloc_size() > MAX_BYVAL_BYTES => Err(format!(
            "'byval' object of type '{t}' is larger than the limit, {MAX_BYVAL_BYTES} bytes (pass a pointer instead)"
        )),
        _ => Ok(()),
    }
}

/// The member of `ty` that `extractvalue`/`insertvalue` indices select.
fn member_type<'t>(ty: &'t Type, indices: &[u32]) -> Option<&'t Type> {
    if indices.is_empty() {
        return None;
    }
    indices.iter().try_fold(ty, |t, &i| t.member(u64::from(i)).map(|m| m.0))
}

/// Whether values of type `ty` (a result, parameter or argument; `void` only if `void_ok`) are
/// supported: scalars, vectors, and aggregates of at most [`MAX_AGGREGATE_VALUE_SCALARS`] scalars.
fn value_type_supported(ty: &Type, void_ok: bool) -> Result<(), String> {
    match ty {
        Type::Void if void_ok => Ok(()),
        Type::Void => Err("'void' is not a value type".to_string()),
        Type::Token => {
            Err("a 'token' comes from a statepoint and is used only by gc.result and gc.relocate".to_string())
        }
        t if t.is_scalar() => Ok(()),
        t if !t.is_sized() => Err(format!("unsized type '{t}' cannot be a value")),
        // Its length is checked where it is written (`MAX_VECTOR_LANES`).
        Type::Vector(..) => Ok(()),
        t if t.leaf_count() > MAX_AGGREGATE_VALUE_SCALARS => Err(format!(
            "unsupported aggregate value of type '{t}': it holds {} scalars, more than {MAX_AGGREGATE_VALUE_SCALARS} \
             (keep large aggregates in memory)",
            t.leaf_count()
        )),
        _ => Ok(()),
    }
}

/// Whether a load or store can move a value of type `ty`: any type but a vector of integers
/// whose width is not a whole number of bytes (other than `i1`, whose lanes take a bit each), which
/// LLVM packs across byte boundaries.
fn vector_in_memory(ty: &Type) -> Result<(), String> {
    match ty {
        Type::Vector(_, elem) if elem.int_bits().is_some_and(|b| b != 1 && b % 8 != 0) => {
            Err(format!("unsupported vector type '{ty}' in memory: its lanes are not whole bytes"))
        }
        _ => Ok(()),
    }
}

/// Whether constant `c` can have type `ty`.
fn const_fits(m: &Module, c: &Const, ty: &Type) -> Result<(), String> {
    match (c, ty) {
        (Const::Undef | Const::Poison | Const::Zero, _) => Ok(()),
        // `ptrtoint` of an address, at the pointer's width.
        (Const::Address(..), Type::Ptr(0) | Type::Int(64)) => Ok(()),
        (Const::Relative(_), Type::Int(32 | 64)) => Ok(()),
        (Const::LabelDifference(pair), Type::Int(32 | 64)) => {
            let (a, b) = (&pair.0, &pair.1);
            const_fits(m, &Const::BlockAddress(Box::new(a.clone())), &Type::PTR)?;
            const_fits(m, &Const::BlockAddress(Box::new(b.clone())), &Type::PTR)
        }
        (Const::BlockAddress(b), Type::Ptr(0)) => {
            let f =
                m.functions.get(b.function.0 as usize).ok_or("blockaddress of a function the module does not have")?;
            match f.blocks.iter().position(|x| x.name == b.block) {
                Some(0) => Err(format!("'blockaddress' of the entry block of '@{}'", f.name)),
                Some(_) => Ok(()),
                None if f.is_declaration() => Err(format!("'blockaddress' in '@{}', which is only declared", f.name)),
                None => Err(format!("'@{}' has no block '%{}'", f.name, b.block)),
            }
        }
        (Const::Aggregate(items), Type::Array(n, elem)) => {
            if items.len() as u64 != *n {
                return Err(format!("{} elements for type '{ty}'", items.len()));
            }
            items.iter().try_for_each(|c| const_fits(m, c, elem))
        }
        (Const::Aggregate(items), Type::Vector(n, elem)) => {
            if items.len() as u64 != u64::from(*n) {
                return Err(format!("{} elements for type '{ty}'", items.len()));
            }
            items.iter().try_for_each(|c| const_fits(m, c, elem))
        }
        (Const::Aggregate(items), Type::Struct(s)) => {
            if items.len() != s.field_types().len() {
                return Err(format!("{} fields for type '{ty}'", items.len()));
            }
            items.iter().zip(s.field_types()).try_for_each(|(c, t)| const_fits(m, c, t))
        }
        (Const::WideInt(_), Type::Int(128)) => Ok(()),
        (Const::Int(v), Type::Int(bits)) => {
            if fits(*v, *bits) {
                Ok(())
            } else {
                Err(format!("constant {v} does not fit in {ty}"))
            }
        }
        (Const::Float(v), Type::Float) if !v.is_nan() && (*v as f32) as f64 != *v => {
            Err(format!("constant {v} is not exactly representable as 'float'"))
        }
        (Const::Float(v), Type::Half) if super::half::exact_bits(*v).is_none() => {
            Err(format!("constant {v} is not exactly representable as 'half'"))
        }
        (Const::Float(_), Type::Half | Type::Float | Type::Double) => Ok(()),
        (Const::IntToPtr(_), Type::Ptr(_)) => Ok(()),
        _ => Err(format!("constant {} cannot have type '{ty}'", const_in(Some(m), c, ty))),
    }
}

fn cast_is_valid(op: CastOp, from: &Type, to: &Type) -> bool {
    use Type::*;
    // Bit widths, not sizes: an i24 and a float both take 4 bytes; a vector's lanes are packed.
    let bits = |t: &Type| match t {
        Vector(n, elem) => u64::from(*n) * elem.int_bits().map_or(elem.alloc_size() * 8, u64::from),
        t => t.int_bits().map_or(t.alloc_size() * 8, u64::from),
    };
    if op == CastOp::BitCast && (from.is_vector() || to.is_vector()) {
        // Lanes of pointers only to pointers, as LLVM (a vector of them to a vector of them).
        let pointers = |t: &Type| t.lane_type().is_ptr();
        return bits(from) == bits(to)
            && pointers(from) == pointers(to)
            && (!pointers(from) || from.lanes() == to.lanes())
            && [from, to].iter().all(|t| t.is_vector() || t.is_scalar());
    }
    match (from, to) {
        (Vector(a, x), Vector(b, y)) => return a == b && cast_is_valid(op, x, y),
        (Vector(..), _) | (_, Vector(..)) => return false,
        _ => {}
    }
    let int_bits = |t: &Type| t.int_bits().map(u32::from);
    match op {
        CastOp::ZExt | CastOp::SExt => matches!((int_bits(from), int_bits(to)), (Some(a), Some(b)) if a < b),
        CastOp::Trunc => matches!((int_bits(from), int_bits(to)), (Some(a), Some(b)) if a > b),
        CastOp::SIToFP | CastOp::UIToFP => from.is_int() && to.is_float(),
        CastOp::FPToSI | CastOp::FPToUI => from.is_float() && to.is_int(),
        CastOp::FPExt => matches!((from, to), (Float, Double) | (Half, Float | Double)),
        CastOp::FPTrunc => matches!((from, to), (Double, Float) | (Float | Double, Half)),
        CastOp::PtrToInt => from.is_ptr() && to.is_int(),
        CastOp::IntToPtr => from.is_int() && to.is_ptr(),
        CastOp::AddrSpaceCast => matches!((from, to), (Ptr(a), Ptr(b)) if a != b),
        CastOp::BitCast => match (from, to) {
            (Ptr(a), Ptr(b)) => a == b,
            (Ptr(_), _) | (_, Ptr(_)) => false,
            (a, b) => a.is_scalar() && b.is_scalar() && bits(a) == bits(b) && *a != Int(1) && *b != Int(1),
        },
    }
}

/// Whether an atomic access may move a value of type `ty`: LLVM's verifier takes integers of a
/// power-of-two number of bytes only (no i1, no i24).
fn is_atomic_width(ty: &Type) -> bool {
    ty.int_bits().is_none_or(|bits| matches!(bits, 8 | 16 | 32 | 64))
}

/// The opcode of an instruction as written in text.
pub(crate) fn mnemonic(inst: &Inst) -> &'static str {
    match inst {
        Inst::Binary { op, .. } => op.mnemonic(),
        Inst::FNeg { .. } => "fneg",
        Inst::ICmp { .. } => "icmp",
        Inst::FCmp { .. } => "fcmp",
        Inst::Select { .. } => "select",
        Inst::Cast { op, .. } => super::print::cast_mnemonic(*op),
        Inst::Alloca { .. } => "alloca",
        Inst::Load { .. } => "load",
        Inst::Store { .. } => "store",
        Inst::AtomicRmw { .. } => "atomicrmw",
        Inst::Fence { .. } => "fence",
        Inst::ClobberAsm { .. } => "inline asm",
        Inst::CmpXchg { .. } => "cmpxchg",
        Inst::Freeze { .. } => "freeze",
        Inst::Gep { .. } => "getelementptr",
        Inst::ExtractValue { .. } => "extractvalue",
        Inst::ExtractElement { .. } => "extractelement",
        Inst::InsertElement { .. } => "insertelement",
        Inst::ShuffleVector { .. } => "shufflevector",
        Inst::InsertValue { .. } => "insertvalue",
        Inst::Phi { .. } => "phi",
        Inst::Call { invoke: None, .. } => "call",
        Inst::Call { invoke: Some(_), .. } => "invoke",
        Inst::LandingPad { .. } => "landingpad",
        Inst::Resume { .. } => "resume",
        Inst::Br { .. } | Inst::CondBr { .. } => "br",
        Inst::Switch { .. } => "switch",
        Inst::IndirectBr { .. } => "indirectbr",
        Inst::Ret { .. } => "ret",
        Inst::Unreachable => "unreachable",
    }
}
