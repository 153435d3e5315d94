//! The run-time location checker, Rust side: links a program's object with `tests/checker/harness.c`,
//! runs it, and parses what the harness saw at every stack map record (see the harness's header for
//! the output format). [`normalize`] makes the values of two different binaries comparable.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use patchmap::ir::{Const, Function, Inst, Linkage, Module, Operand, PointCall, Type, Value};

use super::{run, run_with_deadline, Arch, Outcome, Toolchain};

/// Reports per record before the harness stops re-arming it (`CAP_HITS` in harness.c).
pub const CAP_HITS: usize = 1000;

/// One location as read at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocationValue {
    /// `R`egister, `D`irect, `I`ndirect, `C`onstant, `K` (ConstantIndex).
    pub kind: char,
    /// The location's size field.
    pub size: u16,
    /// Register: the whole 64-bit register; Direct: the address; Indirect: `min(size, 8)` bytes loaded,
    /// zero-extended; Constant: sign-extended to 64 bits; ConstantIndex: the pool entry. `None` when
    /// the harness could not read it (unknown register, bad pool index).
    pub value: Option<u64>,
    /// When `value` points into the stack or into a sized symbol: up to 8 bytes stored there.
    pub stored: Option<u64>,
    /// When `value` points into a sized function or object symbol: its name and the offset into it.
    pub symbol: Option<(String, u64)>,
    /// An Indirect location of more than 8 bytes: the FNV-1a 64-bit hash of all its bytes.
    pub digest: Option<u64>,
}

/// One execution of one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordHit {
    pub id: u64,
    pub values: Vec<LocationValue>,
}

/// A record the harness planted a breakpoint for (section order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planted {
    pub id: u64,
    pub pc: u64,
    pub locations: usize,
}

/// Everything the harness wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub planted: Vec<Planted>,
    /// Record executions in execution order (records sharing an address: section order).
    pub hits: Vec<RecordHit>,
    /// Records that reached [`CAP_HITS`]: later executions were not observed.
    pub capped: Vec<u64>,
    pub warnings: Vec<String>,
}

/// The IR type of a live value, as far as comparing it matters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveType {
    /// `i1`…`i64`: compare the low bits.
    Int(u8),
    Float,
    Double,
    /// A pointer; `pointee` is the size of the alloca or global it is known to point to. With `None`
    /// (or `Some(0)`: a function) only the symbol it points into is compared, not the contents.
    Ptr {
        pointee: Option<u64>,
        /// A `private` global or function: llc-19 gives it no symbol (an assembler-local `.L` label),
        /// so only its contents are compared, not its name.
        private: bool,
    },
    /// `undef`/`poison`: any value is right.
    Undef,
}

/// A location's value in a form that does not depend on the binary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Normalized {
    /// The value's bits (integers, floats, and pointers that point nowhere known, such as null).
    Bits(u64),
    /// A pointer into the stack or a symbol: addresses differ between binaries, so compare the first
    /// `min(pointee, 8)` bytes it points to, and the symbol and offset when there is one.
    Pointee { stored: u64, symbol: Option<(String, u64)> },
    /// Not compared (undef).
    Unchecked,
    /// The harness could not read the location.
    Unreadable,
}

fn harness_source() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/checker/harness.c")
}

/// Links `object` (which defines `main` and has a `.llvm_stackmaps` section) with the harness into
/// `dir/name`: `-no-pie` on x86-64 (the section's absolute function addresses must be final) and
/// `-static` on AArch64 (qemu-user). The harness must compile without warnings.
pub fn build_checked(object: &[u8], toolchain: &Toolchain, dir: &Path, name: &str) -> Result<PathBuf, String> {
    let obj = dir.join(format!("{name}.o"));
    let exe = dir.join(name);
    std::fs::write(&obj, object).map_err(|e| e.to_string())?;
    let mut cc = Command::new(&toolchain.linker);
    cc.args(["-O1", "-Wall", "-Wextra", "-Werror"]).arg(harness_source()).arg(&obj).arg("-o").arg(&exe);
    cc.arg(if toolchain.arch == Arch::Aarch64 { "-static" } else { "-no-pie" }).arg("-lm");
    let (code, _, err) = run(&mut cc);
    if code != 0 || !err.trim().is_empty() {
        return Err(format!("building {} with the checker failed: {err}", exe.display()));
    }
    Ok(exe)
}

/// llc-19's `-O2` object of `ll` and patchmap's (`super::compile_file_v3`) for `arch`, each run under
/// the checker: each must print what llc-19's unchecked build prints, execute `hits` stack maps and
/// hold at every recorded location the value the program announces ([`check_truth`]). Returns each
/// build's name, outcome and report, for further checks.
pub fn both_builds_hold_the_truth(
    llc: &Path,
    ll: &Path,
    toolchain: &Toolchain,
    dir: &Path,
    hits: usize,
) -> Vec<(&'static str, Outcome, Report)> {
    let arch = toolchain.arch;
    let reference = super::llc_object(llc, ll, arch, "2", dir).unwrap_or_else(|e| panic!("{e}"));
    let plain = toolchain.link_and_run(&reference, dir, "live-plain").unwrap();
    let mut runs = Vec::new();
    for (who, object) in [("llc-19", reference), ("patchmap", super::compile_file_v3(ll, arch))] {
        let name = format!("live-{who}-{arch:?}");
        let exe = build_checked(&object, toolchain, dir, &name).unwrap_or_else(|e| panic!("{e}"));
        let (outcome, report) = run_checked_report(&exe, toolchain).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outcome, plain, "{who} on {arch:?}: the checked run against llc-19's plain run");
        assert_eq!(report.hits.len(), hits, "{who} on {arch:?}: stack map executions");
        check_truth(&report, &outcome.stdout).unwrap_or_else(|e| panic!("{who} on {arch:?}: {e}"));
        runs.push((who, outcome, report));
    }
    runs
}

/// Runs a [`build_checked`] executable (under qemu for AArch64, with a deadline) and parses the
/// harness's output. Fails if the harness reported an error or its output is incomplete.
pub fn run_checked_report(exe: &Path, toolchain: &Toolchain) -> Result<(Outcome, Report), String> {
    run_checked_report_with(exe, toolchain, &[])
}

/// [`run_checked_report`] with more environment variables: the harness's modes (`PATCHMAP_FIX_TARGETS`,
/// `PATCHMAP_CLOBBER`, `PATCHMAP_ANYREG`, see harness.c).
pub fn run_checked_report_with(
    exe: &Path,
    toolchain: &Toolchain,
    env: &[(&str, &str)],
) -> Result<(Outcome, Report), String> {
    let out_path = exe.with_extension("checker.txt");
    let _ = std::fs::remove_file(&out_path);
    let mut cmd = toolchain.command(exe);
    cmd.env("PATCHMAP_CHECKER_OUT", &out_path);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let (status, stdout) = run_with_deadline(&mut cmd, Duration::from_secs(60))?;
    let status = status.ok_or_else(|| format!("{} was killed by a signal", exe.display()))?;
    let text =
        std::fs::read_to_string(&out_path).map_err(|e| format!("no checker output {}: {e}", out_path.display()))?;
    let report = parse_report(&text)?;
    Ok((Outcome { status, stdout }, report))
}

/// [`run_checked_report`] without the details: the outcome and the record executions.
pub fn run_checked(exe: &Path, toolchain: &Toolchain) -> Result<(Outcome, Vec<RecordHit>), String> {
    run_checked_report(exe, toolchain).map(|(outcome, report)| (outcome, report.hits))
}

fn hex(s: &str) -> Result<u64, String> {
    u64::from_str_radix(s, 16).map_err(|e| format!("bad hex number {s:?}: {e}"))
}

fn parse_location(token: &str) -> Result<LocationValue, String> {
    let bad = || format!("bad location {token:?}");
    let mut parts = token.splitn(3, ':');
    let kind = parts.next().and_then(|k| k.chars().next()).ok_or_else(bad)?;
    let size = u16::from_str_radix(parts.next().ok_or_else(bad)?, 16).map_err(|_| bad())?;
    let rest = parts.next().ok_or_else(bad)?;
    if rest == "?" {
        return Ok(LocationValue { kind, size, value: None, stored: None, symbol: None, digest: None });
    }
    // value[=stored][@symbol+offset]; symbol names may contain anything but the last '+'.
    let (rest, symbol) = match rest.split_once('@') {
        Some((head, sym)) => {
            let (name, offset) = sym.rsplit_once('+').ok_or_else(bad)?;
            (head, Some((name.to_string(), hex(offset)?)))
        }
        None => (rest, None),
    };
    let (value, stored) = match rest.split_once('=') {
        Some((v, s)) => (v, Some(hex(s)?)),
        None => (rest, None),
    };
    let (value, digest) = match value.split_once('#') {
        Some((v, d)) => (hex(v)?, Some(hex(d)?)),
        None => (hex(value)?, None),
    };
    Ok(LocationValue { kind, size, value: Some(value), stored, symbol, digest })
}

/// Parses the harness's output (format in harness.c). `E` lines and a missing final `Q` line are
/// errors: the run did not check what it should have.
pub fn parse_report(text: &str) -> Result<Report, String> {
    let mut report = Report::default();
    let mut finished = false;
    for line in text.lines() {
        let mut words = line.split(' ');
        let tag = words.next().unwrap_or("");
        let mut number = |what: &str| -> Result<u64, String> {
            words.next().and_then(|w| w.parse().ok()).ok_or_else(|| format!("{what} missing in {line:?}"))
        };
        match tag {
            "P" => {
                let id = number("id")?;
                let pc = line.split(' ').nth(2).map(hex).transpose()?.ok_or("pc missing")?;
                let locations = line.split(' ').nth(3).and_then(|w| w.parse().ok()).ok_or("count missing")?;
                report.planted.push(Planted { id, pc, locations });
            }
            "H" => {
                let id = number("id")?;
                let n = number("count")? as usize;
                let values = words.map(parse_location).collect::<Result<Vec<_>, _>>()?;
                if values.len() != n {
                    return Err(format!("{n} locations announced, {} given: {line:?}", values.len()));
                }
                report.hits.push(RecordHit { id, values });
            }
            "X" => report.capped.push(number("id")?),
            "W" => report.warnings.push(line[2..].to_string()),
            "E" => return Err(format!("checker error: {}", &line[2..])),
            "Q" => {
                let total = number("total")? as usize;
                if total != report.hits.len() {
                    return Err(format!("checker counted {total} hits, wrote {}", report.hits.len()));
                }
                finished = true;
            }
            _ => return Err(format!("unexpected checker line {line:?}")),
        }
    }
    if !finished {
        return Err("checker output ends early (the program did not exit normally?)".into());
    }
    Ok(report)
}

fn low_bits(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

/// Makes record values comparable across binaries, per the IR type of each live value.
///
/// Integers compare their low `N` bits (i1: the low bit), float the low 32 bits, double 64. Extension
/// of narrow values is not compared: llc-19 extends sub-64-bit constants differently on x86-64 and
/// AArch64 (docs: stack map format §3.3) and leaves garbage above narrow registers. Pointers that
/// point into the stack or into a symbol compare what they point to (the first `min(pointee, 8)`
/// bytes; nothing when the pointee is unknown, e.g. a parameter or a GEP) and the symbol and offset:
/// alloca and global addresses differ between binaries (stack layout, code size); other pointers
/// (null, heap) compare their bits. Undef is not compared.
pub fn normalize(values: &[LocationValue], types: &[LiveType]) -> Vec<Normalized> {
    values
        .iter()
        .zip(types)
        .map(|(loc, ty)| {
            let Some(v) = loc.value else { return Normalized::Unreadable };
            match ty {
                LiveType::Undef => Normalized::Unchecked,
                LiveType::Int(bits) => Normalized::Bits(low_bits(v, u32::from(*bits))),
                // A NaN's sign and payload are not defined by LLVM's semantics (x86-64 computes
                // negative NaNs, LLVM folds positive ones): all NaNs compare equal.
                LiveType::Float if f32::from_bits(v as u32).is_nan() => Normalized::Bits(u64::from(f32::NAN.to_bits())),
                LiveType::Float => Normalized::Bits(low_bits(v, 32)),
                LiveType::Double if f64::from_bits(v).is_nan() => Normalized::Bits(f64::NAN.to_bits()),
                LiveType::Double => Normalized::Bits(v),
                LiveType::Ptr { pointee, private } => match loc.stored {
                    Some(stored) => {
                        let bytes = pointee.unwrap_or(0).min(8) as u32;
                        let symbol = if *private { None } else { loc.symbol.clone() };
                        Normalized::Pointee { stored: low_bits(stored, bytes * 8), symbol }
                    }
                    None => Normalized::Bits(v),
                },
            }
        })
        .collect()
}

/// The IR types of each stack map's live operands, by stack map ID.
pub type Types = HashMap<u64, Vec<LiveType>>;

/// The live-value types of every stack map ID of `module`. An ID used by several calls must have the
/// same live types at each.
pub fn live_types(module: &Module) -> Result<Types, String> {
    let mut types: HashMap<u64, Vec<LiveType>> = HashMap::new();
    for function in &module.functions {
        for inst in &function.insts {
            // Stack maps and C-convention patch points record their live operands; anyregcc patch
            // points their result's register first (not yet written at the region's start:
            // unchecked), then the arguments, then the live values.
            let Some(point) = PointCall::decode(module, inst) else { continue };
            let point = point.map_err(|e| format!("invalid stack map or patch point in @{}: {e:?}", function.name))?;
            let (anyreg, fixed): (bool, &[Operand]) = match point {
                PointCall::PatchPoint(call) if call.anyreg => (true, call.args),
                _ => (false, &[]),
            };
            let live: Vec<LiveType> = (anyreg && inst.ty != Type::Void)
                .then_some(LiveType::Undef)
                .into_iter()
                .chain(fixed.iter().chain(point.live()).map(|arg| live_type(module, function, arg)))
                .collect();
            let id = point.id();
            match types.get(&id) {
                Some(known) if *known != live => {
                    return Err(format!("stack map ID {id} is used with different live types"));
                }
                _ => {
                    types.insert(id, live);
                }
            }
        }
    }
    Ok(types)
}

/// How a live operand's value is compared: by its IR type, or through what it points to.
fn live_type(module: &Module, function: &Function, arg: &Operand) -> LiveType {
    match (&arg.ty, &arg.value) {
        (_, Value::Const(Const::Undef | Const::Poison)) => LiveType::Undef,
        (Type::Int(bits), _) => LiveType::Int(*bits),
        (Type::Float, _) => LiveType::Float,
        (Type::Double, _) => LiveType::Double,
        (_, Value::Inst(i)) => match &function.inst(*i).kind {
            Inst::Alloca { ty, .. } => LiveType::Ptr { pointee: Some(ty.alloc_size()), private: false },
            _ => LiveType::Ptr { pointee: None, private: false },
        },
        (_, Value::Global(g)) => {
            let global = module.global(*g);
            LiveType::Ptr { pointee: Some(global.ty.alloc_size()), private: global.linkage == Linkage::Private }
        }
        (_, Value::Func(f)) => {
            LiveType::Ptr { pointee: Some(0), private: module.function(*f).linkage == Linkage::Private }
        }
        _ => LiveType::Ptr { pointee: None, private: false },
    }
}

// What the examples announce on stdout (`S<id> ...` lines) and the check of a run against it.

/// One value token of an `S` line.
#[derive(Debug)]
pub enum Truth {
    /// `<bits>:<hex>`: the low bits of the location's value.
    Bits(u32, u64),
    /// `*<bits>:<hex>`: the low bits of what the location's value points to.
    Pointee(u32, u64),
    /// `-`: not checked.
    Skip,
    /// `h:<hex>`: the FNV-1a 64-bit hash of all the bytes of an Indirect location over 8 bytes.
    Digest(u64),
}

/// The FNV-1a 64-bit hash the harness gives an Indirect location over 8 bytes (`#<digest>`).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

pub fn parse_truth(stdout: &str) -> Vec<(u64, Vec<Truth>)> {
    let token = |t: &str| -> Truth {
        if t == "-" {
            return Truth::Skip;
        }
        if let Some(digest) = t.strip_prefix("h:") {
            return Truth::Digest(u64::from_str_radix(digest, 16).unwrap());
        }
        let (pointee, t) = match t.strip_prefix('*') {
            Some(rest) => (true, rest),
            None => (false, t),
        };
        let (bits, value) = t.split_once(':').unwrap_or_else(|| panic!("bad token {t:?}"));
        let bits = bits.parse().unwrap();
        let value = u64::from_str_radix(value, 16).unwrap();
        if pointee {
            Truth::Pointee(bits, value)
        } else {
            Truth::Bits(bits, value)
        }
    };
    stdout
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix('S')?;
            let mut words = rest.split(' ');
            let id = words.next()?.parse().ok()?;
            Some((id, words.map(token).collect()))
        })
        .collect()
}

pub fn low(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1 << bits) - 1)
    }
}

/// The checker's hits must be the announced executions, value for value.
pub fn check_truth(report: &Report, stdout: &str) -> Result<(), String> {
    let truth = parse_truth(stdout);
    let seen: Vec<u64> = report.hits.iter().map(|h| h.id).collect();
    let announced: Vec<u64> = truth.iter().map(|t| t.0).collect();
    if seen != announced {
        return Err(format!("record executions {seen:?}, announced {announced:?}"));
    }
    for (n, (hit, (id, tokens))) in report.hits.iter().zip(&truth).enumerate() {
        if hit.values.len() != tokens.len() {
            return Err(format!(
                "execution {n} of ID {id}: {} locations, {} values announced",
                hit.values.len(),
                tokens.len()
            ));
        }
        for (i, (loc, t)) in hit.values.iter().zip(tokens).enumerate() {
            let ok = match *t {
                Truth::Skip => true,
                Truth::Bits(bits, v) => loc.value.map(|x| low(x, bits)) == Some(v),
                Truth::Pointee(bits, v) => loc.stored.map(|x| low(x, bits)) == Some(v),
                Truth::Digest(v) => loc.digest == Some(v),
            };
            if !ok {
                return Err(format!("execution {n} of ID {id}, location {}: read {loc:?}, announced {t:?}", i + 1));
            }
        }
    }
    let missed: Vec<u64> = report.planted.iter().map(|p| p.id).filter(|id| !seen.contains(id)).collect();
    if !missed.is_empty() {
        return Err(format!("records never executed: {missed:?}"));
    }
    if !report.capped.is_empty() {
        return Err(format!("records over the cap: {:?}", report.capped));
    }
    Ok(())
}

pub type Normal = Vec<(u64, Vec<Normalized>)>;

pub fn normalized(report: &Report, types: &Types) -> Result<Normal, String> {
    report
        .hits
        .iter()
        .map(|h| {
            let t = types.get(&h.id).ok_or_else(|| format!("ID {} is not in the IR", h.id))?;
            Ok((h.id, normalize(&h.values, t)))
        })
        .collect()
}

/// Builds `object` with the harness, runs it with the harness modes in `env`, and normalises what it
/// saw: the outcome, the record executions, and how many records got a breakpoint.
pub fn run_normalized(
    object: &[u8],
    toolchain: &Toolchain,
    dir: &Path,
    name: &str,
    types: &Types,
    env: &[(&str, &str)],
) -> Result<(Outcome, Normal, usize), String> {
    let exe = build_checked(object, toolchain, dir, name)?;
    let (outcome, report) = run_checked_report_with(&exe, toolchain, env)?;
    Ok((outcome, normalized(&report, types)?, report.planted.len()))
}

/// Whether two binaries' record executions agree; the error names the first that differs.
pub fn compare_executions(ours: &Normal, llc: &Normal) -> Result<(), String> {
    if ours == llc {
        return Ok(());
    }
    let first = ours.iter().zip(llc).position(|(a, b)| a != b).unwrap_or(ours.len().min(llc.len()));
    Err(format!(
        "{} record executions, llc-19 {}; first difference at execution {first}: {:?} vs {:?}",
        ours.len(),
        llc.len(),
        ours.get(first),
        llc.get(first)
    ))
}
