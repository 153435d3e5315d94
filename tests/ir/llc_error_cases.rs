//! llc-19 hangs, crashes or miscompiles on the inputs in `shared/reference/llc19-errors/`; patchmap
//! answers every one on both targets, quickly, with either an object llvm-readobj-19 reads or a
//! positioned error that says what is wrong, and never a panic.

use crate::support;

use std::process::Command;

/// (file, target, expected error fragment or `None` for success).
const EXPECTED: &[(&str, &str, Option<&str>)] = &[
    (
        "e01_numbytes_too_small",
        "x86_64",
        Some("6:3: error: patchpoint region of 12 bytes cannot hold the 13-byte call sequence"),
    ),
    (
        "e01_numbytes_too_small",
        "aarch64",
        Some("6:3: error: patchpoint region of 12 bytes cannot hold the 16-byte call sequence"),
    ),
    ("e02_shadow_not_mult4", "x86_64", None),
    (
        "e02_shadow_not_mult4",
        "aarch64",
        Some("6:3: error: stackmap shadow of 6 bytes is not a multiple of 4 on AArch64"),
    ),
    ("e03_ppbytes_not_mult4", "x86_64", None),
    ("e03_ppbytes_not_mult4", "aarch64", None),
    ("e04_numargs_too_big", "x86_64", Some("6:103: error: patchpoint NUMARGS is 3 but only 1 argument(s) follow")),
    ("e05_nonconst_id", "x86_64", Some("6:61: error: stackmap ID must be an i64 constant")),
    (
        "e06_anyreg_too_many_args",
        "x86_64",
        Some("error: anyregcc patch point with 30 integer and 0 floating-point arguments: at most 13 and 16 fit"),
    ),
    (
        "e06_anyreg_too_many_args",
        "aarch64",
        Some("error: anyregcc patch point with 30 integer and 0 floating-point arguments: at most 26 and 32 fit"),
    ),
    ("e07_anyreg_struct_ret", "x86_64", Some("2:20: error: unsupported patch point")),
    ("e08_aarch64_target_over_48bits", "x86_64", None),
    (
        "e08_aarch64_target_over_48bits",
        "aarch64",
        Some("error: patchpoint target 0xfedcba9876543210 is beyond the 48 bits"),
    ),
    ("e09_symbolic_target", "x86_64", None),
    ("e09_symbolic_target", "aarch64", None),
    // llc-19 records the low 64 bits of an i128 constant (0 here), and so does patchmap.
    ("e10_i128_const", "x86_64", None),
    ("e10_i128_const", "aarch64", None),
    ("e11_struct_live", "x86_64", Some("6:83: error: operand of aggregate type '{ i64, i64 }'")),
    ("e12_retpoline", "x86_64", None),
    ("e13_invoke_stackmap", "x86_64", Some("error: cannot invoke intrinsic '@llvm.experimental.stackmap'")),
    (
        "e14_x86_numbytes_wraps",
        "x86_64",
        Some("error: patchpoint region of 0 bytes cannot hold the 13-byte call sequence"),
    ),
    ("e15_i128_reg", "x86_64", Some("error: unsupported i128 live value")),
    ("e15_i128_reg", "aarch64", Some("error: unsupported i128 live value")),
    ("e17_patchpoint_i32_llvm14_vs_19", "x86_64", None),
    ("e17_patchpoint_i32_llvm14_vs_19", "aarch64", None),
];

#[test]
fn every_llc19_error_case_gets_an_answer() {
    let (Some(reference), Some(readobj)) = (support::reference_dir(), support::tool("llvm-readobj-19")) else { return };
    let dir = tempfile::tempdir().unwrap();
    let cases = reference.join("llc19-errors");
    let files = support::ll_files(&cases);
    assert!(files.len() >= 16, "expected the llc19-errors cases, found {}", files.len());
    let mut failures = Vec::new();
    for ll in &files {
        let name = ll.file_stem().unwrap().to_string_lossy().into_owned();
        for target in ["x86_64", "aarch64"] {
            let out = dir.path().join(format!("{name}.{target}.o"));
            // timeout(1): patchmap never exits with its 124 itself, so 124 means it hung.
            let (code, _, stderr) = support::run(
                Command::new("timeout")
                    .arg("20")
                    .arg(support::patchmap_bin())
                    .args(["compile", "--stackmap-version", "3", "--target", target, "-o"])
                    .arg(&out)
                    .arg(ll),
            );
            let code = Some(code);
            let expected = EXPECTED.iter().find(|(n, t, _)| *n == name && *t == target).map(|e| e.2);
            match (code, expected) {
                (Some(0), Some(Some(message))) => {
                    failures.push(format!("{name} {target}: compiled, expected {message:?}"))
                }
                (Some(0), _) => {
                    let (rc, _, err) = support::run(Command::new(&readobj).arg("--stackmap").arg(&out));
                    if rc != 0 || !err.is_empty() {
                        failures.push(format!("{name} {target}: llvm-readobj-19 cannot read the object: {err}"));
                    }
                }
                (Some(1), expected) => {
                    let positioned = stderr.starts_with(&format!("{}:", ll.display())) && stderr.contains(": error: ");
                    let matches = expected.flatten().is_none_or(|m| stderr.contains(m));
                    if !positioned || !matches || expected == Some(None) {
                        failures.push(format!("{name} {target}: {stderr:?}, expected {expected:?}"));
                    }
                }
                (other, _) => {
                    failures.push(format!("{name} {target}: exit status {other:?} (a panic is 101): {stderr}"))
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
