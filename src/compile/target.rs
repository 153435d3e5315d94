//! The targets patchmap compiles for, and the Cranelift ISA for each.

use std::str::FromStr;
use std::sync::Arc;

use cranelift_codegen::isa::{self, TargetIsa};
use cranelift_codegen::settings::{self, Configurable};
use target_lexicon::{Architecture, Triple};

use super::TargetError;

/// The architectures with stack map support.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    /// x86-64 Linux, System V ABI.
    X86_64,
    /// AArch64 Linux, AAPCS64 ABI.
    Aarch64,
}

/// A target: an architecture on Linux (ELF) for now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The architecture named by the triple.
    pub arch: Arch,
    /// The full triple, as given or expanded from a shorthand; an ELF binary format.
    pub triple: Triple,
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
            "x86_64" | "x86-64" => "x86_64-unknown-linux-gnu",
            "aarch64" | "arm64" => "aarch64-unknown-linux-gnu",
            other => other,
        };
        let triple =
            Triple::from_str(text).map_err(|reason| TargetError::InvalidTriple { triple: text.to_string(), reason })?;
        Target::from_triple(triple)
    }

    fn from_triple(triple: Triple) -> Result<Target, TargetError> {
        let arch = match triple.architecture {
            Architecture::X86_64 => Arch::X86_64,
            Architecture::Aarch64(target_lexicon::Aarch64Architecture::Aarch64) => Arch::Aarch64,
            other => return Err(TargetError::UnsupportedArchitecture(other.to_string())),
        };
        if triple.binary_format != target_lexicon::BinaryFormat::Elf {
            return Err(TargetError::UnsupportedFormat {
                format: triple.binary_format.to_string(),
                triple: triple.to_string(),
            });
        }
        Ok(Target { arch, triple })
    }

    /// Whether a module's `target triple` names the same architecture.
    pub fn agrees_with(&self, module_triple: &str) -> bool {
        Target::parse(module_triple).is_ok_and(|t| t.arch == self.arch)
    }

    /// The Cranelift ISA: frame pointers kept (stack maps are FP-relative, as LLVM's), PIC for objects
    /// that link into PIE executables, non-PIC for the JIT (which needs it).
    pub fn isa(&self, opt: OptLevel, pic: bool) -> Result<Arc<dyn TargetIsa>, TargetError> {
        let mut flags = settings::builder();
        let set = |flags: &mut settings::Builder, name: &'static str, value: &'static str| {
            flags.set(name, value).map_err(|source| TargetError::Setting { name, value, source })
        };
        set(&mut flags, "opt_level", if opt == OptLevel::Speed { "speed" } else { "none" })?;
        set(&mut flags, "preserve_frame_pointers", "true")?;
        set(&mut flags, "is_pic", if pic { "true" } else { "false" })?;
        set(&mut flags, "unwind_info", "true")?;
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

/// Per-target stack map facts, from `x86_64.rs` and `aarch64.rs`.
impl Arch {
    pub(crate) fn frame_pointer(self) -> u16 {
        match self {
            Arch::X86_64 => super::x86_64::FRAME_POINTER,
            Arch::Aarch64 => super::aarch64::FRAME_POINTER,
        }
    }
    pub(crate) fn gpr_dwarf(self, hw: u8) -> Option<u16> {
        match self {
            Arch::X86_64 => super::x86_64::gpr_dwarf(hw),
            Arch::Aarch64 => super::aarch64::gpr_dwarf(hw),
        }
    }
    pub(crate) fn float_dwarf(self, hw: u8) -> Option<u16> {
        match self {
            Arch::X86_64 => super::x86_64::float_dwarf(hw),
            Arch::Aarch64 => super::aarch64::float_dwarf(hw),
        }
    }
    pub(crate) fn recorded_constant(self, v: i64, ty: &crate::ir::Type) -> i64 {
        match self {
            Arch::X86_64 => super::x86_64::recorded_constant(v, ty),
            Arch::Aarch64 => super::aarch64::recorded_constant(v, ty),
        }
    }
    pub(crate) fn stack_size(self, frame_to_fp_offset: u32) -> u64 {
        match self {
            Arch::X86_64 => super::x86_64::stack_size(frame_to_fp_offset),
            Arch::Aarch64 => super::aarch64::stack_size(frame_to_fp_offset),
        }
    }
    pub(crate) fn register_size(self, ty: &crate::ir::Type) -> u16 {
        match self {
            Arch::X86_64 => super::x86_64::register_size(ty),
            Arch::Aarch64 => super::aarch64::register_size(ty),
        }
    }
    pub(crate) fn spill_size(self, ty: &crate::ir::Type) -> u16 {
        match self {
            Arch::X86_64 => super::x86_64::spill_size(ty),
            Arch::Aarch64 => super::aarch64::spill_size(ty),
        }
    }
    pub(crate) fn preserved_registers(self) -> &'static [(u16, u8)] {
        match self {
            Arch::X86_64 => &super::x86_64::PRESERVED,
            Arch::Aarch64 => &super::aarch64::PRESERVED,
        }
    }
    pub(crate) fn write_nops(self, bytes: &mut [u8]) {
        match self {
            Arch::X86_64 => super::x86_64::write_nops(bytes),
            Arch::Aarch64 => super::aarch64::write_nops(bytes),
        }
    }
    /// The same architecture, as the runtime's patching API names it.
    pub fn patch_target(self) -> crate::runtime::PatchTarget {
        match self {
            Arch::X86_64 => crate::runtime::PatchTarget::X86_64,
            Arch::Aarch64 => crate::runtime::PatchTarget::Aarch64,
        }
    }
    /// The architecture of a Cranelift ISA's triple.
    pub fn of(isa: &dyn TargetIsa) -> Arch {
        match isa.triple().architecture {
            Architecture::X86_64 => Arch::X86_64,
            _ => Arch::Aarch64,
        }
    }
}
