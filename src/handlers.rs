//! Handlers generated from stack map records, for the code that goes into a patch point's region
//! (issue 24, `../shared/seeds/004`): a record says where each live value is at its point, so a
//! runtime can make, for that one site, an `explicitcc` function whose parameters are the registers
//! holding those values, which reaches the values on the interrupted frame's stack through
//! `llvm.addressofreturnaddress` and `llvm.frameaddress`, and which gives back every register the
//! interrupted code may hold a value in. A call to it written at the site (the same 16-byte call
//! [`Arch::encode_exit_call`] writes for exit stubs, which changes no register on x86-64 and only
//! x16 and lr, which no value lives in, on AArch64) then sees the values with nothing moved and
//! returns with nothing clobbered: logging, profiling, guards.
//!
//! - [`HandlerPlan::of_record`]: the parameter list and where each value comes from.
//! - [`HandlerPlan::build`] adds the handler to a module being built, with a body of the caller's
//!   (which may also set registers at the return with `retwr`); [`HandlerPlan::build_logging`] with
//!   the body that hands every value to a C function (`sink(context, record, values, count)`).
//! - [`Handlers`]: logging handlers for sites of a [`JitCode`], JIT-compiled in one module and
//!   patched in and out ([`Handlers::patch`], [`Handlers::unpatch`]).
//!
//! Only sites whose bytes may be overwritten take a call: a patch point's region, or a stack map
//! whose shadow is padding. A stack map's shadow normally holds the code after the point (LLVM's
//! contract: patching a stack map is destructive, for invalidation), and a call written there
//! would return into the middle of what it overwrote; [`Handlers::patch`] refuses it.

use std::ffi::c_void;
use std::sync::Mutex;

use crate::arch::{Arch, NamedRegister, RegisterClass, RegisterUse};
use crate::compile::{CompileError, Options};
use crate::emit::jit::{JitCode, PatchSite};
use crate::ir::builder::{int, FunctionBuilder, ModuleBuilder};
use crate::ir::{CallConv, CastOp, FuncId, Operand, Type, Value};
use crate::runtime::{patch_code, PatchError};
use crate::stackmap::{LocationKind, StackMapView};

/// What a generated handler computes for one location: the value [`crate::runtime::read_location`]
/// reads from a stopped frame, as a `u64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueSource {
    /// The low `size` bytes (all 8 from 8 up) of the handler's parameter `parameter`.
    Register {
        /// Index into [`HandlerPlan::parameters`].
        parameter: usize,
        /// The location's size.
        size: u16,
    },
    /// The address `base + offset` (a `Direct` location: a frame object of the interrupted code).
    Address {
        /// What `offset` is relative to.
        base: StackBase,
        /// Bytes from the base.
        offset: i32,
    },
    /// The `size` bytes (the first 8 from 8 up) at `base + offset` (an `Indirect` location: a spill slot).
    Memory {
        /// What `offset` is relative to.
        base: StackBase,
        /// Bytes from the base.
        offset: i32,
        /// The location's size: 1, 2, 4, or 8 and more.
        size: u16,
    },
    /// A constant (`Constant` sign-extended from 32 bits, or the pool's entry of a `ConstantIndex`).
    Constant(u64),
}

/// The register a `Direct` or `Indirect` location is relative to, as the handler reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackBase {
    /// The interrupted code's stack pointer at the point: [`Arch::caller_stack_above_return_address`]
    /// bytes above `llvm.addressofreturnaddress`.
    Stack,
    /// The interrupted code's frame pointer: `llvm.frameaddress(i32 1)`.
    Frame,
    /// Another register, which arrives as the handler's parameter with this index.
    Parameter(usize),
}

/// Why a handler could not be planned, built, compiled or patched in.
#[derive(Debug, thiserror::Error)]
pub enum HandlerError {
    /// The section has no record with this index.
    #[error("the section has no record {0}")]
    NoRecord(usize),
    /// A location the handler cannot reach.
    #[error("record {record} (ID {id}), location {location}: {why}")]
    Location {
        /// The record's index in the section.
        record: usize,
        /// Its ID.
        id: u64,
        /// The location's index in the record.
        location: usize,
        /// What is wrong with it.
        why: String,
    },
    /// The handlers' module did not compile.
    #[error(transparent)]
    Compile(#[from] CompileError),
    /// A site is shorter than the call.
    #[error("the site of record {record} at {address:#x} has {len} bytes to overwrite; the call needs {needed}")]
    SiteTooSmall {
        /// The record's index in the section.
        record: usize,
        /// The site's address.
        address: u64,
        /// Its length.
        len: usize,
        /// The call's length.
        needed: usize,
    },
    /// A stack map whose shadow holds the code after the point.
    #[error(
        "the shadow of the stack map of record {record} at {address:#x} holds the code after the point: a call \
         written there would overwrite that code (LLVM's stack map shadows are for invalidation); use a patch \
         point's region, or a stack map whose shadow is padding"
    )]
    ShadowHoldsCode {
        /// The record's index in the section.
        record: usize,
        /// The site's address.
        address: u64,
    },
    /// `Handlers` was asked for a handler it does not have.
    #[error("no handler for record {0}")]
    NoHandler(usize),
    /// Writing the call failed.
    #[error(transparent)]
    Patch(#[from] PatchError),
}

/// The handler for one record: its parameters, where each of the record's values comes from, and
/// what it preserves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandlerPlan {
    arch: Arch,
    /// The record's index in its section and its ID.
    pub record: (usize, u64),
    /// The handler's parameters: each register holding one of the record's values (or the base of
    /// a stack location other than the stack and frame pointers), once, in first-use order.
    pub parameters: Vec<NamedRegister>,
    /// Where the handler finds each of the record's values, in location order.
    pub values: Vec<ValueSource>,
    /// The registers the handler gives back unchanged (`noclobber`): by default every register the
    /// interrupted code may hold a value in, which is every register a handler can be told to keep
    /// ([`Arch::register_restriction`]). The stack and frame pointers always come back unchanged.
    pub preserved: Vec<NamedRegister>,
}

impl HandlerPlan {
    /// The plan for record `record` of `map`, on `arch`; an error names a location the handler
    /// cannot reach (a register the target does not have, or one the call to the handler uses).
    pub fn of_record(arch: Arch, map: &StackMapView<'_>, record: usize) -> Result<HandlerPlan, HandlerError> {
        let view = map.record(record).ok_or(HandlerError::NoRecord(record))?;
        let id = view.id();
        let mut plan = HandlerPlan {
            arch,
            record: (record, id),
            parameters: Vec::new(),
            values: Vec::new(),
            preserved: arch
                .registers()
                .filter(|&r| {
                    r.dwarf != arch.frame_pointer() && arch.register_restriction(r, RegisterUse::NoClobber).is_none()
                })
                .collect(),
        };
        for (location, l) in view.locations().enumerate() {
            let error = |why: String| HandlerError::Location { record, id, location, why };
            let source = match l.kind {
                LocationKind::Register if l.dwarf_reg == arch.stack_pointer() => {
                    ValueSource::Address { base: StackBase::Stack, offset: 0 }
                }
                LocationKind::Register if l.dwarf_reg == arch.frame_pointer() => {
                    ValueSource::Address { base: StackBase::Frame, offset: 0 }
                }
                LocationKind::Register => {
                    ValueSource::Register { parameter: plan.parameter(l.dwarf_reg).map_err(error)?, size: l.size }
                }
                LocationKind::Direct => {
                    ValueSource::Address { base: plan.base(l.dwarf_reg).map_err(error)?, offset: l.offset }
                }
                LocationKind::Indirect => {
                    if !matches!(l.size, 1 | 2 | 4) && l.size < 8 {
                        return Err(error(format!("an Indirect location of {} bytes (1, 2, 4 or 8 and more)", l.size)));
                    }
                    ValueSource::Memory { base: plan.base(l.dwarf_reg).map_err(error)?, offset: l.offset, size: l.size }
                }
                LocationKind::Constant => ValueSource::Constant(l.offset as i64 as u64),
                LocationKind::ConstantIndex => {
                    let index = l.offset as u32;
                    let value = map
                        .constant(index as usize)
                        .ok_or_else(|| error(format!("constant index {index} is outside the constant pool")))?;
                    ValueSource::Constant(value)
                }
            };
            plan.values.push(source);
        }
        Ok(plan)
    }

    /// The parameter that receives register `dwarf`, added on first use.
    fn parameter(&mut self, dwarf: u16) -> Result<usize, String> {
        let arch = self.arch;
        let register = arch.register(dwarf).ok_or_else(|| format!("R#{dwarf} is no register of {}", arch.name()))?;
        if let Some(why) = arch.register_restriction(register, RegisterUse::Param) {
            return Err(format!("R#{dwarf} cannot reach a handler: {why}"));
        }
        if let Some(k) = self.parameters.iter().position(|p| p.dwarf == dwarf) {
            return Ok(k);
        }
        self.parameters.push(register);
        Ok(self.parameters.len() - 1)
    }

    /// How the handler reaches the base register `dwarf` of a stack location.
    fn base(&mut self, dwarf: u16) -> Result<StackBase, String> {
        Ok(match dwarf {
            d if d == self.arch.stack_pointer() => StackBase::Stack,
            d if d == self.arch.frame_pointer() => StackBase::Frame,
            d => StackBase::Parameter(self.parameter(d)?),
        })
    }

    /// The target the plan is for.
    pub fn arch(&self) -> Arch {
        self.arch
    }

    /// Adds the handler to `module` as the `explicitcc` function `name`: its entry block computes
    /// each of the record's values as an `i64` (the value [`crate::runtime::read_location`] reads),
    /// then `body` adds what the handler does with them (it may add blocks, and end with
    /// [`FunctionBuilder::return_with_registers`]), and the plan ends the function with `ret void`
    /// in the block `body` left current.
    pub fn build(
        &self,
        module: &mut ModuleBuilder,
        name: &str,
        body: impl FnOnce(&mut FunctionBuilder<'_>, &[Value]),
    ) -> FuncId {
        let types: Vec<Type> = self
            .parameters
            .iter()
            .map(|p| match p.class {
                RegisterClass::General => Type::I64,
                RegisterClass::Float => Type::Double,
            })
            .collect();
        let name_of = |r: NamedRegister| self.arch.register_name(r).expect("the plan's registers have names");
        let mut f = module.function(name, Type::Void, &types);
        f.set_calling_convention(CallConv::Explicit);
        for (i, &p) in self.parameters.iter().enumerate() {
            f.set_param_register(i as u32, &name_of(p));
        }
        let preserved: Vec<String> = self.preserved.iter().map(|&r| name_of(r)).collect();
        f.set_noclobber(&preserved.iter().map(String::as_str).collect::<Vec<_>>());
        let entry = f.block("entry");
        f.switch_to(entry);

        let mut stack = None;
        let mut frame = None;
        let arch = self.arch;
        let mut base_address = |f: &mut FunctionBuilder<'_>, base: StackBase| -> Value {
            match base {
                StackBase::Stack => stack
                    .get_or_insert_with(|| {
                        let slot = f.address_of_return_address();
                        let slot = f.cast(CastOp::PtrToInt, Type::PTR, slot, Type::I64);
                        f.add(slot, int(arch.caller_stack_above_return_address() as i64))
                    })
                    .clone(),
                StackBase::Frame => frame
                    .get_or_insert_with(|| {
                        let fp = f.frame_address(1);
                        f.cast(CastOp::PtrToInt, Type::PTR, fp, Type::I64)
                    })
                    .clone(),
                StackBase::Parameter(k) => f.param(k as u32),
            }
        };
        let mut values = Vec::with_capacity(self.values.len());
        for source in &self.values {
            let value = match *source {
                ValueSource::Register { parameter, size } => {
                    let mut v = f.param(parameter as u32);
                    if self.parameters[parameter].class == RegisterClass::Float {
                        v = f.cast(CastOp::BitCast, Type::Double, v, Type::I64);
                    }
                    low_bytes(&mut f, v, size)
                }
                ValueSource::Address { base, offset } => {
                    let base = base_address(&mut f, base);
                    f.add(base, int(i64::from(offset)))
                }
                ValueSource::Memory { base, offset, size } => {
                    let base = base_address(&mut f, base);
                    let at = f.add(base, int(i64::from(offset)));
                    let at = f.cast(CastOp::IntToPtr, Type::I64, at, Type::PTR);
                    let bits = 8 * size.min(8) as u8;
                    let v = f.load(Type::Int(bits), at);
                    if bits < 64 {
                        f.cast(CastOp::ZExt, Type::Int(bits), v, Type::I64)
                    } else {
                        v
                    }
                }
                ValueSource::Constant(c) => int(c as i64),
            };
            values.push(value);
        }
        body(&mut f, &values);
        f.ret_void();
        f.finish()
    }

    /// [`HandlerPlan::build`] with the body that stores the values in an array on the handler's
    /// stack and calls `sink` (a C function of `module`: `void (i64 context, i64 record, ptr values,
    /// i64 count)`) with `context`, the record's index, the array and the number of values.
    pub fn build_logging(&self, module: &mut ModuleBuilder, name: &str, sink: FuncId, context: u64) -> FuncId {
        let record = self.record.0 as i64;
        self.build(module, name, |f, values| {
            let array = Type::Array(values.len().max(1) as u64, Box::new(Type::I64));
            let buffer = f.alloca(array.clone(), Some(8));
            for (k, v) in values.iter().enumerate() {
                let at = f.gep(array.clone(), buffer.clone(), &[op(int(0)), op(int(k as i64))]);
                f.store(op(v.clone()), at);
            }
            let args = [
                op(int(context as i64)),
                op(int(record)),
                Operand::new(Type::PTR, buffer),
                op(int(values.len() as i64)),
            ];
            f.call(sink, &args);
        })
    }
}

/// An `i64` operand.
fn op(v: Value) -> Operand {
    Operand::new(Type::I64, v)
}

/// The low `size` bytes of `v` (all of it from 8 up), as `read_location` takes a register's.
fn low_bytes(f: &mut FunctionBuilder<'_>, v: Value, size: u16) -> Value {
    match size {
        1..=7 => f.binop(crate::ir::BinOp::And, v, int(((1u64 << (8 * size)) - 1) as i64)),
        _ => v,
    }
}

/// What a logging handler calls: `context` as given to [`Handlers::compile`], the record's index in
/// the section, and its values (`count` of them, each as [`crate::runtime::read_location`] reads it).
pub type Sink = unsafe extern "C" fn(context: *mut c_void, record: u64, values: *const u64, count: u64);

/// The symbol a logging handler's module declares its sink as.
const SINK_SYMBOL: &str = "patchmap.handler.sink";

/// Logging handlers for sites of JIT code, compiled into one module, which lives as long as this.
pub struct Handlers {
    arch: Arch,
    code: JitCode,
    /// Each handler's site and address.
    handlers: Vec<(PatchSite, *const u8)>,
    /// The bytes each patched site held before its first patch, by record.
    saved: Mutex<Vec<(usize, Vec<u8>)>>,
}

impl Handlers {
    /// Plans, builds and JIT-compiles a logging handler ([`HandlerPlan::build_logging`]) for each
    /// of `sites` of `code` (see [`JitCode::sites`]), calling `sink` with `context`.
    pub fn compile(
        code: &JitCode,
        sites: &[PatchSite],
        sink: Sink,
        context: *mut c_void,
        options: &Options,
    ) -> Result<Handlers, HandlerError> {
        let arch = crate::target::Target::host().map_err(CompileError::from)?.arch;
        let map = code.stack_map();
        let mut module = ModuleBuilder::new("handlers");
        let word = Type::I64;
        let sink_id = module.declare(SINK_SYMBOL, Type::Void, &[word.clone(), word.clone(), Type::PTR, word], false);
        let mut names = Vec::with_capacity(sites.len());
        for site in sites {
            let map = map.as_ref().ok_or(HandlerError::NoRecord(site.record))?;
            let plan = HandlerPlan::of_record(arch, map, site.record)?;
            let name = format!("patchmap.handler.{}", site.record);
            plan.build_logging(&mut module, &name, sink_id, context as u64);
            names.push(name);
        }
        let compiled = JitCode::compile_with_symbols(&module.finish(), options, &[(SINK_SYMBOL, sink as *const u8)])?;
        let handlers = sites
            .iter()
            .zip(&names)
            .map(|(site, name)| (*site, compiled.function(name).expect("each handler was compiled").address))
            .collect();
        Ok(Handlers { arch, code: compiled, handlers, saved: Mutex::new(Vec::new()) })
    }

    /// The handler of the site of record `record`, and its code.
    pub fn handler(&self, record: usize) -> Option<(PatchSite, *const u8)> {
        self.handlers.iter().find(|h| h.0.record == record).copied()
    }

    /// The handlers' JIT code (one `explicitcc` function per site).
    pub fn code(&self) -> &JitCode {
        &self.code
    }

    /// Writes a call to its handler at the site of record `record`: a patch point's region, or a
    /// stack map's shadow if it is padding (see the module's documentation). A site already
    /// calling a handler (or an exit stub) takes the new call.
    ///
    /// # Safety
    /// As [`patch_code`]: the site is code of this process that no thread runs meanwhile.
    pub unsafe fn patch(&self, record: usize) -> Result<(), HandlerError> {
        let (site, handler) = self.handler(record).ok_or(HandlerError::NoHandler(record))?;
        let needed = self.arch.exit_call_len();
        let address = site.address as u64;
        if site.len < needed {
            return Err(HandlerError::SiteTooSmall { record, address, len: site.len, needed });
        }
        if !site.reserved {
            // SAFETY: the site's bytes are code of a live JitCode, readable.
            let bytes = unsafe { std::slice::from_raw_parts(site.address, needed) };
            if !self.arch.is_padding(bytes) && !self.calls_out(bytes) {
                return Err(HandlerError::ShadowHoldsCode { record, address });
            }
        }
        let call = self.arch.encode_exit_call(handler as u64).map_err(PatchError::from)?;
        let mut saved = self.saved.lock().unwrap_or_else(|e| e.into_inner());
        if !saved.iter().any(|s| s.0 == record) {
            // SAFETY: as above.
            saved.push((record, unsafe { std::slice::from_raw_parts(site.address, site.len) }.to_vec()));
        }
        // SAFETY: the caller vouches for the site.
        unsafe { patch_code(self.arch, site.address, site.len, &call) }?;
        Ok(())
    }

    /// Whether `bytes` are a call [`Handlers::patch`] (or `Exits::patch_call`) wrote.
    fn calls_out(&self, bytes: &[u8]) -> bool {
        let target = match self.arch {
            Arch::X86_64 => bytes.get(2..10).map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes"))),
            Arch::Aarch64 => None,
        };
        let template = self.arch.encode_exit_call(target.unwrap_or(0)).ok();
        match (self.arch, template) {
            (Arch::X86_64, Some(t)) => t == bytes,
            // movz, movk, movk x16 and blr x16, whatever the immediates.
            (Arch::Aarch64, _) => {
                let words: Vec<u32> =
                    bytes.chunks_exact(4).map(|w| u32::from_le_bytes(w.try_into().expect("4 bytes"))).collect();
                words.len() == 4
                    && words[0] & 0xffe0_001f == 0xd2c0_0010
                    && words[1] & 0xffe0_001f == 0xf2a0_0010
                    && words[2] & 0xffe0_001f == 0xf280_0010
                    && words[3] == 0xd63f_0200
            }
            _ => false,
        }
    }

    /// Puts back what the site of record `record` held before [`Handlers::patch`] first wrote
    /// there (nops, or a patch point's call to its target); nothing if it was never patched.
    ///
    /// # Safety
    /// As [`Handlers::patch`].
    pub unsafe fn unpatch(&self, record: usize) -> Result<(), HandlerError> {
        let (site, _) = self.handler(record).ok_or(HandlerError::NoHandler(record))?;
        let saved = self.saved.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, bytes)) = saved.iter().find(|s| s.0 == record) {
            // SAFETY: the caller vouches for the site.
            unsafe { patch_code(self.arch, site.address, bytes.len(), bytes) }?;
        }
        Ok(())
    }
}
