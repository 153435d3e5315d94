//! Invalid IR inputs: each `tests/ir-errors/NAME.ll` starts with `; expect: LINE:COL: error: MESSAGE`
//! and must be rejected by parse + verify with exactly that message at that position (prefixed by
//! the path as passed). `PATCHMAP_BLESS=1` rewrites the expect lines from the actual errors, to be
//! reviewed in the diff.

use crate::support;

use std::path::{Path, PathBuf};

use patchmap::ir;

fn error_files() -> Vec<PathBuf> {
    support::ll_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ir-errors"))
}

fn expectation(text: &str) -> Option<&str> {
    text.lines().next()?.strip_prefix("; expect: ")
}

fn check(path: &Path) -> Result<(), String> {
    ir::parse_file(path).and_then(|m| ir::verify(&m)).map_err(|e| e.to_string())
}

#[test]
fn every_invalid_input_fails_with_its_message_and_position() {
    let bless = std::env::var("PATCHMAP_BLESS").is_ok_and(|v| v == "1");
    let files = error_files();
    assert!(files.len() >= 40, "only {} invalid inputs", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let Some(expect) = expectation(&text) else {
            failures.push(format!("{}: first line must be '; expect: LINE:COL: error: MESSAGE'", path.display()));
            continue;
        };
        let prefix = format!("{}:", path.display());
        let actual = match check(path) {
            Ok(()) => "(accepted)".to_string(),
            Err(e) => e.strip_prefix(&prefix).map(str::to_string).unwrap_or(e),
        };
        if actual != expect {
            if bless {
                let rest = text.split_once('\n').map_or("", |(_, r)| r);
                std::fs::write(path, format!("; expect: {actual}\n{rest}")).unwrap();
            } else {
                failures.push(format!("{}\n  got:  {actual}\n  want: {expect}", path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn check_command_reports_the_error_and_fails() {
    for name in ["undefined_value", "use_does_not_dominate", "unsupported_i128", "patchpoint_numargs_too_big"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/ir-errors/{name}.ll"));
        let text = std::fs::read_to_string(&path).unwrap();
        let expect = expectation(&text).unwrap();
        let (code, stdout, stderr) =
            support::run(std::process::Command::new(support::patchmap_bin()).arg("check").arg(&path));
        assert_ne!(code, 0, "{name}: patchmap check succeeded");
        assert_eq!(stderr.trim_end(), format!("{}:{expect}", path.display()), "{name}: stdout: {stdout}");
    }
}

#[test]
fn check_command_accepts_valid_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ok.ll");
    std::fs::write(&path, "define i64 @f(i64 %a) {\n  ret i64 %a\n}\n").unwrap();
    let (code, _, stderr) = support::run(std::process::Command::new(support::patchmap_bin()).arg("check").arg(&path));
    assert_eq!((code, stderr.as_str()), (0, ""));
}

#[test]
fn unreadable_and_non_utf8_files_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.ll");
    let e = ir::parse_file(&missing).unwrap_err();
    assert_eq!(e.span, ir::Span::default());
    assert!(e.message.starts_with("cannot read"), "{e}");
    let bad = dir.path().join("bad.ll");
    std::fs::write(&bad, b"; ok\n; \xff\n").unwrap();
    let e = ir::parse_file(&bad).unwrap_err();
    assert_eq!(e.to_string(), format!("{}:2:3: error: invalid UTF-8 in source text", bad.display()));
}

/// Inputs past patchmap's limits stop `compile` with their positioned error (the module is verified
/// before its globals and names reach Cranelift and `object`), not with a panic, an abort or gigabytes
/// of output.
#[test]
fn limits_stop_compilation_with_their_positioned_error() {
    let dir = tempfile::tempdir().unwrap();
    let object = dir.path().join("out.o");
    let compile = |path: &Path| {
        support::run(
            std::process::Command::new(support::patchmap_bin()).arg("compile").arg(path).arg("-o").arg(&object),
        )
    };
    for name in [
        "limit_alloca_align_2_31",
        "limit_deopt_call_patch_bytes_2_31",
        "limit_global_2_63_elements",
        "limit_global_align_2_31",
        "limit_patchpoint_bytes_65537",
        "limit_source_filename_nul",
        "limit_stackmap_shadow_2_31",
        "limit_statepoint_patch_bytes_2_31",
        "limit_type_nested_4000",
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/ir-errors/{name}.ll"));
        let expect = expectation(&std::fs::read_to_string(&path).unwrap()).unwrap().to_string();
        let (code, _, stderr) = compile(&path);
        assert_eq!((code, stderr.trim_end()), (1, format!("{}:{expect}", path.display()).as_str()), "{name}");
        assert!(!object.exists(), "{name}");
    }
    // Only the lowering knows which allocas live in the frame; Cranelift's own limit is 1 GiB.
    let path = dir.path().join("frame.ll");
    std::fs::write(
        &path,
        "define i64 @main() {\n  %a = alloca [300000000 x i8]\n  %b = alloca [300000000 x i8]\n  ret i64 0\n}\n",
    )
    .unwrap();
    let (code, _, stderr) = compile(&path);
    assert_eq!(
        (code, stderr.trim_end()),
        (
            1,
            format!(
                "{}:3:3: error: alloca of 1 x [300000000 x i8] does not fit in the stack frame: a function's \
                 allocas may take at most 536870912 bytes",
                path.display()
            )
            .as_str()
        )
    );
}

/// A statepoint whose `elementtype` contradicts its called target's declaration (result type,
/// argument count, result register class, argument type) is refused by the verifier on either
/// target, before the lowering (which used to panic or make Cranelift fail on each of them); with
/// patch bytes nothing is called, and the same declarations compile.
#[test]
fn statepoint_target_declarations_are_checked_against_elementtype_on_both_targets() {
    for name in [
        "statepoint_target_declared_other_result",
        "statepoint_target_declared_other_arg_count",
        "statepoint_target_declared_other_result_class",
        "statepoint_target_declared_other_arg_type",
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/ir-errors/{name}.ll"));
        let text = std::fs::read_to_string(&path).unwrap();
        let expect = expectation(&text).unwrap();
        let module = ir::parse("in.ll", &text).unwrap();
        for target in ["x86_64", "aarch64"] {
            let options = patchmap::compile::Options::new(Some(target), "speed", 3).unwrap();
            let error = patchmap::emit::object::compile(&module, &options).expect_err(name).to_string();
            assert_eq!(error, format!("in.ll:{expect}"), "{name} on {target}");
        }
        // The same call as a region of patch bytes: the target is not called.
        let patched = text.replace("(i64 1, i32 0, ptr elementtype", "(i64 1, i32 8, ptr elementtype");
        assert_ne!(patched, text, "{name}");
        let module = ir::parse("in.ll", &patched).unwrap();
        for target in ["x86_64", "aarch64"] {
            let options = patchmap::compile::Options::new(Some(target), "speed", 3).unwrap();
            patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{name} on {target}: {e}"));
        }
    }
}

/// `ir::parse` + `ir::verify`, then an object for `target`: the error text without the file name.
fn compile_for(text: &str, target: &str) -> Result<Vec<u8>, String> {
    let module = ir::parse("in.ll", text).map_err(|e| e.to_string())?;
    ir::verify(&module).map_err(|e| e.to_string())?;
    let options = patchmap::compile::Options::new(Some(target), "speed", 3).unwrap();
    patchmap::emit::object::compile(&module, &options).map_err(|e| e.to_string())
}

/// The location counts of the records of an object.
fn location_counts(object: &[u8]) -> Vec<usize> {
    let (maps, _) = patchmap::stackmap::object_file::read_models(object).unwrap();
    maps.iter().flat_map(|m| m.records.iter().map(|r| r.locations.len())).collect()
}

/// `in.ll:LINE:COL` of the `n`th (from 0) occurrence of `needle` in `text`.
fn position_of(text: &str, needle: &str, n: usize) -> String {
    let offset = text.match_indices(needle).nth(n).unwrap().0;
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    format!("in.ll:{}:{}", text[..offset].matches('\n').count() + 1, offset - line_start + 1)
}

/// A record counts its locations in 16 bits: one that would hold more is a positioned error naming
/// the limit (at 65536 the record used to be written with 0 locations, past it the register
/// allocator panicked), and a patch point's arguments and live values, which are all operands of one
/// instruction, are limited so that it fits the register allocator. At the limits, both targets
/// compile the record.
#[test]
fn records_past_65535_locations_are_positioned_errors() {
    /// What an input does: compile, with that many locations in its record, or fail at the `n`th
    /// (from 0) occurrence of a needle with a message.
    enum Expect {
        Compiles(usize),
        Fails(&'static str, usize, String),
    }
    use Expect::*;
    const LIMIT: usize = 65535;
    let stackmap = |n: usize| {
        format!(
            "declare void @llvm.experimental.stackmap(i64, i32, ...)\ndefine i64 @f(i64 %a) {{\n  call void (i64, i32, \
             ...) @llvm.experimental.stackmap(i64 1, i32 0{})\n  ret i64 %a\n}}\n",
            ", i64 %a".repeat(n)
        )
    };
    let patchpoint = |anyreg: bool, live: usize| {
        format!(
            "declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)\ndefine i64 @f(i64 %a) {{\n  %r = \
             call {}i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 1, i32 16, ptr null, i32 2, \
             i64 %a, i64 %a{})\n  ret i64 %r\n}}\n",
            if anyreg { "anyregcc " } else { "" },
            ", i64 %a".repeat(live)
        )
    };
    let statepoint = |deopt: &str| {
        format!(
            "declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)\ndeclare void @h()\n\
             define void @f(i64 %a, ptr addrspace(1) %p) gc \"statepoint-example\" {{\n{}  %t = call token (i64, i32, \
             ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 0, ptr elementtype(void ()) @h, i32 0, \
             i32 0, i32 0, i32 0) [ \"deopt\"({deopt}) ]\n  ret void\n}}\n",
            // Distinct GC pointers, for the (base, derived) pairs of deopt pointers.
            (0..22_000)
                .map(|i| format!("  %p{i} = getelementptr i8, ptr addrspace(1) %p, i64 {i}\n"))
                .collect::<String>()
        )
    };
    let deopt = |n: usize| vec!["i64 %a"; n].join(", ");
    let records = |n: usize| {
        format!(
            "this record would hold {n} locations: a stack map record holds at most {LIMIT} (the format counts them \
             in 16 bits)"
        )
    };
    let cases = vec![
        (stackmap(LIMIT), Compiles(LIMIT)),
        (stackmap(LIMIT + 1), Fails("%a", 1 + LIMIT, records(LIMIT + 1))),
        (stackmap(LIMIT + 2), Fails("%a", 1 + LIMIT, records(LIMIT + 2))),
        // anyregcc: the result and 2 arguments come first.
        (patchpoint(true, LIMIT - 3), Compiles(LIMIT)),
        (patchpoint(true, LIMIT - 2), Fails("%a", 1 + LIMIT - 1, records(LIMIT + 1))),
        // 2 arguments and 65532 live values: one instruction's 65534 operands, and its result and scratch.
        (patchpoint(false, LIMIT - 3), Compiles(LIMIT - 3)),
        (
            patchpoint(false, LIMIT - 2),
            Fails(
                "%a",
                1 + LIMIT - 1,
                "patchpoint with 65535 arguments and live values: at most 65534 fit in one instruction".to_string(),
            ),
        ),
        // 3 constants and the deopt values.
        (statepoint(&deopt(LIMIT - 3)), Compiles(LIMIT)),
        (
            statepoint(&deopt(LIMIT - 2)),
            Fails(
                "%a",
                1 + LIMIT - 3,
                format!(
                    "this statepoint's record would hold at least 65536 locations (3 and one per deopt value): a \
                     stack map record holds at most {LIMIT} (the format counts them in 16 bits)"
                ),
            ),
        ),
        // 22000 GC pointers: a location and a (base, derived) pair each, which only the lowering counts.
        (
            statepoint(&(0..22_000).map(|i| format!("ptr addrspace(1) %p{i}")).collect::<Vec<_>>().join(", ")),
            Fails(
                "%t = call",
                0,
                format!(
                    "this statepoint's record would hold 66003 locations: a stack map record holds at most {LIMIT} \
                     (the format counts them in 16 bits)"
                ),
            ),
        ),
    ];
    for (i, (text, expect)) in cases.iter().enumerate() {
        for target in ["x86_64", "aarch64"] {
            let result = compile_for(text, target);
            match expect {
                Compiles(count) => {
                    let object = result.unwrap_or_else(|e| panic!("case {i} on {target}: {e}"));
                    assert_eq!(location_counts(&object), [*count], "case {i} on {target}");
                }
                Fails(needle, n, message) => {
                    // The operand spans point at the value; "%a" also matches the parameter.
                    let want = format!("{}: error: {message}", position_of(text, needle, *n));
                    assert_eq!(result.err().as_deref(), Some(want.as_str()), "case {i} on {target}");
                }
            }
        }
    }
}

/// A shadow, patch point region or statepoint patch area of 64 KiB, the limit, compiles on both
/// targets into a record whose code is that long (past it, `tests/ir-errors/limit_*` are refused
/// before any code is written); a module's areas add up to at most 256 MiB, refused at the point that
/// crosses the limit.
#[test]
fn patch_areas_at_the_limit_compile_and_the_module_total_is_bounded() {
    const LIMIT: u32 = 1 << 16;
    let bodies = [
        format!("call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 {LIMIT}, i64 %a)"),
        format!(
            "call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 1, i32 {LIMIT}, ptr null, \
             i32 0, i64 %a)"
        ),
        format!(
            "%t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 1, i32 {LIMIT}, \
             ptr elementtype(void ()) @h, i32 0, i32 0, i32 0, i32 0) [ \"deopt\"(i64 %a) ]"
        ),
        "call void @h() #0 [ \"deopt\"(i64 %a) ]".to_string(),
    ];
    let module = |calls: &[String]| {
        format!(
            "declare void @llvm.experimental.stackmap(i64, i32, ...)\n\
             declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)\n\
             declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)\ndeclare void @h()\n\
             define i64 @f(i64 %a) gc \"statepoint-example\" {{\n{}  ret i64 %a\n}}\n\
             attributes #0 = {{ \"statepoint-num-patch-bytes\"=\"{LIMIT}\" }}\n",
            calls.iter().map(|c| format!("  {c}\n")).collect::<String>()
        )
    };
    for body in &bodies {
        let text = module(std::slice::from_ref(body));
        for target in ["x86_64", "aarch64"] {
            let object = compile_for(&text, target).unwrap_or_else(|e| panic!("{body} on {target}: {e}"));
            let file = object::File::parse(&*object).unwrap();
            let text_size = object::Object::section_by_name(&file, ".text").map(|s| object::ObjectSection::size(&s));
            assert!(text_size.unwrap() > u64::from(LIMIT), "{body} on {target}: .text of {text_size:?} bytes");
        }
    }
    // 4096 areas of 64 KiB are 256 MiB: the limit (checked, not compiled); one more crosses it.
    let calls: Vec<String> = (0..4097).map(|i| bodies[i % 2].clone()).collect();
    let check = |text: &str| ir::parse("in.ll", text).and_then(|m| ir::verify(&m)).map_err(|e| e.to_string());
    check(&module(&calls[..4096])).unwrap();
    let text = module(&calls);
    let last_call = text.lines().position(|l| l.starts_with("  call") || l.starts_with("  %t")).unwrap() + 4096 + 1;
    assert_eq!(
        check(&text).unwrap_err(),
        format!(
            "in.ll:{last_call}:3: error: the stack map shadows, patch point regions and statepoint patch areas of \
             this module add up to more than the limit, 268435456 bytes (patchmap writes them as nops)"
        )
    );
}

/// `getelementptr` constant expressions nested `depth` deep over `@g`, one byte further each.
fn nested_gep(depth: usize) -> String {
    format!("{}@g{}", "getelementptr (i8, ptr ".repeat(depth), ", i64 1)".repeat(depth))
}

/// Constant expressions and `elementtype` function types nest at most 256 deep: the parser recurses
/// once per level (10,000 levels overflowed the stack in `check`, 4,000 in 32 functions on worker
/// threads). At the limit, inside arrays nested as deep as types may be, a module of 32 functions
/// (read, verified and compiled on worker threads) compiles on both targets, prints, and
/// interprets, all on a thread of the tests' default 2 MiB stack, and `patchmap compile` compiles it
/// with `RUST_MIN_STACK` at 256 KiB (its workers' stacks are their own); one level more is an error
/// at the expression that goes too deep.
#[test]
fn expressions_nest_256_deep_and_no_deeper() {
    const LIMIT: usize = 256;
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            // An array of 255 levels of `[1 x ...]` around a pointer (256 levels of type with it).
            let (mut ty, mut value) = ("ptr".to_string(), nested_gep(LIMIT));
            for _ in 0..LIMIT - 1 {
                value = format!("[{ty} {value}]");
                ty = format!("[1 x {ty}]");
            }
            let functions: String = (0..32)
                .map(|k| {
                    format!(
                        "define i64 @f{k}(ptr %q) {{\n  store {ty} {value}, ptr %q\n  %l = load {ty}, ptr %q\n  \
                         %v = ptrtoint ptr {} to i64\n  %d = sub i64 %v, ptrtoint (ptr @g to i64)\n  ret i64 %d\n}}\n",
                        nested_gep(LIMIT)
                    )
                })
                .collect();
            let text = format!(
                "@g = global [300 x i8] zeroinitializer\n@a = global {ty} {value}\n@p = global ptr {}\n{functions}\
                 define i64 @main() {{\n  %s = alloca {ty}\n  %v = call i64 @f7(ptr %s)\n  ret i64 %v\n}}\n",
                nested_gep(LIMIT)
            );
            let module = ir::parse("in.ll", &text).unwrap_or_else(|e| panic!("{e}"));
            ir::verify(&module).unwrap_or_else(|e| panic!("{e}"));
            for target in ["x86_64", "aarch64"] {
                compile_for(&text, target).unwrap_or_else(|e| panic!("{target}: {e}"));
            }
            // The command line's workers have their own stacks, whatever `RUST_MIN_STACK` says.
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("deep.ll");
            std::fs::write(&path, &text).unwrap();
            for target in ["x86_64", "aarch64"] {
                let (code, _, stderr) = support::run(
                    std::process::Command::new(support::patchmap_bin())
                        .env("RUST_MIN_STACK", "262144")
                        .args(["compile", "--target", target, "-o"])
                        .arg(dir.path().join("deep.o"))
                        .arg(&path),
                );
                assert_eq!((code, stderr.as_str()), (0, ""), "{target}");
            }
            let printed = module.to_string();
            ir::parse("printed.ll", &printed).unwrap_or_else(|e| panic!("{e}"));
            let main = module.function_by_name("main").unwrap();
            let mut interp = patchmap::interp::Interpreter::new(&module);
            // SAFETY: `main` only touches its own frame and the module's globals.
            assert_eq!(unsafe { interp.call(main, &[]) }.unwrap(), Some(LIMIT as u64));

            // One level more, in a global, in an instruction, in an integer expression, in types.
            let past = [
                (format!("@g = global i8 0\n@p = global ptr {}\n", nested_gep(LIMIT + 1)), 2),
                (
                    format!(
                        "@g = global i8 0\ndefine i64 @f() {{\n  %v = ptrtoint ptr {} to i64\n  ret i64 %v\n}}\n",
                        nested_gep(LIMIT + 1)
                    ),
                    3,
                ),
                (format!("@p = global i64 {}1{}\n", "add (i64 ".repeat(LIMIT + 1), ", i64 1)".repeat(LIMIT + 1)), 1),
            ];
            for (text, line) in &past {
                let opener = if text.contains("add (") { "add (" } else { "getelementptr (" };
                let col = text.lines().nth(line - 1).unwrap().match_indices(opener).nth(LIMIT).unwrap().0 + 1;
                let want = format!("in.ll:{line}:{col}: error: constant expressions nested more than 256 deep");
                assert_eq!(ir::parse("in.ll", text).err().map(|e| e.to_string()), Some(want));
            }
            let elementtype = |depth: usize| {
                format!("declare void @h({}i64{})\n", "ptr elementtype(void (".repeat(depth), "))".repeat(depth))
            };
            ir::parse("in.ll", &elementtype(LIMIT)).unwrap_or_else(|e| panic!("{e}"));
            let text = elementtype(LIMIT + 1);
            let col = text.match_indices("elementtype").nth(LIMIT).unwrap().0 + 1;
            assert_eq!(
                ir::parse("in.ll", &text).err().map(|e| e.to_string()),
                Some(format!("in.ll:1:{col}: error: function types in 'elementtype' nested more than 256 deep"))
            );
        })
        .unwrap()
        .join()
        .unwrap();
}
