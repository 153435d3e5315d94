//! What can go wrong between a verified module and finished code: the compiler half's errors. Their
//! messages carry no program-name prefix; the command line adds `patchmap: error:`.

use cranelift_codegen::CodegenError;
use cranelift_module::ModuleError;

use crate::ir::IrError;
use crate::runtime::PatchError;
use crate::target::TargetError;

/// Why compiling failed.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// The IR is invalid or uses something patchmap does not support, with its position.
    #[error(transparent)]
    Ir(#[from] IrError),
    /// The options or the target are unusable.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// Cranelift rejected a function, or its code broke an assumption of the stack map mechanism
    /// (a bug of patchmap's if it ever happens).
    #[error("Cranelift failed on function '{function}': {failure}")]
    Codegen {
        /// The IR name of the function, without `@`.
        function: String,
        /// What failed.
        #[source]
        failure: CodegenFailure,
    },
    /// Writing the object or finalizing JIT code failed.
    #[error(transparent)]
    Emit(#[from] EmitError),
    /// A JIT function cannot be called as asked.
    #[error(transparent)]
    Call(#[from] CallError),
}

/// What failed while compiling one function.
#[derive(Debug, thiserror::Error)]
pub enum CodegenFailure {
    /// Cranelift's own error (its verifier, the register allocator, code size limits).
    #[error("{0:?}")]
    Cranelift(CodegenError),
    /// Cranelift gave no frame layout for the finished code.
    #[error("no frame layout")]
    NoFrameLayout,
    /// A recorded register has no DWARF number.
    #[error("register {class} {hw} has no DWARF number")]
    UnknownRegister {
        /// The register class, as Cranelift names it.
        class: &'static str,
        /// The hardware encoding.
        hw: u8,
    },
    /// Cranelift's record of a point has fewer locations than the point has operands.
    #[error("a point lost an operand")]
    LostOperand,
    /// No call follows a statepoint's marker in the code.
    #[error("statepoint {id}: its call is not in the code")]
    LostStatepointCall {
        /// The statepoint's ID.
        id: u64,
    },
    /// The bytes before a statepoint's (or a stack map's) return address are not a call whose
    /// length the target's decoder can tell (`Arch::call_length`).
    #[error("record {id}: cannot tell the length of the call returning to offset {return_address:#x}")]
    CallLength {
        /// The record's ID.
        id: u64,
        /// The call's return address, from the function's start.
        return_address: u32,
    },
    /// A location (a vector spilled whole) is larger than the section version's one-byte size field
    /// holds; version 3 has two bytes.
    #[error(
        "record {id}: a location of {size} bytes does not fit stack map version {version}'s one-byte size \
         (use version 3, as llc-19 writes it)"
    )]
    LocationSize {
        /// The record's ID.
        id: u64,
        /// The location's size in bytes.
        size: u16,
        /// The section version asked for.
        version: u8,
    },
    /// The function's code is larger than the frame table's 32-bit function size.
    #[error("the function's code ({0} bytes) does not fit 32 bits")]
    FunctionSize(usize),
    /// Cranelift reported a saved register before the frame that addresses it.
    #[error("a register is saved before the frame is set up")]
    SaveWithoutFrame,
    /// A stack slot's offset from the frame pointer does not fit a record's 32 bits.
    #[error("frame offset {0} does not fit 32 bits")]
    FrameOffset(i64),
    /// Cranelift could not describe the function's unwinding.
    #[error("unwind information: {0}")]
    Unwind(CodegenError),
    /// A patch point's call sequence does not fit or reach.
    #[error("patch point {id}: {source}")]
    PatchPoint {
        /// The patch point's ID.
        id: u64,
        /// Why.
        source: PatchError,
    },
}

/// Why the object or the JIT code could not be finished.
#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    /// cranelift-module refused a definition or a declaration.
    #[error("cannot define '{name}': {source}")]
    Define {
        /// The symbol.
        name: String,
        /// cranelift-module's reason.
        source: Box<ModuleError>,
    },
    /// cranelift-object could not start an object for the target.
    #[error("cannot start an object: {0}")]
    Object(#[source] Box<ModuleError>),
    /// A function in a section of its own has a relocation the emitter cannot write there.
    #[error("cannot place '{function}' in its own section: unsupported relocation {what}")]
    Placement {
        /// The function.
        function: String,
        /// The relocation's target or kind.
        what: String,
    },
    /// A `comdat` group has no symbol of its name to sign it.
    #[error("comdat '${0}' has no function or global of its name")]
    Comdat(String),
    /// A declared function or global is neither given to the JIT nor in the process.
    #[error("cannot resolve '@{0}': it is not in this process (nor in libm); give its address to the JIT")]
    Unresolved(String),
    /// The JIT could not make its code executable.
    #[error("cannot finalize JIT code: {0}")]
    Finalize(#[source] Box<ModuleError>),
    /// A 32-bit relative reference in a JIT global whose target lies more than 2 GiB away.
    #[error("'@{global}': a relative reference spans {distance} bytes, beyond the 2 GiB an i32 holds")]
    RelativeOutOfRange {
        /// The global holding the reference.
        global: String,
        /// The distance from the global to the target.
        distance: i64,
    },
    /// A relocation could not be added to the object.
    #[error("cannot relocate {what}: {source}")]
    Relocate {
        /// What the relocation is for.
        what: &'static str,
        /// The object writer's reason.
        source: cranelift_object::object::write::Error,
    },
    /// `.eh_frame` could not be written.
    #[error("cannot write .eh_frame: {0}")]
    EhFrame(#[source] cranelift_codegen::gimli::write::Error),
    /// The `.llvm_stackmaps` section could not be encoded.
    #[error("cannot write the stack map: {0}")]
    StackMap(#[source] crate::stackmap::Error),
    /// The object could not be written out.
    #[error("cannot write the object: {0}")]
    Write(#[source] cranelift_object::object::write::Error),
    /// A JIT patch point's call sequence could not be written.
    #[error("patch point in '{function}': {source}")]
    PatchPoint {
        /// The function holding the patch point.
        function: String,
        /// Why.
        source: PatchError,
    },
}

impl From<crate::lower::HelperError> for EmitError {
    fn from(e: crate::lower::HelperError) -> EmitError {
        EmitError::Define { name: e.name, source: e.source }
    }
}

/// Why [`crate::emit::jit::JitCode::call_i64`] cannot make a call.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// No defined function has the name.
    #[error("no function named '{0}'")]
    NoSuchFunction(String),
    /// The argument count differs from the parameter count.
    #[error("'{function}' takes {params} arguments, {given} given")]
    ArgumentCount {
        /// The function.
        function: String,
        /// Its parameter count.
        params: usize,
        /// The arguments given.
        given: usize,
    },
    /// The signature is not integers only.
    #[error(
        "'{0}' cannot be called with integer arguments (it needs at most 6 integer or pointer parameters and an \
         integer, pointer or void result)"
    )]
    Signature(String),
}
