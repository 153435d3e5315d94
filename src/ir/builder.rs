//! Building IR in memory, for embedders that generate code without going through text.
//!
//! A [`ModuleBuilder`] owns the module being built; [`ModuleBuilder::function`] returns a
//! [`FunctionBuilder`] that appends instructions to a current block and returns their results as
//! [`Value`]s. Operand types are taken from the values where they are known (instruction results,
//! parameters, globals); constants get their type from the other operand or from an explicit
//! [`Operand`]. The builder does not check the IR: run [`verify`](super::verify()) on the result.
//!
//! ```
//! use patchmap::ir::builder::{int, ModuleBuilder};
//! use patchmap::ir::{IntPred, Operand, Type};
//!
//! let mut mb = ModuleBuilder::new("counter.ll");
//! let mut f = mb.function("count", Type::I64, &[Type::I64]);
//! let (entry, head, exit) = (f.block("entry"), f.block("head"), f.block("exit"));
//! f.switch_to(entry);
//! f.br(head);
//! f.switch_to(head);
//! let i = f.phi(Type::I64);
//! f.name(&i, "i");
//! let next = f.add(i.clone(), int(1));
//! f.add_incoming(&i, int(0), entry);
//! f.add_incoming(&i, next.clone(), head);
//! f.stackmap(1, 0, &[Operand::new(Type::I64, i.clone())]);
//! let done = f.icmp(IntPred::Sge, next.clone(), f.param(0));
//! f.cond_br(done, exit, head);
//! f.switch_to(exit);
//! f.ret(next);
//! f.finish();
//! let module = mb.finish();
//! patchmap::ir::verify(&module)?;
//! assert!(module.to_string().contains("call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i64 %i)"));
//! # Ok::<(), patchmap::ir::IrError>(())
//! ```

use super::intrinsics::mangled_name;
use super::{
    BinOp, Block, BlockId, Bundle, BundleTag, CallConv, CastOp, Const, Extension, FloatPred, FramePointerKind, FuncId,
    Function, Global, GlobalId, Init, Inst, InstData, InstId, IntPred, Linkage, Module, NoClobber, Operand, Param,
    ParamAbi, Placement, RegisterName, Signature, Span, TailKind, Type, Value, ValueName,
};

/// An integer constant (its type comes from the context).
pub fn int(v: i64) -> Value {
    Value::Const(Const::Int(v))
}

/// A floating-point constant (float or double by context; floats must be exactly representable).
pub fn float(v: f64) -> Value {
    Value::Const(Const::Float(v))
}

/// The null pointer.
pub fn null() -> Value {
    Value::Const(Const::Zero)
}

impl Operand {
    /// A typed operand.
    pub fn new(ty: Type, value: Value) -> Operand {
        Operand { ty, value }
    }
}

/// Builds a [`Module`].
pub struct ModuleBuilder {
    module: Module,
}

impl ModuleBuilder {
    /// An empty module; `file` names it in error messages.
    pub fn new(file: &str) -> ModuleBuilder {
        ModuleBuilder { module: Module { file: file.to_string(), ..Module::default() } }
    }

    /// Sets the target triple.
    pub fn triple(&mut self, triple: &str) -> &mut Self {
        self.module.triple = Some(triple.to_string());
        self
    }

    /// The module built so far.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// Defines the identified struct type `%name = type { fields... }` (`<{ ... }>` when `packed`,
    /// `opaque` for `None`) and returns it, to use as a type anywhere.
    pub fn struct_type(&mut self, name: &str, packed: bool, fields: Option<Vec<Type>>) -> Type {
        let ty = std::sync::Arc::new(super::StructType::new(Some(name.to_string()), packed, fields));
        self.module.types.push(ty.clone());
        Type::Struct(ty)
    }

    /// Marks parameter `i` of function `f` `byval(T)` or `sret(T)`.
    ///
    /// # Panics
    /// If `f` or its parameter `i` does not exist.
    pub fn set_param_abi(&mut self, f: FuncId, i: u32, abi: ParamAbi) {
        self.module.functions[f.0 as usize].params[i as usize].abi = abi;
    }

    /// Sets the calling convention of function `f` (a declaration; see
    /// [`FunctionBuilder::set_calling_convention`] for definitions).
    ///
    /// # Panics
    /// If `f` does not exist.
    pub fn set_calling_convention(&mut self, f: FuncId, cc: CallConv) {
        self.module.functions[f.0 as usize].cc = cc;
    }

    /// Gives the declaration `f` the `noclobber` list `registers` (see
    /// [`FunctionBuilder::set_noclobber`]).
    ///
    /// # Panics
    /// If `f` does not exist.
    pub fn set_noclobber(&mut self, f: FuncId, registers: &[&str]) {
        let registers = registers.iter().map(|r| RegisterName::new(r)).collect();
        self.module.functions[f.0 as usize].noclobber = Some(NoClobber { registers, span: Span::default() });
    }

    /// Declares an external function, or returns the existing one of that name.
    pub fn declare(&mut self, name: &str, ret: Type, params: &[Type], varargs: bool) -> FuncId {
        if let Some(id) = self.module.function_by_name(name) {
            return id;
        }
        let f = Function {
            placement: Placement::default(),
            name: name.to_string(),
            linkage: Linkage::External,
            cc: CallConv::C,
            gc: None,
            noclobber: None,
            personality: None,
            frame_pointer: FramePointerKind::None,
            ret,
            ret_ext: Extension::None,
            params: params
                .iter()
                .map(|t| Param { ty: t.clone(), name: None, abi: ParamAbi::Plain, ext: Extension::None })
                .collect(),
            varargs,
            blocks: Vec::new(),
            insts: Vec::new(),
            span: Span::default(),
        };
        self.module.functions.push(f);
        FuncId(self.module.functions.len() as u32 - 1)
    }

    /// Adds a global variable; `init: None` makes it an external declaration.
    pub fn global(&mut self, name: &str, ty: Type, init: Option<Init>, constant: bool) -> GlobalId {
        let linkage = Linkage::External;
        self.module.globals.push(Global {
            placement: Placement::default(),
            name: name.to_string(),
            ty,
            init,
            constant,
            linkage,
            align: None,
            span: Span::default(),
        });
        GlobalId(self.module.globals.len() as u32 - 1)
    }

    /// Starts a function definition with external linkage and the C calling convention (see
    /// [`FunctionBuilder::set_param_abi`] for `byval`/`sret` parameters); its
    /// parameters are `param(0)`, `param(1)`, ... The function is added to the module when the
    /// builder is finished or dropped.
    pub fn function(&mut self, name: &str, ret: Type, params: &[Type]) -> FunctionBuilder<'_> {
        let id = self.declare(name, ret.clone(), params, false);
        let mut func = std::mem::replace(&mut self.module.functions[id.0 as usize], placeholder(name));
        func.ret = ret;
        func.params = params
            .iter()
            .map(|t| Param { ty: t.clone(), name: None, abi: ParamAbi::Plain, ext: Extension::None })
            .collect();
        func.varargs = false;
        FunctionBuilder { module: &mut self.module, id, func, current: None }
    }

    /// The finished module.
    pub fn finish(self) -> Module {
        self.module
    }
}

fn placeholder(name: &str) -> Function {
    Function {
        placement: Placement::default(),
        name: name.to_string(),
        linkage: Linkage::External,
        cc: CallConv::C,
        gc: None,
        noclobber: None,
        personality: None,
        frame_pointer: FramePointerKind::None,
        ret: Type::Void,
        ret_ext: Extension::None,
        params: Vec::new(),
        varargs: false,
        blocks: Vec::new(),
        insts: Vec::new(),
        span: Span::default(),
    }
}

/// Appends blocks and instructions to one function.
pub struct FunctionBuilder<'m> {
    module: &'m mut Module,
    id: FuncId,
    func: Function,
    current: Option<BlockId>,
}

impl Drop for FunctionBuilder<'_> {
    fn drop(&mut self) {
        let name = self.func.name.clone();
        self.module.functions[self.id.0 as usize] = std::mem::replace(&mut self.func, placeholder(&name));
    }
}

impl FunctionBuilder<'_> {
    /// This function's id, for recursive calls.
    pub fn id(&self) -> FuncId {
        self.id
    }

    /// Adds the function to the module (dropping the builder does the same).
    pub fn finish(self) -> FuncId {
        self.id
    }

    /// The `i`-th parameter.
    pub fn param(&self, i: u32) -> Value {
        Value::Param(i)
    }

    /// Names the `i`-th parameter in printed text.
    pub fn name_param(&mut self, i: u32, name: &str) {
        self.func.params[i as usize].name = Some(name.to_string());
    }

    /// Sets the function's linkage (external by default).
    pub fn set_linkage(&mut self, linkage: Linkage) {
        self.func.linkage = linkage;
    }

    /// Sets the calling convention the function is defined with (C by default).
    pub fn set_calling_convention(&mut self, cc: CallConv) {
        self.func.cc = cc;
    }

    /// A new, empty block; the first block made is the entry.
    pub fn block(&mut self, name: &str) -> BlockId {
        self.func.blocks.push(Block { name: name.to_string(), insts: Vec::new(), span: Span::default() });
        BlockId(self.func.blocks.len() as u32 - 1)
    }

    /// Makes `block` the one instructions are appended to.
    pub fn switch_to(&mut self, block: BlockId) {
        self.current = Some(block);
    }

    /// Names an instruction's result in printed text.
    pub fn name(&mut self, v: &Value, name: &str) {
        if let Value::Inst(id) = v {
            self.func.insts[id.0 as usize].name = Some(ValueName::from(name));
        }
    }

    /// Marks this function's parameter `i` `byval(T)` or `sret(T)`.
    ///
    /// # Panics
    /// If there is no parameter `i`.
    pub fn set_param_abi(&mut self, i: u32, abi: ParamAbi) {
        self.func.params[i as usize].abi = abi;
    }

    /// `hwreg(metadata !{!"register"})` on parameter `i` of this (`explicitcc`) function: the
    /// argument arrives in `register`, LLVM's name for it on the target (`rax`, `xmm1`, `x19`, `d0`).
    ///
    /// # Panics
    /// If there is no parameter `i`.
    pub fn set_param_register(&mut self, i: u32, register: &str) {
        self.set_param_abi(i, ParamAbi::Register(RegisterName::new(register)));
    }

    /// `noclobber(metadata !{!"rax", ...})`: the registers this `explicitcc` function returns
    /// unchanged.
    pub fn set_noclobber(&mut self, registers: &[&str]) {
        let registers = registers.iter().map(|r| RegisterName::new(r)).collect();
        self.func.noclobber = Some(NoClobber { registers, span: Span::default() });
    }

    /// `llvm.experimental.retwr(T hwreg(metadata !{!"register"}) v, ...)`: the registers this
    /// `explicitcc` function returns with; put it right before [`ret_void`](Self::ret_void).
    pub fn return_with_registers(&mut self, values: &[(Operand, &str)]) {
        let sig = Signature {
            ret: Type::Void,
            params: Vec::new(),
            varargs: true,
            abi: values.iter().map(|(_, r)| ParamAbi::Register(RegisterName::new(r))).collect(),
            ext: Default::default(),
        };
        let args = values.iter().map(|(v, _)| v.clone()).collect();
        self.intrinsic_call("llvm.experimental.retwr", sig, args);
    }

    /// `llvm.frameaddress.p0(i32 depth)`: this function's frame pointer (0) or a caller's.
    pub fn frame_address(&mut self, depth: u32) -> Value {
        let sig = Signature {
            ret: Type::PTR,
            params: vec![Type::I32],
            varargs: false,
            abi: Box::default(),
            ext: Default::default(),
        };
        self.intrinsic_call("llvm.frameaddress.p0", sig, vec![Operand::new(Type::I32, int(i64::from(depth)))])
    }

    /// `llvm.addressofreturnaddress.p0()`: where this function's return address is stored.
    pub fn address_of_return_address(&mut self) -> Value {
        let sig = Signature {
            ret: Type::PTR,
            params: Vec::new(),
            varargs: false,
            abi: Box::default(),
            ext: Default::default(),
        };
        self.intrinsic_call("llvm.addressofreturnaddress.p0", sig, Vec::new())
    }

    /// The type of a value whose type is known without context (not a constant).
    pub fn type_of(&self, v: &Value) -> Option<Type> {
        match v {
            Value::Inst(id) => self.func.insts.get(id.0 as usize).map(|d| d.ty.clone()),
            Value::Param(i) => self.func.params.get(*i as usize).map(|p| p.ty.clone()),
            Value::Global(_) | Value::Func(_) => Some(Type::PTR),
            Value::Const(_) => None,
        }
    }

    fn infer(&self, a: &Value, b: &Value, what: &str) -> Type {
        self.type_of(a)
            .or_else(|| self.type_of(b))
            .unwrap_or_else(|| panic!("'{what}' of two constants: use the explicit-type method"))
    }

    /// Appends an instruction to the current block.
    ///
    /// # Panics
    /// If no block was selected with [`switch_to`](Self::switch_to).
    pub fn push(&mut self, kind: Inst, ty: Type) -> Value {
        let block = self.current.expect("FunctionBuilder: switch_to a block before adding instructions");
        let id = InstId(self.func.insts.len() as u32);
        self.func.insts.push(InstData::new(kind, ty, None));
        self.func.blocks[block.0 as usize].insts.push(id);
        Value::Inst(id)
    }

    /// A binary operation of type `ty`.
    pub fn binary(&mut self, op: BinOp, ty: Type, lhs: Value, rhs: Value) -> Value {
        self.push(Inst::Binary { op, lhs, rhs }, ty)
    }

    /// A binary operation typed by whichever operand is not a constant.
    ///
    /// # Panics
    /// If both operands are constants.
    pub fn binop(&mut self, op: BinOp, lhs: Value, rhs: Value) -> Value {
        let ty = self.infer(&lhs, &rhs, op.mnemonic());
        self.binary(op, ty, lhs, rhs)
    }

    /// `add`, typed by whichever operand is not a constant.
    pub fn add(&mut self, lhs: Value, rhs: Value) -> Value {
        self.binop(BinOp::Add, lhs, rhs)
    }

    /// `sub`, typed by whichever operand is not a constant.
    pub fn sub(&mut self, lhs: Value, rhs: Value) -> Value {
        self.binop(BinOp::Sub, lhs, rhs)
    }

    /// `mul`, typed by whichever operand is not a constant.
    pub fn mul(&mut self, lhs: Value, rhs: Value) -> Value {
        self.binop(BinOp::Mul, lhs, rhs)
    }

    /// `fadd`, typed by whichever operand is not a constant.
    pub fn fadd(&mut self, lhs: Value, rhs: Value) -> Value {
        self.binop(BinOp::FAdd, lhs, rhs)
    }

    /// `fneg`, of the operand's type.
    ///
    /// # Panics
    /// If `val` is a constant.
    pub fn fneg(&mut self, val: Value) -> Value {
        let ty = self.type_of(&val).expect("'fneg' of a constant");
        self.push(Inst::FNeg { val }, ty)
    }

    /// `icmp`, typed by whichever operand is not a constant.
    pub fn icmp(&mut self, pred: IntPred, lhs: Value, rhs: Value) -> Value {
        let ty = self.infer(&lhs, &rhs, "icmp");
        self.push(Inst::ICmp { pred, ty, lhs, rhs }, Type::I1)
    }

    /// `fcmp`, typed by whichever operand is not a constant.
    pub fn fcmp(&mut self, pred: FloatPred, lhs: Value, rhs: Value) -> Value {
        let ty = self.infer(&lhs, &rhs, "fcmp");
        self.push(Inst::FCmp { pred, ty, lhs, rhs }, Type::I1)
    }

    /// `select i1 cond, T if_true, T if_false`, typed by whichever of the two is not a constant.
    pub fn select(&mut self, cond: Value, if_true: Value, if_false: Value) -> Value {
        let ty = self.infer(&if_true, &if_false, "select");
        self.push(Inst::Select { lanewise: false, cond, if_true, if_false }, ty)
    }

    /// A cast of `val` (of type `from`) to `to`.
    pub fn cast(&mut self, op: CastOp, from: Type, val: Value, to: Type) -> Value {
        self.push(Inst::Cast { op, from, val }, to)
    }

    /// A stack slot for one `ty`.
    pub fn alloca(&mut self, ty: Type, align: Option<u64>) -> Value {
        self.push(Inst::Alloca { ty, count: None, align }, Type::PTR)
    }

    /// A stack slot for `count` elements of `ty`.
    pub fn alloca_array(&mut self, ty: Type, count: Operand, align: Option<u64>) -> Value {
        self.push(Inst::Alloca { ty, count: Some(count), align }, Type::PTR)
    }

    /// `load ty, ptr ptr`, neither volatile nor with an explicit alignment.
    pub fn load(&mut self, ty: Type, ptr: Value) -> Value {
        self.push(Inst::Load { ptr, align: None, volatile: false, atomic: None }, ty)
    }

    /// `store val, ptr ptr`, neither volatile nor with an explicit alignment.
    pub fn store(&mut self, val: Operand, ptr: Value) {
        self.push(Inst::Store { val, ptr, align: None, volatile: false, atomic: None }, Type::Void);
    }

    /// `getelementptr inbounds source, ptr base, indices...`
    pub fn gep(&mut self, source: Type, base: Value, indices: &[Operand]) -> Value {
        // The result is a pointer of the base's address space.
        let ty = self.type_of(&base).filter(Type::is_ptr).unwrap_or(Type::PTR);
        self.push(Inst::Gep { inbounds: true, source, base, indices: indices.to_vec(), vector_base: false }, ty)
    }

    /// A phi without entries; add them with [`add_incoming`](Self::add_incoming).
    pub fn phi(&mut self, ty: Type) -> Value {
        self.push(Inst::Phi { incoming: Vec::new() }, ty)
    }

    /// Adds `value` flowing in from `block` to a phi made by [`phi`](Self::phi).
    pub fn add_incoming(&mut self, phi: &Value, value: Value, block: BlockId) {
        if let Value::Inst(id) = phi {
            if let Inst::Phi { incoming } = &mut self.func.insts[id.0 as usize].kind {
                incoming.push((value, block));
            }
        }
    }

    /// A direct call with the callee's declared signature (and its `hwreg` registers); an
    /// `explicitcc` callee is called with that convention, every other one with C's.
    pub fn call(&mut self, callee: FuncId, args: &[Operand]) -> Value {
        let f = if callee == self.id { &self.func } else { self.module.function(callee) };
        let sig = super::verify::signature_of(f);
        let cc = if f.cc == CallConv::Explicit { CallConv::Explicit } else { CallConv::C };
        let ret = sig.ret.clone();
        let kind = Inst::Call {
            cc,
            callee: Value::Func(callee),
            sig,
            args: args.to_vec(),
            tail: TailKind::None,
            bundles: Box::default(),
            directives: None,
            invoke: None,
        };
        self.push(kind, ret)
    }

    /// A call through a pointer with function type `sig`.
    pub fn call_indirect(&mut self, sig: Signature, callee: Value, args: &[Operand]) -> Value {
        let ret = sig.ret.clone();
        self.push(
            Inst::Call {
                cc: CallConv::C,
                callee,
                sig,
                args: args.to_vec(),
                tail: TailKind::None,
                bundles: Box::default(),
                directives: None,
                invoke: None,
            },
            ret,
        )
    }

    /// `llvm.experimental.stackmap(i64 id, i32 shadow, live...)`, declaring the intrinsic if needed.
    pub fn stackmap(&mut self, id: u64, shadow: u32, live: &[Operand]) {
        let sig = Signature {
            ret: Type::Void,
            params: vec![Type::I64, Type::I32],
            varargs: true,
            abi: Box::default(),
            ext: Default::default(),
        };
        let mut args = vec![Operand::new(Type::I64, int(id as i64)), Operand::new(Type::I32, int(shadow as i64))];
        args.extend_from_slice(live);
        self.intrinsic_call("llvm.experimental.stackmap", sig, args);
    }

    /// `llvm.experimental.patchpoint.<ret>(i64 id, i32 num_bytes, ptr target, i32 nargs, args..., live...)`:
    /// `args` are the call arguments (their count is NUMARGS), `live` the values to record.
    /// `ret` is void, an integer type, ptr, float or double; `cc` is usually `AnyReg` or `C`.
    #[allow(clippy::too_many_arguments)]
    pub fn patchpoint(
        &mut self,
        cc: CallConv,
        ret: Type,
        id: u64,
        num_bytes: u32,
        target: Value,
        args: &[Operand],
        live: &[Operand],
    ) -> Value {
        let suffix = if ret == Type::Void { "void".to_string() } else { mangled_name(&ret) };
        let sig = Signature {
            ret: ret.clone(),
            params: vec![Type::I64, Type::I32, Type::PTR, Type::I32],
            varargs: true,
            abi: Box::default(),
            ext: Default::default(),
        };
        let callee = self.declare_intrinsic(&format!("llvm.experimental.patchpoint.{suffix}"), &sig);
        let mut all = vec![
            Operand::new(Type::I64, int(id as i64)),
            Operand::new(Type::I32, int(num_bytes as i64)),
            Operand::new(Type::PTR, target),
            Operand::new(Type::I32, int(args.len() as i64)),
        ];
        all.extend_from_slice(args);
        all.extend_from_slice(live);
        self.push(
            Inst::Call {
                cc,
                callee: Value::Func(callee),
                sig,
                args: all,
                tail: TailKind::None,
                bundles: Box::default(),
                directives: None,
                invoke: None,
            },
            ret,
        )
    }

    fn declare_intrinsic(&mut self, name: &str, sig: &Signature) -> FuncId {
        if let Some(id) = self.module.function_by_name(name) {
            return id;
        }
        let mut f = placeholder(name);
        f.ret = sig.ret.clone();
        f.params = sig
            .params
            .iter()
            .map(|t| Param { ty: t.clone(), name: None, abi: ParamAbi::Plain, ext: Extension::None })
            .collect();
        f.varargs = sig.varargs;
        self.module.functions.push(f);
        FuncId(self.module.functions.len() as u32 - 1)
    }

    /// Names the function's garbage collector (`gc "statepoint-example"`), which statepoints need.
    pub fn set_gc(&mut self, strategy: &str) {
        self.func.gc = Some(strategy.to_string());
    }

    /// Which functions keep a frame pointer (`"frame-pointer"="all"` and so on).
    pub fn set_frame_pointer(&mut self, kind: FramePointerKind) {
        self.func.frame_pointer = kind;
    }

    /// `llvm.experimental.gc.statepoint.p0(i64 id, i32 patch_bytes, ptr elementtype(...) target,
    /// i32 nargs, i32 0, args..., i32 0, i32 0) [ "deopt"(deopt...), "gc-live"(gc_live...) ]`,
    /// calling function `target` with `args`; returns the token that [`gc_result`](Self::gc_result)
    /// and [`gc_relocate`](Self::gc_relocate) take (`gc_relocate` indexes `gc_live`). Bundles left
    /// empty are not written.
    pub fn statepoint(
        &mut self,
        id: u64,
        patch_bytes: u32,
        target: FuncId,
        args: &[Operand],
        deopt: &[Operand],
        gc_live: &[Operand],
    ) -> Value {
        let target_type = if target == self.id {
            super::verify::signature_of(&self.func)
        } else {
            super::verify::signature_of(self.module.function(target))
        };
        let sig = Signature {
            ret: Type::Token,
            params: vec![Type::I64, Type::I32, Type::PTR, Type::I32, Type::I32],
            varargs: true,
            abi: vec![
                ParamAbi::Plain,
                ParamAbi::Plain,
                ParamAbi::ElementType(Box::new(Signature { abi: Box::default(), ..target_type })),
            ]
            .into(),
            ext: Default::default(),
        };
        let callee = self.declare_intrinsic("llvm.experimental.gc.statepoint.p0", &sig);
        let mut all = vec![
            Operand::new(Type::I64, int(id as i64)),
            Operand::new(Type::I32, int(i64::from(patch_bytes))),
            Operand::new(Type::PTR, Value::Func(target)),
            Operand::new(Type::I32, int(args.len() as i64)),
            Operand::new(Type::I32, int(0)),
        ];
        all.extend_from_slice(args);
        all.extend([Operand::new(Type::I32, int(0)), Operand::new(Type::I32, int(0))]);
        let bundles: Vec<Bundle> = [(BundleTag::Deopt, deopt), (BundleTag::GcLive, gc_live)]
            .into_iter()
            .filter(|(_, operands)| !operands.is_empty())
            .map(|(tag, operands)| Bundle { tag, operands: operands.to_vec() })
            .collect();
        let kind = Inst::Call {
            cc: CallConv::C,
            callee: Value::Func(callee),
            sig,
            args: all,
            tail: TailKind::None,
            bundles: bundles.into(),
            directives: None,
            invoke: None,
        };
        self.push(kind, Type::Token)
    }

    /// `llvm.experimental.gc.result.<ty>(token)`: the statepoint's call result, of type `ty`.
    pub fn gc_result(&mut self, token: Value, ty: Type) -> Value {
        let name = format!("llvm.experimental.gc.result.{}", mangled_name(&ty));
        let sig = Signature {
            ret: ty,
            params: vec![Type::Token],
            varargs: false,
            abi: Box::default(),
            ext: Default::default(),
        };
        self.intrinsic_call(&name, sig, vec![Operand::new(Type::Token, token)])
    }

    /// `llvm.experimental.gc.relocate.<ty>(token, i32 base, i32 derived)`: `gc-live[derived]` after
    /// the statepoint, a pointer of type `ty`.
    pub fn gc_relocate(&mut self, token: Value, base: u32, derived: u32, ty: Type) -> Value {
        // A non-pointer `ty` makes a declaration the verifier rejects.
        let suffix = mangled_name(&ty);
        let sig = Signature {
            ret: ty,
            params: vec![Type::Token, Type::I32, Type::I32],
            varargs: false,
            abi: Box::default(),
            ext: Default::default(),
        };
        let args = vec![
            Operand::new(Type::Token, token),
            Operand::new(Type::I32, int(i64::from(base))),
            Operand::new(Type::I32, int(i64::from(derived))),
        ];
        self.intrinsic_call(&format!("llvm.experimental.gc.relocate.{suffix}"), sig, args)
    }

    /// A C-convention call of intrinsic `name` (declared with `sig` if needed); its result.
    fn intrinsic_call(&mut self, name: &str, sig: Signature, args: Vec<Operand>) -> Value {
        let callee = self.declare_intrinsic(name, &sig);
        let ret = sig.ret.clone();
        let kind = Inst::Call {
            cc: CallConv::C,
            callee: Value::Func(callee),
            sig,
            args,
            tail: TailKind::None,
            bundles: Box::default(),
            directives: None,
            invoke: None,
        };
        self.push(kind, ret)
    }

    /// `br label %dest`.
    pub fn br(&mut self, dest: BlockId) {
        self.push(Inst::Br { dest }, Type::Void);
    }

    /// `br i1 cond, label %if_true, label %if_false`.
    pub fn cond_br(&mut self, cond: Value, if_true: BlockId, if_false: BlockId) {
        self.push(Inst::CondBr { cond, if_true, if_false }, Type::Void);
    }

    /// `switch` on an integer of type `ty`; case values as sign-extended integers.
    pub fn switch(&mut self, ty: Type, val: Value, default: BlockId, cases: &[(i64, BlockId)]) {
        self.push(Inst::Switch { ty, val, default, cases: cases.to_vec() }, Type::Void);
    }

    /// `extractvalue`: the member of aggregate `agg` at `indices`.
    ///
    /// # Panics
    /// If the indices do not select a member of `agg`'s type.
    pub fn extract_value(&mut self, agg: Operand, indices: &[u32]) -> Value {
        let ty = indices
            .iter()
            .try_fold(&agg.ty, |t, &i| t.member(u64::from(i)).map(|m| m.0))
            .unwrap_or_else(|| panic!("extractvalue indices {indices:?} do not select a member of {}", agg.ty))
            .clone();
        self.push(Inst::ExtractValue { agg, indices: indices.to_vec() }, ty)
    }

    /// `insertvalue`: aggregate `agg` of type `ty` with the member at `indices` replaced by `val`.
    pub fn insert_value(&mut self, ty: Type, agg: Value, val: Operand, indices: &[u32]) -> Value {
        self.push(Inst::InsertValue { agg, val, indices: indices.to_vec() }, ty)
    }

    /// Returns `val`, typed by the function's return type.
    pub fn ret(&mut self, val: Value) {
        let ty = self.func.ret.clone();
        self.push(Inst::Ret { val: Some(Operand::new(ty, val)) }, Type::Void);
    }

    /// `ret void`.
    pub fn ret_void(&mut self) {
        self.push(Inst::Ret { val: None }, Type::Void);
    }

    /// `unreachable`.
    pub fn unreachable(&mut self) {
        self.push(Inst::Unreachable, Type::Void);
    }
}
