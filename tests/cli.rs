//! The command line: exit statuses, messages and outputs of `compile`, `run`, `check` and `demo`.

mod support;

use std::process::Command;

use object::{Object, ObjectSection, ObjectSymbol};

fn patchmap(args: &[&str]) -> (i32, String, String) {
    support::run(Command::new(support::patchmap_bin()).args(args))
}

const ADD: &str =
    "define i64 @add3(i64 %a, i64 %b, i64 %c) {\n  %s = add i64 %a, %b\n  %t = sub i64 %s, %c\n  ret i64 %t\n}\n\
define i32 @narrow(i32 %x) {\n  %y = mul i32 %x, 65536\n  ret i32 %y\n}\n";

#[test]
fn run_calls_the_entry_with_integer_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("add.ll");
    std::fs::write(&ll, ADD).unwrap();
    let ll = ll.to_str().unwrap();
    let (code, out, err) = patchmap(&["run", ll, "--entry", "add3", "40", "5", "-7"]);
    assert_eq!((code, out.as_str()), (0, "52\n"), "stderr: {err}");
    // An i32 result is sign-extended from 32 bits: 65536 * 65536 wraps to 0, 40000 * 65536 is negative.
    let (code, out, _) = patchmap(&["run", ll, "--entry", "narrow", "40000"]);
    assert_eq!((code, out.as_str()), (0, format!("{}\n", 40000i32.wrapping_mul(65536)).as_str()));
    let (code, _, err) = patchmap(&["run", ll, "--entry", "add3", "1"]);
    assert_ne!(code, 0);
    assert!(err.contains("'add3' takes 3 arguments, 1 given"), "{err}");
    let (code, _, err) = patchmap(&["run", ll, "--entry", "missing"]);
    assert_ne!(code, 0);
    assert!(err.contains("no function named 'missing'"), "{err}");
}

#[test]
fn run_interpret_prints_what_the_jit_prints_and_reports_errors_with_their_position() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("add.ll");
    std::fs::write(&ll, ADD).unwrap();
    let ll = ll.to_str().unwrap();
    let (code, out, err) = patchmap(&["run", ll, "--interpret", "--entry", "add3", "40", "5", "-7"]);
    assert_eq!((code, out.as_str()), (0, "52\n"), "stderr: {err}");
    let (code, out, _) = patchmap(&["run", ll, "--interpret", "--entry", "narrow", "40000"]);
    assert_eq!((code, out.as_str()), (0, format!("{}\n", 40000i32.wrapping_mul(65536)).as_str()));
    let (code, _, err) = patchmap(&["run", ll, "--interpret", "--entry", "missing"]);
    assert_eq!((code, err.as_str()), (1, "patchmap: error: no function named 'missing'\n"));
    // putchar output comes first, then the result; undefined behaviour is an error, not a crash.
    let div = dir.path().join("div.ll");
    std::fs::write(
        &div,
        "declare i32 @putchar(i32)\ndefine i32 @main(i32 %d) {\n  call i32 @putchar(i32 72)\n  \
         %q = sdiv i32 7, %d\n  ret i32 %q\n}\n",
    )
    .unwrap();
    let div = div.to_str().unwrap();
    let (code, out, err) = patchmap(&["run", div, "--interpret", "--", "-2"]);
    assert_eq!((code, out.as_str()), (0, "H-3\n"), "stderr: {err}");
    let (code, out, err) = patchmap(&["run", div, "--interpret", "0"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (1, "H", format!("{div}:4:3: error: in @main: sdiv by zero\n").as_str())
    );
}

#[test]
fn compile_writes_an_elf_object_for_each_target() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("add.ll");
    std::fs::write(&ll, ADD).unwrap();
    for (target, arch) in [("x86_64", object::Architecture::X86_64), ("aarch64", object::Architecture::Aarch64)] {
        let out = dir.path().join(format!("add.{target}.o"));
        let (code, _, err) =
            patchmap(&["compile", ll.to_str().unwrap(), "-o", out.to_str().unwrap(), "--target", target, "-O", "none"]);
        assert_eq!(code, 0, "{err}");
        let bytes = std::fs::read(&out).unwrap();
        let file = object::File::parse(&*bytes).unwrap();
        assert_eq!(file.architecture(), arch);
        assert_eq!(file.kind(), object::ObjectKind::Relocatable);
        let names: Vec<_> = file.symbols().filter_map(|s| s.name().ok().map(str::to_owned)).collect();
        assert!(names.iter().any(|n| n == "add3") && names.iter().any(|n| n == "narrow"), "{names:?}");
        let eh_frame = file.section_by_name(".eh_frame").expect("an .eh_frame section");
        assert!(eh_frame.size() > 0 && eh_frame.relocations().count() == 2, "one FDE relocation per function");
    }
}

#[test]
fn compile_rejects_a_triple_that_contradicts_the_target() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("arm.ll");
    std::fs::write(&ll, format!("target triple = \"aarch64-unknown-linux-gnu\"\n{ADD}")).unwrap();
    let out = dir.path().join("arm.o");
    let (code, _, err) =
        patchmap(&["compile", ll.to_str().unwrap(), "-o", out.to_str().unwrap(), "--target", "x86_64"]);
    assert_ne!(code, 0);
    assert!(err.contains("target triple 'aarch64-unknown-linux-gnu' contradicts --target x86_64"), "{err}");
    assert!(!out.exists(), "no object is written on error");
    // Without --target the module's own triple decides.
    let (code, _, err) = patchmap(&["compile", ll.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(object::File::parse(&*bytes).unwrap().architecture(), object::Architecture::Aarch64);
}

#[test]
fn compile_reports_ir_errors_with_their_position() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("bad.ll");
    std::fs::write(&ll, "define i64 @f(i64 %a) {\n  %s = add i64 %a, %nope\n  ret i64 %s\n}\n").unwrap();
    let out = dir.path().join("bad.o");
    let (code, _, err) = patchmap(&["compile", ll.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.starts_with(&format!("{}:2:", ll.display())) && err.contains("error:"), "{err}");
    assert!(!out.exists());
}

#[test]
fn unknown_targets_and_levels_are_refused() {
    let (code, _, err) = patchmap(&["compile", "x.ll", "-o", "x.o", "--target", "riscv64"]);
    assert_ne!(code, 0);
    assert!(err.contains("unsupported target architecture 'riscv64'"), "{err}");
    let (code, _, err) = patchmap(&["compile", "x.ll", "-o", "x.o", "-O", "3"]);
    assert_ne!(code, 0);
    assert!(err.contains("invalid value '3'"), "{err}");
}

#[test]
fn demo_compiles_and_runs_its_embedded_program() {
    let (code, out, err) = patchmap(&["demo"]);
    assert_eq!(code, 0, "{err}");
    for expected in
        ["x86_64: a ", "aarch64: a ", "LLVM StackMap Version: 3", "Record ID: 40", "S41 ", "main() returned 19\n"]
    {
        assert!(out.contains(expected), "{expected:?} missing from:\n{out}");
    }
    assert_eq!(out.matches("S40 ").count(), 5, "five loop iterations:\n{out}");
}

#[test]
fn compile_and_run_verify_before_lowering() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("bad.ll");
    // Parses, but %s is used before its definition dominates the use.
    std::fs::write(
        &ll,
        "define i64 @main() {\nentry:\n  br label %b\nb:\n  ret i64 %s\nc:\n  %s = add i64 1, 2\n  br label %b\n}\n",
    )
    .unwrap();
    let out = dir.path().join("bad.o");
    for args in [
        vec!["compile", ll.to_str().unwrap(), "-o", out.to_str().unwrap()],
        vec!["run", ll.to_str().unwrap()],
        vec!["run", ll.to_str().unwrap(), "--interpret"],
    ] {
        let (code, _, err) = patchmap(&args);
        assert_ne!(code, 0, "{args:?}");
        assert!(err.starts_with(&format!("{}:5:", ll.display())) && err.contains("dominate"), "{args:?}: {err}");
    }
}
