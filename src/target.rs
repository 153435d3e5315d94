//! The targets patchmap compiles for, and the Cranelift ISA for each: chosen before anything is
//! lowered (`lower` declares symbols and builds functions for the ISA made here, `compile` compiles
//! with it, `emit` writes for its triple). Per-target facts that need no Cranelift are in `arch`.

use std::str::FromStr;
use std::sync::Arc;

use cranelift_codegen::isa::{self, TargetIsa};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::CodegenError;
use target_lexicon::Triple;

use crate::arch::Arch;

/// A target: an architecture on Linux (ELF) for now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The architecture named by the triple.
    pub arch: Arch,
    /// The full triple, as given or expanded from a shorthand; an ELF binary format.
    pub triple: Triple,
}

/// Which functions set up a frame (push the frame pointer and point it at the frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FramePointers {
    /// Every function: what stack map records, frame walks and frame-address intrinsics rely on.
    Kept,
    /// None set up, as LLVM's code does where nothing forces a frame pointer. x86-64: no RBP frame
    /// unless the function has stack arguments (addressed from RBP); slots and saved registers
    /// are SP-relative, unwind rows follow SP, and a leaf with nothing on the stack touches no
    /// stack at all. AArch64: only leaves that need no stack run without a frame record.
    Omitted,
}

/// The two ISAs of a target that differ only in their [`FramePointers`].
pub(crate) struct Isas {
    /// [`FramePointers::Kept`]: also the one symbols, helpers and unwind tables are made with.
    pub kept: Arc<dyn TargetIsa>,
    /// [`FramePointers::Omitted`].
    pub omitted: Arc<dyn TargetIsa>,
    /// Whether a runtime walks the frames by frame pointer through every function (the JIT's
    /// frames, objects with the frame-table layout): then every function that calls keeps a frame.
    pub frames_walked: bool,
}

/// Cranelift's optimisation levels, as `-O none|speed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OptLevel {
    /// `-O none` (or `0`): no optimisation; fastest compile.
    None,
    /// `-O speed` (or `2`): Cranelift's optimisations for speed; the default.
    #[default]
    Speed,
}

impl FromStr for OptLevel {
    type Err = TargetError;
    fn from_str(s: &str) -> Result<Self, TargetError> {
        match s {
            "none" | "0" => Ok(OptLevel::None),
            "speed" | "2" => Ok(OptLevel::Speed),
            other => Err(TargetError::UnknownOptLevel(other.to_string())),
        }
    }
}

impl Target {
    /// The machine this process runs on.
    pub fn host() -> Result<Target, TargetError> {
        Target::from_triple(Triple::host())
    }

    /// A full triple, or `x86_64` / `aarch64` as shorthands for their Linux GNU triples.
    pub fn parse(text: &str) -> Result<Target, TargetError> {
        let text = match text {
            "x86_64" | "x86-64" => Arch::X86_64.triple(),
            "aarch64" | "arm64" => Arch::Aarch64.triple(),
            other => other,
        };
        let triple =
            Triple::from_str(text).map_err(|reason| TargetError::InvalidTriple { triple: text.to_string(), reason })?;
        Target::from_triple(triple)
    }

    fn from_triple(triple: Triple) -> Result<Target, TargetError> {
        let arch = Arch::of_triple(triple.architecture)
            .ok_or_else(|| TargetError::UnsupportedArchitecture(triple.architecture.to_string()))?;
        if triple.binary_format != target_lexicon::BinaryFormat::Elf {
            return Err(TargetError::UnsupportedFormat {
                format: triple.binary_format.to_string(),
                triple: triple.to_string(),
            });
        }
        Ok(Target { arch, triple })
    }

    /// The architecture of a Cranelift ISA (one [`Target::isa`] made, or any other).
    pub fn arch_of(isa: &dyn TargetIsa) -> Result<Arch, TargetError> {
        let architecture = isa.triple().architecture;
        Arch::of_triple(architecture).ok_or_else(|| TargetError::UnsupportedArchitecture(architecture.to_string()))
    }

    /// Whether a module's `target triple` names the same architecture.
    pub fn agrees_with(&self, module_triple: &str) -> bool {
        Target::parse(module_triple).is_ok_and(|t| t.arch == self.arch)
    }

    /// The Cranelift ISA: frame pointers kept in every function (stack maps are FP-relative, as
    /// LLVM's), PIC for objects that link into PIE executables, non-PIC for the JIT (which needs it).
    pub fn isa(&self, opt: OptLevel, pic: bool) -> Result<Arc<dyn TargetIsa>, TargetError> {
        self.isa_with_frames(opt, pic, FramePointers::Kept)
    }

    /// The ISAs a module's functions compile with: [`FramePointers::Kept`] for those that need a
    /// frame pointer, [`FramePointers::Omitted`] for the rest (`compile` chooses per function);
    /// `frames_walked`: see [`Isas::frames_walked`].
    pub(crate) fn isas(&self, opt: OptLevel, pic: bool, frames_walked: bool) -> Result<Isas, TargetError> {
        Ok(Isas {
            kept: self.isa_with_frames(opt, pic, FramePointers::Kept)?,
            omitted: self.isa_with_frames(opt, pic, FramePointers::Omitted)?,
            frames_walked,
        })
    }

    /// [`Target::isa`] with the frame pointers `frames` says.
    pub fn isa_with_frames(
        &self,
        opt: OptLevel,
        pic: bool,
        frames: FramePointers,
    ) -> Result<Arc<dyn TargetIsa>, TargetError> {
        let mut flags = settings::builder();
        let set = |flags: &mut settings::Builder, name: &'static str, value: &'static str| {
            flags.set(name, value).map_err(|source| TargetError::Setting { name, value, source })
        };
        set(&mut flags, "opt_level", if opt == OptLevel::Speed { "speed" } else { "none" })?;
        // `-O none` takes the single-pass register allocator: under register pressure it compiles
        // in about half the backtracking one's time. The values of stack maps, patch points and
        // statepoints then stay in their spill slots (vendored patch `single-pass-stackmap-slots`),
        // so nothing is reloaded between a call and the record at its return address (llc-19 -O0
        // reloads them there, and its record follows the reloads).
        let allocator = if opt == OptLevel::Speed { "backtracking" } else { "single_pass" };
        set(&mut flags, "regalloc_algorithm", allocator)?;
        let preserve = if frames == FramePointers::Kept { "true" } else { "false" };
        set(&mut flags, "preserve_frame_pointers", preserve)?;
        set(&mut flags, "is_pic", if pic { "true" } else { "false" })?;
        set(&mut flags, "unwind_info", "true")?;
        // Lets x86-64 signatures take i128 (a register pair or a 16-aligned stack slot, as LLVM
        // passes it); results stay within two registers (`lower::symbols::result_unsupported`).
        set(&mut flags, "enable_llvm_abi_extensions", "true")?;
        // The dynamic-alloca arena's state is thread-local in objects (`lower::dynamic_stack`); the
        // general-dynamic model works in shared objects too, and linkers relax it in executables.
        set(&mut flags, "tls_model", "elf_gd")?;
        // Cranelift's IR verifier re-checks every function it compiles; ours already checked the
        // module, and the lowering's output is covered by the tests (which keep it on in debug builds).
        set(&mut flags, "enable_verifier", if cfg!(debug_assertions) { "true" } else { "false" })?;
        let triple = || self.triple.to_string();
        let builder =
            isa::lookup(self.triple.clone()).map_err(|source| TargetError::NoBackend { triple: triple(), source })?;
        builder
            .finish(settings::Flags::new(flags))
            .map_err(|source| TargetError::Configure { triple: triple(), source })
    }
}

/// Why a target, the host or an option cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// Not a target triple.
    #[error("invalid target triple '{triple}': {reason}")]
    InvalidTriple {
        /// The text given.
        triple: String,
        /// target-lexicon's reason.
        reason: target_lexicon::ParseError,
    },
    /// An architecture Cranelift or patchmap does not generate code for.
    #[error("unsupported target architecture '{0}' (supported: x86_64, aarch64)")]
    UnsupportedArchitecture(String),
    /// An object format other than ELF.
    #[error("unsupported object format '{format}' for '{triple}' (supported: ELF, e.g. x86_64-unknown-linux-gnu)")]
    UnsupportedFormat {
        /// The triple's object format.
        format: String,
        /// The triple.
        triple: String,
    },
    /// `-O` with a level other than `none` or `speed`.
    #[error("unknown optimisation level '{0}' (expected none or speed)")]
    UnknownOptLevel(String),
    /// A `.llvm_stackmaps` version other than 1, 2 or 3.
    #[error("stack map version {0} is not 1, 2 or 3")]
    StackMapVersion(u8),
    /// JIT code for another architecture than the host's.
    #[error("{file}: cannot run {target} code on this {host} host")]
    NotHost {
        /// The module's file.
        file: String,
        /// The module's target.
        target: String,
        /// The host's triple.
        host: String,
    },
    /// Cranelift refused a setting.
    #[error("cranelift setting {name}={value}: {source}")]
    Setting {
        /// The setting.
        name: &'static str,
        /// Its value.
        value: &'static str,
        /// Cranelift's reason.
        source: cranelift_codegen::settings::SetError,
    },
    /// Cranelift has no backend for the triple (not built in).
    #[error("no Cranelift backend for {triple}: {source}")]
    NoBackend {
        /// The triple.
        triple: String,
        /// Cranelift's reason.
        source: cranelift_codegen::isa::LookupError,
    },
    /// Cranelift could not be configured for the triple.
    #[error("cannot configure Cranelift for {triple}: {source}")]
    Configure {
        /// The triple.
        triple: String,
        /// Cranelift's reason.
        source: CodegenError,
    },
}
