//! A reference interpreter of the IR: runs a verified [`Module`]'s functions from their entry, or
//! resumes one in the middle with values read from a stopped frame (deoptimisation), and serves as an
//! oracle for the compiled code.
//!
//! Values are `u64` bits, as [`crate::runtime::read_location`] yields them from a location of the
//! value's size: integers zero-extended from their width (`i1` is 0 or 1), `float` as its f32 bits in
//! the low 32, `double` as f64 bits, `ptr` as an address. An aggregate value (array or struct) is
//! the address of its bytes, laid out as in memory: each instruction with an aggregate result owns
//! one such image in its frame, rewritten each time it runs, and copies what it gets (a phi, a
//! call's result, an argument), so a value never changes under a later use. Memory is the process's own: loads and
//! stores go through raw pointers, which is why running code is `unsafe`. Allocas are heap blocks
//! freed when their frame returns; each global is a block the interpreter initialises, unless the
//! embedder supplies its address ([`Interpreter::global_address`]).
//!
//! Functions have addresses: by default a token per function, unique in the process but not code,
//! which calls through pointers map back; [`Interpreter::function_address`] supplies real ones (say,
//! the JIT's). A call to a declared function goes to, in order: an external the embedder registered
//! by name ([`Interpreter::external`]), the built-ins `putchar` (to [`Interpreter::output_to`]'s sink),
//! `fmod` and `fmodf`, then the process's symbol of that name, called natively if its signature
//! allows (`native.rs`); a call through an unknown address is a native call with the same rule.
//! `llvm.experimental.stackmap` does nothing; a patch point calls its target, if not null, with its
//! call arguments. Calls to defined functions push a frame on an explicit stack, so deep recursion is
//! an error ([`Interpreter::depth_limit`]), not a stack overflow; `tail` calls that return the callee's
//! result replace their caller's frame.
//!
//! Undefined behaviour never panics the interpreter: division by zero, `INT_MIN / -1`, `unreachable`
//! and null pointer accesses are [`InterpError`]s; `undef` and `poison` read as 0; the other poison
//! cases (over-wide shifts, out-of-range float-to-integer casts) compute what the compiled code
//! computes (`scalar.rs`). A volatile access is just an access: each one executes exactly once.

mod memory;
mod native;
mod scalar;
#[cfg(test)]
mod tests;
mod vectors;

use std::collections::HashMap;
use std::io::Write;

use crate::ir::{
    BlockId, Const, FuncId, Function, GlobalId, Inst, InstData, InstId, Intrinsic, Module, Operand, ParamAbi,
    PointCall, Span, StatepointCall, Symbol, TailKind, TokenUse, Type, Value,
};
use memory::Allocation;

/// Whether `data` computes with an `i128` value (its result or an operand's type, an aggregate's
/// members included), which the interpreter's 64-bit values cannot hold. Stack maps ignore their
/// operands here, so the `i128` constants they record are no obstacle.
fn computes_with_i128(module: &Module, data: &InstData) -> bool {
    computes_with(module, data, &|t: &Type| {
        let mut found = false;
        t.for_each_leaf(0, &mut |_, leaf| found |= *leaf == Type::I128);
        found
    })
}

/// The image of a vector result `lanes` of instruction `id` (of type `ty`), kept in `frame`.
fn vector_result(frame: &mut Frame<'_>, id: InstId, ty: &Type, lanes: &[u64]) -> u64 {
    let image = vectors::image(ty, lanes);
    // SAFETY: `image` holds the bytes copied.
    unsafe { frame.keep_image(id, image.as_ptr() as u64, image.len() as u64) }
}

/// `base` advanced by the (sign-extended) indices `steps` over `source`, as `getelementptr` does.
fn gep_address(base: u64, source: &Type, steps: &[i64]) -> Result<u64, String> {
    let (mut address, mut current) = (base, source);
    for (i, &n) in steps.iter().enumerate() {
        if i == 0 {
            address = address.wrapping_add((n as u64).wrapping_mul(current.alloc_size()));
            continue;
        }
        let (member, step) = current.gep_step(n).ok_or_else(|| format!("no field {n} in '{current}'"))?;
        address = address.wrapping_add(step as u64);
        current = member;
    }
    Ok(address)
}

/// Whether `holds` is true of `data`'s result type or of an operand's type.
fn computes_with(module: &Module, data: &InstData, holds: &dyn Fn(&Type) -> bool) -> bool {
    holds(&data.ty)
        || match &data.kind {
            Inst::ICmp { ty, .. } | Inst::Switch { ty, .. } => holds(ty),
            Inst::Cast { from, .. } => holds(from),
            Inst::Store { val, .. } | Inst::AtomicRmw { val, .. } | Inst::InsertValue { val, .. } => holds(&val.ty),
            Inst::CmpXchg { cmp, .. } => holds(&cmp.ty),
            Inst::ExtractValue { agg, .. } => holds(&agg.ty),
            Inst::ExtractElement { vec, .. } => holds(&vec.ty),
            Inst::Ret { val } => val.as_ref().is_some_and(|v| holds(&v.ty)),
            Inst::Call { callee: Value::Func(f), .. }
                if module.function(*f).intrinsic() == Some(Intrinsic::StackMap) =>
            {
                false
            }
            Inst::Call { args, .. } => args.iter().any(|a| holds(&a.ty)),
            _ => false,
        }
}

/// A run-time error of interpreted code, positioned at the instruction that failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: error: in @{function}: {message}", position(*.span))]
pub struct InterpError {
    /// The module's file name.
    pub file: String,
    /// The function that was executing.
    pub function: String,
    /// The failing instruction's position; `0:0` when unknown (IR built in memory).
    pub span: Span,
    /// What went wrong.
    pub message: String,
}

fn position(span: Span) -> String {
    if span == Span::default() {
        String::new()
    } else {
        format!(":{span}")
    }
}

/// An external function the embedder provides: receives the arguments' bits, returns the result's
/// (ignored for a void call) or a message.
pub type External<'a> = Box<dyn FnMut(&[u64]) -> Result<u64, String> + 'a>;

/// The call depth past which interpretation stops, by default.
const DEFAULT_DEPTH_LIMIT: usize = 100_000;

/// The C library's non-local jumps, which the interpreter refuses by name.
const NON_LOCAL_JUMPS: [&str; 7] =
    ["setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp", "longjmp", "_longjmp", "siglongjmp"];

/// Runs the functions of one module. Setters return `&mut Self` so they chain.
pub struct Interpreter<'a> {
    module: &'a Module,
    /// The blocks whose address the module takes ([`Module::block_addresses`]).
    block_addresses: Vec<(FuncId, crate::ir::BlockId)>,
    /// Each global's address; `None` for an external global the process does not define.
    globals: Vec<Option<u64>>,
    _own_globals: Vec<Allocation>,
    /// Each function's address, and the function at each address.
    functions: Vec<u64>,
    by_address: HashMap<u64, FuncId>,
    /// One byte per function: the default addresses point into it, so no other object has them.
    tokens: Allocation,
    externals: HashMap<String, External<'a>>,
    output: Box<dyn Write + 'a>,
    step_limit: Option<u64>,
    depth_limit: usize,
    steps: u64,
    /// Incoming values of the phis being entered (with a copy of an aggregate's bytes), reused
    /// across branches.
    phi_values: Vec<(u64, Option<Vec<u8>>)>,
    /// The bytes of each aggregate constant operand, made on first use (keyed by the constant's
    /// place in the module, which outlives the interpreter).
    constant_images: std::cell::RefCell<HashMap<*const Const, Box<[u8]>>>,
    /// The bytes of the last aggregate result [`Interpreter::call`] returned.
    result_image: Box<[u8]>,
    on_stack_map: Option<StackMapHook<'a>>,
}

/// Observes each stack map the interpreter passes: its ID and its live values, in operand order.
pub type StackMapHook<'a> = Box<dyn FnMut(u64, &[u64]) + 'a>;

/// The activation of a defined function.
struct Frame<'a> {
    f: &'a Function,
    /// The next instruction: `f.blocks[block].insts[pos]`; the call in progress while a callee runs.
    block: usize,
    pos: usize,
    values: Vec<u64>,
    params: Vec<u64>,
    /// The bytes of the aggregate results of this frame's instructions (aggregate and `byval`
    /// parameters are copied into `allocas`).
    images: HashMap<InstId, Box<[u8]>>,
    /// In a resumed frame, which values are bound or computed since; `None` when run from the entry,
    /// where the verifier's dominance check guarantees every read value is computed.
    known: Option<Known>,
    allocas: Vec<Allocation>,
    /// In a variadic function: the arguments beyond its parameters, each with whether it is
    /// floating-point (what `llvm.va_start` lays out).
    variadic: Vec<(u64, bool)>,
}

struct Known {
    insts: Vec<bool>,
    params: Vec<bool>,
}

/// What an instruction does to control.
enum Step {
    Next(Option<u64>),
    Jump(BlockId),
    /// A call of a defined function; `tail` when the caller's frame can go first.
    Call {
        callee: FuncId,
        args: Vec<u64>,
        /// The arguments beyond a variadic callee's parameters, each with whether it is
        /// floating-point.
        variadic: Vec<(u64, bool)>,
        tail: bool,
    },
    Return(Option<u64>),
}

/// Where a call goes.
enum Target {
    Function(FuncId),
    Address(u64),
}

impl<'a> Interpreter<'a> {
    /// An interpreter of `module`, which must have passed [`crate::ir::verify()`]; allocates and
    /// initialises every defined global, and looks external ones up in the process.
    pub fn new(module: &'a Module) -> Interpreter<'a> {
        let tokens = Allocation::zeroed(module.functions.len() as u64, 1).expect("one byte per function");
        // An `extern_weak` function the process lacks is at address 0; the others get tokens.
        let functions: Vec<u64> = module
            .functions
            .iter()
            .zip(0..)
            .map(|(f, i)| {
                let missing = f.linkage == crate::ir::Linkage::ExternWeak && native::symbol(&f.name).is_none();
                if missing {
                    0
                } else {
                    tokens.address() + i
                }
            })
            .collect();
        let mut globals = Vec::with_capacity(module.globals.len());
        let mut own_globals = Vec::new();
        for g in &module.globals {
            let address = match &g.init {
                Some(_) => {
                    let align = g.align.unwrap_or(1).max(g.ty.align());
                    // A verified global's size and alignment are sane; a failure leaves it unavailable.
                    Allocation::zeroed(g.ty.alloc_size(), align).ok().map(|block| {
                        let address = block.address();
                        own_globals.push((block, g));
                        address
                    })
                }
                // An `extern_weak` global nothing defines is at address 0.
                None => native::symbol(&g.name).or((g.linkage == crate::ir::Linkage::ExternWeak).then_some(0)),
            };
            globals.push(address);
        }
        // Initialisers may hold the address of any global or function, so all have one first.
        let address_of = |s: Symbol| match s {
            Symbol::Global(g) => globals[g.0 as usize].unwrap_or(0),
            Symbol::Func(f) => functions[f.0 as usize],
        };
        let block_addresses = module.block_addresses();
        let block_value = |b: &crate::ir::BlockAddress| module.block_address_value(&block_addresses, b).unwrap_or(0);
        let own_globals = own_globals
            .into_iter()
            .map(|(mut block, g)| {
                if let Some(init) = &g.init {
                    block.initialise(&g.ty, init, &memory::Addresses { symbol: &address_of, block: &block_value });
                }
                block
            })
            .collect();
        let by_address = functions.iter().enumerate().map(|(i, &a)| (a, FuncId(i as u32))).collect();
        Interpreter {
            module,
            block_addresses,
            globals,
            _own_globals: own_globals,
            functions,
            by_address,
            tokens,
            externals: HashMap::new(),
            output: Box::new(std::io::stdout()),
            step_limit: None,
            depth_limit: DEFAULT_DEPTH_LIMIT,
            steps: 0,
            phi_values: Vec::new(),
            constant_images: Default::default(),
            result_image: Box::default(),
            on_stack_map: None,
        }
    }

    /// Where `putchar` writes (stdout by default).
    pub fn output_to(&mut self, sink: impl Write + 'a) -> &mut Self {
        self.output = Box::new(sink);
        self
    }

    /// Provides the declared function `name`; it takes precedence over built-ins and native symbols.
    pub fn external(&mut self, name: &str, f: impl FnMut(&[u64]) -> Result<u64, String> + 'a) -> &mut Self {
        self.externals.insert(name.to_string(), Box::new(f));
        self
    }

    /// Uses `address` as global `id` instead of the interpreter's own copy (say, the JIT's).
    pub fn global_address(&mut self, id: GlobalId, address: *mut u8) -> &mut Self {
        self.globals[id.0 as usize] = Some(address as u64);
        self
    }

    /// Gives function `id` this address (say, its JIT code's): `@f` evaluates to it, and calls
    /// through it interpret `id` (or, for a declared function without external or built-in, call
    /// `address` natively).
    pub fn function_address(&mut self, id: FuncId, address: u64) -> &mut Self {
        let old = std::mem::replace(&mut self.functions[id.0 as usize], address);
        if self.by_address.get(&old) == Some(&id) {
            self.by_address.remove(&old);
        }
        self.by_address.insert(address, id);
        self
    }

    /// Stops each `call` or `resume` with an error after `steps` instructions, instead of letting a
    /// runaway loop hang.
    pub fn step_limit(&mut self, steps: u64) -> &mut Self {
        self.step_limit = Some(steps);
        self
    }

    /// How many interpreted frames may be live at once (100 000 by default).
    pub fn depth_limit(&mut self, frames: usize) -> &mut Self {
        self.depth_limit = frames.max(1);
        self
    }

    /// Calls `hook` at each `llvm.experimental.stackmap` and at each patch point (before its region)
    /// with the record ID and the values of the record's locations: what the stack map of compiled
    /// code yields there. An `anyregcc` patch point's locations begin with its arguments, after its
    /// result if it has one, which the region has not set yet (given as 0).
    pub fn on_stack_map(&mut self, hook: impl FnMut(u64, &[u64]) + 'a) -> &mut Self {
        self.on_stack_map = Some(Box::new(hook));
        self
    }

    /// Global `id`'s address as interpreted code sees it; `None` for an external global the
    /// process does not define.
    pub fn global(&self, id: GlobalId) -> Option<*mut u8> {
        self.globals[id.0 as usize].map(|a| a as *mut u8)
    }

    /// Calls function `func` with `args` (one per parameter, each kept to its parameter's width) and
    /// returns its result, `None` for a void function. An aggregate argument or result is the
    /// address of its bytes, as laid out in memory; a result's stays valid until the next call.
    ///
    /// # Safety
    /// Interpreted code reads and writes memory through whatever pointers it computes or receives,
    /// and may call native code: as with compiled code, the IR must be free of undefined behaviour
    /// for these arguments and the memory it is given.
    pub unsafe fn call(&mut self, func: FuncId, args: &[u64]) -> Result<Option<u64>, InterpError> {
        // SAFETY: the caller's contract.
        unsafe { self.call_function(func, args) }
    }

    /// Runs the module's static constructors (`phase` [`StaticPhase::Constructor`](crate::ir::StaticPhase::Constructor), before `main`)
    /// or destructors (at exit), in the order a linked program runs them.
    ///
    /// # Safety
    /// As [`Interpreter::call`].
    pub unsafe fn run_static_functions(&mut self, phase: crate::ir::StaticPhase) -> Result<(), InterpError> {
        let list = self.module.static_functions().map_err(|e| InterpError {
            file: e.file,
            function: String::new(),
            span: e.span,
            message: e.message,
        })?;
        for f in crate::ir::StaticFunction::run_order(&list, phase) {
            // SAFETY: the caller's contract; static functions take no arguments.
            unsafe { self.call_function(f, &[]) }?;
        }
        Ok(())
    }

    /// [`Interpreter::call`].
    unsafe fn call_function(&mut self, func: FuncId, args: &[u64]) -> Result<Option<u64>, InterpError> {
        let f = self.module.function(func);
        if f.is_declaration() {
            return Err(self.error(
                f,
                f.span,
                format!("@{} is declared, not defined: there is nothing to interpret", f.name),
            ));
        }
        if args.len() != f.params.len() {
            let message = format!("@{} takes {} arguments, {} given", f.name, f.params.len(), args.len());
            return Err(self.error(f, f.span, message));
        }
        // SAFETY: aggregate and byval arguments point to their bytes (the caller's contract).
        let frame = unsafe { self.frame(f, args.to_vec()) };
        self.steps = 0;
        // SAFETY: the caller's contract (see above) is `run`'s.
        unsafe { self.run(frame) }
    }

    /// Resumes function `func` at the instruction after `after`, in `after`'s block, with `bound`
    /// giving the bits of instruction results and parameters computed before that point (each kept
    /// to its type's width), and returns the function's result. Reading a value that is neither
    /// bound nor computed after the resume point is an error that names it. Constants, globals and
    /// functions in `bound` are skipped, so a stack map's operands ([`stack_map_operands`]) zipped
    /// with the values of its locations bind as they are.
    ///
    /// # Safety
    /// As for [`Interpreter::call`]; pointers among the bound values must be valid for the accesses
    /// the rest of the function makes.
    pub unsafe fn resume(
        &mut self,
        func: FuncId,
        after: InstId,
        bound: &[(Value, u64)],
    ) -> Result<Option<u64>, InterpError> {
        let f = self.module.function(func);
        let found = f
            .blocks
            .iter()
            .enumerate()
            .find_map(|(b, block)| block.insts.iter().position(|&i| i == after).map(|pos| (b, pos)));
        let Some((block, pos)) = found else {
            return Err(self.error(f, f.span, format!("instruction #{} is in no block of @{}", after.0, f.name)));
        };
        let data = f.inst(after);
        if data.kind.is_terminator() {
            return Err(self.error(f, data.span, "cannot resume after a terminator"));
        }
        // SAFETY: no parameter is read from these zeros: an aggregate or byval parameter is unbound.
        let mut frame = unsafe { self.frame(f, vec![0; f.params.len()]) };
        let mut known = Known { insts: vec![false; f.insts.len()], params: vec![false; f.params.len()] };
        for (value, bits) in bound {
            match value {
                Value::Inst(i) if (i.0 as usize) < f.insts.len() && f.inst(*i).ty != Type::Void => {
                    frame.values[i.0 as usize] = scalar::normalize(&f.inst(*i).ty, *bits);
                    known.insts[i.0 as usize] = true;
                }
                Value::Param(n) if (*n as usize) < f.params.len() => {
                    frame.params[*n as usize] = scalar::normalize(&f.params[*n as usize].ty, *bits);
                    known.params[*n as usize] = true;
                }
                Value::Const(_) | Value::Global(_) | Value::Func(_) => {}
                other => {
                    let message = format!("cannot bind {other:?}: the function has no such value");
                    return Err(self.error(f, data.span, message));
                }
            }
        }
        frame.known = Some(known);
        (frame.block, frame.pos) = (block, pos + 1);
        self.steps = 0;
        // SAFETY: the caller's contract (see above) is `run`'s.
        unsafe { self.run(frame) }
    }

    /// A frame of `f` entered with `params`: aggregate parameters are copied into the frame, and
    /// so are the objects `byval` pointers point to (zero addresses give zeros).
    ///
    /// # Safety
    /// Aggregate and `byval` arguments must point to readable bytes of their type's size.
    unsafe fn frame(&self, f: &'a Function, mut params: Vec<u64>) -> Frame<'a> {
        let mut frame = Frame {
            f,
            block: 0,
            pos: 0,
            values: vec![0; f.insts.len()],
            params: Vec::new(),
            images: HashMap::new(),
            known: None,
            allocas: Vec::new(),
            variadic: Vec::new(),
        };
        for (bits, p) in params.iter_mut().zip(&f.params) {
            let copied = match &p.abi {
                ParamAbi::ByVal(t) => Some((t, t.align())),
                ParamAbi::Plain if p.ty.is_split() => Some((&p.ty, 1)),
                _ => None,
            };
            let Some((ty, align)) = copied else {
                *bits = scalar::normalize(&p.ty, *bits);
                continue;
            };
            // A verified type's size is sane; the largest byval copy the interpreter refuses.
            let Ok(block) = Allocation::zeroed(ty.alloc_size(), align) else { continue };
            if *bits != 0 {
                // SAFETY: the argument points to the bytes of its type (the caller's contract).
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        *bits as *const u8,
                        block.address() as *mut u8,
                        ty.alloc_size() as usize,
                    )
                };
            }
            *bits = block.address();
            frame.allocas.push(block);
        }
        frame.params = params;
        frame
    }

    /// The host's `va_list`, which the IR's own loads read (the interpreter runs host IR).
    fn va_list(&self) -> Result<crate::arch::VaListLayout, String> {
        crate::arch::Arch::host()
            .map(crate::arch::Arch::va_list)
            .ok_or_else(|| "variadic definitions are not supported by the interpreter on this host".to_string())
    }

    /// `llvm.va_start(ap)` in `frame`: lays its variadic arguments out as the host's C convention
    /// passes them (a register save area, then stack slots) and points the `va_list` at `ap` there,
    /// so that the front end's `va_arg` loads find them.
    ///
    /// # Safety
    /// `ap` must be writable for the `va_list`'s size.
    unsafe fn va_start(&self, frame: &mut Frame<'a>, ap: u64) -> Result<(), String> {
        use crate::arch::{VaListKind, VaListLayout};
        let layout = self.va_list()?;
        if !frame.f.varargs {
            return Err(format!("'llvm.va_start' in '@{}', which is not variadic", frame.f.name));
        }
        // The named parameters take the first registers of each class.
        let (mut ints, mut floats) = (0usize, 0usize);
        for p in &frame.f.params {
            let mut leaves = Vec::new();
            p.ty.for_each_leaf(0, &mut |_, t| leaves.push(t.is_float()));
            if !p.ty.is_split() {
                leaves = vec![p.ty.is_float()];
            }
            for float in leaves {
                if float {
                    floats += 1;
                } else {
                    ints += 1;
                }
            }
        }
        let (named_ints, named_floats) =
            (ints.min(layout.integer_registers), floats.min(VaListLayout::FLOAT_REGISTERS));
        let save = Allocation::zeroed(u64::from(layout.save_area_size()), 16)?;
        let overflow = Allocation::zeroed(8 * frame.variadic.len() as u64, 16)?;
        let (mut gp, mut fp, mut stack) = (named_ints, named_floats, 0u64);
        for &(bits, float) in &frame.variadic {
            let slot = if float && fp < VaListLayout::FLOAT_REGISTERS {
                fp += 1;
                save.address() + u64::from(layout.float_area() + VaListLayout::FLOAT_SLOT * (fp as u32 - 1))
            } else if !float && gp < layout.integer_registers {
                gp += 1;
                save.address() + 8 * (gp as u64 - 1)
            } else {
                stack += 1;
                overflow.address() + 8 * (stack - 1)
            };
            // SAFETY: the slot lies in one of the two blocks just allocated.
            unsafe { memory::store(&Type::I64, slot, bits) };
        }
        let int_offset = 8 * named_ints as u64;
        let float_offset = u64::from(layout.float_area()) + u64::from(VaListLayout::FLOAT_SLOT) * named_floats as u64;
        // SAFETY: `ap` is writable for the `va_list` (the caller's contract).
        unsafe {
            match layout.kind {
                VaListKind::SysV => {
                    memory::store(&Type::I32, ap, int_offset);
                    memory::store(&Type::I32, ap + 4, float_offset);
                    memory::store(&Type::PTR, ap + 8, overflow.address());
                    memory::store(&Type::PTR, ap + 16, save.address());
                }
                VaListKind::Aapcs64 => {
                    let (gr_top, vr_top) = (layout.float_area(), layout.save_area_size());
                    memory::store(&Type::PTR, ap, overflow.address());
                    memory::store(&Type::PTR, ap + 8, save.address() + u64::from(gr_top));
                    memory::store(&Type::PTR, ap + 16, save.address() + u64::from(vr_top));
                    memory::store(&Type::I32, ap + 24, int_offset.wrapping_sub(u64::from(gr_top)));
                    memory::store(&Type::I32, ap + 28, float_offset.wrapping_sub(u64::from(vr_top)));
                }
            }
        }
        frame.allocas.push(save);
        frame.allocas.push(overflow);
        Ok(())
    }

    /// The value of `blockaddress` `b`: its number (see [`Module::block_addresses`]).
    fn block_address(&self, b: &crate::ir::BlockAddress) -> u64 {
        self.module.block_address_value(&self.block_addresses, b).unwrap_or(0)
    }

    /// The address of the bytes of aggregate constant `c` of type `ty`.
    fn constant_image(&self, c: &Const, ty: &Type) -> u64 {
        let mut images = self.constant_images.borrow_mut();
        let image = images.entry(c as *const Const).or_insert_with(|| {
            let mut bytes = vec![0u8; ty.alloc_size() as usize].into_boxed_slice();
            let address_of = |s: Symbol| match s {
                Symbol::Global(g) => self.globals[g.0 as usize].unwrap_or(0),
                Symbol::Func(f) => self.functions[f.0 as usize],
            };
            // SAFETY: the buffer holds the constant's `ty.alloc_size()` bytes.
            let block = |b: &crate::ir::BlockAddress| self.block_address(b);
            let addresses = memory::Addresses { symbol: &address_of, block: &block };
            unsafe { memory::write_constant(bytes.as_mut_ptr() as u64, ty, c, &addresses) };
            bytes
        });
        image.as_ptr() as u64
    }

    fn error(&self, f: &Function, span: Span, message: impl Into<String>) -> InterpError {
        InterpError { file: self.module.file.clone(), function: f.name.clone(), span, message: message.into() }
    }

    /// Runs until `first` returns.
    unsafe fn run(&mut self, first: Frame<'a>) -> Result<Option<u64>, InterpError> {
        let returns_value = first.f.ret != Type::Void;
        let mut stack = vec![first];
        loop {
            let frame = stack.last_mut().expect("the loop returns when the stack empties");
            let f = frame.f;
            let id = f.blocks[frame.block].insts[frame.pos];
            let data = f.inst(id);
            self.steps += 1;
            if self.step_limit.is_some_and(|limit| self.steps > limit) {
                let message = format!("step limit reached: {} instructions executed", self.steps - 1);
                return Err(self.error(f, data.span, message));
            }
            // SAFETY: `run`'s contract covers every instruction it steps through.
            let step = unsafe { self.step(frame, id, data) }.map_err(|message| self.error(f, data.span, message))?;
            match step {
                Step::Next(value) => {
                    if let Some(v) = value {
                        frame.set(id, v);
                    }
                    frame.pos += 1;
                }
                Step::Jump(to) => self.enter(frame, to).map_err(|message| self.error(f, data.span, message))?,
                Step::Call { callee, args, variadic, tail } => {
                    if !tail && stack.len() >= self.depth_limit {
                        let message = format!("call depth limit reached: {} frames", self.depth_limit);
                        return Err(self.error(f, data.span, message));
                    }
                    // SAFETY: aggregate and byval arguments point into the caller's frame, which
                    // goes (for a tail call) only once the callee's frame has copied them.
                    let mut callee = unsafe { self.frame(self.module.function(callee), args) };
                    callee.variadic = variadic;
                    if tail {
                        stack.pop();
                    }
                    stack.push(callee);
                }
                Step::Return(value) => {
                    // The callee's frame holds an aggregate result until the caller has copied it.
                    let callee = stack.pop().expect("a frame is returning");
                    let ret = &callee.f.ret;
                    let Some(caller) = stack.last_mut() else {
                        if ret.is_split() {
                            let size = ret.alloc_size() as usize;
                            // SAFETY: an aggregate result is the address of its bytes in a live frame.
                            let bytes = unsafe { std::slice::from_raw_parts(value.unwrap_or(0) as *const u8, size) };
                            self.result_image = bytes.into();
                            return Ok(Some(self.result_image.as_ptr() as u64));
                        }
                        return Ok(returns_value.then(|| value.unwrap_or(0)));
                    };
                    let call = caller.f.blocks[caller.block].insts[caller.pos];
                    let ty = &caller.f.inst(call).ty;
                    if ty.is_split() {
                        // SAFETY: the callee's frame, which holds the result's bytes, is still alive.
                        let address = unsafe { caller.keep_image(call, value.unwrap_or(0), ty.alloc_size()) };
                        caller.set(call, address);
                    } else if *ty != Type::Void {
                        caller.set(call, scalar::normalize(ty, value.unwrap_or(0)));
                    }
                    drop(callee);
                    caller.pos += 1;
                }
            }
        }
    }

    /// Branches to `to`: its phis take their values on the edge from the current block.
    fn enter(&mut self, frame: &mut Frame<'a>, to: BlockId) -> Result<(), String> {
        let f = frame.f;
        let from = BlockId(frame.block as u32);
        let insts = &f.block(to).insts;
        self.phi_values.clear();
        for &phi in insts {
            let data = f.inst(phi);
            let Inst::Phi { incoming } = &data.kind else { break };
            let (value, _) = incoming
                .iter()
                .find(|(_, pred)| *pred == from)
                .ok_or_else(|| format!("a phi of %{} has no value for %{}", f.block(to).name, f.block(from).name))?;
            let bits = self.value(frame, value, &data.ty)?;
            // Phis take their values at once: an aggregate's bytes are copied before any phi is set.
            let bytes = data.ty.is_split().then(|| {
                // SAFETY: an aggregate value is the address of its bytes, alive in this frame.
                unsafe { std::slice::from_raw_parts(bits as *const u8, data.ty.alloc_size() as usize) }.to_vec()
            });
            self.phi_values.push((bits, bytes));
        }
        for (i, (bits, bytes)) in self.phi_values.iter().enumerate() {
            let bits = match bytes {
                // SAFETY: the copy holds the phi's type's bytes.
                Some(bytes) => unsafe { frame.keep_image(insts[i], bytes.as_ptr() as u64, bytes.len() as u64) },
                None => *bits,
            };
            frame.set(insts[i], bits);
        }
        (frame.block, frame.pos) = (to.0 as usize, self.phi_values.len());
        Ok(())
    }

    /// The bits of operand `v` used at type `ty`.
    /// The lanes of vector operand `v` of type `ty`.
    fn lanes(&self, frame: &Frame<'a>, v: &Value, ty: &Type) -> Result<Vec<u64>, String> {
        let address = self.value(frame, v, ty)?;
        // SAFETY: a vector value is the address of its image (an instruction's, a parameter's
        // copy or a constant's).
        Ok(unsafe { vectors::lanes(ty, address) })
    }

    fn value(&self, frame: &Frame<'a>, v: &Value, ty: &Type) -> Result<u64, String> {
        match v {
            Value::Inst(i) => match &frame.known {
                Some(known) if !known.insts[i.0 as usize] => Err(unavailable(frame.f, v)),
                _ => Ok(frame.values[i.0 as usize]),
            },
            Value::Param(n) => match &frame.known {
                Some(known) if !known.params[*n as usize] => Err(unavailable(frame.f, v)),
                _ => Ok(frame.params[*n as usize]),
            },
            Value::Const(Const::Address(symbol, offset)) => {
                let base = match symbol {
                    Symbol::Global(g) => self.value(frame, &Value::Global(*g), &Type::PTR)?,
                    Symbol::Func(f) => self.functions[f.0 as usize],
                };
                Ok(scalar::normalize(ty, base.wrapping_add(i64::from(*offset) as u64)))
            }
            Value::Const(Const::Relative(r)) => {
                let target = self.value(frame, &Value::Const(Const::Address(r.target, r.offset)), &Type::PTR)?;
                let base = self.value(frame, &Value::Const(Const::Address(r.base, 0)), &Type::PTR)?;
                Ok(scalar::normalize(ty, target.wrapping_sub(base)))
            }
            Value::Const(Const::BlockAddress(b)) => Ok(self.block_address(b)),
            Value::Const(Const::LabelDifference(pair)) => {
                Ok(scalar::normalize(ty, self.block_address(&pair.0).wrapping_sub(self.block_address(&pair.1))))
            }
            Value::Const(c) if ty.is_split() => Ok(self.constant_image(c, ty)),
            Value::Const(c) => Ok(scalar::constant(c, ty)),
            Value::Global(g) => self.globals[g.0 as usize].ok_or_else(|| {
                let name = &self.module.global(*g).name;
                format!("external global @{name} is not in this process: supply it with Interpreter::global_address")
            }),
            Value::Func(id) => Ok(self.functions[id.0 as usize]),
        }
    }

    /// Executes one instruction other than a phi (which `enter` evaluates).
    unsafe fn step(&mut self, frame: &mut Frame<'a>, id: InstId, data: &'a InstData) -> Result<Step, String> {
        let ty = &data.ty;
        if computes_with_i128(self.module, data) {
            return Err("the interpreter does not run i128 values (it holds values in 64 bits)".to_string());
        }

        let value = match &data.kind {
            Inst::Binary { op, lhs, rhs } if ty.is_vector() => {
                let (l, r) = (self.lanes(frame, lhs, ty)?, self.lanes(frame, rhs, ty)?);
                let elem = ty.lane_type();
                let out =
                    l.iter().zip(&r).map(|(&a, &b)| scalar::binary(*op, elem, a, b)).collect::<Result<Vec<_>, _>>()?;
                vector_result(frame, id, ty, &out)
            }
            Inst::FNeg { val } if ty.is_vector() => {
                let out: Vec<u64> =
                    self.lanes(frame, val, ty)?.into_iter().map(|v| scalar::fneg(ty.lane_type(), v)).collect();
                vector_result(frame, id, ty, &out)
            }
            Inst::ICmp { pred, ty: operands, lhs, rhs } if operands.is_vector() => {
                let (l, r) = (self.lanes(frame, lhs, operands)?, self.lanes(frame, rhs, operands)?);
                let elem = operands.lane_type();
                let out: Vec<u64> =
                    l.iter().zip(&r).map(|(&a, &b)| u64::from(scalar::icmp(*pred, elem, a, b))).collect();
                vector_result(frame, id, ty, &out)
            }
            Inst::FCmp { pred, ty: operands, lhs, rhs } if operands.is_vector() => {
                let (l, r) = (self.lanes(frame, lhs, operands)?, self.lanes(frame, rhs, operands)?);
                let elem = operands.lane_type();
                let out: Vec<u64> =
                    l.iter().zip(&r).map(|(&a, &b)| u64::from(scalar::fcmp(*pred, elem, a, b))).collect();
                vector_result(frame, id, ty, &out)
            }
            Inst::Select { lanewise: true, cond, if_true, if_false } => {
                let c = self.lanes(frame, cond, &ty.with_lanes_of(Type::I1))?;
                let (t, f) = (self.lanes(frame, if_true, ty)?, self.lanes(frame, if_false, ty)?);
                let out: Vec<u64> =
                    c.iter().zip(t.iter().zip(&f)).map(|(&c, (&t, &f))| if c != 0 { t } else { f }).collect();
                vector_result(frame, id, ty, &out)
            }
            Inst::Cast { op: crate::ir::CastOp::BitCast, from, val } if from.is_vector() || ty.is_vector() => {
                let bits = self.value(frame, val, from)?;
                let mut buffer = vec![0u8; from.alloc_size().max(ty.alloc_size()).max(8) as usize];
                if from.is_vector() {
                    // SAFETY: a vector value is the address of its image.
                    unsafe { std::ptr::copy(bits as *const u8, buffer.as_mut_ptr(), from.store_size() as usize) };
                } else {
                    // SAFETY: the buffer holds the scalar.
                    unsafe { memory::store(from, buffer.as_mut_ptr() as u64, bits) };
                }
                if ty.is_vector() {
                    buffer.truncate(ty.alloc_size() as usize);
                    // SAFETY: the buffer holds the image.
                    unsafe { frame.keep_image(id, buffer.as_ptr() as u64, buffer.len() as u64) }
                } else {
                    // SAFETY: the buffer holds the scalar.
                    unsafe { memory::load(ty, buffer.as_ptr() as u64) }
                }
            }
            Inst::Cast { op, from, val } if from.is_vector() => {
                let (f, t) = (from.lane_type(), ty.lane_type());
                let out: Vec<u64> =
                    self.lanes(frame, val, from)?.into_iter().map(|v| scalar::cast(*op, f, t, v)).collect();
                vector_result(frame, id, ty, &out)
            }
            Inst::ExtractElement { vec, index } => {
                let lanes = self.lanes(frame, &vec.value, &vec.ty)?;
                let i = self.value(frame, &index.value, &index.ty)?;
                // An index past the last lane is poison: 0 here.
                usize::try_from(i).ok().and_then(|i| lanes.get(i).copied()).unwrap_or(0)
            }
            Inst::InsertElement { vec, val, index } => {
                let mut lanes = self.lanes(frame, vec, ty)?;
                let v = self.value(frame, val, ty.lane_type())?;
                let i = self.value(frame, &index.value, &index.ty)?;
                if let Some(lane) = usize::try_from(i).ok().and_then(|i| lanes.get_mut(i)) {
                    *lane = v;
                }
                vector_result(frame, id, ty, &lanes)
            }
            Inst::ShuffleVector { a, b, mask } => {
                let mut joined = self.lanes(frame, &a.value, &a.ty)?;
                joined.extend(self.lanes(frame, b, &a.ty)?);
                let out: Vec<u64> = mask.iter().map(|l| l.map_or(0, |i| joined[i as usize])).collect();
                vector_result(frame, id, ty, &out)
            }
            Inst::Load { ptr, .. } if ty.is_vector() => {
                let address = self.value(frame, ptr, &Type::PTR)?;
                if address == 0 {
                    return Err(format!("load of {ty} from a null pointer"));
                }
                // Only the store size is read (a <3 x i32> reads 12 bytes).
                let mut image = vec![0u8; ty.alloc_size() as usize];
                // SAFETY: a non-null address the IR loads from is valid (no undefined behaviour).
                unsafe { std::ptr::copy(address as *const u8, image.as_mut_ptr(), ty.store_size() as usize) };
                // SAFETY: the image holds the vector's bytes.
                unsafe { frame.keep_image(id, image.as_ptr() as u64, image.len() as u64) }
            }
            Inst::Store { val, ptr, .. } if val.ty.is_vector() => {
                let bits = self.value(frame, &val.value, &val.ty)?;
                let address = self.value(frame, ptr, &Type::PTR)?;
                if address == 0 {
                    return Err(format!("store of {} to a null pointer", val.ty));
                }
                // SAFETY: the image, and a non-null address the IR stores its store size to.
                unsafe { std::ptr::copy(bits as *const u8, address as *mut u8, val.ty.store_size() as usize) };
                return Ok(Step::Next(None));
            }
            Inst::Binary { op, lhs, rhs } => {
                scalar::binary(*op, ty, self.value(frame, lhs, ty)?, self.value(frame, rhs, ty)?)?
            }
            Inst::FNeg { val } => scalar::fneg(ty, self.value(frame, val, ty)?),
            Inst::ICmp { pred, ty: operands, lhs, rhs } => {
                let (l, r) = (self.value(frame, lhs, operands)?, self.value(frame, rhs, operands)?);
                u64::from(scalar::icmp(*pred, operands, l, r))
            }
            Inst::FCmp { pred, ty: operands, lhs, rhs } => {
                let (l, r) = (self.value(frame, lhs, operands)?, self.value(frame, rhs, operands)?);
                u64::from(scalar::fcmp(*pred, operands, l, r))
            }
            Inst::Select { cond, if_true, if_false, .. } => {
                let chosen = if self.value(frame, cond, &Type::I1)? != 0 { if_true } else { if_false };
                let bits = self.value(frame, chosen, ty)?;
                if ty.is_split() {
                    // SAFETY: an aggregate value is the address of its bytes.
                    unsafe { frame.keep_image(id, bits, ty.alloc_size()) }
                } else {
                    bits
                }
            }
            Inst::Cast { op, from, val } => scalar::cast(*op, from, ty, self.value(frame, val, from)?),
            Inst::Alloca { ty: elem, count, align } => {
                let n = match count {
                    Some(c) => self.value(frame, &c.value, &c.ty)?,
                    None => 1,
                };
                let size =
                    elem.alloc_size().checked_mul(n).ok_or_else(|| format!("alloca of {n} x {elem} overflows"))?;
                let block = Allocation::zeroed(size, align.unwrap_or(1).max(elem.align()))?;
                let address = block.address();
                frame.allocas.push(block);
                address
            }
            Inst::Load { ptr, .. } => {
                let address = self.value(frame, ptr, &Type::PTR)?;
                if address == 0 {
                    return Err(format!("load of {ty} from a null pointer"));
                }
                if ty.is_aggregate() {
                    // SAFETY: a non-null address the IR loads from is valid (no undefined behaviour).
                    unsafe { frame.keep_image(id, address, ty.alloc_size()) }
                } else {
                    // SAFETY: a non-null address the IR loads from is valid (no undefined behaviour).
                    unsafe { memory::load(ty, address) }
                }
            }
            Inst::Store { val, ptr, .. } => {
                let bits = self.value(frame, &val.value, &val.ty)?;
                let address = self.value(frame, ptr, &Type::PTR)?;
                if address == 0 {
                    return Err(format!("store of {} to a null pointer", val.ty));
                }
                if val.ty.is_aggregate() {
                    let size = val.ty.alloc_size() as usize;
                    // SAFETY: the value's bytes, and a non-null address the IR stores to (no
                    // undefined behaviour); they may overlap.
                    unsafe { std::ptr::copy(bits as *const u8, address as *mut u8, size) };
                } else {
                    // SAFETY: a non-null address the IR stores to is valid (no undefined behaviour).
                    unsafe { memory::store(&val.ty, address, bits) };
                }
                return Ok(Step::Next(None));
            }
            // One thread interprets: atomic read-modify-writes are a load and a store.
            Inst::AtomicRmw { op, ptr, val, .. } => {
                let operand = self.value(frame, &val.value, &val.ty)?;
                let address = self.value(frame, ptr, &Type::PTR)?;
                if address == 0 {
                    return Err(format!("atomicrmw of {} on a null pointer", val.ty));
                }
                // SAFETY: a non-null address the IR accesses is valid (no undefined behaviour).
                let old = unsafe { memory::load(&val.ty, address) };
                // SAFETY: as above.
                unsafe { memory::store(&val.ty, address, scalar::rmw(*op, &val.ty, old, operand)) };
                old
            }
            Inst::CmpXchg { ptr, cmp, new, .. } => {
                let expected = self.value(frame, &cmp.value, &cmp.ty)?;
                let replacement = self.value(frame, new, &cmp.ty)?;
                let address = self.value(frame, ptr, &Type::PTR)?;
                if address == 0 {
                    return Err(format!("cmpxchg of {} on a null pointer", cmp.ty));
                }
                // SAFETY: a non-null address the IR accesses is valid (no undefined behaviour).
                let old = unsafe { memory::load(&cmp.ty, address) };
                if old == expected {
                    // SAFETY: as above.
                    unsafe { memory::store(&cmp.ty, address, replacement) };
                }
                frame.value_and_flag(id, ty, &cmp.ty, old, old == expected)
            }
            Inst::Fence { .. } => {
                std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
                return Ok(Step::Next(None));
            }
            // No code: the clobbers only constrain where compiled code keeps values.
            // The nops of a clobber-only asm do nothing.
            Inst::ClobberAsm { output: None, .. } => return Ok(Step::Next(None)),
            // An empty template's output: whatever the register held, 0 as compiled code has it.
            Inst::ClobberAsm { .. } if ty.is_split() => {
                let base = self.value(frame, &Value::Const(Const::Zero), ty)?;
                // SAFETY: an aggregate value is the address of its bytes, of its type's size.
                unsafe { frame.keep_image(id, base, ty.alloc_size()) }
            }
            Inst::ClobberAsm { .. } => self.value(frame, &Value::Const(Const::Zero), ty)?,
            Inst::Freeze { val } if ty.is_split() => {
                let base = self.value(frame, val, ty)?;
                // SAFETY: an aggregate value is the address of its bytes, of its type's size.
                unsafe { frame.keep_image(id, base, ty.alloc_size()) }
            }
            Inst::Freeze { val } => self.value(frame, val, ty)?,
            Inst::ExtractValue { agg, indices } => {
                let base = self.value(frame, &agg.value, &agg.ty)?;
                let (member, offset) = member_at(&agg.ty, indices);
                if member.is_split() {
                    // SAFETY: the member lies within the aggregate's bytes.
                    unsafe { frame.keep_image(id, base + offset, member.alloc_size()) }
                } else {
                    // SAFETY: the member lies within the aggregate's bytes.
                    unsafe { memory::load(member, base + offset) }
                }
            }
            Inst::InsertValue { agg, val, indices } => {
                let base = self.value(frame, agg, ty)?;
                let bits = self.value(frame, &val.value, &val.ty)?;
                let (member, offset) = member_at(ty, indices);
                // SAFETY: the aggregate's bytes, copied into this instruction's own.
                let address = unsafe { frame.keep_image(id, base, ty.alloc_size()) };
                if member.is_split() {
                    let size = member.alloc_size() as usize;
                    // SAFETY: the member lies within the new bytes; the inserted value is another image.
                    unsafe { std::ptr::copy(bits as *const u8, (address + offset) as *mut u8, size) };
                } else {
                    // SAFETY: the member lies within the new bytes.
                    unsafe { memory::store(member, address + offset, bits) };
                }
                address
            }
            Inst::Gep { source, base, indices, vector_base, .. } if ty.is_vector() => {
                // Lane by lane, scalar operands splatted.
                let n = ty.lanes().unwrap_or(1) as usize;
                let bases = match vector_base {
                    true => self.lanes(frame, base, ty)?,
                    false => vec![self.value(frame, base, ty.lane_type())?; n],
                };
                let mut per_index = Vec::with_capacity(indices.len());
                for index in indices.iter() {
                    let lane_bits = scalar::width(index.ty.lane_type());
                    let lanes = match index.ty.is_vector() {
                        true => self.lanes(frame, &index.value, &index.ty)?,
                        false => vec![self.value(frame, &index.value, &index.ty)?; n],
                    };
                    per_index.push(lanes.into_iter().map(|v| scalar::sext(lane_bits, v)).collect::<Vec<_>>());
                }
                let mut out = Vec::with_capacity(n);
                for (lane, &base) in bases.iter().enumerate() {
                    let steps: Vec<i64> = per_index.iter().map(|p| p[lane]).collect();
                    out.push(gep_address(base, source, &steps)?);
                }
                vector_result(frame, id, ty, &out)
            }
            Inst::Gep { source, base, indices, .. } => {
                let base = self.value(frame, base, &Type::PTR)?;
                let mut steps = Vec::with_capacity(indices.len());
                for index in indices {
                    steps.push(scalar::sext(scalar::width(&index.ty), self.value(frame, &index.value, &index.ty)?));
                }
                gep_address(base, source, &steps)?
            }
            Inst::Phi { .. } => unreachable!("phis are evaluated on entering their block"),
            Inst::Call { callee: Value::Func(callee), args, .. }
                if self.module.function(*callee).intrinsic().is_some_and(|i| {
                    !matches!(i, Intrinsic::StackMap | Intrinsic::PatchPoint | Intrinsic::Statepoint)
                }) =>
            {
                let intrinsic = self.module.function(*callee).intrinsic().expect("checked above");
                // SAFETY: `step`'s contract: memory intrinsics touch memory the IR may touch.
                return unsafe { self.intrinsic(frame, id, intrinsic, ty, args) };
            }
            // A native callee that throws would unwind through the interpreter's own frames.
            Inst::Call { invoke: Some(_), .. } | Inst::LandingPad { .. } | Inst::Resume { .. } => {
                let op = crate::ir::verify::mnemonic(&data.kind);
                return Err(format!(
                    "'{op}' is not supported by the interpreter: it cannot unwind exceptions (compile the module \
                     instead)"
                ));
            }
            // SAFETY: `step`'s contract covers the call.
            Inst::Call { .. } => return unsafe { self.call_inst(frame, id, data) },
            Inst::Br { dest } => return Ok(Step::Jump(*dest)),
            Inst::CondBr { cond, if_true, if_false } => {
                let taken = if self.value(frame, cond, &Type::I1)? != 0 { if_true } else { if_false };
                return Ok(Step::Jump(*taken));
            }
            Inst::Switch { ty: switch_ty, val, default, cases } => {
                let v = self.value(frame, val, switch_ty)?;
                let case = cases.iter().find(|(c, _)| scalar::normalize(switch_ty, *c as u64) == v);
                return Ok(Step::Jump(case.map_or(*default, |c| c.1)));
            }
            Inst::IndirectBr { addr, dests } => {
                let v = self.value(frame, addr, &Type::PTR)?;
                let this = self.module.functions.iter().position(|g| std::ptr::eq(g, frame.f));
                let target = v.checked_sub(1).and_then(|i| self.block_addresses.get(i as usize));
                return match target {
                    Some(&(f, b)) if Some(f.0 as usize) == this && dests.contains(&b) => Ok(Step::Jump(b)),
                    _ => Err(format!("'indirectbr' to {v:#x}, which is no listed block's address")),
                };
            }
            Inst::Ret { val } => {
                let v = match val {
                    Some(operand) => Some(self.value(frame, &operand.value, &operand.ty)?),
                    None => None,
                };
                return Ok(Step::Return(v));
            }
            Inst::Unreachable => return Err("reached 'unreachable'".to_string()),
        };
        Ok(Step::Next(Some(value)))
    }

    /// A call: `data.kind` is an `Inst::Call`.
    unsafe fn call_inst(&mut self, frame: &Frame<'a>, id: InstId, data: &'a InstData) -> Result<Step, String> {
        let Inst::Call { callee, sig, args, tail, .. } = &data.kind else { unreachable!("a call") };
        match PointCall::decode(self.module, data) {
            Some(Ok(PointCall::StackMap { id, live, .. })) => {
                if self.on_stack_map.is_some() {
                    let mut values = Vec::with_capacity(live.len());
                    for a in live {
                        values.push(self.value(frame, &a.value, &a.ty)?);
                    }
                    if let Some(hook) = &mut self.on_stack_map {
                        hook(id, &values);
                    }
                }
                return Ok(Step::Next(None));
            }
            // SAFETY: `call_inst`'s contract covers the patch point's call.
            Some(Ok(PointCall::PatchPoint(call))) => {
                if self.on_stack_map.is_some() {
                    // The record's locations: anyregcc's result (undefined before the region runs:
                    // 0) and arguments, then the live values.
                    let recorded =
                        if call.anyreg { call.args.iter().chain(call.live) } else { [].iter().chain(call.live) };
                    let mut values = Vec::with_capacity(call.args.len() + call.live.len() + 1);
                    if call.anyreg && data.ty != Type::Void {
                        values.push(0);
                    }
                    for a in recorded {
                        values.push(self.value(frame, &a.value, &a.ty)?);
                    }
                    if let Some(hook) = &mut self.on_stack_map {
                        hook(call.id, &values);
                    }
                }
                return unsafe { self.patch_point(frame, data, call.target, call.args) };
            }
            Some(Err(_)) => return Err("stack map or patch point operands not verified".to_string()),
            None => {}
        }
        // A statepoint calls its target; no collector runs in interpreted frames, so its token is the
        // call's result and each relocated pointer is the pointer itself.
        let statepoint = StatepointCall::decode(self.module, data)
            .or_else(|| StatepointCall::of_deopt_call(self.module, data).map(Ok));
        let (callee, sig, args) = match statepoint {
            // Unpatched, the region is nops: nothing is called and the result is undefined (0 here).
            Some(Ok(call)) if call.patch_bytes > 0 => return Ok(Step::Next(Some(0))),
            Some(Ok(call)) => (call.target, call.target_type, call.args),
            Some(Err(_)) => return Err("statepoint operands not verified".to_string()),
            None => (callee, sig, &args[..]),
        };
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.value(frame, &a.value, &a.ty)?);
        }
        let target = match callee {
            Value::Func(fid) => Target::Function(*fid),
            other => {
                let address = self.value(frame, other, &Type::PTR)?;
                self.by_address.get(&address).map_or(Target::Address(address), |&fid| Target::Function(fid))
            }
        };
        // `tail` promises the callee does not touch the caller's allocas; returning its result
        // right away lets the callee's frame replace the caller's.
        let returns_result = match frame.f.blocks[frame.block].insts.get(frame.pos + 1).map(|&i| &frame.f.inst(i).kind)
        {
            Some(Inst::Ret { val: None }) => data.ty == Type::Void,
            Some(Inst::Ret { val: Some(v) }) => v.value == Value::Inst(id),
            _ => false,
        };
        let tail = matches!(*tail, TailKind::Tail | TailKind::MustTail) && returns_result;
        // Native code takes a `byval` object on the stack, which `native::call` cannot put there.
        let interpreted = matches!(target, Target::Function(f) if !self.module.function(f).is_declaration());
        let declared = match target {
            Target::Function(f) => &self.module.function(f).params[..],
            Target::Address(_) => &[],
        };
        let byval = sig.abi.iter().chain(declared.iter().map(|p| &p.abi)).any(|a| matches!(a, ParamAbi::ByVal(_)));
        if byval && !interpreted && !self.externals.contains_key(&callee_name(self.module, &target)) {
            return Err("cannot call native code with a 'byval' argument: register an external for it".to_string());
        }
        let ty = if data.ty == Type::Token { &sig.ret } else { &data.ty };
        // SAFETY: `call_inst`'s contract covers its callee.
        unsafe { self.call_target(target, values, args, ty, tail) }
    }

    /// A call of an intrinsic other than a stack map or patch point.
    unsafe fn intrinsic(
        &mut self,
        frame: &mut Frame<'a>,
        id: InstId,
        intrinsic: Intrinsic,
        ty: &Type,
        args: &'a [Operand],
    ) -> Result<Step, String> {
        let mut v = Vec::with_capacity(args.len());
        for a in args {
            v.push(self.value(frame, &a.value, &a.ty)?);
        }
        let result = match intrinsic {
            Intrinsic::Op(op) if ty.is_vector() => {
                let fused = crate::arch::Arch::host().is_some_and(|arch| arch.fuses_multiply_add());
                let n = ty.lanes().unwrap_or(0) as usize;
                let columns: Vec<Vec<u64>> = args
                    .iter()
                    .zip(&v)
                    // SAFETY: a vector value is the address of its image.
                    .map(
                        |(a, &bits)| {
                            if a.ty.is_vector() {
                                unsafe { vectors::lanes(&a.ty, bits) }
                            } else {
                                vec![bits; n]
                            }
                        },
                    )
                    .collect();
                let out = vectors::intrinsic(op, ty.lane_type(), &columns, fused);
                Some(vector_result(frame, id, ty, &out))
            }
            Intrinsic::Op(op) => {
                let fused = crate::arch::Arch::host().is_some_and(|arch| arch.fuses_multiply_add());
                Some(scalar::intrinsic(op, ty, &v, fused))
            }
            Intrinsic::ThreeWayCompare { signed } if ty.is_vector() => {
                let operand = &args[0].ty;
                // SAFETY: a vector value is the address of its image.
                let (a, b) = unsafe { (vectors::lanes(operand, v[0]), vectors::lanes(operand, v[1])) };
                let lane = operand.lane_type();
                let out: Vec<u64> =
                    a.iter().zip(&b).map(|(&a, &b)| scalar::three_way(signed, lane, ty.lane_type(), a, b)).collect();
                Some(vector_result(frame, id, ty, &out))
            }
            Intrinsic::ThreeWayCompare { signed } => Some(scalar::three_way(signed, &args[0].ty, ty, v[0], v[1])),
            Intrinsic::FloatToIntSat { signed } if ty.is_vector() => {
                let operand = &args[0].ty;
                // SAFETY: a vector value is the address of its image.
                let lanes = unsafe { vectors::lanes(operand, v[0]) };
                let (from, to) = (operand.lane_type(), ty.lane_type());
                let out: Vec<u64> = lanes.iter().map(|&x| scalar::saturated_to_int(signed, from, to, x)).collect();
                Some(vector_result(frame, id, ty, &out))
            }
            Intrinsic::FloatToIntSat { signed } => Some(scalar::saturated_to_int(signed, &args[0].ty, ty, v[0])),
            Intrinsic::IsFpClass => {
                let Value::Const(Const::Int(mask)) = args[1].value else {
                    return Err("llvm.is.fpclass takes a constant class mask".to_string());
                };
                let operand = &args[0].ty;
                if ty.is_vector() {
                    // SAFETY: a vector value is the address of its image.
                    let lanes = unsafe { vectors::lanes(operand, v[0]) };
                    let lane = operand.lane_type();
                    let out: Vec<u64> =
                        lanes.iter().map(|&x| u64::from(scalar::of_classes(lane, x, mask as u32))).collect();
                    Some(vector_result(frame, id, ty, &out))
                } else {
                    Some(u64::from(scalar::of_classes(operand, v[0], mask as u32)))
                }
            }
            Intrinsic::FloatRoutine(routine) => Some(scalar::float_routine(routine, &args[0].ty, ty, &v)),
            Intrinsic::MemCpy | Intrinsic::MemMove | Intrinsic::MemSet => {
                let len = usize::try_from(v[2]).map_err(|_| format!("memory intrinsic of {} bytes", v[2]))?;
                if len > 0 && (v[0] == 0 || (intrinsic != Intrinsic::MemSet && v[1] == 0)) {
                    return Err("memory intrinsic on a null pointer".to_string());
                }
                // SAFETY: the IR copies or fills `len` bytes it owns (no undefined behaviour).
                unsafe {
                    match intrinsic {
                        Intrinsic::MemSet => std::ptr::write_bytes(v[0] as *mut u8, v[1] as u8, len),
                        Intrinsic::MemCpy => std::ptr::copy_nonoverlapping(v[1] as *const u8, v[0] as *mut u8, len),
                        _ => std::ptr::copy(v[1] as *const u8, v[0] as *mut u8, len),
                    }
                }
                None
            }
            Intrinsic::Trap => return Err("llvm.trap reached".to_string()),
            // The dynamic stack's top is the frame's allocation count: `stackrestore` frees the
            // allocas made since.
            Intrinsic::StackSave => Some(frame.allocas.len() as u64),
            Intrinsic::StackRestore => {
                let saved = usize::try_from(v[0]).unwrap_or(usize::MAX);
                frame.allocas.truncate(saved);
                None
            }
            Intrinsic::WithOverflow(op) => {
                let operand = &args[0].ty;
                let (result, overflow) = scalar::with_overflow(op, operand, v[0], v[1]);
                Some(frame.value_and_flag(id, ty, operand, result, overflow))
            }
            Intrinsic::ObjectSize => Some(scalar::normalize(ty, if v[1] & 1 != 0 { 0 } else { u64::MAX })),
            Intrinsic::IsConstant => Some(u64::from(matches!(args[0].value, Value::Const(_)))),
            Intrinsic::PtrMask => Some(v[0] & v[1]),
            Intrinsic::LoadRelative => {
                let offset = if args[1].ty == Type::I32 { v[1] as i32 as i64 as u64 } else { v[1] };
                // SAFETY: the IR reads an entry of its relative table, which is valid (no undefined behaviour).
                let relative = unsafe { memory::load(&Type::I32, v[0].wrapping_add(offset)) };
                Some(v[0].wrapping_add(relative as i32 as i64 as u64))
            }
            Intrinsic::ThreadLocalAddress => Some(v[0]),
            Intrinsic::Hint => None,
            Intrinsic::PassThrough => Some(v[0]),
            Intrinsic::InvariantStart => Some(0),
            Intrinsic::GcResult => Some(v[0]),
            Intrinsic::GcRelocate => {
                let Some(Ok(TokenUse::Relocate { token, derived, .. })) =
                    TokenUse::decode(self.module, frame.f, frame.f.inst(id))
                else {
                    return Err("gc.relocate operands not verified".to_string());
                };
                let Some(Ok(statepoint)) = StatepointCall::decode(self.module, frame.f.inst(token)) else {
                    return Err("statepoint operands not verified".to_string());
                };
                let live = &statepoint.gc_live[derived as usize];
                Some(self.value(frame, &live.value, &live.ty)?)
            }
            Intrinsic::VaStart => {
                // SAFETY: the IR's `va_list` at v[0] is writable (no undefined behaviour).
                unsafe { self.va_start(frame, v[0]) }?;
                None
            }
            Intrinsic::VaCopy => {
                let size = self.va_list()?.size as usize;
                // SAFETY: both `va_list`s are valid (no undefined behaviour).
                unsafe { std::ptr::copy(v[1] as *const u8, v[0] as *mut u8, size) };
                None
            }
            Intrinsic::VaEnd => None,
            Intrinsic::StackMap | Intrinsic::PatchPoint | Intrinsic::Statepoint => {
                return Err(format!("{intrinsic:?} is not supported here"));
            }
            // Machine frames and registers, which the interpreter's frames do not have.
            Intrinsic::ThreadPointer => {
                Some(crate::arch::host_thread_pointer().ok_or("no thread pointer on this host")?)
            }
            Intrinsic::FrameAddress
            | Intrinsic::ReturnAddress
            | Intrinsic::AddressOfReturnAddress
            | Intrinsic::ReturnWithRegisters => {
                return Err(format!("{intrinsic:?} reads or sets machine state the interpreter does not model"));
            }
            Intrinsic::TypeIdFor => {
                return Err(
                    "'llvm.eh.typeid.for' is not supported by the interpreter: it has no exception tables".to_string()
                );
            }
            Intrinsic::Reduce(op) => {
                let fused = crate::arch::Arch::host().is_some_and(|arch| arch.fuses_multiply_add());
                let vector = args.last().expect("a verified reduction has a vector operand");
                // SAFETY: a vector value is the address of its image.
                let lanes = unsafe { vectors::lanes(&vector.ty, v[v.len() - 1]) };
                let start = (args.len() == 2).then(|| v[0]);
                Some(vectors::reduce(op, vector.ty.lane_type(), start, &lanes, fused)?)
            }
        };
        Ok(Step::Next(result))
    }

    /// `llvm.experimental.patchpoint.*(id, bytes, target, nargs, args..., live...)`: calls the target,
    /// unless null, with the `nargs` call arguments.
    unsafe fn patch_point(
        &mut self,
        frame: &Frame<'a>,
        data: &'a InstData,
        target: &'a Value,
        call_args: &'a [Operand],
    ) -> Result<Step, String> {
        let target = self.value(frame, target, &Type::PTR)?;
        if target == 0 {
            return Ok(Step::Next((data.ty != Type::Void).then_some(0)));
        }
        let mut values = Vec::with_capacity(call_args.len());
        for a in call_args {
            values.push(self.value(frame, &a.value, &a.ty)?);
        }
        let target = self.by_address.get(&target).map_or(Target::Address(target), |&fid| Target::Function(fid));
        // SAFETY: `patch_point`'s contract covers its target.
        unsafe { self.call_target(target, values, call_args, &data.ty, false) }
    }

    unsafe fn call_target(
        &mut self,
        target: Target,
        args: Vec<u64>,
        operands: &[Operand],
        ret: &Type,
        tail: bool,
    ) -> Result<Step, String> {
        let fid = match target {
            Target::Function(fid) => fid,
            Target::Address(address) => {
                let what = format!("the function at {address:#x}");
                // SAFETY: `call_target`'s contract: the IR calls a valid native function here.
                return unsafe { self.call_native(&what, Some(address), &args, operands, ret) };
            }
        };
        let f = self.module.function(fid);
        // `available_externally` bodies stand for a definition elsewhere, which is called when the
        // process has it.
        let elsewhere = f.linkage == crate::ir::Linkage::AvailableExternally && native::symbol(&f.name).is_some();
        if !f.is_declaration() && !elsewhere {
            let mut args = args;
            let mut variadic = Vec::new();
            if f.varargs && args.len() > f.params.len() {
                for (bits, operand) in args.drain(f.params.len()..).zip(&operands[f.params.len()..]) {
                    if !(operand.ty.is_int() || operand.ty.is_ptr() || operand.ty.is_float()) {
                        return Err(format!(
                            "unsupported variadic argument of type '{}' to @{}: the interpreter passes integers, \
                             pointers and floating-point values",
                            operand.ty, f.name
                        ));
                    }
                    variadic.push((bits, operand.ty.is_float()));
                }
            }
            if args.len() != f.params.len() {
                return Err(format!("@{} takes {} arguments, {} given", f.name, f.params.len(), args.len()));
            }
            return Ok(Step::Call { callee: fid, args, variadic, tail });
        }
        let result = if let Some(external) = self.externals.get_mut(&f.name) {
            external(&args).map_err(|e| format!("@{}: {e}", f.name))?
        } else if NON_LOCAL_JUMPS.contains(&f.name.as_str()) {
            // A native setjmp would save the interpreter's own registers and stack, and a
            // longjmp to them would leave the interpreted frames' state behind.
            return Err(format!(
                "@{} cannot be interpreted: setjmp and longjmp save and restore native frames, and the \
                 interpreter's are not (run the program in the JIT)",
                f.name
            ));
        } else if let Some(result) = self.built_in(&f.name, &args, operands)? {
            result
        } else {
            let what = format!("@{}", f.name);
            let own = self.functions[fid.0 as usize];
            let address = if self.is_token(own) { native::symbol(&f.name) } else { Some(own) };
            // SAFETY: `call_target`'s contract: a declared function is a valid native function.
            return unsafe { self.call_native(&what, address, &args, operands, ret) };
        };
        Ok(Step::Next((*ret != Type::Void).then(|| scalar::normalize(ret, result))))
    }

    /// `putchar`, `fmod` and `fmodf`, when the call matches their C signature.
    fn built_in(&mut self, name: &str, args: &[u64], operands: &[Operand]) -> Result<Option<u64>, String> {
        let types: [Option<&Type>; 3] = std::array::from_fn(|i| operands.get(i).map(|o| &o.ty));
        Ok(Some(match (name, types) {
            ("putchar", [Some(Type::Int(32)), None, None]) => {
                let byte = args[0] as u8;
                self.output.write_all(&[byte]).map_err(|e| format!("putchar cannot write its output: {e}"))?;
                u64::from(byte)
            }
            ("fmod", [Some(Type::Double), Some(Type::Double), None]) => {
                (f64::from_bits(args[0]) % f64::from_bits(args[1])).to_bits()
            }
            ("fmodf", [Some(Type::Float), Some(Type::Float), None]) => {
                let (a, b) = (f32::from_bits(args[0] as u32), f32::from_bits(args[1] as u32));
                u64::from((a % b).to_bits())
            }
            _ => return Ok(None),
        }))
    }

    /// Calls `address` natively; `None` when `what` is a declared function the process lacks.
    unsafe fn call_native(
        &mut self,
        what: &str,
        address: Option<u64>,
        args: &[u64],
        operands: &[Operand],
        ret: &Type,
    ) -> Result<Step, String> {
        if let Some(reason) = native::unsupported(ret, operands) {
            return Err(format!(
                "cannot call {what} natively: {reason} (native calls take integer, pointer and \
                 floating-point arguments, at most 16 of them on the stack; register an external for it)"
            ));
        }
        let address = address.ok_or_else(|| {
            format!("{what} is declared but not defined: no external is registered for it and the process has no such symbol")
        })?;
        if address == 0 {
            return Err(format!("call of {what}: a null pointer"));
        }
        // A function's address here is a token native code cannot jump to: a declared function's
        // becomes the process's own, an interpreted one's is refused (native code cannot call back).
        let mut args = args.to_vec();
        for (arg, operand) in args.iter_mut().zip(operands) {
            if operand.ty != Type::PTR || !self.is_token(*arg) {
                continue;
            }
            let f = self.module.function(self.by_address[arg]);
            match native::symbol(&f.name) {
                Some(native) if f.is_declaration() => *arg = native,
                _ => {
                    return Err(format!(
                        "cannot pass the interpreted function @{} to {what}: native code cannot call into the \
                         interpreter",
                        f.name
                    ))
                }
            }
        }
        // Keep the order of what interpreted and native code print.
        self.output.flush().map_err(|e| format!("cannot flush the output: {e}"))?;
        // SAFETY: `call_native`'s contract; the signature passed `native::unsupported` above.
        let result = unsafe { native::call(address, &args, operands, ret) };
        Ok(Step::Next((*ret != Type::Void).then(|| scalar::normalize(ret, result))))
    }

    fn is_token(&self, address: u64) -> bool {
        (self.tokens.address()..self.tokens.address() + self.module.functions.len() as u64).contains(&address)
    }
}

impl Frame<'_> {
    /// Copies `size` bytes at `from` into the image instruction `id` owns and returns its address.
    ///
    /// # Safety
    /// `from` must be readable for `size` bytes (it may be the image itself).
    unsafe fn keep_image(&mut self, id: InstId, from: u64, size: u64) -> u64 {
        let image = self.images.entry(id).or_insert_with(|| vec![0; size as usize].into_boxed_slice());
        // SAFETY: the image holds `size` bytes; `copy` allows the source to overlap it.
        unsafe { std::ptr::copy(from as *const u8, image.as_mut_ptr(), size as usize) };
        image.as_ptr() as u64
    }

    /// The `{ member, i1 }` result (of type `ty`) of instruction `id` (`cmpxchg`,
    /// `*.with.overflow`): `value`, then `flag` right after it; its image's address.
    fn value_and_flag(&mut self, id: InstId, ty: &Type, member: &Type, value: u64, flag: bool) -> u64 {
        let size = member.alloc_size() as usize;
        let mut bytes = [0u8; 16];
        bytes[..size].copy_from_slice(&value.to_le_bytes()[..size]);
        bytes[size] = u8::from(flag);
        // SAFETY: `bytes` holds the struct's bytes (at most 16: an i64 and the flag, padded).
        unsafe { self.keep_image(id, bytes.as_ptr() as u64, ty.alloc_size()) }
    }

    fn set(&mut self, id: InstId, bits: u64) {
        self.values[id.0 as usize] = bits;
        if let Some(known) = &mut self.known {
            known.insts[id.0 as usize] = true;
        }
    }
}

/// The name a call target has among externals: a declared function's; none for an address.
fn callee_name(module: &Module, target: &Target) -> String {
    match target {
        Target::Function(f) => module.function(*f).name.clone(),
        Target::Address(_) => String::new(),
    }
}

/// The type of the member of `ty` that `extractvalue`/`insertvalue` indices select, and its offset.
fn member_at<'t>(ty: &'t Type, indices: &[u32]) -> (&'t Type, u64) {
    indices.iter().fold((ty, 0), |(t, offset), &i| {
        let (member, at) = t.member(u64::from(i)).expect("verified indices");
        (member, offset + at)
    })
}

/// The error for reading a value a resumed frame lacks.
fn unavailable(f: &Function, v: &Value) -> String {
    let name = match v {
        Value::Inst(i) => f.inst(*i).name.as_ref().map_or_else(|| format!("instruction #{}", i.0), |n| format!("%{n}")),
        Value::Param(n) => {
            f.params[*n as usize].name.as_ref().map_or_else(|| format!("parameter #{n}"), |name| format!("%{name}"))
        }
        _ => unreachable!("only instruction results and parameters can be unavailable"),
    };
    format!("{name} is not available at the resume point: it is not among the bound (stack map) values")
}

/// The stack map or patch point call with record ID `id` in function `func`, first in block order:
/// where [`Interpreter::resume`] continues after a stop at that record.
pub fn stack_map_call(module: &Module, func: FuncId, id: u64) -> Option<InstId> {
    let f = module.function(func);
    f.blocks.iter().flat_map(|b| &b.insts).copied().find(|&i| match &f.inst(i).kind {
        Inst::Call { callee: Value::Func(callee), args, .. } => {
            module.function(*callee).intrinsic().is_some()
                && matches!(args.first(), Some(Operand { value: Value::Const(Const::Int(n)), .. }) if *n as u64 == id)
        }
        _ => false,
    })
}

/// The live operands of the stack map or patch point call `call` of function `func`, in the order of
/// its record's locations; `None` if `call` is no such call.
pub fn stack_map_operands(module: &Module, func: FuncId, call: InstId) -> Option<&[Operand]> {
    PointCall::decode(module, module.function(func).inst(call))?.ok().map(|point| point.live())
}
