//! Random programs in patchmap's LLVM IR subset, for differential testing against llc-19.
//!
//! `program(seed)` returns a complete module whose `main` prints a decimal checksum with `putchar` and
//! returns `checksum & 0x7f`. The same seed always gives the same text, so a failing seed is a
//! reproducer. The programs are valid, terminating and free of undefined behaviour by construction:
//!
//! - every computed value is folded into an i64 accumulator that flows through phis at every join, so
//!   a miscompiled value changes the printed checksum;
//! - divisors are `or`ed with 1, and signed dividends are `ashr`ed by 1 (never INT_MIN) or the divisor
//!   is made positive, so there is no division by zero nor INT_MIN / -1; shift amounts are `and`ed with
//!   width - 1; `nsw`/`nuw`/`exact` only appear on operands masked so that the flag holds;
//! - floats reach integers only through `fptosi`/`fptoui` of a value clamped with `fcmp` + `select`
//!   (NaN mapped to 0), and reach the checksum as bits only after NaN is replaced by 0.0, because the
//!   default NaN's sign differs between x86-64 and aarch64;
//! - arrays (allocas and globals) have power-of-two lengths, are fully initialised before use, and are
//!   indexed with `and idx, len - 1`; all allocas sit in the entry block, so loops do not grow the stack;
//! - the call graph is acyclic (function k calls only functions below k), loops have constant trip
//!   counts, and an estimate of executed statements per function is kept under
//!   `GeneratorConfig::max_cost`, so a run is short.
//!
//! Only std is used; the PRNG is SplitMix64.
#![allow(dead_code)]

use std::fmt::Write;

pub mod pressure;
pub mod statepoint;

/// Size knobs for `program_with`.
#[derive(Clone)]
pub struct GeneratorConfig {
    /// Functions besides `main` (and the printer).
    pub functions: usize,
    /// Straight-line statements (or nested control structures) per region.
    pub statements_per_block: usize,
    /// How deeply counted loops may nest.
    pub max_loop_depth: usize,
    /// How deeply if/else, switch and loops may nest in total.
    pub max_nesting: usize,
    /// Mutable global arrays shared by all functions.
    pub globals: usize,
    /// Largest trip count of a loop.
    pub max_trip_count: u64,
    /// Estimated statements one call of a function may execute, counting its callees and loops.
    pub max_cost: u64,
    /// Percent of statements that are `llvm.experimental.stackmap` calls recording values in scope
    /// (constants, allocas and undef among them); 0 for programs without stack maps.
    pub stackmap_percent: u64,
    /// Percent of statements that are `llvm.experimental.patchpoint` calls (C convention and
    /// `anyregcc`), some right after an ordinary call or back to back with a stack map or another
    /// patch point; 0 for programs without patch points.
    pub patchpoint_percent: u64,
    /// Whether C-convention patch points may call an internal target function of the program (`@pt<k>`,
    /// whose result the program folds into its checksum) instead of having a null target.
    pub patchpoint_targets: bool,
}

/// As `#[derive(Debug)]` would print it, but the patch point knobs only when patch points are on: the
/// first line of a program names its configuration, and programs without patch points keep the text
/// they had before the knobs existed.
impl std::fmt::Debug for GeneratorConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("GeneratorConfig");
        d.field("functions", &self.functions)
            .field("statements_per_block", &self.statements_per_block)
            .field("max_loop_depth", &self.max_loop_depth)
            .field("max_nesting", &self.max_nesting)
            .field("globals", &self.globals)
            .field("max_trip_count", &self.max_trip_count)
            .field("max_cost", &self.max_cost)
            .field("stackmap_percent", &self.stackmap_percent);
        if self.patchpoint_percent > 0 {
            d.field("patchpoint_percent", &self.patchpoint_percent)
                .field("patchpoint_targets", &self.patchpoint_targets);
        }
        d.finish()
    }
}

impl Default for GeneratorConfig {
    fn default() -> Self {
        GeneratorConfig {
            functions: 6,
            statements_per_block: 8,
            max_loop_depth: 2,
            max_nesting: 3,
            globals: 3,
            max_trip_count: 6,
            max_cost: 20_000,
            stackmap_percent: 0,
            patchpoint_percent: 0,
            patchpoint_targets: false,
        }
    }
}

/// The default configuration with stack maps in about one statement in ten.
pub fn with_stackmaps() -> GeneratorConfig {
    GeneratorConfig { stackmap_percent: 10, ..GeneratorConfig::default() }
}

/// Stack maps and patch points mixed (issue 11): patch points in about one statement in eight, stack
/// maps in one in twelve, C-convention patch points calling internal target functions or with null
/// targets, `anyregcc` ones with null targets (their arguments ride in arbitrary registers, so only
/// a hand-written handler could be their target).
///
/// Each patch point has 0-13 call arguments and 0-40 live values (integers of every width, float,
/// double, pointers to arrays, constants, undef). Regions are at least 16 bytes when there is a
/// target (llc-19's call sequence: 13 bytes on x86-64, 16 on AArch64) and at least 8 otherwise, always
/// a multiple of 4 (AArch64). The result of a null-target region is garbage: it only goes to a volatile
/// store, so the output never depends on it; a target's result is folded into the checksum.
pub fn with_patchpoints() -> GeneratorConfig {
    GeneratorConfig {
        stackmap_percent: 8,
        patchpoint_percent: 12,
        patchpoint_targets: true,
        ..GeneratorConfig::default()
    }
}

/// [`with_patchpoints`] with null targets only: every region is nops, free to be patched at run time.
pub fn with_null_patchpoints() -> GeneratorConfig {
    GeneratorConfig { patchpoint_targets: false, ..with_patchpoints() }
}

/// The result types of the `llvm.experimental.patchpoint.*` variants the generator uses, in the order
/// of their declarations, with their name suffixes.
const PATCHPOINT_VARIANTS: [(&str, &str); 6] =
    [("void", "void"), ("i64", "i64"), ("i32", "i32"), ("ptr", "p0"), ("float", "f32"), ("double", "f64")];

/// A runnable program from `seed` with the default configuration.
pub fn program(seed: u64) -> String {
    program_with(seed, &GeneratorConfig::default())
}

/// A runnable program from `seed` with the given size knobs.
pub fn program_with(seed: u64, config: &GeneratorConfig) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::new();
    writeln!(out, "; generated by tests/generator, seed {seed}, {config:?}").unwrap();
    writeln!(out, "source_filename = \"generated_{seed}.ll\"\n").unwrap();

    let globals: Vec<Array> = (0..config.globals)
        .map(|k| {
            let elem = rng.pick(&[Ty::I8, Ty::I16, Ty::I32, Ty::I64, Ty::I64, Ty::F64]);
            let len = 1u64 << rng.range(2, 4);
            let linkage = rng.pick(&["internal ", "private ", "dso_local ", ""]);
            let name = format!("@g{k}");
            let init = if rng.chance(20) {
                "zeroinitializer".to_string()
            } else {
                let items: Vec<String> =
                    (0..len).map(|_| format!("{} {}", elem.name(), constant(&mut rng, elem))).collect();
                format!("[{}]", items.join(", "))
            };
            let align = if rng.chance(30) { format!(", align {}", 8 * elem.bytes()) } else { String::new() };
            writeln!(out, "{name} = {linkage}global [{len} x {}] {init}{align}", elem.name()).unwrap();
            Array { name, elem, len }
        })
        .collect();
    out.push_str("\ndeclare i32 @putchar(i32)\n\n");
    if config.stackmap_percent > 0 {
        out.push_str("declare void @llvm.experimental.stackmap(i64, i32, ...)\n\n");
    }
    // Patch point declarations go here once the functions say which variants they use.
    let declarations_at = out.len();
    out.push_str(PRINT_U64);

    let mut targets: Vec<Signature> = Vec::new();
    if config.patchpoint_percent > 0 && config.patchpoint_targets {
        for k in 0..4 {
            let nparams = rng.below(14);
            let params: Vec<Ty> = (0..nparams)
                .map(|_| rng.pick(&[Ty::I8, Ty::I16, Ty::I32, Ty::I64, Ty::I64, Ty::F64, Ty::F32]))
                .collect();
            let ret = rng.pick(&[None, Some(Ty::I64), Some(Ty::I64), Some(Ty::I32), Some(Ty::F64), Some(Ty::F32)]);
            let sig = Signature { name: format!("@pt{k}"), params, ret, cost: 0 };
            let mut f = FnGen::new(&mut rng, config, &[], &globals, &[]);
            let (text, cost) = f.target_function(&sig);
            out.push_str(&text);
            targets.push(Signature { cost, ..sig });
        }
    }
    let mut variants = [false; PATCHPOINT_VARIANTS.len()];

    let mut signatures: Vec<Signature> = Vec::new();
    for k in 0..config.functions {
        let nparams = rng.below(5);
        let params: Vec<Ty> =
            (0..nparams).map(|_| rng.pick(&[Ty::I8, Ty::I16, Ty::I32, Ty::I64, Ty::I64, Ty::F64, Ty::F32])).collect();
        let ret =
            if rng.chance(10) { None } else { Some(rng.pick(&[Ty::I8, Ty::I16, Ty::I32, Ty::I64, Ty::I64, Ty::F64])) };
        let linkage = rng.pick(&["internal ", "internal ", "private ", "dso_local ", ""]);
        let sig = Signature { name: format!("@f{k}"), params, ret, cost: 0 };
        let mut f = FnGen::new(&mut rng, config, &signatures, &globals, &targets);
        let (text, cost) = f.function(&sig, linkage);
        for (used, new) in variants.iter_mut().zip(f.variants) {
            *used |= new;
        }
        out.push_str(&text);
        signatures.push(Signature { cost, ..sig });
    }
    out.push_str(&main_function(&mut rng, config, &signatures, &globals));
    let mut declarations = String::new();
    for ((ty, suffix), used) in PATCHPOINT_VARIANTS.iter().zip(variants) {
        if used {
            writeln!(declarations, "declare {ty} @llvm.experimental.patchpoint.{suffix}(i64, i32, ptr, i32, ...)")
                .unwrap();
        }
    }
    if !declarations.is_empty() {
        declarations.push('\n');
        out.insert_str(declarations_at, &declarations);
    }
    out
}

/// A module with `functions` generated functions for compile-throughput benchmarks: valid IR that llc-19
/// accepts, and still a runnable program (each function's cost is kept small).
pub fn large_module(functions: usize) -> String {
    large_module_with_stackmaps(functions, 0)
}

/// [`large_module`] with `stackmap_percent` percent of its statements stack maps.
pub fn large_module_with_stackmaps(functions: usize, stackmap_percent: u64) -> String {
    let config = GeneratorConfig {
        functions,
        statements_per_block: 10,
        max_loop_depth: 2,
        max_nesting: 2,
        globals: 8,
        max_trip_count: 4,
        max_cost: 2_000,
        stackmap_percent,
        patchpoint_percent: 0,
        patchpoint_targets: false,
    };
    program_with(0x5EED_1A26_E000 + functions as u64, &config)
}

pub const PRINT_U64: &str = "\
define internal void @print_u64(i64 %v) {
entry:
  %big = icmp uge i64 %v, 10
  br i1 %big, label %rec, label %digit
rec:
  %q = udiv i64 %v, 10
  call void @print_u64(i64 %q)
  br label %digit
digit:
  %r = urem i64 %v, 10
  %r32 = trunc i64 %r to i32
  %c = add i32 %r32, 48
  call i32 @putchar(i32 %c)
  ret void
}

";

/// SplitMix64: tiny, fast, and the same sequence on every platform.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed)
    }
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in 0..n (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// Uniform in lo..=hi.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    I8,
    I16,
    I32,
    I64,
    F32,
    F64,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::I8 => "i8",
            Ty::I16 => "i16",
            Ty::I32 => "i32",
            Ty::I64 => "i64",
            Ty::F32 => "float",
            Ty::F64 => "double",
        }
    }
    fn bits(self) -> u32 {
        match self {
            Ty::I8 => 8,
            Ty::I16 => 16,
            Ty::I32 | Ty::F32 => 32,
            Ty::I64 | Ty::F64 => 64,
        }
    }
    fn bytes(self) -> u64 {
        u64::from(self.bits() / 8)
    }
    fn is_int(self) -> bool {
        !matches!(self, Ty::F32 | Ty::F64)
    }
    /// Signed value range of an integer type.
    fn min(self) -> i64 {
        if self.bits() == 64 {
            i64::MIN
        } else {
            -(1i64 << (self.bits() - 1))
        }
    }
    fn max(self) -> i64 {
        if self.bits() == 64 {
            i64::MAX
        } else {
            (1i64 << (self.bits() - 1)) - 1
        }
    }
}

const INT_TYS: [Ty; 4] = [Ty::I8, Ty::I16, Ty::I32, Ty::I64];
const FLOAT_TYS: [Ty; 2] = [Ty::F32, Ty::F64];
const ICMP: [&str; 10] = ["eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"];
const FCMP: [&str; 16] =
    ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"];

/// A constant of type `ty` in IR syntax, biased towards edge values.
fn constant(rng: &mut Rng, ty: Ty) -> String {
    if ty.is_int() {
        let v: i64 = match rng.below(8) {
            0 => 0,
            1 => 1,
            2 => -1,
            3 => ty.min(),
            4 => ty.max(),
            5 => rng.range(0, 20) as i64 - 10,
            _ => {
                let raw = rng.next_u64();
                // Sign-extend the low `bits` bits so the literal is in the type's range.
                let shift = 64 - ty.bits();
                ((raw << shift) as i64) >> shift
            }
        };
        v.to_string()
    } else {
        // Quarter-integers are exact in float and double; hex keeps the literal exact.
        let v = (rng.range(0, 4000) as f64 - 2000.0) / 4.0;
        format!("0x{:016X}", v.to_bits())
    }
}

struct Signature {
    name: String,
    params: Vec<Ty>,
    ret: Option<Ty>,
    /// Estimated statements executed by one call.
    cost: u64,
}

#[derive(Clone)]
struct Array {
    name: String,
    elem: Ty,
    len: u64,
}

#[derive(Clone)]
struct Value {
    ty: Ty,
    name: String,
}

/// Generates one function body. Values in `vals` are exactly those that dominate the current point:
/// regions truncate it on exit, and joins add phis.
/// A loop whose header phis are written once its latch is known ([`FnGen::open_loop`]).
struct LoopHeader {
    /// The block that enters the loop, and the checksum there.
    pre: String,
    acc0: String,
    head: String,
    exit: String,
    /// Where in the body the header's phis go.
    phi_pos: usize,
    /// The induction variable and the checksum's phi.
    index: String,
    acc_phi: String,
}

struct FnGen<'a> {
    rng: &'a mut Rng,
    cfg: &'a GeneratorConfig,
    callees: &'a [Signature],
    arrays: Vec<Array>,
    /// Allocas and their initialising stores, placed at the top of the entry block at the end.
    entry: String,
    body: String,
    next_id: usize,
    next_block: usize,
    block: String,
    vals: Vec<Value>,
    /// The running i64 checksum.
    acc: String,
    cost: u64,
    /// Product of the trip counts of the enclosing loops.
    mult: u64,
    loop_depth: usize,
    /// A stack slot holding a function pointer, for indirect calls.
    fn_slot: Option<String>,
    /// How many of `arrays` (at the end) are this function's allocas rather than globals.
    locals: usize,
    /// The ID of the next stack map or patch point: unique in the module, since IDs name the records.
    next_stackmap: u64,
    /// Internal functions patch points may call (`@pt<k>`).
    targets: &'a [Signature],
    /// Which of [`PATCHPOINT_VARIANTS`] this function calls.
    variants: [bool; PATCHPOINT_VARIANTS.len()],
}

impl<'a> FnGen<'a> {
    fn new(
        rng: &'a mut Rng,
        cfg: &'a GeneratorConfig,
        callees: &'a [Signature],
        globals: &[Array],
        targets: &'a [Signature],
    ) -> Self {
        FnGen {
            rng,
            cfg,
            callees,
            arrays: globals.to_vec(),
            entry: String::new(),
            body: String::new(),
            next_id: 0,
            next_block: 0,
            block: "entry".into(),
            vals: Vec::new(),
            acc: String::new(),
            cost: 0,
            mult: 1,
            loop_depth: 0,
            fn_slot: None,
            locals: 0,
            next_stackmap: (callees.len() as u64 + 1) * 1000,
            targets,
            variants: [false; PATCHPOINT_VARIANTS.len()],
        }
    }

    fn fresh(&mut self) -> String {
        self.next_id += 1;
        format!("%v{}", self.next_id)
    }

    fn fresh_block(&mut self, what: &str) -> String {
        self.next_block += 1;
        format!("{what}{}", self.next_block)
    }

    fn emit(&mut self, line: String) {
        self.body.push_str("  ");
        self.body.push_str(&line);
        self.body.push('\n');
    }

    /// Emits `%new = rhs` and returns the new name.
    fn def(&mut self, rhs: String) -> String {
        let name = self.fresh();
        self.emit(format!("{name} = {rhs}"));
        name
    }

    fn start_block(&mut self, label: &str) {
        writeln!(self.body, "{label}:").unwrap();
        self.block = label.to_string();
    }

    fn push(&mut self, ty: Ty, name: String) -> Value {
        let v = Value { ty, name };
        self.vals.push(v.clone());
        v
    }

    /// An operand of type `ty`: an existing value, a cast of one, or a constant.
    fn operand(&mut self, ty: Ty) -> String {
        let same: Vec<usize> = (0..self.vals.len()).filter(|&i| self.vals[i].ty == ty).collect();
        let roll = self.rng.below(10);
        if roll < 6 && !same.is_empty() {
            return self.vals[same[self.rng.below(same.len())]].name.clone();
        }
        if roll < 8 && !self.vals.is_empty() {
            let v = self.vals[self.rng.below(self.vals.len())].clone();
            return self.convert(&v, ty);
        }
        constant(self.rng, ty)
    }

    /// Converts any value to `ty` without undefined behaviour.
    fn convert(&mut self, v: &Value, ty: Ty) -> String {
        if v.ty == ty {
            return v.name.clone();
        }
        match (v.ty.is_int(), ty.is_int()) {
            (true, true) => {
                let op = if v.ty.bits() > ty.bits() {
                    "trunc"
                } else if self.rng.chance(50) {
                    "sext"
                } else {
                    "zext"
                };
                self.def(format!("{op} {} {} to {}", v.ty.name(), v.name, ty.name()))
            }
            (true, false) => {
                let op = self.rng.pick(&["sitofp", "uitofp"]);
                self.def(format!("{op} {} {} to {}", v.ty.name(), v.name, ty.name()))
            }
            (false, true) => self.float_to_int(v, ty),
            (false, false) => {
                let op = if v.ty == Ty::F32 { "fpext" } else { "fptrunc" };
                self.def(format!("{op} {} {} to {}", v.ty.name(), v.name, ty.name()))
            }
        }
    }

    /// fptosi/fptoui of a value first clamped into a range the target type holds, with NaN as 0.
    fn float_to_int(&mut self, v: &Value, ty: Ty) -> String {
        let unsigned = self.rng.chance(40);
        let (lo, hi): (f64, f64) = match (ty, unsigned) {
            (Ty::I8, false) => (-100.0, 100.0),
            (Ty::I8, true) => (0.0, 200.0),
            (Ty::I16, false) => (-30000.0, 30000.0),
            (Ty::I16, true) => (0.0, 60000.0),
            (_, false) => (-1.0e9, 1.0e9),
            (_, true) => (0.0, 2.0e9),
        };
        let t = v.ty.name();
        let (lo_s, hi_s) = (format!("0x{:016X}", lo.to_bits()), format!("0x{:016X}", hi.to_bits()));
        let below = self.def(format!("fcmp olt {t} {}, {lo_s}", v.name));
        let a = self.def(format!("select i1 {below}, {t} {lo_s}, {t} {}", v.name));
        let above = self.def(format!("fcmp ogt {t} {a}, {hi_s}"));
        let b = self.def(format!("select i1 {above}, {t} {hi_s}, {t} {a}"));
        let nan = self.def(format!("fcmp uno {t} {}, 0.0", v.name));
        let c = self.def(format!("select i1 {nan}, {t} 0.0, {t} {b}"));
        let op = if unsigned { "fptoui" } else { "fptosi" };
        self.def(format!("{op} {t} {c} to {}", ty.name()))
    }

    /// The value as i64 for the checksum: integers extended, floats as bits with NaN replaced by 0.0.
    fn checksum_word(&mut self, v: &Value) -> String {
        match v.ty {
            Ty::I64 => v.name.clone(),
            Ty::I8 | Ty::I16 | Ty::I32 => {
                let op = if self.rng.chance(50) { "sext" } else { "zext" };
                self.def(format!("{op} {} {} to i64", v.ty.name(), v.name))
            }
            Ty::F32 | Ty::F64 => {
                let t = v.ty.name();
                let nan = self.def(format!("fcmp uno {t} {}, {}", v.name, v.name));
                let clean = self.def(format!("select i1 {nan}, {t} 0.0, {t} {}", v.name));
                if v.ty == Ty::F64 {
                    self.def(format!("bitcast double {clean} to i64"))
                } else {
                    let bits = self.def(format!("bitcast float {clean} to i32"));
                    self.def(format!("zext i32 {bits} to i64"))
                }
            }
        }
    }

    /// Folds a value into the checksum.
    fn mix(&mut self, v: &Value) {
        let x = self.checksum_word(v);
        let acc = self.acc.clone();
        let next = if self.rng.chance(50) {
            let m = self.def(format!("mul i64 {acc}, 1099511628211"));
            self.def(format!("xor i64 {m}, {x}"))
        } else {
            // Rotate left by 7, then add.
            let l = self.def(format!("shl i64 {acc}, 7"));
            let r = self.def(format!("lshr i64 {acc}, 57"));
            let rot = self.def(format!("or i64 {l}, {r}"));
            self.def(format!("add i64 {rot}, {x}"))
        };
        self.acc = next;
        self.cost += self.mult;
    }

    fn int_ty(&mut self) -> Ty {
        self.rng.pick(&INT_TYS)
    }

    /// An array index in 0..len from some integer value, as i64 (or i32 sometimes: GEP sign-extends).
    fn index(&mut self, len: u64) -> (String, &'static str) {
        let ty = self.int_ty();
        let x = self.operand(ty);
        let masked = self.def(format!("and {} {x}, {}", ty.name(), len - 1));
        match ty {
            Ty::I64 => (masked, "i64"),
            Ty::I32 if self.rng.chance(50) => (masked, "i32"),
            _ => (self.def(format!("zext {} {masked} to i64", ty.name())), "i64"),
        }
    }

    // ---- statements ----

    fn statement(&mut self) {
        if self.cfg.stackmap_percent > 0 && self.rng.chance(self.cfg.stackmap_percent) {
            return self.stackmap();
        }
        if self.cfg.patchpoint_percent > 0 && self.rng.chance(self.cfg.patchpoint_percent) {
            return self.patchpoint_statement();
        }
        match self.rng.below(20) {
            0..=4 => self.binop(),
            5 => self.division(),
            6 => self.flagged(),
            7 | 8 => self.compare_select(),
            9 => self.bool_logic(),
            10 => self.cast(),
            11 | 12 => self.float_op(),
            13 => self.store(),
            14 | 15 => self.load(),
            16 | 17 => self.call(),
            18 => self.pointer_arith(),
            _ => self.fcmp_select(),
        }
    }

    /// A stack map of up to 16 operands: values in scope (most), constants of every width (some
    /// beyond 32 bits), local arrays' addresses and undef. It computes nothing.
    fn stackmap(&mut self) {
        self.stackmap_with(true)
    }

    /// [`Self::stackmap`]; `sink`: with the volatile store after it (without, the caller places an
    /// instruction of the same block right after it).
    fn stackmap_with(&mut self, sink: bool) {
        let id = self.next_stackmap;
        self.next_stackmap += 1;
        let shadow = self.rng.pick(&[0, 0, 4, 8, 16]);
        let mut operands = String::new();
        for _ in 0..self.rng.below(17) {
            let operand = match self.rng.below(20) {
                0..=13 if !self.vals.is_empty() => {
                    let v = &self.vals[self.rng.below(self.vals.len())];
                    format!("{} {}", v.ty.name(), v.name)
                }
                14..=16 => {
                    let ty = self.rng.pick(&[Ty::I8, Ty::I16, Ty::I32, Ty::I64, Ty::I64]);
                    format!("{} {}", ty.name(), constant(self.rng, ty))
                }
                17 | 18 if self.locals > 0 => {
                    let k = self.arrays.len() - 1 - self.rng.below(self.locals);
                    format!("ptr {}", self.arrays[k].name)
                }
                _ => "i64 undef".to_string(),
            };
            write!(operands, ", {operand}").unwrap();
        }
        self.emit(format!("call void (i64, i32, ...) @llvm.experimental.stackmap(i64 {id}, i32 {shadow}{operands})"));
        if !sink {
            return;
        }
        // llc-19 records a stack map that ends its block at the next block's first instruction, where
        // other paths arrive too; a volatile store keeps an instruction of the same block there.
        if !self.entry.contains("%stackmap.sink = alloca") {
            self.entry.push_str("  %stackmap.sink = alloca i64\n");
        }
        self.emit(format!("store volatile i64 {id}, ptr %stackmap.sink"));
    }

    /// A patch point, alone, right after an ordinary call, or back to back with a stack map or another
    /// patch point (no instruction between them: the stack map's shadow runs into the region, and a
    /// region ends where the next record is).
    fn patchpoint_statement(&mut self) {
        match self.rng.below(6) {
            0 => {
                self.call();
                self.patchpoint();
            }
            1 => {
                self.stackmap_with(false);
                self.patchpoint();
            }
            2 => {
                self.patchpoint();
                self.patchpoint();
            }
            3 => {
                self.patchpoint();
                self.stackmap();
            }
            _ => self.patchpoint(),
        }
    }

    /// A typed operand for a patch point: a value in scope, a constant or an array's address (`ptr`
    /// only when `ptr` is allowed), as "type value".
    fn patchpoint_operand(&mut self, ptr: bool) -> String {
        match self.rng.below(20) {
            0..=14 if !self.vals.is_empty() => {
                let v = &self.vals[self.rng.below(self.vals.len())];
                format!("{} {}", v.ty.name(), v.name)
            }
            15..=17 if ptr => {
                let k = self.rng.below(self.arrays.len());
                format!("ptr {}", self.arrays[k].name)
            }
            _ => {
                let ty = self.rng.pick(&[Ty::I8, Ty::I16, Ty::I32, Ty::I64, Ty::I64, Ty::F32, Ty::F64]);
                format!("{} {}", ty.name(), constant(self.rng, ty))
            }
        }
    }

    /// One `llvm.experimental.patchpoint` call (see [`with_patchpoints`]).
    fn patchpoint(&mut self) {
        let id = self.next_stackmap;
        self.next_stackmap += 1;
        let anyreg = self.rng.chance(30);
        let affordable: Vec<usize> = (0..self.targets.len())
            .filter(|&j| self.cost + self.mult * (self.targets[j].cost + 2) <= self.cfg.max_cost)
            .collect();
        let target = if !anyreg && !affordable.is_empty() && self.rng.chance(50) {
            Some(affordable[self.rng.below(affordable.len())])
        } else {
            None
        };
        let (ret, args, target_name, bytes): (Option<&str>, Vec<String>, String, u64) = match target {
            Some(j) => {
                let targets = self.targets;
                let sig = &targets[j];
                self.cost += self.mult * (sig.cost + 2);
                let args = sig.params.iter().map(|&t| format!("{} {}", t.name(), self.operand(t))).collect();
                (sig.ret.map(Ty::name), args, sig.name.clone(), self.rng.pick(&[16, 16, 20, 24, 32, 40]))
            }
            None => {
                let ret = self.rng.pick(&[
                    None,
                    None,
                    Some("i64"),
                    Some("i64"),
                    Some("i32"),
                    Some("ptr"),
                    Some("float"),
                    Some("double"),
                ]);
                let args = (0..self.rng.below(14)).map(|_| self.patchpoint_operand(true)).collect();
                (ret, args, "null".to_string(), self.rng.pick(&[8, 12, 16, 16, 20, 24, 32, 40]))
            }
        };
        let mut operands = String::new();
        for a in &args {
            write!(operands, ", {a}").unwrap();
        }
        for _ in 0..self.rng.below(41) {
            let live = if self.rng.chance(3) { "i64 undef".to_string() } else { self.patchpoint_operand(true) };
            write!(operands, ", {live}").unwrap();
        }
        let ret_ty = ret.unwrap_or("void");
        let variant = PATCHPOINT_VARIANTS.iter().position(|(t, _)| *t == ret_ty).unwrap();
        self.variants[variant] = true;
        let suffix = PATCHPOINT_VARIANTS[variant].1;
        let cc = if anyreg { "anyregcc " } else { "" };
        let call = format!(
            "call {cc}{ret_ty} (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.{suffix}(i64 {id}, i32 {bytes}, ptr {target_name}, i32 {}{operands})",
            args.len()
        );
        let Some(ret) = ret else {
            return self.emit(call);
        };
        let r = self.def(call);
        match target {
            Some(j) => {
                let ty = self.targets[j].ret.unwrap();
                let v = self.push(ty, r);
                self.mix(&v);
            }
            None => {
                // Whatever the region left in the result register: stored, never used.
                if !self.entry.contains("%patchpoint.sink = alloca") {
                    self.entry.push_str("  %patchpoint.sink = alloca i64, align 8\n");
                }
                self.emit(format!("store volatile {ret} {r}, ptr %patchpoint.sink"));
            }
        }
    }

    /// A patch point target: folds its parameters into a checksum and returns it converted to its
    /// return type (a void one stores it in a global). Returns the text and the cost.
    fn target_function(&mut self, sig: &Signature) -> (String, u64) {
        let params: Vec<String> = sig.params.iter().enumerate().map(|(k, t)| format!("{} %p{k}", t.name())).collect();
        self.acc = self.rng.next_u64().to_string();
        let acc = self.def(format!("add i64 {}, 0", self.acc));
        self.acc = acc;
        for (k, &t) in sig.params.iter().enumerate() {
            self.mix(&Value { ty: t, name: format!("%p{k}") });
        }
        let ret = match sig.ret {
            None => {
                self.emit(format!("store volatile i64 {}, ptr {}.out", self.acc, sig.name));
                "ret void".to_string()
            }
            Some(t) if !t.is_int() => {
                let r = self.def(format!("uitofp i64 {} to {}", self.acc, t.name()));
                format!("ret {} {r}", t.name())
            }
            Some(t) => {
                let acc = Value { ty: Ty::I64, name: self.acc.clone() };
                let r = self.convert(&acc, t);
                format!("ret {} {r}", t.name())
            }
        };
        self.emit(ret);
        // A void target's checksum goes to a global of its own, where nothing reads it.
        let global =
            if sig.ret.is_none() { format!("{}.out = internal global i64 0\n", sig.name) } else { String::new() };
        let body = &self.body;
        let text = format!(
            "{global}define internal {} {}({}) {{\nentry:\n{body}}}\n\n",
            sig.ret.map_or("void", Ty::name),
            sig.name,
            params.join(", "),
        );
        (text, self.cost + 2)
    }

    fn binop(&mut self) {
        let ty = self.int_ty();
        let op = self.rng.pick(&["add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr"]);
        let a = self.operand(ty);
        let mut b = self.operand(ty);
        if matches!(op, "shl" | "lshr" | "ashr") {
            b = self.def(format!("and {} {b}, {}", ty.name(), ty.bits() - 1));
        }
        let r = self.def(format!("{op} {} {a}, {b}", ty.name()));
        let v = self.push(ty, r);
        self.mix(&v);
    }

    fn division(&mut self) {
        let ty = self.int_ty();
        let t = ty.name();
        let op = self.rng.pick(&["sdiv", "udiv", "srem", "urem"]);
        let a = self.operand(ty);
        let b = self.operand(ty);
        let (a, d) = if op.starts_with('s') && self.rng.chance(50) {
            // A positive divisor is never -1.
            let pos = self.def(format!("and {t} {b}, {}", ty.max()));
            (a, self.def(format!("or {t} {pos}, 1")))
        } else if op.starts_with('s') {
            // An ashr'd dividend is never INT_MIN.
            let half = self.def(format!("ashr {t} {a}, 1"));
            (half, self.def(format!("or {t} {b}, 1")))
        } else {
            (a, self.def(format!("or {t} {b}, 1")))
        };
        let r = self.def(format!("{op} {t} {a}, {d}"));
        let v = self.push(ty, r);
        self.mix(&v);
    }

    /// nsw/nuw/exact on operands masked so that the flags hold.
    fn flagged(&mut self) {
        let ty = self.int_ty();
        let t = ty.name();
        let w = ty.bits();
        let a = self.operand(ty);
        let b = self.operand(ty);
        let r = match self.rng.below(6) {
            0 => {
                let m = (1i64 << (w - 2)) - 1;
                let x = self.def(format!("and {t} {a}, {m}"));
                let y = self.def(format!("and {t} {b}, {m}"));
                self.def(format!("add nuw nsw {t} {x}, {y}"))
            }
            1 => {
                let m = (1i64 << (w - 2)) - 1;
                let x = self.def(format!("and {t} {a}, {m}"));
                let x = self.def(format!("or {t} {x}, {}", 1i64 << (w - 2)));
                let y = self.def(format!("and {t} {b}, {m}"));
                self.def(format!("sub nuw nsw {t} {x}, {y}"))
            }
            2 => {
                let m = (1i64 << (w / 2 - 1)) - 1;
                let x = self.def(format!("and {t} {a}, {m}"));
                let y = self.def(format!("and {t} {b}, {m}"));
                self.def(format!("mul nuw nsw {t} {x}, {y}"))
            }
            3 => {
                let m = (1i64 << (w / 2 - 1)) - 1;
                let k = self.rng.range(0, u64::from(w / 2));
                let x = self.def(format!("and {t} {a}, {m}"));
                self.def(format!("shl nuw nsw {t} {x}, {k}"))
            }
            4 => {
                let k = self.rng.range(1, u64::from(w - 1));
                let x = self.def(format!("shl {t} {a}, {k}"));
                let op = self.rng.pick(&["lshr exact", "ashr exact"]);
                self.def(format!("{op} {t} {x}, {k}"))
            }
            _ => {
                let k = self.rng.range(0, u64::from(w - 2));
                let x = self.def(format!("and {t} {a}, {}", -(1i64 << k)));
                let op = self.rng.pick(&["udiv exact", "sdiv exact"]);
                self.def(format!("{op} {t} {x}, {}", 1i64 << k))
            }
        };
        let v = self.push(ty, r);
        self.mix(&v);
    }

    fn compare_select(&mut self) {
        let ty = self.int_ty();
        let pred = self.rng.pick(&ICMP);
        let a = self.operand(ty);
        let b = self.operand(ty);
        let c = self.def(format!("icmp {pred} {} {a}, {b}", ty.name()));
        let sty = self.rng.pick(&[Ty::I8, Ty::I16, Ty::I32, Ty::I64, Ty::F64]);
        let x = self.operand(sty);
        let y = self.operand(sty);
        let r = self.def(format!("select i1 {c}, {0} {x}, {0} {y}", sty.name()));
        let v = self.push(sty, r);
        self.mix(&v);
    }

    fn fcmp_select(&mut self) {
        let ty = self.rng.pick(&FLOAT_TYS);
        let pred = self.rng.pick(&FCMP);
        let a = self.operand(ty);
        let b = self.operand(ty);
        let c = self.def(format!("fcmp {pred} {} {a}, {b}", ty.name()));
        let sty = self.int_ty();
        let x = self.operand(sty);
        let y = self.operand(sty);
        let r = self.def(format!("select i1 {c}, {0} {x}, {0} {y}", sty.name()));
        let v = self.push(sty, r);
        self.mix(&v);
    }

    fn bool_logic(&mut self) {
        let mut bits = Vec::new();
        for _ in 0..2 {
            let ty = self.int_ty();
            let pred = self.rng.pick(&ICMP);
            let a = self.operand(ty);
            let b = self.operand(ty);
            bits.push(self.def(format!("icmp {pred} {} {a}, {b}", ty.name())));
        }
        let op = self.rng.pick(&["and", "or", "xor"]);
        let mut r = self.def(format!("{op} i1 {}, {}", bits[0], bits[1]));
        if self.rng.chance(30) {
            r = self.def(format!("xor i1 {r}, true"));
        }
        let ty = self.int_ty();
        let ext = self.rng.pick(&["zext", "sext"]);
        let e = self.def(format!("{ext} i1 {r} to {}", ty.name()));
        let v = self.push(ty, e);
        self.mix(&v);
    }

    fn cast(&mut self) {
        let from = self.int_ty();
        let to = self.int_ty();
        let x = self.operand(from);
        let v = Value { ty: from, name: x };
        let r = self.convert(&v, to);
        let v = self.push(to, r);
        self.mix(&v);
    }

    fn float_op(&mut self) {
        let ty = self.rng.pick(&FLOAT_TYS);
        let t = ty.name();
        let a = self.operand(ty);
        let r = if self.rng.chance(15) {
            self.def(format!("fneg {t} {a}"))
        } else {
            let op = self.rng.pick(&["fadd", "fsub", "fmul", "fdiv", "frem"]);
            let b = self.operand(ty);
            self.def(format!("{op} {t} {a}, {b}"))
        };
        let v = self.push(ty, r);
        if self.rng.chance(50) {
            let ity = self.int_ty();
            let i = self.float_to_int(&v, ity);
            let iv = self.push(ity, i);
            self.mix(&iv);
        } else {
            self.mix(&v);
        }
    }

    fn pick_array(&mut self) -> Array {
        let k = self.rng.below(self.arrays.len());
        self.arrays[k].clone()
    }

    fn element_ptr(&mut self, arr: &Array) -> String {
        let (ix, ixt) = self.index(arr.len);
        let zero = if ixt == "i32" { "i32 0" } else { "i64 0" };
        self.def(format!(
            "getelementptr inbounds [{} x {}], ptr {}, {zero}, {ixt} {ix}",
            arr.len,
            arr.elem.name(),
            arr.name
        ))
    }

    fn store(&mut self) {
        let arr = self.pick_array();
        let p = self.element_ptr(&arr);
        let x = self.operand(arr.elem);
        let vol = if self.rng.chance(15) { "volatile " } else { "" };
        self.emit(format!("store {vol}{} {x}, ptr {p}, align {}", arr.elem.name(), arr.elem.bytes()));
        self.cost += self.mult;
    }

    fn load(&mut self) {
        let arr = self.pick_array();
        let p = self.element_ptr(&arr);
        let vol = if self.rng.chance(15) { "volatile " } else { "" };
        let r = self.def(format!("load {vol}{0}, ptr {p}", arr.elem.name()));
        let v = self.push(arr.elem, r);
        self.mix(&v);
    }

    /// Byte distance between two elements of one array, through ptrtoint; and a round trip of an
    /// element address through inttoptr.
    fn pointer_arith(&mut self) {
        let arr = self.pick_array();
        let p = self.element_ptr(&arr);
        let base = self.def(format!("ptrtoint ptr {} to i64", arr.name));
        let pi = self.def(format!("ptrtoint ptr {p} to i64"));
        let d = self.def(format!("sub i64 {pi}, {base}"));
        let v = self.push(Ty::I64, d);
        self.mix(&v);
        if self.rng.chance(50) {
            let q = self.def(format!("inttoptr i64 {pi} to ptr"));
            let r = self.def(format!("load {}, ptr {q}", arr.elem.name()));
            let v = self.push(arr.elem, r);
            self.mix(&v);
        } else {
            let n = self.def(format!("icmp eq ptr {p}, null"));
            let z = self.def(format!("zext i1 {n} to i32"));
            let v = self.push(Ty::I32, z);
            self.mix(&v);
        }
    }

    fn call(&mut self) {
        let budget = self.cfg.max_cost;
        let affordable: Vec<usize> =
            (0..self.callees.len()).filter(|&j| self.cost + self.mult * (self.callees[j].cost + 2) <= budget).collect();
        if affordable.is_empty() {
            return self.binop();
        }
        // Prefer recent functions, so that call chains get deep.
        let j = affordable[affordable.len() - 1 - self.rng.below(affordable.len().min(4))];
        let callees = self.callees;
        let sig = &callees[j];
        let args: Vec<String> = sig.params.iter().map(|&t| format!("{} {}", t.name(), self.operand(t))).collect();
        let args = args.join(", ");
        let ret = sig.ret.map_or("void", Ty::name);
        let target = if self.rng.chance(25) {
            let slot = match &self.fn_slot {
                Some(s) => s.clone(),
                None => {
                    let s = self.fresh();
                    writeln!(self.entry, "  {s} = alloca ptr, align 8").unwrap();
                    self.fn_slot = Some(s.clone());
                    s
                }
            };
            self.emit(format!("store ptr {}, ptr {slot}", sig.name));
            self.def(format!("load ptr, ptr {slot}"))
        } else {
            sig.name.clone()
        };
        // `tail` is a hint that holds here: no callee ever receives a pointer to this frame.
        let tail = if self.rng.chance(30) { "tail " } else { "" };
        self.cost += self.mult * (sig.cost + 2);
        match sig.ret {
            None => self.emit(format!("{tail}call void {target}({args})")),
            Some(t) => {
                let r = self.def(format!("{tail}call {ret} {target}({args})"));
                let v = self.push(t, r);
                self.mix(&v);
            }
        }
    }

    // ---- control flow ----

    fn region(&mut self, nesting: usize, statements: usize) {
        for _ in 0..statements {
            let budget_left = self.cost < self.cfg.max_cost / 2;
            if nesting < self.cfg.max_nesting && budget_left && self.rng.chance(18) {
                match self.rng.below(3) {
                    0 => self.if_else(nesting + 1),
                    1 => self.switch(nesting + 1),
                    _ if self.loop_depth < self.cfg.max_loop_depth => self.counted_loop(nesting + 1),
                    _ => self.if_else(nesting + 1),
                }
            } else {
                self.statement();
            }
        }
    }

    fn inner_statements(&mut self) -> usize {
        1 + self.rng.below(self.cfg.statements_per_block.max(1))
    }

    /// A diamond (or a triangle without else) whose join has a phi for the checksum and one for a
    /// value each arm computes.
    fn if_else(&mut self, nesting: usize) {
        let ty = self.int_ty();
        let pred = self.rng.pick(&ICMP);
        let a = self.operand(ty);
        let b = self.operand(ty);
        let c = self.def(format!("icmp {pred} {} {a}, {b}", ty.name()));
        let then_b = self.fresh_block("then");
        let else_b = self.fresh_block("else");
        let join = self.fresh_block("join");
        let has_else = self.rng.chance(70);
        let pre_block = self.block.clone();
        let acc0 = self.acc.clone();
        let vty = self.rng.pick(&[Ty::I8, Ty::I16, Ty::I32, Ty::I64, Ty::F64]);
        // The triangle's value from the condition block must exist before the branch.
        let v_pre = if has_else { String::new() } else { self.operand(vty) };
        let false_target = if has_else { &else_b } else { &join };
        self.emit(format!("br i1 {c}, label %{then_b}, label %{false_target}"));

        let mut incoming = Vec::new();
        let mut values = Vec::new();
        for (label, is_then) in [(then_b, true), (else_b, false)] {
            if !is_then && !has_else {
                break;
            }
            self.start_block(&label);
            let saved = self.vals.len();
            self.acc = acc0.clone();
            let n = self.inner_statements();
            self.region(nesting, n);
            let v = self.operand(vty);
            self.emit(format!("br label %{join}"));
            incoming.push((self.acc.clone(), self.block.clone()));
            values.push(v);
            self.vals.truncate(saved);
        }
        if !has_else {
            incoming.push((acc0, pre_block.clone()));
            values.push(v_pre);
        }
        self.start_block(&join);
        let acc_in: Vec<String> = incoming.iter().map(|(v, b)| format!("[ {v}, %{b} ]")).collect();
        self.acc = self.def(format!("phi i64 {}", acc_in.join(", ")));
        let v_in: Vec<String> = values.iter().zip(&incoming).map(|(v, (_, b))| format!("[ {v}, %{b} ]")).collect();
        let r = self.def(format!("phi {} {}", vty.name(), v_in.join(", ")));
        let v = self.push(vty, r);
        self.mix(&v);
    }

    /// A switch with a default region, case regions (some sharing a target), and cases that jump to
    /// the join directly, so the join's phis list the switch block once per such edge.
    fn switch(&mut self, nesting: usize) {
        let ty = self.int_ty();
        let t = ty.name();
        let x = self.operand(ty);
        let mask: u64 = if self.rng.chance(50) { 7 } else { 15 };
        let sel = self.def(format!("and {t} {x}, {mask}"));
        let regions = 1 + self.rng.below(3);
        let labels: Vec<String> = (0..regions).map(|_| self.fresh_block("case")).collect();
        let default = self.fresh_block("default");
        let join = self.fresh_block("endswitch");
        let vty = self.rng.pick(&[Ty::I8, Ty::I16, Ty::I32, Ty::I64]);
        let direct_value = self.operand(vty);
        let switch_block = self.block.clone();
        let acc0 = self.acc.clone();

        let mut values: Vec<u64> = (0..=mask).collect();
        let ncases = 1 + self.rng.below(values.len().min(8));
        let mut cases = Vec::new();
        let mut direct = 0;
        for _ in 0..ncases {
            let v = values.swap_remove(self.rng.below(values.len()));
            let target = if self.rng.chance(20) {
                direct += 1;
                join.clone()
            } else {
                labels[self.rng.below(regions)].clone()
            };
            cases.push(format!("    {t} {v}, label %{target}"));
        }
        self.emit(format!("switch {t} {sel}, label %{default} [\n{}\n  ]", cases.join("\n")));

        let mut incoming = Vec::new();
        let mut vals_in = Vec::new();
        // A case label no case picked is still emitted: unreachable blocks are valid IR.
        for label in labels.iter().chain(std::iter::once(&default)) {
            self.start_block(label);
            let saved = self.vals.len();
            self.acc = acc0.clone();
            let n = self.inner_statements();
            self.region(nesting, n);
            let v = self.operand(vty);
            self.emit(format!("br label %{join}"));
            incoming.push(format!("[ {}, %{} ]", self.acc, self.block));
            vals_in.push(format!("[ {v}, %{} ]", self.block));
            self.vals.truncate(saved);
        }
        for _ in 0..direct {
            incoming.push(format!("[ {acc0}, %{switch_block} ]"));
            vals_in.push(format!("[ {direct_value}, %{switch_block} ]"));
        }
        self.start_block(&join);
        self.acc = self.def(format!("phi i64 {}", incoming.join(", ")));
        let r = self.def(format!("phi {} {}", vty.name(), vals_in.join(", ")));
        let v = self.push(vty, r);
        self.mix(&v);
    }

    /// A loop with a constant trip count, an induction phi, the checksum phi and one more
    /// loop-carried value.
    fn counted_loop(&mut self, nesting: usize) {
        let trip = self.rng.range(1, self.cfg.max_trip_count.max(1));
        let cty = self.rng.pick(&[Ty::I8, Ty::I16, Ty::I32, Ty::I64, Ty::F64]);
        let carry_init = self.operand(cty);
        let header = self.open_loop("loop", "endloop");
        let i = header.index.clone();
        let carry = self.fresh();
        self.push(Ty::I32, i.clone());
        self.push(cty, carry.clone());

        self.loop_depth += 1;
        let outer_mult = self.mult;
        self.mult *= trip;
        let n = self.inner_statements();
        self.region(nesting, n);
        let step = self.operand(cty);
        let carry_next = if cty.is_int() {
            let op = self.rng.pick(&["add", "sub", "xor", "mul", "or"]);
            self.def(format!("{op} {} {carry}, {step}", cty.name()))
        } else {
            let op = self.rng.pick(&["fadd", "fsub", "fmul"]);
            self.def(format!("{op} double {carry}, {step}"))
        };
        let cv = self.push(cty, carry_next.clone());
        self.mix(&cv);
        let i_next = self.def(format!("add nuw nsw i32 {i}, 1"));
        let cond = match self.rng.below(3) {
            0 => format!("icmp slt i32 {i_next}, {trip}"),
            1 => format!("icmp ult i32 {i_next}, {trip}"),
            _ => format!("icmp ne i32 {i_next}, {trip}"),
        };
        let cont = self.def(cond);
        self.emit(format!("br i1 {cont}, label %{}, label %{}", header.head, header.exit));
        self.mult = outer_mult;
        self.loop_depth -= 1;
        let (pre, latch) = (&header.pre, self.block.clone());
        let carry_phi =
            format!("  {carry} = phi {} [ {carry_init}, %{pre} ], [ {carry_next}, %{latch} ]\n", cty.name());
        self.close_loop(header, "i32", &i_next, &carry_phi);
    }

    /// Ends the current block with a branch into a new loop header and starts the header, with an
    /// induction variable and the checksum's phi to come (`self.acc` becomes the latter).
    fn open_loop(&mut self, head: &str, exit: &str) -> LoopHeader {
        let pre = self.block.clone();
        let acc0 = self.acc.clone();
        let head = self.fresh_block(head);
        let exit = self.fresh_block(exit);
        self.emit(format!("br label %{head}"));
        self.start_block(&head);
        // The header's phis name values from the latch, which is only known after the body.
        let phi_pos = self.body.len();
        let index = self.fresh();
        let acc_phi = self.fresh();
        self.acc = acc_phi.clone();
        LoopHeader { pre, acc0, head, exit, phi_pos, index, acc_phi }
    }

    /// Writes the header's phis, the current block being the latch (after its branch): the induction
    /// variable of type `index_ty` from 0 to `index_next`, the checksum, and `extra_phis`. Then starts
    /// the exit block: everything still in scope dominates the latch, the exit's only predecessor.
    fn close_loop(&mut self, header: LoopHeader, index_ty: &str, index_next: &str, extra_phis: &str) {
        let LoopHeader { pre, acc0, exit, phi_pos, index, acc_phi, .. } = header;
        let latch = self.block.clone();
        let phis = format!(
            "  {index} = phi {index_ty} [ 0, %{pre} ], [ {index_next}, %{latch} ]\n  {acc_phi} = phi i64 [ {acc0}, %{pre} ], [ {}, %{latch} ]\n{extra_phis}",
            self.acc
        );
        self.body.insert_str(phi_pos, &phis);
        self.start_block(&exit);
    }

    /// The whole function: returns its text and its estimated cost.
    fn function(&mut self, sig: &Signature, linkage: &str) -> (String, u64) {
        let params: Vec<String> = sig.params.iter().enumerate().map(|(k, t)| format!("{} %p{k}", t.name())).collect();
        for (k, &t) in sig.params.iter().enumerate() {
            self.vals.push(Value { ty: t, name: format!("%p{k}") });
        }
        // A local array or two, fully initialised in the entry block.
        for _ in 0..self.rng.range(1, 2) {
            let elem = self.rng.pick(&[Ty::I8, Ty::I16, Ty::I32, Ty::I64, Ty::F64, Ty::F32]);
            let len = 1u64 << self.rng.range(1, 3);
            let name = self.fresh();
            let align = if self.rng.chance(30) { 16 } else { elem.bytes() };
            writeln!(self.entry, "  {name} = alloca [{len} x {}], align {align}", elem.name()).unwrap();
            for k in 0..len {
                let p = self.fresh();
                writeln!(
                    self.entry,
                    "  {p} = getelementptr inbounds [{len} x {0}], ptr {name}, i64 0, i64 {k}\n  store {0} {1}, ptr {p}",
                    elem.name(),
                    constant(self.rng, elem)
                )
                .unwrap();
            }
            self.arrays.push(Array { name, elem, len });
            self.locals += 1;
        }
        self.acc = self.rng.next_u64().to_string();
        let acc = self.def(format!("add i64 {}, 0", self.acc));
        self.acc = acc;
        for k in 0..sig.params.len() {
            let v = self.vals[k].clone();
            self.mix(&v);
        }
        let n = self.cfg.statements_per_block.max(1);
        self.region(0, n);
        let ret = match sig.ret {
            None => {
                // A void function leaves its checksum in a global array (a local one if there are none,
                // where it is dead but still valid).
                let globals = self.arrays.len() - self.locals;
                let k = if globals > 0 { self.rng.below(globals) } else { self.rng.below(self.arrays.len()) };
                let arr = self.arrays[k].clone();
                let acc = Value { ty: Ty::I64, name: self.acc.clone() };
                let x = self.convert(&acc, arr.elem);
                let p = self.element_ptr(&arr);
                self.emit(format!("store {} {x}, ptr {p}", arr.elem.name()));
                "ret void".to_string()
            }
            Some(t) => {
                let acc = Value { ty: Ty::I64, name: self.acc.clone() };
                let r = if t == Ty::F64 {
                    // uitofp never makes a NaN, so the caller's bits are the same on every target.
                    self.def(format!("uitofp i64 {} to double", acc.name))
                } else {
                    self.convert(&acc, t)
                };
                format!("ret {} {r}", t.name())
            }
        };
        self.emit(ret);
        let text = format!(
            "define {linkage}{} {}({}) {{\nentry:\n{}{}}}\n\n",
            sig.ret.map_or("void", Ty::name),
            sig.name,
            params.join(", "),
            self.entry,
            self.body
        );
        (text, self.cost)
    }
}

/// `main`: calls every function with arguments derived from a running checksum, folds in every global
/// array element, prints the checksum and returns its low 7 bits.
fn main_function(rng: &mut Rng, cfg: &GeneratorConfig, sigs: &[Signature], globals: &[Array]) -> String {
    let mut f = FnGen::new(rng, cfg, sigs, globals, &[]);
    f.acc = f.rng.next_u64().to_string();
    let acc = f.def(format!("add i64 {}, 0", f.acc));
    f.acc = acc;
    for sig in sigs {
        let args: Vec<String> = sig
            .params
            .iter()
            .map(|&t| {
                let acc = Value { ty: Ty::I64, name: f.acc.clone() };
                format!("{} {}", t.name(), f.convert(&acc, t))
            })
            .collect();
        let args = args.join(", ");
        match sig.ret {
            None => f.emit(format!("call void {}({args})", sig.name)),
            Some(t) => {
                let r = f.def(format!("call {} {}({args})", t.name(), sig.name));
                f.mix(&Value { ty: t, name: r });
            }
        }
    }
    for g in globals {
        let header = f.open_loop("fold", "folded");
        let i = header.index.clone();
        let p =
            f.def(format!("getelementptr inbounds [{} x {}], ptr {}, i64 0, i64 {i}", g.len, g.elem.name(), g.name));
        let x = f.def(format!("load {}, ptr {p}", g.elem.name()));
        f.mix(&Value { ty: g.elem, name: x });
        let i_next = f.def(format!("add i64 {i}, 1"));
        let more = f.def(format!("icmp ult i64 {i_next}, {}", g.len));
        f.emit(format!("br i1 {more}, label %{}, label %{}", header.head, header.exit));
        f.close_loop(header, "i64", &i_next, "");
    }
    let acc = f.acc.clone();
    f.emit(format!("call void @print_u64(i64 {acc})"));
    f.emit("call i32 @putchar(i32 10)".into());
    let low = f.def(format!("and i64 {acc}, 127"));
    let status = f.def(format!("trunc i64 {low} to i32"));
    f.emit(format!("ret i32 {status}"));
    format!("define i32 @main() {{\nentry:\n{}}}\n", f.body)
}

/// A patch point call as written in a program's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchPointSite {
    pub id: u64,
    pub bytes: u64,
    /// `None` for a null target, else the target function's name without `@`.
    pub target: Option<String>,
    pub nargs: usize,
    pub anyreg: bool,
    /// The result type as written (`void`, `i64`, `i32`, `ptr`, `float`, `double`).
    pub ret: String,
}

/// The patch point calls of a program's text (one per line, as the generator writes them).
pub fn patchpoint_sites(text: &str) -> Vec<PatchPointSite> {
    text.lines()
        .filter_map(|line| {
            let (head, rest) = line.split_once("@llvm.experimental.patchpoint.")?;
            let call = head.split_once("call ")?.1;
            let anyreg = call.starts_with("anyregcc ");
            let ret = call.trim_start_matches("anyregcc ").split(' ').next()?.to_string();
            let args = rest.split_once('(')?.1;
            let mut fields = args.split(", ");
            let id = fields.next()?.strip_prefix("i64 ")?.parse().ok()?;
            let bytes = fields.next()?.strip_prefix("i32 ")?.parse().ok()?;
            let target = fields.next()?.strip_prefix("ptr ")?;
            let target = (target != "null").then(|| target.trim_start_matches('@').to_string());
            let nargs = fields.next()?.strip_prefix("i32 ")?.trim_end_matches(')').parse().ok()?;
            Some(PatchPointSite { id, bytes, target, nargs, anyreg, ret })
        })
        .collect()
}
