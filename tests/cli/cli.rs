//! The command line: exit statuses, messages and outputs of `compile`, `run`, `check` and `demo`.

use crate::support;

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
fn a_large_module_compiles_to_the_object_the_library_makes() {
    // Over the size from which `compile` reserves its heap in huge pages (`heap_in_huge_pages`):
    // that allocator set-up must not change what is compiled.
    let mut text = String::new();
    for i in 0..1500 {
        text.push_str(&format!(
            "define i64 @f{i}(i64 %a, i64 %b) {{\nentry:\n  %s = add i64 %a, {i}\n  %t = mul i64 %s, %b\n  \
             %c = icmp slt i64 %t, 0\n  br i1 %c, label %neg, label %pos\nneg:\n  %n = sub i64 0, %t\n  \
             ret i64 %n\npos:\n  ret i64 %t\n}}\n"
        ));
    }
    assert!(text.len() > 256 << 10, "{} bytes", text.len());
    let dir = tempfile::tempdir().unwrap();
    let (ll, out) = (dir.path().join("large.ll"), dir.path().join("large.o"));
    std::fs::write(&ll, &text).unwrap();
    for opt in ["speed", "none"] {
        let (code, _, err) =
            patchmap(&["compile", ll.to_str().unwrap(), "-o", out.to_str().unwrap(), "--target", "x86_64", "-O", opt]);
        assert_eq!(code, 0, "{err}");
        let module = patchmap::ir::parse(ll.to_str().unwrap(), &text).unwrap();
        let options = patchmap::compile::Options::new(Some("x86_64"), opt, 1).unwrap();
        let expected = patchmap::emit::object::compile(&module, &options).unwrap();
        assert!(std::fs::read(&out).unwrap() == expected, "-O {opt}: the command's object differs from the library's");
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
    assert_eq!(
        err.trim_end(),
        format!(
            "{}:1:1: error: the module's target triple 'aarch64-unknown-linux-gnu' contradicts --target \
             x86_64-unknown-linux-gnu",
            ll.display()
        )
    );
    assert!(!out.exists(), "no object is written on error");
    // Without --target the module's own triple decides.
    let (code, _, err) = patchmap(&["compile", ll.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(object::File::parse(&*bytes).unwrap().architecture(), object::Architecture::Aarch64);
}

/// An unusable `target triple` is named at its line, with or without `--target`; so is one `run`
/// cannot execute on this host.
#[test]
fn unusable_module_triples_are_positioned_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.o");
    for (triple, message) in [
        ("riscv64-unknown-linux-gnu", "unsupported target architecture 'riscv64' (supported: x86_64, aarch64)"),
        (
            "x86_64-apple-darwin",
            "unsupported object format 'macho' for 'x86_64-apple-darwin' (supported: ELF, e.g. \
          x86_64-unknown-linux-gnu)",
        ),
        ("not a triple", "invalid target triple 'not a triple': "),
    ] {
        let ll = dir.path().join("t.ll");
        std::fs::write(&ll, format!("; a comment\n  target triple = \"{triple}\"\n{ADD}")).unwrap();
        for target in [None, Some("x86_64")] {
            let mut args = vec!["compile", ll.to_str().unwrap(), "-o", out.to_str().unwrap()];
            args.extend(target.iter().flat_map(|t| ["--target", *t]));
            let (code, _, err) = patchmap(&args);
            assert_ne!(code, 0);
            let want = format!("{}:2:3: error: {message}", ll.display());
            assert!(err.starts_with(&want), "{triple} with --target {target:?}:\n  got:  {err}\n  want: {want}");
            assert!(!out.exists());
        }
    }
    let (host, other) = if cfg!(target_arch = "x86_64") { ("x86_64", "aarch64") } else { ("aarch64", "x86_64") };
    let ll = dir.path().join("other.ll");
    std::fs::write(&ll, format!("target triple = \"{other}-unknown-linux-gnu\"\n{ADD}")).unwrap();
    let (code, _, err) = patchmap(&["run", ll.to_str().unwrap(), "--entry", "add3", "1", "2", "3"]);
    assert_ne!(code, 0);
    let want = format!(
        "{}:1:1: error: cannot run {other}-unknown-linux-gnu code on this {host}-unknown-linux-gnu host",
        ll.display()
    );
    assert_eq!(err.trim_end(), want);
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
        ["x86-64: a ", "AArch64: a ", "LLVM StackMap Version: 3", "Record ID: 40", "S41 ", "main() returned 19\n"]
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

/// `patchmap` run in `dir` (so relative outputs such as `-` land there).
fn patchmap_in(dir: &std::path::Path, args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = Command::new(support::patchmap_bin()).args(args).current_dir(dir).output().unwrap();
    (out.status.code().unwrap_or(-1), out.stdout, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("add.ll"), ADD).unwrap();
    std::fs::copy(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ir-examples/sm_loop.ll"), d.join("sm.ll"))
        .unwrap();
    let (code, _, err) = patchmap_in(d, &["compile", "sm.ll", "-o", "sm.o"]);
    assert_eq!(code, 0, "{err}");
    let object = std::fs::read(d.join("sm.o")).unwrap();
    std::fs::hard_link(d.join("add.ll"), d.join("alias.ll")).unwrap();
    std::os::unix::fs::symlink(d.join("sm.o"), d.join("link.o")).unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    for args in [
        &["compile", "add.ll", "-o", "add.ll"][..],
        &["compile", "add.ll", "-o", "sub/../add.ll"],
        &["compile", "add.ll", "-o", "alias.ll"],
        &["convert", "sm.o", "--to-version", "3", "-o", "sm.o"],
        &["convert", "sm.o", "--to-version", "2", "-o", "link.o"],
    ] {
        let (code, _, err) = patchmap_in(d, args);
        assert_ne!(code, 0, "{args:?}");
        assert!(err.contains("is the input"), "{args:?}: {err}");
    }
    assert_eq!(std::fs::read_to_string(d.join("add.ll")).unwrap(), ADD);
    assert_eq!(std::fs::read(d.join("sm.o")).unwrap(), object);
}

#[test]
fn dash_writes_objects_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ir-examples/sm_loop.ll"), d.join("sm.ll"))
        .unwrap();
    let (code, object, err) = patchmap_in(d, &["compile", "sm.ll", "-o", "-", "--target", "x86_64"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(object::File::parse(&*object).unwrap().kind(), object::ObjectKind::Relocatable);
    std::fs::write(d.join("sm.o"), &object).unwrap();
    let (code, v2, err) = patchmap_in(d, &["convert", "sm.o", "--to-version", "2", "-o", "-"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v2, patchmap::stackmap::object_file::convert(&object, 2).unwrap());
    assert!(!d.join("-").exists(), "a file named '-' was created");
}

#[test]
fn outputs_replace_the_destination_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("add.ll"), ADD).unwrap();
    std::fs::write(d.join("add.o"), "the previous output").unwrap();
    // A reader of the previous file keeps reading all of it: the new object is a new file renamed
    // into place, not the old one truncated and rewritten.
    let mut previous = std::fs::File::open(d.join("add.o")).unwrap();
    let (code, _, err) = patchmap_in(d, &["compile", "add.ll", "-o", "add.o"]);
    assert_eq!(code, 0, "{err}");
    let mut old = String::new();
    std::io::Read::read_to_string(&mut previous, &mut old).unwrap();
    assert_eq!(old, "the previous output");
    let new = std::fs::read(d.join("add.o")).unwrap();
    assert!(object::File::parse(&*new).is_ok());
    let names: Vec<_> = std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "a temporary file was left behind: {names:?}");
    // Not the temporary file's 0600: the umask's usual result.
    let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(d.join("add.o")).unwrap().permissions());
    assert_ne!(mode & 0o044, 0, "mode {mode:o}");
    // A device is written, not replaced.
    let (code, _, err) = patchmap_in(d, &["compile", "add.ll", "-o", "/dev/null"]);
    assert_eq!(code, 0, "{err}");
    assert!(std::os::unix::fs::FileTypeExt::is_char_device(&std::fs::metadata("/dev/null").unwrap().file_type()));
}

#[test]
fn endless_inputs_end_with_the_size_limit() {
    let (code, _, err) = patchmap(&["check", "/dev/zero"]);
    assert_ne!(code, 0);
    assert!(err.contains("/dev/zero") && err.contains("input size limit"), "{err}");
    // A FIFO fed without end.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    // The writer is connected before `patchmap` opens the FIFO (a FIFO without one is refused): a
    // reader held here lets it open without waiting, and going away ends its writes (EPIPE).
    let keeper = std::fs::OpenOptions::new().read(true).write(true).open(&fifo).unwrap();
    let mut pipe = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b' '; 1 << 16];
        while std::io::Write::write_all(&mut pipe, &chunk).is_ok() {}
    });
    let (code, _, err) = patchmap(&["dump", fifo.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("input size limit"), "{err}");
    drop(keeper);
    writer.join().unwrap();
}

/// A fault in JIT code is reported with its kind, the function and the offset (from Cranelift's trap
/// records), and then ends the process with the signal, as it would have without the report.
#[test]
fn run_reports_faults_in_generated_code_with_their_kind_and_place() {
    use std::os::unix::process::ExitStatusExt;
    if !support::host_has(matches!(std::env::consts::ARCH, "x86_64" | "aarch64"), "a JIT for this host") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("faults.ll");
    std::fs::write(
        &ll,
        "define i64 @div(i64 %a, i64 %b) {\n  %q = sdiv i64 %a, %b\n  ret i64 %q\n}\n\
         define i64 @load(i64 %a) {\n  %p = inttoptr i64 %a to ptr\n  %v = load i64, ptr %p\n  ret i64 %v\n}\n\
         define i64 @unr(i64 %a) {\n  unreachable\n}\n",
    )
    .unwrap();
    let cases: [(&[&str], &str, i32); 4] = [
        (&["div", "7", "0"], "integer division by zero (", libc::SIGILL),
        (&["div", "-9223372036854775808", "-1"], "integer overflow in a division (", libc::SIGFPE),
        (
            &["load", "16"],
            "invalid memory access at address 0x10 (SIGSEGV) in function 'load' at offset 0x",
            libc::SIGSEGV,
        ),
        (&["unr", "1"], "'unreachable' reached (", libc::SIGILL),
    ];
    for (args, message, signal) in cases {
        let out = Command::new(support::patchmap_bin())
            .args(["run", ll.to_str().unwrap(), "--entry", args[0], "--"])
            .args(&args[1..])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("patchmap: error: ") && err.contains(message), "{args:?}: {err}");
        assert!(err.contains(&format!("in function '{}' at offset 0x", args[0])), "{args:?}: {err}");
        // AArch64 checks division in code (SIGILL for both division faults); x86-64's idiv raises SIGFPE.
        let got = out.status.signal();
        assert!(
            got == Some(signal) || (signal == libc::SIGFPE && got == Some(libc::SIGILL)),
            "{args:?}: {:?}",
            out.status
        );
    }
}

#[test]
fn a_reader_that_goes_away_ends_the_output_without_a_panic() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(support::patchmap_bin())
        .arg("demo")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the pipe before the demo has written all of its output.
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `-o -` with standard output opened on the input (`1<> input`) is refused before anything is
/// written: the input stays whole.
#[test]
fn standard_output_that_is_the_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ir-examples/sm_loop.ll"), d.join("sm.ll"))
        .unwrap();
    let (code, _, err) = patchmap_in(d, &["compile", "sm.ll", "-o", "sm.o"]);
    assert_eq!(code, 0, "{err}");
    let object = std::fs::read(d.join("sm.o")).unwrap();
    let source = std::fs::read(d.join("sm.ll")).unwrap();
    for (args, input, contents) in [
        (&["convert", "sm.o", "--to-version", "2", "-o", "-"][..], "sm.o", &object),
        (&["compile", "sm.ll", "-o", "-"], "sm.ll", &source),
    ] {
        // Read and write, not truncated: the shell's `1<>`.
        let stdout = std::fs::OpenOptions::new().read(true).write(true).open(d.join(input)).unwrap();
        let out = Command::new(support::patchmap_bin()).args(args).current_dir(d).stdout(stdout).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        assert!(err.contains("standard output is the input"), "{args:?}: {err}");
        assert_eq!(&std::fs::read(d.join(input)).unwrap(), contents, "{args:?}: the input changed");
    }
    // Another file as standard output is written.
    let other = std::fs::File::create(d.join("other.o")).unwrap();
    let out = Command::new(support::patchmap_bin())
        .args(["convert", "sm.o", "--to-version", "2", "-o", "-"])
        .current_dir(d)
        .stdout(other)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        std::fs::read(d.join("other.o")).unwrap(),
        patchmap::stackmap::object_file::convert(&object, 2).unwrap()
    );
}

/// `check`, `dump`, `compile` and `convert` on a FIFO that no writer has opened end at once with an
/// error instead of waiting for one forever.
#[test]
fn a_fifo_without_a_writer_is_refused_without_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let fifo = fifo.to_str().unwrap();
    let out = dir.path().join("out.o");
    let out = out.to_str().unwrap();
    for args in [
        &["check", fifo][..],
        &["dump", fifo],
        &["compile", fifo, "-o", out],
        &["convert", fifo, "--to-version", "2", "-o", out],
    ] {
        let mut child = Command::new(support::patchmap_bin())
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > std::time::Duration::from_secs(20) {
                child.kill().unwrap();
                child.wait().unwrap();
                panic!("{args:?} waited for a writer");
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert_eq!(status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(fifo) && err.contains("a FIFO with no writer"), "{args:?}: {err}");
    }
}

/// Unbounded recursion in JIT code is reported as a stack overflow (the fault lies at the stack's
/// limit), not as an invalid memory access, and ends the process with the signal.
#[test]
fn run_reports_unbounded_recursion_as_a_stack_overflow() {
    use std::os::unix::process::ExitStatusExt;
    if !support::host_has(matches!(std::env::consts::ARCH, "x86_64" | "aarch64"), "a JIT for this host") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("recursion.ll");
    std::fs::write(
        &ll,
        "define i64 @rec(i64 %n) {\n  %m = add i64 %n, 1\n  %r = call i64 @rec(i64 %m)\n  %s = add i64 %r, %n\n  \
         ret i64 %s\n}\ndefine i64 @main() {\n  %r = call i64 @rec(i64 0)\n  ret i64 %r\n}\n",
    )
    .unwrap();
    let out = Command::new(support::patchmap_bin()).args(["run", ll.to_str().unwrap()]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("patchmap: error: stack overflow at address 0x") && err.contains("in function 'rec' at offset"),
        "{err}"
    );
    assert!(matches!(out.status.signal(), Some(libc::SIGSEGV | libc::SIGBUS)), "{:?}", out.status);
}

/// The names in `dir`, sorted.
fn dir_names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// A 64 MiB object: a zero global in a named section holds its bytes.
const LARGE: &str = "@big = global [67108864 x i8] zeroinitializer, section \".mydata\"\n\
define i64 @main() {\n  ret i64 0\n}\n";

/// A signal during the write of an output removes the temporary file and keeps the previous
/// destination. SIGXFSZ from a file size limit interrupts the write at a known byte, every time.
#[test]
fn a_signal_during_a_write_leaves_no_temporary_file() {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("large.ll"), LARGE).unwrap();
    std::fs::write(d.join("large.o"), "the previous output").unwrap();
    let mut command = Command::new(support::patchmap_bin());
    command.args(["compile", "large.ll", "-o", "large.o"]).current_dir(d);
    // SAFETY: setrlimit is async-signal-safe, as the child's code before exec must be.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit { rlim_cur: 1 << 20, rlim_max: 1 << 20 };
            match libc::setrlimit(libc::RLIMIT_FSIZE, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        })
    };
    let out = command.output().unwrap();
    assert_eq!(out.status.signal(), Some(libc::SIGXFSZ), "{:?} {}", out.status, String::from_utf8_lossy(&out.stderr));
    assert_eq!(dir_names(d), ["large.ll", "large.o"], "a temporary file was left behind");
    assert_eq!(std::fs::read(d.join("large.o")).unwrap(), b"the previous output");
}

/// SIGTERM, SIGINT and SIGHUP sent while an output is being written (its temporary file exists and
/// the destination does not yet) remove the temporary file. The signal is sent as soon as the file
/// appears; a run that ends before it is sent proves nothing and is tried again.
#[test]
fn termination_during_a_write_leaves_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("large.ll"), LARGE).unwrap();
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        let mut caught = false;
        for _attempt in 0..10 {
            let _ = std::fs::remove_file(d.join("large.o"));
            let mut command = Command::new(support::patchmap_bin());
            command.args(["compile", "large.ll", "-o", "large.o"]).current_dir(d).stderr(std::process::Stdio::null());
            // A signal ignored here (`nohup`) would stay ignored in patchmap, as it should.
            // SAFETY: signal(2) is async-signal-safe, as the child's code before exec must be.
            unsafe {
                std::os::unix::process::CommandExt::pre_exec(&mut command, move || {
                    libc::signal(signal, libc::SIG_DFL);
                    Ok(())
                })
            };
            let mut child = command.spawn().unwrap();
            let start = std::time::Instant::now();
            let mut sent = false;
            while child.try_wait().unwrap().is_none() && start.elapsed() < std::time::Duration::from_secs(60) {
                if dir_names(d).iter().any(|n| n.ends_with(".tmp")) {
                    // SAFETY: kill(2) on our own child, which has not been waited for.
                    unsafe { libc::kill(child.id() as libc::pid_t, signal) };
                    sent = true;
                    break;
                }
            }
            let status = child.wait().unwrap();
            if sent && status.signal() == Some(signal) && !d.join("large.o").exists() {
                assert_eq!(dir_names(d), ["large.ll"], "signal {signal}: a temporary file was left behind");
                caught = true;
                break;
            }
        }
        assert!(caught, "signal {signal}: never caught a write in progress");
    }
    // Under `nohup` a hangup during the write is ignored, as it would be without the cleanup.
    let _ = std::fs::remove_file(d.join("large.o"));
    let mut command = Command::new(support::patchmap_bin());
    command.args(["compile", "large.ll", "-o", "large.o"]).current_dir(d);
    // SAFETY: signal(2) is async-signal-safe, as the child's code before exec must be.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut command, || {
            libc::signal(libc::SIGHUP, libc::SIG_IGN);
            Ok(())
        })
    };
    let mut child = command.spawn().unwrap();
    while child.try_wait().unwrap().is_none() {
        if dir_names(d).iter().any(|n| n.ends_with(".tmp")) {
            // SAFETY: kill(2) on our own child, which has not been waited for.
            unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGHUP) };
            break;
        }
    }
    assert_eq!(child.wait().unwrap().code(), Some(0));
    assert_eq!(dir_names(d), ["large.ll", "large.o"]);
}

/// `--max-registers-for-gc-values N` and `--use-registers-for-deopt-values`: with them, a
/// statepoint's record names registers; `--max-registers-for-gc-values 0`, the default, writes the
/// very bytes of a compile without the options.
#[test]
fn statepoint_register_options_put_values_in_registers_and_default_to_slots() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ir-examples");
    std::fs::copy(examples.join("gc_loop.ll"), d.join("gc.ll")).unwrap();
    for target in ["x86_64", "aarch64"] {
        let compile = |extra: &[&str]| {
            let mut args = vec!["compile", "gc.ll", "-o", "-", "--target", target];
            args.extend_from_slice(extra);
            let (code, object, err) = patchmap_in(d, &args);
            assert_eq!(code, 0, "{target} {extra:?}: {err}");
            object
        };
        let plain = compile(&[]);
        assert_eq!(compile(&["--max-registers-for-gc-values", "0"]), plain, "{target}");
        let registers = compile(&["--max-registers-for-gc-values", "4", "--use-registers-for-deopt-values"]);
        let dump = |object: &[u8], name: &str| {
            std::fs::write(d.join(name), object).unwrap();
            let (code, text, err) = patchmap_in(d, &["dump", name]);
            assert_eq!(code, 0, "{err}");
            String::from_utf8(text).unwrap()
        };
        let (plain, registers) = (dump(&plain, "plain.o"), dump(&registers, "registers.o"));
        // gc_loop's statepoint 300 has one deopt value in a register either way (llc-19 -O2 keeps
        // its loop counter there too); the options add the GC pointers and the other deopt values.
        let count = |text: &str| text.matches("Register R#").count();
        assert!(count(&registers) > count(&plain), "{target}:\n{plain}\n{registers}");
    }
    let (code, _, err) = patchmap(&["compile", "x.ll", "-o", "x.o", "--max-registers-for-gc-values", "many"]);
    assert_ne!(code, 0);
    assert!(err.contains("--max-registers-for-gc-values"), "{err}");
}
