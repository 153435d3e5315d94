//! Invalid IR inputs: each `tests/ir-errors/NAME.ll` starts with `; expect: LINE:COL: error: MESSAGE`
//! and must be rejected by parse + verify with exactly that message at that position (prefixed by
//! the path as passed). `PATCHMAP_BLESS=1` rewrites the expect lines from the actual errors, to be
//! reviewed in the diff.

mod support;

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
        "limit_global_2_63_elements",
        "limit_global_align_2_31",
        "limit_source_filename_nul",
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
