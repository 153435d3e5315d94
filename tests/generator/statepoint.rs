//! Random statepoint programs (issue 12), for the differential test against llc-19
//! (`tests/statepoints/llc.rs`).
//!
//! `program(seed)` returns a complete module: a static heap `@heap` (32 objects of 64 bytes), functions
//! with `gc "statepoint-example"` that take GC pointers (`ptr addrspace(1)`) into it, and a `main` that
//! passes them pointers to heap objects (`addrspacecast`), prints a decimal checksum with `putchar` and
//! returns `checksum & 0x7f`. The GC functions:
//!
//! - derive pointers from their GC pointers (`getelementptr` with constant offsets, small ones that
//!   llc-19's CodeGenPrepare rewrites at -O2, large and negative ones that it does not, and GEPs of
//!   derived pointers), load through them, store to the heap, and fold pointer offsets from `@heap`
//!   into the checksum (so a wrong relocation changes the output too);
//! - make statepoints: to ordinary functions returning i64, i32, double or nothing (`gc.result` of the
//!   first three), one `fastcc` target, and GC functions defined earlier (nested statepoints); with
//!   "deopt" values of several types (i64, i32, i8, i1, double, float values, and constants of each kind:
//!   small, large, negative, FP, undef, poison, null, a global's address, GC pointers), "gc-live"
//!   subsets in random order (with `null` and duplicate entries now and then), relocates of some of them
//!   in random order right after the statepoint in its block (as RewriteStatepointsForGC places them),
//!   some of which are never used; a few statepoints have NUMPATCHBYTES > 0 (no call is made) or FLAGS
//!   = 2 (deopt values live in);
//! - have counted loops and if/else diamonds whose bodies contain statepoints; pointers live across a
//!   loop or a diamond flow through phis, and every statepoint inside relocates them;
//! - after a statepoint use only the relocated values (a pointer that is not relocated is dead).
//!
//! Statepoint IDs are unique in a program (1000, 1001, ...). A seed always gives the same text.
#![allow(dead_code)]

use std::collections::HashSet;
use std::fmt::Write;

use super::{Rng, PRINT_U64};

/// Size knobs for [`program_with`].
#[derive(Clone, Debug)]
pub struct StatepointConfig {
    /// GC functions besides `main`.
    pub functions: usize,
    /// Statements per region.
    pub statements: usize,
    /// How deeply loops and diamonds nest.
    pub max_nesting: usize,
    /// Largest loop trip count.
    pub max_trip_count: u64,
    /// Estimated statepoint executions one call of a GC function may make (nested ones included).
    pub max_hits: u64,
}

impl Default for StatepointConfig {
    fn default() -> Self {
        StatepointConfig { functions: 4, statements: 7, max_nesting: 2, max_trip_count: 4, max_hits: 60 }
    }
}

/// Objects in the heap, 64 bytes (8 x i64) each.
const OBJECTS: u64 = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum T {
    I1,
    I8,
    I32,
    I64,
    F32,
    F64,
    Gc,
}

impl T {
    fn name(self) -> &'static str {
        match self {
            T::I1 => "i1",
            T::I8 => "i8",
            T::I32 => "i32",
            T::I64 => "i64",
            T::F32 => "float",
            T::F64 => "double",
            T::Gc => "ptr addrspace(1)",
        }
    }
    fn result_suffix(self) -> &'static str {
        match self {
            T::I32 => "i32",
            T::I64 => "i64",
            T::F64 => "f64",
            _ => unreachable!("no gc.result of {self:?}"),
        }
    }
}

/// A statepoint target.
#[derive(Clone, Debug)]
struct Callee {
    name: String,
    params: Vec<T>,
    ret: Option<T>,
    fastcc: bool,
    /// Estimated statepoint executions of one call.
    hits: u64,
}

impl Callee {
    fn fn_type(&self) -> String {
        let params: Vec<&str> = self.params.iter().map(|t| t.name()).collect();
        format!("{} ({})", self.ret.map_or("void", T::name), params.join(", "))
    }
}

/// The ordinary (non-GC) statepoint targets, defined by [`TARGETS`].
fn ordinary_callees() -> Vec<Callee> {
    let c = |name: &str, params: &[T], ret: Option<T>, fastcc: bool| Callee {
        name: name.into(),
        params: params.to_vec(),
        ret,
        fastcc,
        hits: 0,
    };
    vec![
        c("@t_add", &[T::I64, T::I32], Some(T::I64), false),
        c("@t_xor", &[T::I32], Some(T::I32), false),
        c("@t_fadd", &[T::F64, T::I64], Some(T::F64), false),
        c("@t_nop", &[], None, false),
        c("@t_load", &[T::Gc], Some(T::I64), false),
        c("@t_store", &[T::I64], None, false),
        c("@t_fast", &[T::I64], Some(T::I64), true),
    ]
}

const TARGETS: &str = "\
@sink = global i64 0

define internal i64 @t_add(i64 %a, i32 %b) {
entry:
  %e = sext i32 %b to i64
  %m = mul i64 %a, 3
  %r = add i64 %m, %e
  ret i64 %r
}

define internal i32 @t_xor(i32 %a) {
entry:
  %r = xor i32 %a, 85
  ret i32 %r
}

define internal double @t_fadd(double %a, i64 %b) {
entry:
  %f = sitofp i64 %b to double
  %r = fadd double %a, %f
  ret double %r
}

define internal void @t_nop() {
entry:
  ret void
}

define internal i64 @t_load(ptr addrspace(1) %p) {
entry:
  %v = load i64, ptr addrspace(1) %p
  %r = add i64 %v, 1
  ret i64 %r
}

define internal void @t_store(i64 %a) {
entry:
  store i64 %a, ptr @sink
  ret void
}

define internal fastcc i64 @t_fast(i64 %a) {
entry:
  %r = mul i64 %a, 5
  ret i64 %r
}

";

const DECLARATIONS: &str = "\
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare i64 @llvm.experimental.gc.result.i64(token)
declare i32 @llvm.experimental.gc.result.i32(token)
declare double @llvm.experimental.gc.result.f64(token)
declare i32 @putchar(i32)

";

/// A runnable statepoint program from `seed` with the default configuration.
pub fn program(seed: u64) -> String {
    program_with(seed, &StatepointConfig::default())
}

/// A runnable statepoint program from `seed`.
pub fn program_with(seed: u64, config: &StatepointConfig) -> String {
    let mut rng = Rng::new(seed ^ 0x57A7_E901_4700_0000);
    let mut out = String::new();
    writeln!(out, "; generated by tests/generator/statepoint.rs, seed {seed}, {config:?}").unwrap();
    writeln!(out, "source_filename = \"statepoints_{seed}.ll\"\n").unwrap();
    let words: Vec<String> =
        (0..OBJECTS * 8).map(|i| format!("i64 {}", (rng.next_u64() >> 20) as i64 - (i as i64) * 3)).collect();
    writeln!(out, "@heap = global [{} x i64] [{}], align 8\n", OBJECTS * 8, words.join(", ")).unwrap();
    out.push_str(DECLARATIONS);
    out.push_str(PRINT_U64);
    out.push_str(TARGETS);
    let mut callees = ordinary_callees();
    let mut next_id = 1000;
    let mut gc_functions = Vec::new();
    for k in 0..config.functions {
        let nptrs = 1 + rng.below(3);
        let mut params = vec![T::Gc; nptrs];
        params.extend([T::I64, T::I32, T::I8, T::F64]);
        let sig = Callee { name: format!("@s{k}"), params, ret: Some(T::I64), fastcc: false, hits: 0 };
        let mut f = FnGen::new(&mut rng, config, &callees, &mut next_id);
        let text = f.function(&sig);
        let hits = f.hits;
        out.push_str(&text);
        let sig = Callee { hits, ..sig };
        callees.push(sig.clone());
        gc_functions.push(sig);
    }
    out.push_str(&main_function(&mut rng, &gc_functions));
    out
}

fn main_function(rng: &mut Rng, functions: &[Callee]) -> String {
    let mut body = String::new();
    let mut n = 0;
    let mut acc = "0".to_string();
    for f in functions {
        let mut args = Vec::new();
        for &t in &f.params {
            match t {
                T::Gc => {
                    let object = rng.below(OBJECTS as usize) as u64;
                    writeln!(body, "  %o{n} = getelementptr i8, ptr @heap, i64 {}", object * 64).unwrap();
                    writeln!(body, "  %q{n} = addrspacecast ptr %o{n} to ptr addrspace(1)").unwrap();
                    args.push(format!("ptr addrspace(1) %q{n}"));
                    n += 1;
                }
                T::I64 => args.push(format!("i64 {}", rng.next_u64() as i64 >> rng.range(1, 40))),
                T::I32 => args.push(format!("i32 {}", rng.next_u64() as i32 >> rng.range(0, 20))),
                T::I8 => args.push(format!("i8 {}", rng.next_u64() as i8)),
                T::F64 => args.push(format!("double {}.{}", rng.below(2000) as i64 - 1000, rng.below(100))),
                _ => unreachable!(),
            }
        }
        writeln!(body, "  %r{n} = call i64 {}({})", f.name, args.join(", ")).unwrap();
        writeln!(body, "  %a{n} = add i64 {acc}, %r{n}").unwrap();
        acc = format!("%a{n}");
        n += 1;
    }
    format!(
        "define i32 @main() {{\nentry:\n{body}  call void @print_u64(i64 {acc})\n  call i32 @putchar(i32 10)\n  \
         %low = and i64 {acc}, 127\n  %status = trunc i64 %low to i32\n  ret i32 %status\n}}\n"
    )
}

/// A GC pointer in scope.
#[derive(Clone, Debug)]
struct GcPtr {
    name: String,
    /// The heap object lineage (a base and the pointers derived from it share it).
    object: usize,
    /// Whether this is the object's base pointer.
    base: bool,
    /// Byte offset from the object's start (0 for bases).
    offset: i64,
    /// Live across the enclosing loop or diamond: every statepoint relocates it.
    pinned: bool,
    /// A derived pointer whose base is dead: usable until the next statepoint, never relocated.
    orphan: bool,
}

struct FnGen<'a> {
    rng: &'a mut Rng,
    config: &'a StatepointConfig,
    callees: &'a [Callee],
    next_id: &'a mut u64,
    body: String,
    next: usize,
    block: String,
    scalars: Vec<(T, String)>,
    ptrs: Vec<GcPtr>,
    objects: usize,
    acc: String,
    depth: usize,
    mult: u64,
    hits: u64,
    /// The next statepoint must be made (budget reserved by the caller, ordinary targets only).
    forced: bool,
}

impl<'a> FnGen<'a> {
    fn new(rng: &'a mut Rng, config: &'a StatepointConfig, callees: &'a [Callee], next_id: &'a mut u64) -> Self {
        FnGen {
            rng,
            config,
            callees,
            next_id,
            body: String::new(),
            next: 0,
            block: "entry".into(),
            scalars: Vec::new(),
            ptrs: Vec::new(),
            objects: 0,
            acc: String::new(),
            depth: 0,
            mult: 1,
            hits: 0,
            forced: false,
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("%{prefix}{}", self.next)
    }

    fn emit(&mut self, line: &str) {
        self.body.push_str("  ");
        self.body.push_str(line);
        self.body.push('\n');
    }

    /// Emits `%name = rhs` and returns the name.
    fn def(&mut self, prefix: &str, rhs: &str) -> String {
        let name = self.fresh(prefix);
        self.emit(&format!("{name} = {rhs}"));
        name
    }

    fn label(&mut self, name: &str) {
        writeln!(self.body, "{name}:").unwrap();
        self.block = name.to_string();
    }

    fn function(&mut self, sig: &Callee) -> String {
        let mut params = Vec::new();
        for (i, &t) in sig.params.iter().enumerate() {
            let name = format!("%arg{i}");
            params.push(format!("{} {name}", t.name()));
            if t == T::Gc {
                self.ptrs.push(GcPtr {
                    name,
                    object: self.objects,
                    base: true,
                    offset: 0,
                    pinned: false,
                    orphan: false,
                });
                self.objects += 1;
            } else {
                self.scalars.push((t, name));
            }
        }
        let x = self.scalars.iter().find(|s| s.0 == T::I64).unwrap().1.clone();
        let salt = self.rng.next_u64() as i32;
        self.acc = self.def("acc", &format!("add i64 {x}, {salt}"));
        self.emit("%heapbase = ptrtoint ptr @heap to i64");
        self.region(self.config.statements);
        // Every pointer still in scope reaches the checksum through its offset into the heap.
        for p in self.ptrs.clone() {
            self.fold_pointer(&p.name);
        }
        let acc = self.acc.clone();
        self.emit(&format!("ret i64 {acc}"));
        format!(
            "define internal i64 {}({}) gc \"statepoint-example\" {{\nentry:\n{}}}\n\n",
            sig.name,
            params.join(", "),
            self.body
        )
    }

    fn region(&mut self, statements: usize) {
        for _ in 0..statements {
            let roll = self.rng.below(100);
            match roll {
                0..=24 => self.arith(),
                25..=31 => self.fold_scalar(),
                32..=39 => self.load(),
                40..=51 => self.derive(),
                52..=54 => self.store(),
                55..=57 => {
                    if let Some(p) = self.pick_ptr() {
                        self.fold_pointer(&p);
                    }
                }
                58..=87 => self.statepoint(),
                88..=93 if self.depth < self.config.max_nesting => self.diamond(),
                94..=99 if self.depth < self.config.max_nesting => self.counted_loop(),
                _ => self.arith(),
            }
        }
    }

    fn pick_ptr(&mut self) -> Option<String> {
        if self.ptrs.is_empty() {
            None
        } else {
            let i = self.rng.below(self.ptrs.len());
            Some(self.ptrs[i].name.clone())
        }
    }

    fn scalar(&mut self, t: T) -> String {
        let candidates: Vec<String> = self.scalars.iter().filter(|s| s.0 == t).map(|s| s.1.clone()).collect();
        if !candidates.is_empty() && self.rng.chance(80) {
            return candidates[self.rng.below(candidates.len())].clone();
        }
        let acc = self.acc.clone();
        let v = match t {
            T::I64 => {
                let rhs = format!("xor i64 {acc}, {}", self.rng.below(1000) + 1);
                self.def("v", &rhs)
            }
            T::I32 => self.def("v", &format!("trunc i64 {acc} to i32")),
            T::I8 => self.def("v", &format!("trunc i64 {acc} to i8")),
            T::I1 => self.def("v", &format!("trunc i64 {acc} to i1")),
            T::F64 => self.def("v", &format!("sitofp i64 {acc} to double")),
            T::F32 => {
                let d = self.scalar(T::F64);
                self.def("v", &format!("fptrunc double {d} to float"))
            }
            T::Gc => unreachable!(),
        };
        self.scalars.push((t, v.clone()));
        v
    }

    fn arith(&mut self) {
        let t = self.rng.pick(&[T::I64, T::I64, T::I32, T::I8, T::I1, T::F64, T::F32]);
        let v = match t {
            T::I64 => {
                let a = self.scalar(T::I64);
                match self.rng.below(5) {
                    0 => {
                        let rhs = format!("add i64 {a}, {}", self.rng.below(5000) as i64 - 2500);
                        self.def("v", &rhs)
                    }
                    1 => {
                        let rhs = format!("mul i64 {a}, {}", 2 * self.rng.below(50) + 1);
                        self.def("v", &rhs)
                    }
                    2 => {
                        // Never `a - a`: llc-19 would fold it to a constant.
                        let b = self.scalar(T::I64);
                        if b == a {
                            self.def("v", &format!("sub i64 {a}, 77"))
                        } else {
                            self.def("v", &format!("sub i64 {a}, {b}"))
                        }
                    }
                    3 => {
                        let b = self.scalar(T::I32);
                        self.def("v", &format!("sext i32 {b} to i64"))
                    }
                    _ => {
                        let b = self.scalar(T::I8);
                        self.def("v", &format!("zext i8 {b} to i64"))
                    }
                }
            }
            T::I32 => {
                let a = self.scalar(T::I32);
                {
                    let rhs = format!("add i32 {a}, {}", self.rng.below(200) as i64 - 100);
                    self.def("v", &rhs)
                }
            }
            T::I8 => {
                let a = self.scalar(T::I8);
                {
                    let rhs = format!("xor i8 {a}, {}", self.rng.below(256) as i64 - 128);
                    self.def("v", &rhs)
                }
            }
            T::I1 => {
                let a = self.scalar(T::I64);
                let b = self.scalar(T::I64);
                if a == b {
                    self.def("v", &format!("icmp slt i64 {a}, 1000"))
                } else {
                    self.def("v", &format!("icmp slt i64 {a}, {b}"))
                }
            }
            T::F64 => {
                let a = self.scalar(T::F64);
                let c = self.rng.pick(&["0.5", "1.25", "-3.0", "100.0"]);
                if self.rng.chance(50) {
                    self.def("v", &format!("fadd double {a}, {c}"))
                } else {
                    {
                        let rhs = format!("fmul double {a}, {}", self.rng.pick(&["0.5", "1.5", "-1.0"]));
                        self.def("v", &rhs)
                    }
                }
            }
            T::F32 => self.scalar(T::F32),
            T::Gc => unreachable!(),
        };
        if !self.scalars.iter().any(|s| s.1 == v) {
            self.scalars.push((t, v.clone()));
        }
        if self.rng.chance(30) {
            self.fold(t, &v);
        }
    }

    fn fold_scalar(&mut self) {
        if self.scalars.is_empty() {
            return;
        }
        let (t, v) = self.scalars[self.rng.below(self.scalars.len())].clone();
        self.fold(t, &v);
    }

    /// acc = acc op (value as i64).
    fn fold(&mut self, t: T, v: &str) {
        let wide = match t {
            T::I64 => v.to_string(),
            T::I32 | T::I8 => self.def("w", &format!("sext {} {v} to i64", t.name())),
            T::I1 => self.def("w", &format!("zext i1 {v} to i64")),
            T::F64 => self.def("w", &format!("bitcast double {v} to i64")),
            T::F32 => {
                let bits = self.def("w", &format!("bitcast float {v} to i32"));
                self.def("w", &format!("zext i32 {bits} to i64"))
            }
            T::Gc => unreachable!(),
        };
        let acc = self.acc.clone();
        let op = self.rng.pick(&["add", "xor", "sub"]);
        let mixed = self.def("m", &format!("mul i64 {acc}, 31"));
        self.acc = self.def("acc", &format!("{op} i64 {mixed}, {wide}"));
    }

    fn fold_pointer(&mut self, p: &str) {
        let int = self.def("pi", &format!("ptrtoint ptr addrspace(1) {p} to i64"));
        let offset = self.def("po", &format!("sub i64 {int}, %heapbase"));
        self.fold(T::I64, &offset);
    }

    fn load(&mut self) {
        let Some(p) = self.pick_ptr() else { return };
        let v = self.def("ld", &format!("load i64, ptr addrspace(1) {p}"));
        self.scalars.push((T::I64, v.clone()));
        self.fold(T::I64, &v);
    }

    fn store(&mut self) {
        let Some(p) = self.pick_ptr() else { return };
        let acc = self.acc.clone();
        self.emit(&format!("store i64 {acc}, ptr addrspace(1) {p}"));
    }

    /// A pointer derived from one in scope by a constant offset, inside the same object and at an
    /// (object, offset) no pointer in scope has (llc-19's DAG would merge two equal addresses into one
    /// value, which changes its records).
    fn derive(&mut self) {
        if self.ptrs.is_empty() {
            return;
        }
        let src = self.ptrs[self.rng.below(self.ptrs.len())].clone();
        let taken: HashSet<i64> = self.ptrs.iter().filter(|p| p.object == src.object).map(|p| p.offset).collect();
        let choices: Vec<i64> = (0..8).map(|k| k * 8).filter(|o| !taken.contains(o)).collect();
        if choices.is_empty() {
            return;
        }
        let target = choices[self.rng.below(choices.len())];
        let delta = target - src.offset;
        let gep = if self.rng.chance(50) || delta % 8 != 0 {
            format!("getelementptr i8, ptr addrspace(1) {}, i64 {delta}", src.name)
        } else {
            format!("getelementptr i64, ptr addrspace(1) {}, i64 {}", src.name, delta / 8)
        };
        let name = self.def("d", &gep);
        self.ptrs.push(GcPtr {
            name,
            object: src.object,
            base: false,
            offset: target,
            pinned: false,
            orphan: src.orphan,
        });
    }

    fn constant_operand(&mut self) -> String {
        let c = [
            "i64 7",
            "i64 -1",
            "i64 12345678901",
            "i64 -2147483648",
            "i64 2147483648",
            "i32 5",
            "i32 -2147483648",
            "i8 -1",
            "i8 200",
            "i1 true",
            "i1 false",
            "double 0.0",
            "double 1.5",
            "double -0.0",
            "double -2.25",
            "float 2.5",
            "float -2.5",
            "i64 undef",
            "i32 poison",
            "double undef",
            "ptr null",
            "ptr addrspace(1) null",
            "ptr @heap",
        ];
        self.rng.pick(&c).to_string()
    }

    fn statepoint(&mut self) {
        // The target: one whose nested statepoints fit the budget and whose arguments exist.
        let budget = if self.forced { 1 } else { self.config.max_hits.saturating_sub(self.hits) / self.mult };
        let has_ptr = !self.ptrs.is_empty();
        let candidates: Vec<Callee> = self
            .callees
            .iter()
            .filter(|c| c.hits < budget && (has_ptr || !c.params.contains(&T::Gc)))
            .cloned()
            .collect();
        if candidates.is_empty() {
            return self.arith();
        }
        let callee = candidates[self.rng.below(candidates.len())].clone();
        if !self.forced {
            self.hits += self.mult * (callee.hits + 1);
        }
        let id = *self.next_id;
        *self.next_id += 1;
        let patch_bytes = if callee.hits == 0 && self.rng.chance(8) { self.rng.pick(&[8, 16]) } else { 0 };
        let flags = if self.rng.chance(5) { 2 } else { 0 };
        let mut args = Vec::new();
        for &t in &callee.params {
            let v = if t == T::Gc { self.pick_ptr().unwrap() } else { self.scalar(t) };
            args.push(format!("{} {v}", t.name()));
        }
        // Deopt values.
        let mut bundles = Vec::new();
        if self.rng.chance(75) {
            let n = self.rng.below(7);
            let mut deopt = Vec::new();
            for _ in 0..n {
                let op = match self.rng.below(10) {
                    0..=3 => {
                        let t = self.rng.pick(&[T::I64, T::I32, T::I8, T::I1, T::F64, T::F32]);
                        let v = self.scalar(t);
                        format!("{} {v}", t.name())
                    }
                    4 => format!("i64 {}", self.acc),
                    5..=7 => self.constant_operand(),
                    _ => match self.pick_ptr() {
                        Some(p) => format!("ptr addrspace(1) {p}"),
                        None => self.constant_operand(),
                    },
                };
                deopt.push(op);
            }
            bundles.push(format!("\"deopt\"({})", deopt.join(", ")));
        }
        // gc-live: pinned pointers always, others sometimes; a derived pointer brings its base.
        let mut live: Vec<usize> = Vec::new();
        let pinned = self.ptrs.iter().any(|p| p.pinned);
        if !self.ptrs.is_empty() && (pinned || self.rng.chance(90)) {
            for i in 0..self.ptrs.len() {
                let p = &self.ptrs[i];
                if !p.orphan && (p.pinned || self.rng.chance(75)) {
                    live.push(i);
                }
            }
            for i in live.clone() {
                let object = self.ptrs[i].object;
                if !self.ptrs[i].base {
                    let base = self.ptrs.iter().position(|p| p.base && p.object == object).unwrap();
                    if !live.contains(&base) {
                        live.push(base);
                    }
                }
            }
            // Random order.
            for k in (1..live.len()).rev() {
                let j = self.rng.below(k + 1);
                live.swap(k, j);
            }
        }
        // gc-live entries: Some(pointer index) or None for null; a duplicate now and then.
        let mut entries: Vec<Option<usize>> = live.iter().map(|&i| Some(i)).collect();
        if !entries.is_empty() && self.rng.chance(10) {
            let at = self.rng.below(entries.len() + 1);
            entries.insert(at, None);
        }
        if !live.is_empty() && self.rng.chance(10) {
            let dup = entries[self.rng.below(entries.len())];
            entries.push(dup);
        }
        if !entries.is_empty() {
            let ops: Vec<String> = entries
                .iter()
                .map(|e| match e {
                    Some(i) => format!("ptr addrspace(1) {}", self.ptrs[*i].name),
                    None => "ptr addrspace(1) null".into(),
                })
                .collect();
            bundles.push(format!("\"gc-live\"({})", ops.join(", ")));
        }
        // Which entries get a relocate (the first entry of each pointer; pinned ones always).
        let mut relocates: Vec<(usize, usize, Option<usize>)> = Vec::new(); // (base entry, entry, pointer)
        for (k, e) in entries.iter().enumerate() {
            let first = entries.iter().position(|x| x == e) == Some(k);
            match e {
                Some(i) if first => {
                    if !self.ptrs[*i].pinned && !self.rng.chance(80) {
                        continue;
                    }
                    let object = self.ptrs[*i].object;
                    let base = entries
                        .iter()
                        .position(|x| x.is_some_and(|j| self.ptrs[j].base && self.ptrs[j].object == object))
                        .unwrap();
                    relocates.push((base, k, Some(*i)));
                }
                // A duplicate entry or null: a relocate nobody uses, sometimes.
                _ if self.rng.chance(50) => {
                    let base = match e {
                        Some(i) => {
                            let object = self.ptrs[*i].object;
                            entries
                                .iter()
                                .position(|x| x.is_some_and(|j| self.ptrs[j].base && self.ptrs[j].object == object))
                                .unwrap()
                        }
                        None => k,
                    };
                    relocates.push((base, k, None));
                }
                _ => {}
            }
        }
        for k in (1..relocates.len()).rev() {
            let j = self.rng.below(k + 1);
            relocates.swap(k, j);
        }
        let cc = if callee.fastcc { "fastcc " } else { "" };
        let tok = self.fresh("tok");
        let bundles = if bundles.is_empty() { String::new() } else { format!(" [ {} ]", bundles.join(", ")) };
        let mut call_args = args.join(", ");
        if !call_args.is_empty() {
            call_args.push_str(", ");
        }
        self.emit(&format!(
            "{tok} = call {cc}token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 {id}, \
             i32 {patch_bytes}, ptr elementtype({}) {}, i32 {}, i32 {flags}, {call_args}i32 0, i32 0){bundles}",
            callee.fn_type(),
            callee.name,
            callee.params.len()
        ));
        // The result (never of a patched region: no call is made there), among the relocates.
        let result_at = self.rng.below(relocates.len() + 1);
        let mut new_names: Vec<(usize, String)> = Vec::new();
        for (n, &(base, k, pointer)) in relocates.iter().enumerate() {
            if n == result_at {
                self.result(&callee, &tok, patch_bytes);
            }
            let name = self.def(
                "rel",
                &format!("call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token {tok}, i32 {base}, i32 {k})"),
            );
            if let Some(i) = pointer {
                new_names.push((i, name));
            }
        }
        if result_at == relocates.len() {
            self.result(&callee, &tok, patch_bytes);
        }
        // Only relocated pointers survive; a derived one whose base did not is an orphan.
        let mut ptrs = Vec::new();
        for (i, p) in self.ptrs.iter().enumerate() {
            if let Some((_, name)) = new_names.iter().find(|(j, _)| *j == i) {
                ptrs.push(GcPtr { name: name.clone(), ..p.clone() });
            }
        }
        let bases: HashSet<usize> = ptrs.iter().filter(|p| p.base).map(|p| p.object).collect();
        for p in &mut ptrs {
            if !p.base && !bases.contains(&p.object) {
                p.orphan = true;
                assert!(!p.pinned, "a pinned pointer's base is pinned too");
            }
        }
        self.ptrs = ptrs;
    }

    fn result(&mut self, callee: &Callee, tok: &str, patch_bytes: u64) {
        let Some(t) = callee.ret else { return };
        if patch_bytes > 0 {
            return;
        }
        let v = self
            .def("res", &format!("call {} @llvm.experimental.gc.result.{}(token {tok})", t.name(), t.result_suffix()));
        self.scalars.push((t, v.clone()));
        self.fold(t, &v);
    }

    /// Drops orphans and pins every pointer in scope (for a loop or diamond); returns the previous pins.
    fn enter(&mut self) -> Vec<bool> {
        self.ptrs.retain(|p| !p.orphan);
        let pins = self.ptrs.iter().map(|p| p.pinned).collect();
        for p in &mut self.ptrs {
            p.pinned = true;
        }
        pins
    }

    /// The pinned pointers (in entry order) with their current names.
    fn pinned(&self) -> Vec<GcPtr> {
        self.ptrs.iter().filter(|p| p.pinned).cloned().collect()
    }

    fn leave(&mut self, mut ptrs: Vec<GcPtr>, pins: Vec<bool>, scalars: usize) {
        assert_eq!(ptrs.len(), pins.len());
        for (p, pin) in ptrs.iter_mut().zip(pins) {
            p.pinned = pin;
        }
        self.ptrs = ptrs;
        self.scalars.truncate(scalars);
    }

    fn diamond(&mut self) {
        let pins = self.enter();
        let scalars = self.scalars.len();
        let entry = self.ptrs.clone();
        let acc = self.acc.clone();
        let bit = {
            let rhs = format!("and i64 {acc}, {}", 1 << self.rng.below(6));
            self.def("c", &rhs)
        };
        let cond = self.def("c", &format!("icmp ne i64 {bit}, 0"));
        let n = self.next;
        let (then, other, merge) = (format!("then{n}"), format!("else{n}"), format!("merge{n}"));
        self.emit(&format!("br i1 {cond}, label %{then}, label %{other}"));
        self.depth += 1;
        let mut arms = Vec::new();
        for label in [&then, &other] {
            self.ptrs = entry.clone();
            self.acc = acc.clone();
            self.scalars.truncate(scalars);
            self.label(label);
            let statements = 1 + self.rng.below(self.config.statements / 2 + 1);
            self.region(statements);
            // A volatile store of the arm's own constant last: the code after an arm's last call can
            // then not be tail-merged with the other arm's, which would put that call's return address
            // (its record's PC, where the checker stops) on the other arm's path too.
            let mark = self.next;
            // Taken, so that the other arm's mark differs even when this arm defined nothing.
            self.next += 1;
            self.emit(&format!("store volatile i64 {mark}, ptr @sink"));
            self.emit(&format!("br label %{merge}"));
            arms.push((self.block.clone(), self.acc.clone(), self.pinned()));
        }
        self.depth -= 1;
        self.label(&merge);
        let (a, b) = (&arms[0], &arms[1]);
        let acc = self.def("acc", &format!("phi i64 [ {}, %{} ], [ {}, %{} ]", a.1, a.0, b.1, b.0));
        self.acc = acc;
        let mut ptrs = Vec::new();
        let mut phis = Vec::new();
        for (pa, pb) in a.2.iter().zip(&b.2) {
            if pa.name == pb.name {
                // Neither arm relocated it (no statepoint in either): no phi (llc-19 would fold a phi
                // of one value, and see through it to a GEP that the oracle would not).
                ptrs.push(pa.clone());
                continue;
            }
            let name =
                self.def("p", &format!("phi ptr addrspace(1) [ {}, %{} ], [ {}, %{} ]", pa.name, a.0, pb.name, b.0));
            phis.push(name.clone());
            ptrs.push(GcPtr { name, ..pa.clone() });
        }
        // Every phi is used: llc-19's AArch64 pipeline (SimplifyCFG before CodeGenPrepare) deletes dead
        // phis and the relocates that only fed them, which changes the records there but not on x86-64.
        for p in phis {
            self.fold_pointer(&p);
        }
        self.leave(ptrs, pins, scalars);
    }

    fn counted_loop(&mut self) {
        let trip = self.rng.range(2, self.config.max_trip_count);
        if self.hits + self.mult * trip > self.config.max_hits {
            return self.arith();
        }
        let pins = self.enter();
        let scalars = self.scalars.len();
        let pre = self.block.clone();
        let n = self.next;
        let (head, exit) = (format!("loop{n}"), format!("exit{n}"));
        self.emit(&format!("br label %{head}"));
        self.label(&head);
        let phis_at = self.body.len();
        let entry = self.ptrs.clone();
        let acc_in = self.acc.clone();
        let i = self.fresh("i");
        let acc_phi = self.fresh("acc");
        self.acc = acc_phi.clone();
        let ptr_phis: Vec<String> = entry.iter().map(|_| self.fresh("p")).collect();
        for (p, name) in self.ptrs.iter_mut().zip(&ptr_phis) {
            p.name = name.clone();
        }
        self.depth += 1;
        self.mult *= trip;
        // The body ends with a statepoint (its budget reserved here), so every pointer phi of the
        // header takes a relocated value on the back edge (a phi of itself would be folded by llc-19).
        self.hits += self.mult;
        let statements = 1 + self.rng.below(self.config.statements / 2 + 1);
        self.region(statements);
        if !entry.is_empty() {
            self.forced = true;
            self.statepoint();
            self.forced = false;
        }
        self.mult /= trip;
        self.depth -= 1;
        let i_next = self.def("i", &format!("add i64 {i}, 1"));
        let more = self.def("c", &format!("icmp ult i64 {i_next}, {trip}"));
        self.emit(&format!("br i1 {more}, label %{head}, label %{exit}"));
        let latch = self.block.clone();
        let end = self.pinned();
        let mut phis = format!("  {i} = phi i64 [ 0, %{pre} ], [ {i_next}, %{latch} ]\n");
        writeln!(phis, "  {acc_phi} = phi i64 [ {acc_in}, %{pre} ], [ {}, %{latch} ]", self.acc).unwrap();
        for ((p_in, p_end), name) in entry.iter().zip(&end).zip(&ptr_phis) {
            writeln!(phis, "  {name} = phi ptr addrspace(1) [ {}, %{pre} ], [ {}, %{latch} ]", p_in.name, p_end.name)
                .unwrap();
        }
        self.body.insert_str(phis_at, &phis);
        self.label(&exit);
        self.leave(end, pins, scalars);
    }
}
