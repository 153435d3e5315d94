//! LLVM's own stack map, patch point and statepoint CodeGen tests (`tests/llvm/{X86,AArch64}`) as a
//! conformance suite: each file is split into one module per defined function, compiled by llc-19 (as
//! the file's first llc RUN line asks, on the Linux triple of its architecture) and by patchmap, and the
//! records compared: record count, IDs, location counts, kinds, sizes, constants and live-outs.
//! Differences only in which register or slot holds a value are allocation-only: listed, not failures.
//! Live-out differences are told apart: `live-outs(frame pointer)` where patchmap lists the frame
//! pointer and llc-19 does not (by design: Cranelift's epilogue reads it); beyond it, allocation-only
//! where each register listed by one side only holds one of that side's recorded values (the
//! compilers put a value in different registers), `live-outs` for everything else.
//! The status of every function is kept in `tests/llvm/expected.txt` (`PATCHMAP_BLESS=1` rewrites it);
//! the test fails on every line that changed, better or worse.

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use patchmap::compile::Options;
use patchmap::stackmap::{object_file, Error as SectionError, LiveOut, LocationKind, Record, StackMap};
use support::Arch;

/// Functions the suite holds at least (an empty or truncated run fails).
const MIN_FUNCTIONS: usize = 200;

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/llvm")
}

/// One top-level entity of an IR file, as text.
#[derive(Debug)]
enum Entity {
    /// `define ... @name(...) { ... }`.
    Definition { name: String, text: String },
    /// A declaration or global (`declare`, `@g = ...`): included where it is referenced.
    Named { name: String, text: String },
    /// Types, metadata, attribute groups, comdats and `target datalayout`: kept in every module.
    Always(String),
}

/// The `@names` a piece of IR text refers to.
fn references(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'@' {
            let start = i + 1;
            let end = if bytes.get(start) == Some(&b'"') {
                text[start + 1..].find('"').map_or(bytes.len(), |n| start + n + 2)
            } else {
                start
                    + text[start..]
                        .find(|c: char| !(c.is_ascii_alphanumeric() || "_.$-".contains(c)))
                        .unwrap_or(text.len() - start)
            };
            // `@"name"` and `@name` are the same global.
            names.insert(text[start..end].trim_matches('"').to_string());
            i = end.max(start);
        } else {
            i += 1;
        }
    }
    names
}

/// The name a `define`, `declare` or global line gives (without `@`): the first global it names (a
/// function's comes after its return type, before any `personality` or `prefix` global).
fn defined_name(line: &str) -> Option<String> {
    if !(line.starts_with('@') || line.starts_with("define") || line.starts_with("declare")) {
        return None;
    }
    let at = line.find('@')?;
    let rest = &line[at + 1..];
    let name = match rest.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next()?,
        None => rest.split(|c: char| !(c.is_ascii_alphanumeric() || "_.$-".contains(c))).next()?,
    };
    Some(name.to_string())
}

/// The file's top-level entities. Comments and `target triple` (the test sets the triple) are dropped.
fn entities(text: &str) -> Vec<Entity> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with(';') || trimmed.starts_with("target triple") {
            continue;
        }
        if line.starts_with("define") {
            let mut body = format!("{line}\n");
            if !line.trim_end().ends_with('}') {
                for next in lines.by_ref() {
                    body.push_str(next);
                    body.push('\n');
                    if next.starts_with('}') {
                        break;
                    }
                }
            }
            if let Some(name) = defined_name(line) {
                out.push(Entity::Definition { name, text: body });
            }
            continue;
        }
        // Multi-line entities (a global's initialiser, an attribute group) run until brackets close.
        let mut entity = format!("{line}\n");
        let mut depth = bracket_depth(line);
        while depth > 0 {
            let Some(next) = lines.next() else { break };
            entity.push_str(next);
            entity.push('\n');
            depth += bracket_depth(next);
        }
        match defined_name(line) {
            Some(name) if line.starts_with('@') || line.starts_with("declare") => {
                out.push(Entity::Named { name, text: entity })
            }
            _ => out.push(Entity::Always(entity)),
        }
    }
    out
}

/// How many more brackets a line opens than it closes (its comment ignored).
fn bracket_depth(line: &str) -> i32 {
    let code = line.split(';').next().unwrap_or("");
    code.chars()
        .map(|c| {
            if "{[(".contains(c) {
                1
            } else if "}])".contains(c) {
                -1
            } else {
                0
            }
        })
        .sum()
}

/// A declaration standing for another defined function of the same file: its header, without
/// linkage a declaration cannot have and without what only a body needs (personality, prefix data).
fn declaration_of(definition: &str) -> String {
    // The header may span lines (parameters, `gc "..."`); it ends at the `{` that opens the body.
    let end = definition.find("{\n").unwrap_or(definition.len());
    let header = definition[..end].split_whitespace().collect::<Vec<_>>().join(" ");
    let header = header.as_str();
    let header = header.split(" personality ").next().unwrap_or(header);
    let mut words: Vec<&str> = header.split(' ').collect();
    words[0] = "declare";
    words.retain(|w| {
        !matches!(
            *w,
            "internal" | "private" | "linkonce" | "linkonce_odr" | "weak" | "weak_odr" | "available_externally"
        )
    });
    format!("{}\n", words.join(" "))
}

/// One module per defined function: the function, the declarations and globals it needs (other
/// functions of the file as declarations), and every type, metadata node and attribute group.
fn split(text: &str, triple: &str) -> Vec<(String, String)> {
    let entities = entities(text);
    let named: BTreeMap<&str, &str> = entities
        .iter()
        .filter_map(|e| match e {
            Entity::Named { name, text } => Some((name.as_str(), text.as_str())),
            _ => None,
        })
        .collect();
    let definitions: BTreeMap<&str, &str> = entities
        .iter()
        .filter_map(|e| match e {
            Entity::Definition { name, text } => Some((name.as_str(), text.as_str())),
            _ => None,
        })
        .collect();
    let mut modules = Vec::new();
    for entity in &entities {
        let Entity::Definition { name, text: body } = entity else { continue };
        let mut module = format!("target triple = \"{triple}\"\n");
        for e in &entities {
            if let Entity::Always(t) = e {
                module.push_str(t);
            }
        }
        // Globals can refer to further globals and functions: follow references to a fixed point.
        let mut included = BTreeSet::from([name.clone()]);
        let mut pending: Vec<String> = references(body).into_iter().collect();
        let mut extra = String::new();
        while let Some(reference) = pending.pop() {
            if !included.insert(reference.clone()) {
                continue;
            }
            if let Some(t) = named.get(reference.as_str()) {
                extra.push_str(t);
                pending.extend(references(t));
            } else if let Some(t) = definitions.get(reference.as_str()) {
                extra.push_str(&declaration_of(t));
            }
        }
        module.push_str(&extra);
        module.push_str(body);
        modules.push((name.clone(), module));
    }
    modules
}

/// What the file's first llc RUN line asks: the architecture, the optimisation level, and the flags
/// that shape code or records (passed on to llc-19 as written).
struct RunLine {
    arch: Arch,
    opt: char,
    flags: Vec<String>,
}

/// Flags of a RUN line that llc-19 gets too; the rest (output format, debug printing, stop-after)
/// would keep it from writing an object.
const KEPT_FLAGS: [&str; 11] = [
    "-code-model=",
    "-restrict-statepoint-remat",
    "-mcpu=",
    "-mattr=",
    "-enable-patchpoint-liveness",
    "-use-registers-for-deopt-values",
    "-max-registers-for-gc-values",
    "-fixup-allow-gcptr-in-csr",
    "-fixup-max-csr-statepoints",
    "-fast-isel",
    "-frame-pointer",
];

fn run_line(text: &str) -> Result<RunLine, String> {
    let line = text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("; RUN:"))
        .find(|l| l.contains("llc"))
        .ok_or("no llc RUN line")?;
    let command = line.split('|').next().unwrap_or(line);
    let triple = command
        .split_whitespace()
        .find_map(|w| w.strip_prefix("-mtriple=").or_else(|| w.strip_prefix("--mtriple=")))
        .map(|t| t.trim_matches('"').to_string())
        .or_else(|| {
            text.lines().find_map(|l| {
                l.strip_prefix("target triple = \"").and_then(|t| t.split('"').next()).map(str::to_string)
            })
        })
        .ok_or("no triple in the RUN line or the file")?;
    let arch = if triple.starts_with("x86_64") {
        Arch::X86_64
    } else if triple.starts_with("aarch64") || triple.starts_with("arm64") {
        Arch::Aarch64
    } else {
        return Err(format!("triple {triple} is neither x86-64 nor AArch64"));
    };
    let opt = command
        .split_whitespace()
        .find_map(|w| w.strip_prefix("-O").and_then(|l| l.chars().next()).filter(|c| c.is_ascii_digit()))
        .unwrap_or('2');
    let flags = command
        .split_whitespace()
        .filter(|w| KEPT_FLAGS.iter().any(|k| w.trim_start_matches('-').starts_with(k.trim_start_matches('-'))))
        .map(str::to_string)
        .collect();
    Ok(RunLine { arch, opt, flags })
}

/// A record with its locations' constant values (for `Constant` and `ConstantIndex` locations).
type ComparedRecord = (Record, Vec<Option<u64>>);

/// The records of an object, ordered by ID (code layout differs between the compilers).
fn records(object: &[u8]) -> Result<Vec<ComparedRecord>, String> {
    let maps: Vec<StackMap> = match object_file::read_models(object) {
        Ok((maps, _)) => maps,
        Err(SectionError::NoStackMapSection) => Vec::new(),
        Err(e) => return Err(format!("unreadable stack map section: {e}")),
    };
    let mut out: Vec<_> = maps
        .iter()
        .flat_map(|map| {
            map.records.iter().map(|r| (r.clone(), r.locations.iter().map(|l| map.constant_value(l)).collect()))
        })
        .collect();
    out.sort_by_key(|(r, _)| r.id);
    Ok(out)
}

/// How patchmap's records differ from llc-19's: the real differences (by what), and the
/// allocation-only ones (which register or slot), each with a line of detail.
#[derive(Default)]
struct Comparison {
    differs: BTreeSet<&'static str>,
    allocation: bool,
    details: Vec<String>,
}

fn compare(arch: Arch, ours: &[ComparedRecord], theirs: &[ComparedRecord]) -> Comparison {
    let mut c = Comparison::default();
    if ours.len() != theirs.len() {
        c.differs.insert("records");
        c.details.push(format!("{} records, llc-19 {}", ours.len(), theirs.len()));
        return c;
    }
    for ((r1, k1), (r2, k2)) in ours.iter().zip(theirs) {
        if r1.id != r2.id {
            c.differs.insert("ids");
            c.details.push(format!("record ID {}, llc-19 {}", r1.id, r2.id));
            continue;
        }
        let id = r1.id;
        if r1.locations.len() != r2.locations.len() {
            c.differs.insert("locations");
            c.details.push(format!("record {id}: {} locations, llc-19 {}", r1.locations.len(), r2.locations.len()));
        } else {
            for (i, (l1, l2)) in r1.locations.iter().zip(&r2.locations).enumerate() {
                let in_machine = |k| matches!(k, LocationKind::Register | LocationKind::Indirect);
                let same_class = l1.kind == l2.kind || (in_machine(l1.kind) && in_machine(l2.kind));
                if !same_class {
                    c.differs.insert("kinds");
                    c.details.push(format!("record {id} location {i}: {l1}, llc-19 {l2}"));
                } else if l1.size != l2.size {
                    c.differs.insert("sizes");
                    c.details.push(format!("record {id} location {i}: size {}, llc-19 {}", l1.size, l2.size));
                } else if matches!(l1.kind, LocationKind::Constant | LocationKind::ConstantIndex) {
                    if k1[i] != k2[i] {
                        c.differs.insert("constants");
                        c.details.push(format!("record {id} location {i}: {:?}, llc-19 {:?}", k1[i], k2[i]));
                    }
                } else if l1 != l2 {
                    c.allocation = true;
                    c.details.push(format!("record {id} location {i}: {l1}, llc-19 {l2} (allocation)"));
                }
            }
        }
        if r1.live_outs != r2.live_outs {
            let show =
                |r: &Record| r.live_outs.iter().map(|l| format!("R#{}:{}", l.dwarf_reg, l.size)).collect::<Vec<_>>();
            let (frame_pointer, rest) = live_out_difference(arch, r1, r2);
            if frame_pointer {
                c.differs.insert("live-outs(frame pointer)");
            }
            match rest {
                LiveOutRest::Same => {}
                LiveOutRest::Allocation => c.allocation = true,
                LiveOutRest::Other => {
                    c.differs.insert("live-outs");
                }
            }
            let note = if rest == LiveOutRest::Allocation { " (allocation)" } else { "" };
            c.details.push(format!("record {id}: live-outs {:?}, llc-19 {:?}{note}", show(r1), show(r2)));
        }
    }
    c
}

/// How two records' live-outs differ: whether patchmap lists the frame pointer and llc-19 does not
/// (by design), and how the rest differ.
fn live_out_difference(arch: Arch, ours: &Record, theirs: &Record) -> (bool, LiveOutRest) {
    let fp = arch.frame_pointer();
    let has_fp = |r: &Record| r.live_outs.iter().any(|l| l.dwarf_reg == fp);
    let extra_fp = has_fp(ours) && !has_fp(theirs);
    let rest =
        |r: &Record| r.live_outs.iter().filter(|l| !(extra_fp && l.dwarf_reg == fp)).copied().collect::<Vec<_>>();
    let (a, b) = (rest(ours), rest(theirs));
    if a == b {
        return (extra_fp, LiveOutRest::Same);
    }
    // Each register listed by one side only holds one of that side's recorded values, and the
    // registers both list agree in size.
    let held =
        |r: &Record, reg: u16| r.locations.iter().any(|l| l.kind == LocationKind::Register && l.dwarf_reg == reg);
    let only_held = |x: &[LiveOut], y: &[LiveOut], r: &Record| {
        x.iter().filter(|l| !y.iter().any(|m| m.dwarf_reg == l.dwarf_reg)).all(|l| held(r, l.dwarf_reg))
    };
    let common_agree = a.iter().all(|l| b.iter().all(|m| m.dwarf_reg != l.dwarf_reg || m == l));
    if common_agree && only_held(&a, &b, ours) && only_held(&b, &a, theirs) {
        (extra_fp, LiveOutRest::Allocation)
    } else {
        (extra_fp, LiveOutRest::Other)
    }
}

/// How live-outs differ beyond the frame pointer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LiveOutRest {
    Same,
    /// Only in registers that hold recorded values each compiler put in a different register.
    Allocation,
    Other,
}

/// The first words of an error message, without its position (which the split moves) and its details.
fn first_words(message: &str) -> String {
    let line = message.lines().next().unwrap_or("");
    // `file:line:col: message`: the position ends at the last ": " before the text.
    let text = match line.split_once(": ") {
        Some((position, rest)) if position.contains(':') || position.ends_with(".ll") => rest,
        _ => line,
    };
    let text = text.strip_prefix("error: ").unwrap_or(text);
    text.split_whitespace().take(8).collect::<Vec<_>>().join(" ")
}

/// One function's result: its expectation line and the detail the test prints.
struct Outcome {
    line: String,
    details: Vec<String>,
}

/// Compiles one module with both compilers and states how they compare.
fn measure(llc: &Path, dir: &Path, key: &str, module: &str, run: &RunLine) -> Outcome {
    let file = dir.join(format!("{}.ll", key.replace(['/', ':'], "_")));
    std::fs::write(&file, module).unwrap();
    let object = file.with_extension("o");
    let mut command = Command::new(llc);
    command
        .arg(format!("-O{}", run.opt))
        .arg("-filetype=obj")
        .arg(format!("-mtriple={}", run.arch.triple()))
        .args(&run.flags)
        .arg(&file)
        .arg("-o")
        .arg(&object);
    let outcome = |status: String, details| Outcome { line: format!("{key} {status}"), details };
    let (status, _, err) = support::run(&mut command);
    let reference = match std::fs::read(&object) {
        Ok(object) if status == 0 => object,
        _ => return outcome("llc-fails".into(), vec![format!("llc-19 status {status}: {}", err.trim())]),
    };
    let mut options = Options::new(Some(run.arch.triple()), if run.opt == '0' { "0" } else { "2" }, 3).unwrap();
    if run.flags.iter().any(|f| f.contains("use-registers-for-deopt-values")) {
        options = options.with_registers_for_deopt_values(true);
    }
    if let Some(n) = run.flags.iter().find_map(|f| f.split_once("max-registers-for-gc-values=")?.1.parse().ok()) {
        options = options.with_max_registers_for_gc_values(n);
    }
    let compiled = std::panic::catch_unwind(|| {
        let parsed = patchmap::ir::parse(&file.to_string_lossy(), module).map_err(|e| e.to_string())?;
        patchmap::emit::object::compile(&parsed, &options).map_err(|e| e.to_string())
    });
    let ours = match compiled {
        Ok(Ok(object)) => object,
        Ok(Err(e)) => return outcome(format!("refused {}", first_words(&e)), vec![e]),
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            return outcome(format!("differs panic {}", first_words(&message)), vec![message]);
        }
    };
    let (ours, theirs) = match (records(&ours), records(&reference)) {
        (Ok(ours), Ok(theirs)) => (ours, theirs),
        (Err(e), _) => return outcome(format!("differs section {}", first_words(&e)), vec![e]),
        (_, Err(e)) => return outcome("llc-fails".into(), vec![e]),
    };
    let c = compare(run.arch, &ours, &theirs);
    let status = if !c.differs.is_empty() {
        format!("differs {}", c.differs.iter().copied().collect::<Vec<_>>().join(","))
    } else if c.allocation {
        "allocation".into()
    } else {
        "agrees".into()
    };
    outcome(status, c.details)
}

/// Every test file of the suite, sorted, as `X86/name.ll`.
fn suite_files() -> Vec<(String, PathBuf)> {
    let mut files = Vec::new();
    for target in ["AArch64", "X86"] {
        for path in support::ll_files(&suite_dir().join(target)) {
            let name = format!("{target}/{}", path.file_name().unwrap().to_string_lossy());
            files.push((name, path));
        }
    }
    files
}

/// The counts of the report: how many functions have each status (the reason of `refused` and what
/// `differs` in, kept).
fn summary(lines: &[String]) -> String {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for line in lines {
        let status = line.split_once(' ').map_or("", |s| s.1);
        *counts.entry(status.to_string()).or_default() += 1;
    }
    let total = lines.len();
    let llc = lines.iter().filter(|l| !l.ends_with(" llc-fails")).count();
    let refused = lines.iter().filter(|l| l.contains(" refused ")).count();
    let mut text = format!("{total} functions, llc-19 compiles {llc}, patchmap compiles {}\n", llc - refused);
    for (status, n) in counts {
        text.push_str(&format!("  {n:4} {status}\n"));
    }
    text
}

#[test]
fn llvm_codegen_tests_agree_with_llc19_or_are_expected() {
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut jobs = Vec::new();
    let mut lines = Vec::new();
    for (name, path) in suite_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        match run_line(&text) {
            Ok(run) => {
                let run = std::sync::Arc::new(run);
                for (function, module) in split(&text, run.arch.triple()) {
                    jobs.push((format!("{name}:{function}"), module, run.clone()));
                }
            }
            Err(e) => panic!("{name}: {e}"),
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..std::thread::available_parallelism().map_or(2, |n| n.get()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((key, module, run)) = jobs.get(i) else { break };
                let outcome = measure(&llc, dir.path(), key, module, run);
                results.lock().unwrap().push((i, outcome));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    for (_, outcome) in &results {
        if !outcome.line.ends_with(" agrees") {
            eprintln!("{}", outcome.line);
            for detail in &outcome.details {
                eprintln!("    {detail}");
            }
        }
        lines.push(outcome.line.clone());
    }
    eprintln!("{}", summary(&lines));
    assert!(lines.len() >= MIN_FUNCTIONS, "only {} functions in {}", lines.len(), suite_dir().display());

    let expected_path = suite_dir().join("expected.txt");
    let mut actual = String::from(
        "# tests/stackmaps/llvm_tests.rs: one line per function of tests/llvm, `<file>:<function> <status>`.\n\
         # Rewritten by PATCHMAP_BLESS=1 cargo test --test stackmaps llvm_tests\n",
    );
    for line in &lines {
        actual.push_str(line);
        actual.push('\n');
    }
    if std::env::var("PATCHMAP_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&expected_path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    let status_of = |text: &str| -> BTreeMap<String, String> {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(|l| l.split_once(' ').map_or((l.to_string(), String::new()), |(k, s)| (k.into(), s.into())))
            .collect()
    };
    let (was, now) = (status_of(&expected), status_of(&actual));
    let mut changed = Vec::new();
    for (key, status) in &now {
        match was.get(key) {
            Some(old) if old == status => {}
            Some(old) => changed.push(format!("{key}: was `{old}`, now `{status}`")),
            None => changed.push(format!("{key}: new, `{status}`")),
        }
    }
    changed.extend(was.keys().filter(|k| !now.contains_key(*k)).map(|k| format!("{k}: no longer in the suite")));
    assert!(
        changed.is_empty(),
        "{} functions changed status against {} (PATCHMAP_BLESS=1 rewrites it):\n{}",
        changed.len(),
        expected_path.display(),
        changed.join("\n")
    );
}

#[test]
fn splitting_keeps_what_each_function_needs_and_nothing_else() {
    let text = "; RUN: llc -O0 -mtriple=arm64-apple-darwin -mattr=+reserve-x18 -stop-after=foo < %s | FileCheck %s
target datalayout = \"e-m:o-i64:64\"
target triple = \"arm64-apple-darwin\"
%pair = type { i64, i64 }
@g = global ptr @\"quoted name\"
declare void @\"quoted name\"()
declare void @unused()
declare i32 @a_personality(...)
define internal void @callee(i64 %a)
    gc \"statepoint-example\" {
  ret void
}
define void @caller() personality ptr @a_personality {
  call void @callee(i64 1)
  %v = load ptr, ptr @g
  ret void
}
attributes #0 = { nounwind }
";
    let run = run_line(text).unwrap();
    assert_eq!((run.arch, run.opt), (Arch::Aarch64, '0'));
    assert_eq!(run.flags, ["-mattr=+reserve-x18"]);
    let modules = split(text, run.arch.triple());
    let names: Vec<&str> = modules.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["callee", "caller"]);
    let caller = &modules[1].1;
    assert!(caller.starts_with(&format!("target triple = \"{}\"\n", Arch::Aarch64.triple())), "{caller}");
    assert!(!caller.contains("arm64-apple-darwin"), "{caller}");
    for kept in ["%pair = type", "target datalayout", "attributes #0", "@g = global", "declare void @\"quoted name\"()"]
    {
        assert!(caller.contains(kept), "{kept} missing from:\n{caller}");
    }
    // Another defined function becomes a declaration, without the linkage a declaration cannot have.
    assert!(caller.contains("declare void @callee(i64 %a) gc \"statepoint-example\"\n"), "{caller}");
    assert!(!caller.contains("@unused") && !caller.contains("define internal"), "{caller}");
    assert!(!modules[0].1.contains("@g ="), "{}", modules[0].1);
}
