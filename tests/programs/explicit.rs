//! Run-time proof of `explicitcc` functions (issue 24): compiled objects are linked with an
//! assembly harness (`tests/explicit_harness/<arch>.S`) that fills every general and vector
//! register with a sentinel, loads the `hwreg` arguments, calls the function, and writes every
//! register back. The test checks that each argument arrived (the body stores it to `@seen`),
//! every `noclobber` register, the frame pointer and the stack pointer came back unchanged, and
//! each `retwr` register holds its value. Bodies call `mix`, an assembly function that overwrites
//! every register the C ABI lets a callee change (and AArch64's v8-v15 upper halves), and records
//! the stack alignment at its entry. A mutant, compiled with a `noclobber` register dropped from
//! its list, must be caught.

use std::fmt::Write as _;
use std::process::Command;

use crate::support::{self, Arch};
use patchmap::arch::{NamedRegister, RegisterClass};
use patchmap::compile::Options;

/// One function under test and what the harness must see.
struct Case {
    name: String,
    /// The `define` text with `@NAME` for the function's name.
    ir: String,
    /// Each parameter's register and the bits loaded into it.
    params: Vec<(NamedRegister, u64)>,
    /// The registers that must come back unchanged (the frame and stack pointers are always checked).
    noclobber: Vec<NamedRegister>,
    /// Each `retwr` register and the bits it must hold (the low 64 for a vector register).
    returns: Vec<(NamedRegister, u64)>,
    /// The words the body stores to `@seen`, in order.
    seen: Vec<u64>,
}

/// Layout of the harness's register arrays: general registers by hardware encoding, the stack
/// pointer's slot, vector registers as two words each from `vector_base`.
struct Layout {
    words: usize,
    vector_base: usize,
    /// Index in the input of the stack pointer at the call (written by the harness) and in the
    /// output of the stack pointer after it.
    sp_in: usize,
    sp_out: usize,
}

fn layout(arch: Arch) -> Layout {
    match arch {
        Arch::X86_64 => Layout { words: 48, vector_base: 16, sp_in: 4, sp_out: 4 },
        Arch::Aarch64 => Layout { words: 97, vector_base: 32, sp_in: 31, sp_out: 96 },
    }
}

fn slot(arch: Arch, r: NamedRegister) -> usize {
    let hw = usize::from(arch.hardware_encoding(r).unwrap());
    match r.class {
        RegisterClass::General => hw,
        RegisterClass::Float => layout(arch).vector_base + 2 * hw,
    }
}

fn fp_slot(arch: Arch) -> usize {
    slot(arch, NamedRegister { dwarf: arch.frame_pointer(), class: RegisterClass::General })
}

fn reg(arch: Arch, name: &str) -> NamedRegister {
    arch.register_by_name(name).unwrap()
}

/// The seed's example: exchange rcx and rdx, preserve rax and rbx (x9/x10 and x19/x20 on AArch64).
fn seed_example(arch: Arch) -> Case {
    let (a, b, keep) = match arch {
        Arch::X86_64 => ("rcx", "rdx", ["rax", "rbx"]),
        Arch::Aarch64 => ("x9", "x10", ["x19", "x20"]),
    };
    let ir = format!(
        "define explicitcc void @NAME(i64 hwreg(metadata !{{!\"{a}\"}}) %a, i64 hwreg(metadata !{{!\"{b}\"}}) %b) \
         noclobber(metadata !{{!\"{}\", !\"{}\"}}) {{\n  \
         call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !{{!\"{b}\"}}) %a, i64 hwreg(metadata !{{!\"{a}\"}}) %b)\n  \
         ret void\n}}\n",
        keep[0], keep[1]
    );
    Case {
        name: "seed".into(),
        ir,
        params: vec![(reg(arch, a), 11), (reg(arch, b), 22)],
        noclobber: keep.iter().map(|n| reg(arch, n)).collect(),
        returns: vec![(reg(arch, b), 11), (reg(arch, a), 22)],
        seen: Vec::new(),
    }
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The registers a parameter, `noclobber` or `retwr` may name that the lowering takes everywhere
/// (the frame pointer only in `noclobber`, where it is always kept).
fn pool(arch: Arch) -> Vec<NamedRegister> {
    let names: Vec<String> = match arch {
        Arch::X86_64 => {
            ["rax", "rcx", "rdx", "rbx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]
                .iter()
                .map(|s| s.to_string())
                .chain((0..16).map(|i| format!("xmm{i}")))
                .collect()
        }
        Arch::Aarch64 => (0..29)
            .filter(|i| !matches!(i, 16..=18))
            .map(|i| format!("x{i}"))
            .chain((0..32).map(|i| format!("d{i}")))
            .collect(),
    };
    names.iter().map(|n| reg(arch, n)).collect()
}

fn name_of(arch: Arch, r: NamedRegister) -> String {
    let hw = arch.hardware_encoding(r).unwrap();
    match (arch, r.class) {
        (Arch::X86_64, RegisterClass::General) => ["rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi"]
            .get(usize::from(hw))
            .map_or(format!("r{hw}"), |s| s.to_string()),
        (Arch::X86_64, RegisterClass::Float) => format!("xmm{hw}"),
        (Arch::Aarch64, RegisterClass::General) => format!("x{hw}"),
        (Arch::Aarch64, RegisterClass::Float) => format!("d{hw}"),
    }
}

fn mix(a: u64, b: u64) -> u64 {
    a.wrapping_mul(3).wrapping_add(b)
}

/// A random function: parameters in random registers, a random `noclobber` set, every parameter
/// scaled into a temporary that lives across a call of `mix` (register pressure), stored to
/// `@seen`, and random `retwr` registers set from the temporaries and the call's result.
fn random_case(arch: Arch, seed: u64) -> Case {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut regs = pool(arch);
    for i in (1..regs.len()).rev() {
        regs.swap(i, rng.below(i + 1));
    }
    let n_params = 1 + rng.below(8);
    let params: Vec<NamedRegister> = regs[..n_params].to_vec();
    // retwr registers: any of the pool (a parameter's too); noclobber: others, parameters included.
    let mut shuffled = regs.clone();
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, rng.below(i + 1));
    }
    let n_returns = rng.below(5);
    let returns: Vec<NamedRegister> = shuffled[..n_returns].to_vec();
    let mut noclobber: Vec<NamedRegister> =
        shuffled[n_returns..].iter().copied().filter(|_| rng.below(3) == 0).collect();
    let fp_in_list = rng.below(4) == 0;

    let ty = |r: &NamedRegister| if r.class == RegisterClass::General { "i64" } else { "double" };
    let mut ir = String::from("define explicitcc void @NAME(");
    let mut values = Vec::new();
    let mut seen = Vec::new();
    for (i, r) in params.iter().enumerate() {
        let v = if r.class == RegisterClass::General {
            rng.next() >> rng.below(40)
        } else {
            (rng.below(1000) as f64 / 8.0 - 40.0).to_bits()
        };
        values.push(v);
        seen.push(v);
        let sep = if i == 0 { "" } else { ", " };
        write!(ir, "{sep}{} hwreg(metadata !{{!\"{}\"}}) %p{i}", ty(r), name_of(arch, *r)).unwrap();
    }
    let mut list: Vec<String> = noclobber.iter().map(|r| format!("!\"{}\"", name_of(arch, *r))).collect();
    if fp_in_list {
        list.push(if arch == Arch::X86_64 { "!\"rbp\"".into() } else { "!\"fp\"".into() });
    }
    writeln!(ir, ") noclobber(metadata !{{{}}}) {{", list.join(", ")).unwrap();
    // Temporaries: t_i = p_i * (i + 2), or p_i * 2.0 + 0.5.
    let mut temps = Vec::new();
    for (i, r) in params.iter().enumerate() {
        if r.class == RegisterClass::General {
            writeln!(ir, "  %t{i} = mul i64 %p{i}, {}", i + 2).unwrap();
            temps.push(values[i].wrapping_mul(i as u64 + 2));
        } else {
            writeln!(ir, "  %u{i} = fmul double %p{i}, 2.0\n  %t{i} = fadd double %u{i}, 0.5").unwrap();
            temps.push((f64::from_bits(values[i]) * 2.0 + 0.5).to_bits());
        }
        writeln!(ir, "  %s{i} = getelementptr [16 x i64], ptr @seen, i64 0, i64 {i}").unwrap();
        writeln!(ir, "  store {} %p{i}, ptr %s{i}", ty(r)).unwrap();
    }
    let ints: Vec<usize> = (0..n_params).filter(|&i| params[i].class == RegisterClass::General).collect();
    let (a, a_val) = ints.first().map_or(("7".to_string(), 7), |&i| (format!("%t{i}"), temps[i]));
    let (b, b_val) = ints.last().map_or(("9".to_string(), 9), |&i| (format!("%t{i}"), temps[i]));
    writeln!(ir, "  %c = call i64 @mix(i64 {a}, i64 {b})").unwrap();
    let c = mix(a_val, b_val);
    // Every temporary is used after the call.
    let mut expected = Vec::new();
    let mut operands = Vec::new();
    for (j, r) in returns.iter().enumerate() {
        let from = rng.below(n_params);
        let same_class = params[from].class == r.class;
        let (text, value) = match (r.class, same_class) {
            (RegisterClass::General, true) => {
                writeln!(ir, "  %r{j} = add i64 %c, %t{from}").unwrap();
                ("i64", c.wrapping_add(temps[from]))
            }
            (RegisterClass::General, false) => {
                writeln!(ir, "  %r{j} = add i64 %c, {j}").unwrap();
                ("i64", c.wrapping_add(j as u64))
            }
            (RegisterClass::Float, true) => {
                writeln!(ir, "  %r{j} = fadd double %t{from}, 1.0").unwrap();
                ("double", (f64::from_bits(temps[from]) + 1.0).to_bits())
            }
            (RegisterClass::Float, false) => {
                writeln!(ir, "  %r{j} = sitofp i64 %c to double").unwrap();
                ("double", (c as i64 as f64).to_bits())
            }
        };
        operands.push(format!("{text} hwreg(metadata !{{!\"{}\"}}) %r{j}", name_of(arch, *r)));
        expected.push((*r, value));
    }
    // The temporaries not returned are stored after the call, so all stay live across it.
    for (i, r) in params.iter().enumerate() {
        let at = n_params + i;
        writeln!(ir, "  %q{i} = getelementptr [16 x i64], ptr @seen, i64 0, i64 {at}").unwrap();
        writeln!(ir, "  store {} %t{i}, ptr %q{i}", ty(r)).unwrap();
    }
    seen.extend(&temps);
    if !returns.is_empty() {
        writeln!(ir, "  call void (...) @llvm.experimental.retwr({})", operands.join(", ")).unwrap();
    }
    ir.push_str("  ret void\n}\n");
    noclobber.sort_by_key(|r| (r.class == RegisterClass::Float, r.dwarf));
    Case {
        name: format!("random{seed}"),
        ir,
        params: params.into_iter().zip(values).collect(),
        noclobber,
        returns: expected,
        seen,
    }
}

/// The module of `cases`, each function named `<case>_<suffix>`, its `noclobber` list without
/// `drop` (the mutant).
fn module(arch: Arch, cases: &[(&Case, String, Option<NamedRegister>)]) -> String {
    let triple = match arch {
        Arch::X86_64 => "x86_64-unknown-linux-gnu",
        Arch::Aarch64 => "aarch64-unknown-linux-gnu",
    };
    let mut m = format!(
        "target triple = \"{triple}\"\n\
         @seen = external global [16 x i64]\n\
         declare void @llvm.experimental.retwr(...)\n\
         declare i64 @mix(i64, i64)\n"
    );
    for (case, name, drop) in cases {
        let mut ir = case.ir.replace("@NAME", &format!("@{name}"));
        if let Some(r) = drop {
            let n = name_of(arch, *r);
            ir = ir
                .replace(&format!("!\"{n}\", "), "")
                .replace(&format!(", !\"{n}\""), "")
                .replace(&format!("!\"{n}\""), "");
        }
        m.push_str(&ir);
    }
    m
}

/// One run under the harness: its name, the register its mutant dropped, what went wrong.
struct Run {
    name: String,
    dropped: Option<NamedRegister>,
    problems: Vec<String>,
}

/// What went wrong in one run of `case`, from the harness's input and output words.
fn problems(arch: Arch, case: &Case, input: &[u64], output: &[u64], seen: &[u64], align: u64) -> Vec<String> {
    let l = layout(arch);
    let mut bad = Vec::new();
    for (i, want) in case.seen.iter().enumerate() {
        if seen[i] != *want {
            bad.push(format!("@seen[{i}] = {:#x}, want {want:#x}", seen[i]));
        }
    }
    if output[l.sp_out] != input[l.sp_in] {
        bad.push(format!("stack pointer {:#x}, was {:#x}", output[l.sp_out], input[l.sp_in]));
    }
    let fp = fp_slot(arch);
    if output[fp] != input[fp] {
        bad.push("frame pointer changed".into());
    }
    for r in &case.noclobber {
        let s = slot(arch, *r);
        let words = if r.class == RegisterClass::Float { 2 } else { 1 };
        if output[s..s + words] != input[s..s + words] {
            bad.push(format!("noclobber {} changed: {:#x?}", name_of(arch, *r), &output[s..s + words]));
        }
    }
    for (r, want) in &case.returns {
        if output[slot(arch, *r)] != *want {
            bad.push(format!("retwr {} = {:#x}, want {want:#x}", name_of(arch, *r), output[slot(arch, *r)]));
        }
    }
    let want_align = if arch == Arch::X86_64 { 8 } else { 0 };
    if !case.seen.is_empty() && align != want_align {
        bad.push(format!("stack pointer mod 16 at the C function's entry = {align}"));
    }
    bad
}

/// Compiles `cases` (at both levels, and each mutant), runs them under the harness, and returns,
/// each [`Run`].
fn run_cases(arch: Arch, cases: &[Case], mutants: &[Option<NamedRegister>]) -> Option<Vec<Run>> {
    let toolchain = support::toolchain(arch)?;
    let dir = tempfile::tempdir().unwrap();
    let l = layout(arch);
    let mut runs: Vec<(&Case, String, Option<NamedRegister>)> = Vec::new();
    let mut objects = Vec::new();
    for opt in ["none", "speed"] {
        let mut list = Vec::new();
        for (case, mutant) in cases.iter().zip(mutants) {
            list.push((case, format!("{}_{opt}", case.name), None));
            if let Some(r) = mutant {
                list.push((case, format!("{}_{opt}_mutant", case.name), Some(*r)));
            }
        }
        let text = module(arch, &list);
        let m = patchmap::ir::parse("explicit.ll", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        patchmap::ir::verify(&m).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let options = Options::new(Some(if arch == Arch::X86_64 { "x86_64" } else { "aarch64" }), opt, 1).unwrap();
        let object = patchmap::emit::object::compile(&m, &options).unwrap_or_else(|e| panic!("{e}\n{text}"));
        objects.push(object);
        runs.extend(list);
    }
    // The C driver: one input per run, sentinels everywhere but the parameters.
    let mut c = String::from("#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n");
    writeln!(c, "extern void harness(void *code, uint64_t *in, uint64_t *out);\nextern uint64_t align_seen;\nuint64_t seen[16];").unwrap();
    for (_, name, _) in &runs {
        writeln!(c, "extern char {name}[];").unwrap();
    }
    writeln!(
        c,
        "static void run(const char *name, void *code, const uint64_t *params, int n, int n_seen, const int *watch) {{"
    )
    .unwrap();
    writeln!(c, "  uint64_t in[{w}], out[{w}];\n  for (int i = 0; i < {w}; i++) in[i] = 0x5e00000000000077ull | ((uint64_t)i << 8);", w = l.words).unwrap();
    c.push_str("  for (int i = 0; i < n; i++) in[params[2*i]] = params[2*i+1];\n");
    c.push_str(
        "  memset(out, 0, sizeof out); memset(seen, 0, sizeof seen); align_seen = 99;\n  harness(code, in, out);\n",
    );
    // Only the words the checks read that changed (a pipe holds only so much), as index:value.
    writeln!(c, "  printf(\"run %s\\nsp %llx\\nchanged\", name, (unsigned long long)in[{}]);", l.sp_in).unwrap();
    c.push_str("  for (; *watch >= 0; watch++) if (out[*watch] != in[*watch]) printf(\" %d:%llx\", *watch, (unsigned long long)out[*watch]);\n");
    c.push_str(
        "  printf(\"\\nseen\"); for (int i = 0; i < n_seen; i++) printf(\" %llx\", (unsigned long long)seen[i]);\n",
    );
    c.push_str("  printf(\"\\nalign %llu\\n\", (unsigned long long)align_seen);\n}\nint main(void) {\n");
    for (case, name, _) in &runs {
        let params: Vec<String> = case.params.iter().map(|(r, v)| format!("{}, {v:#x}ull", slot(arch, *r))).collect();
        let mut watch = vec![l.sp_out, fp_slot(arch)];
        for r in &case.noclobber {
            watch.push(slot(arch, *r));
            if r.class == RegisterClass::Float {
                watch.push(slot(arch, *r) + 1);
            }
        }
        watch.extend(case.returns.iter().map(|(r, _)| slot(arch, *r)));
        let watch: String = watch.iter().map(|w| format!("{w}, ")).collect();
        let params = params.join(", ") + if params.is_empty() { "" } else { "," };
        writeln!(
            c,
            "  {{ static const uint64_t p[] = {{ {params} 0 }}; static const int w[] = {{ {watch}-1 }}; \
             run(\"{name}\", {name}, p, {}, {}, w); }}",
            case.params.len(),
            case.seen.len()
        )
        .unwrap();
    }
    c.push_str("  return 0;\n}\n");
    let asm = match arch {
        Arch::X86_64 => include_str!("../explicit_harness/x86_64.S"),
        Arch::Aarch64 => include_str!("../explicit_harness/aarch64.S"),
    };
    let mut inputs = Vec::new();
    for (file, text) in [("driver.c", c.as_str()), ("harness.S", asm)] {
        let path = dir.path().join(file);
        std::fs::write(&path, text).unwrap();
        let obj = dir.path().join(format!("{file}.o"));
        let (code, _, err) = support::run(Command::new(&toolchain.linker).arg("-c").arg(&path).arg("-o").arg(&obj));
        assert_eq!(code, 0, "compiling {file}: {err}");
        inputs.push(std::fs::read(&obj).unwrap());
    }
    let all: Vec<&[u8]> = inputs.iter().chain(&objects).map(|o| &o[..]).collect();
    let outcome = toolchain.link_all_and_run(&all, dir.path(), "explicit").unwrap();
    assert_eq!(outcome.status, 0, "{}", outcome.stdout);
    let mut lines = outcome.stdout.lines();
    let words = |line: Option<&str>, tag: &str| -> Vec<u64> {
        let line = line.unwrap_or_default();
        let rest = line.strip_prefix(tag).unwrap_or_else(|| panic!("expected '{tag}', got '{line}'"));
        rest.split_whitespace().map(|w| u64::from_str_radix(w, 16).unwrap()).collect()
    };
    let mut results = Vec::new();
    for (case, name, drop) in &runs {
        assert_eq!(lines.next(), Some(format!("run {name}").as_str()));
        // The input as the driver built it, the stack pointer as the harness wrote it.
        let mut input: Vec<u64> = (0..l.words as u64).map(|i| 0x5e00_0000_0000_0077 | (i << 8)).collect();
        for (r, v) in &case.params {
            input[slot(arch, *r)] = *v;
        }
        input[l.sp_in] = words(lines.next(), "sp")[0];
        let mut output = input.clone();
        let changed = lines.next().unwrap_or_default();
        let changed = changed.strip_prefix("changed").unwrap_or_else(|| panic!("expected 'changed', got '{changed}'"));
        for pair in changed.split_whitespace() {
            let (i, v) = pair.split_once(':').unwrap();
            output[i.parse::<usize>().unwrap()] = u64::from_str_radix(v, 16).unwrap();
        }
        let seen = words(lines.next(), "seen");
        let align = lines.next().and_then(|l| l.strip_prefix("align ")).and_then(|a| a.parse().ok()).unwrap();
        results.push(Run {
            name: name.clone(),
            dropped: *drop,
            problems: problems(arch, case, &input, &output, &seen, align),
        });
    }
    Some(results)
}

/// Asserts that every run is clean but the mutants, each caught at the register it dropped.
fn assert_runs(results: &[Run], arch: Arch) {
    let mut failures = Vec::new();
    for Run { name, dropped, problems } in results {
        match dropped {
            None if !problems.is_empty() => failures.push(format!("{name}: {problems:?}")),
            Some(r) => {
                let caught = format!("noclobber {} changed", name_of(arch, *r));
                if !problems.iter().any(|p| p.starts_with(&caught)) || problems.len() != 1 {
                    failures.push(format!("{name}: mutant without {} gave {problems:?}", name_of(arch, *r)));
                }
            }
            None => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A register `mix` overwrites, in `case`'s `noclobber` list: dropping it must show.
fn mutant_register(arch: Arch, case: &Case) -> Option<NamedRegister> {
    let caller_saved = |r: &NamedRegister| match (arch, r.class) {
        (Arch::X86_64, RegisterClass::General) => {
            matches!(arch.hardware_encoding(*r), Some(1 | 2 | 6 | 7 | 8..=11))
        }
        (Arch::Aarch64, RegisterClass::General) => matches!(arch.hardware_encoding(*r), Some(1..=15)),
        (_, RegisterClass::Float) => true,
    };
    // Not a parameter's: the harness loads it with the argument, which the check would compare.
    case.noclobber.iter().copied().find(|r| caller_saved(r) && !case.params.iter().any(|(p, _)| p == r))
}

fn prove(arch: Arch) {
    let mut cases = vec![seed_example(arch)];
    // The seed's example with a call, so that its mutant is caught: rax/x19 stay, rcx/x9 moves.
    let mut calling = seed_example(arch);
    calling.name = "seedcall".into();
    let (keep, extra) = match arch {
        Arch::X86_64 => ("rsi", "r8"),
        Arch::Aarch64 => ("x11", "x12"),
    };
    calling.ir =
        calling.ir.replace("noclobber(metadata !{", &format!("noclobber(metadata !{{!\"{keep}\", !\"{extra}\", "));
    calling.ir = calling.ir.replace(
        "  call void (...)",
        "  %c = call i64 @mix(i64 %a, i64 %b)\n  store i64 %c, ptr @seen\n  call void (...)",
    );
    calling.noclobber.extend([reg(arch, keep), reg(arch, extra)]);
    calling.seen = vec![mix(11, 22)];
    cases.push(calling);
    cases.extend((0..24).map(|seed| random_case(arch, seed)));
    let mutants: Vec<_> = cases.iter().map(|c| mutant_register(arch, c)).collect();
    assert!(mutants.iter().filter(|m| m.is_some()).count() >= 8, "too few mutants: {mutants:?}");
    let Some(results) = run_cases(arch, &cases, &mutants) else { return };
    assert_runs(&results, arch);
}

#[test]
fn explicitcc_functions_keep_their_registers_on_x86_64() {
    prove(Arch::X86_64);
}

#[test]
fn explicitcc_functions_keep_their_registers_on_aarch64() {
    prove(Arch::Aarch64);
}

/// The JIT path: the seed's example (with a call of a C function) called from inline assembly that
/// hands over rcx and rdx and declares what the function may clobber; r12-r15 are `noclobber`.
#[test]
#[cfg(target_arch = "x86_64")]
fn jit_compiled_explicitcc_function_runs_on_x86_64() {
    use patchmap::emit::jit::JitCode;
    extern "C" fn scramble(a: u64, b: u64) -> u64 {
        let r = mix(a, b);
        // Overwrite the C callee's scratch registers, as any C function may.
        unsafe {
            std::arch::asm!("mov rcx, -1", "mov rdx, -1", "mov r8, -1", "mov r11, -1", out("rcx") _, out("rdx") _, out("r8") _, out("r11") _);
        }
        r
    }
    let text = "declare void @llvm.experimental.retwr(...)\n\
                define explicitcc void @swap(i64 hwreg(metadata !{!\"rcx\"}) %a, i64 hwreg(metadata !{!\"rdx\"}) %b, ptr hwreg(metadata !{!\"r8\"}) %f) \
                noclobber(metadata !{!\"r12\", !\"r13\", !\"r14\", !\"r15\", !\"r8\"}) {\n  \
                %c = call i64 %f(i64 %a, i64 %b)\n  \
                call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !{!\"rdx\"}) %a, i64 hwreg(metadata !{!\"rcx\"}) %c)\n  \
                ret void\n}\n";
    for opt in ["none", "speed"] {
        let m = patchmap::ir::parse("jit.ll", text).unwrap();
        let jit = JitCode::compile(&m, &Options::new(Some("x86_64"), opt, 1).unwrap()).unwrap();
        let f = jit.function("swap").unwrap().address;
        let (mut rcx, mut rdx, mut r8) = (11u64, 22u64, scramble as *const () as usize as u64);
        let f8 = r8;
        let (mut r12, mut r13, mut r14, mut r15) = (0x1212u64, 0x1313u64, 0x1414u64, 0x1515u64);
        // SAFETY: `f` follows the contract the signature states: arguments in rcx, rdx, r8; r12-r15,
        // r8, rbx, rbp and rsp preserved; everything else (declared here) may be clobbered.
        unsafe {
            std::arch::asm!(
                "call {f}",
                f = in(reg) f,
                inout("rcx") rcx, inout("rdx") rdx, inout("r8") r8,
                inout("r12") r12, inout("r13") r13, inout("r14") r14, inout("r15") r15,
                out("rax") _, out("rsi") _, out("rdi") _, out("r9") _, out("r10") _, out("r11") _,
                out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _, out("xmm4") _, out("xmm5") _,
                out("xmm6") _, out("xmm7") _, out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
                out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
            );
        }
        assert_eq!((rdx, rcx), (11, mix(11, 22)), "-O {opt}");
        assert_eq!((r8, r12, r13, r14, r15), (f8, 0x1212, 0x1313, 0x1414, 0x1515), "-O {opt}");
    }
}

/// What Cranelift's `Explicit` convention cannot do, and returns that disagree, are positioned
/// errors of the verifier (so `patchmap check` reports them too).
#[test]
fn explicitcc_functions_the_convention_cannot_express_are_positioned_errors() {
    let verify = |text: &str| {
        let m = patchmap::ir::parse("e.ll", text).unwrap();
        patchmap::ir::verify(&m).unwrap_err().to_string()
    };
    let e = verify("define explicitcc void @f(i64 hwreg(metadata !{!\"rbp\"}) %a) {\n  ret void\n}\n");
    assert!(
        e.starts_with("e.ll:1:31: error: register 'rbp' cannot pass a parameter: the compiled function keeps"),
        "{e}"
    );
    let retwr = "declare void @llvm.experimental.retwr(...)\n\
                 define explicitcc void @f(i64 hwreg(metadata !{!\"rax\"}) %a, i1 hwreg(metadata !{!\"rcx\"}) %c) {\n  \
                 br i1 %c, label %x, label %y\nx:\n  \
                 call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !{!\"rdx\"}) %a)\n  ret void\ny:\n  \
                 LAST\n  ret void\n}\n";
    let e =
        verify(&retwr.replace("LAST", "call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !{!\"rsi\"}) %a)"));
    assert!(e.starts_with("e.ll:8:3: error: this llvm.experimental.retwr sets other registers"), "{e}");
    let e = verify(
        &retwr.replace("LAST", "call void (...) @llvm.experimental.retwr(double hwreg(metadata !{!\"xmm0\"}) 1.0)"),
    );
    assert!(e.starts_with("e.ll:8:3: error: this llvm.experimental.retwr sets other registers"), "{e}");
    let e = verify(&retwr.replace("LAST", ""));
    assert!(e.starts_with("e.ll:9:3: error: this 'ret void' of '@f' sets no register"), "{e}");
    // A pointer and an i64 are one machine type: returns may differ in that.
    let same = retwr.replace("LAST", "call void (...) @llvm.experimental.retwr(ptr hwreg(metadata !{!\"rdx\"}) null)");
    patchmap::ir::verify(&patchmap::ir::parse("e.ll", &same).unwrap()).unwrap_or_else(|e| panic!("{e}"));
}
