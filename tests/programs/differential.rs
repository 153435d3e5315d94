//! Differential execution against llc-19: every `ir-examples/*.ll` compiled by patchmap and by
//! `llc-19 -O2`, linked and run on x86-64 (natively) and AArch64 (under qemu-aarch64), must print the
//! same output and exit with the same status; `patchmap run` must agree too.

use crate::support;

use std::path::Path;
use std::process::Command;

use patchmap::compile::Options;
use support::Arch;

fn compile_ours(ll: &Path, arch: Arch, opt: &str) -> Result<Vec<u8>, String> {
    let module = patchmap::ir::parse_file(ll).map_err(|e| e.to_string())?;
    patchmap::ir::verify(&module).map_err(|e| e.to_string())?;
    let options = Options::new(Some(arch.triple()), opt, 1).map_err(|e| e.to_string())?;
    patchmap::emit::object::compile(&module, &options).map_err(|e| e.to_string())
}

fn differential(arch: Arch) {
    let (Some(llc), Some(toolchain)) = (support::tool("llc-19"), support::toolchain(arch)) else { return };
    let examples = support::ir_examples();
    assert!(examples.len() >= 12, "expected at least 12 ir-examples, found {}", examples.len());
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for ll in &examples {
        let name = ll.file_stem().unwrap().to_string_lossy().into_owned();
        let reference = support::llc_object(&llc, ll, arch, "2", dir.path())
            .and_then(|obj| toolchain.link_and_run(&obj, dir.path(), &format!("{name}-llc")));
        let reference = match reference {
            Ok(outcome) => outcome,
            Err(e) => {
                failures.push(format!("{name}: reference: {e}"));
                continue;
            }
        };
        for opt in ["none", "speed"] {
            let ours = compile_ours(ll, arch, opt)
                .and_then(|obj| toolchain.link_and_run(&obj, dir.path(), &format!("{name}-{opt}")));
            match ours {
                Ok(outcome) if outcome == reference => {}
                Ok(outcome) => {
                    failures.push(format!("{name} -O {opt}: patchmap gave {outcome:?}, llc-19 -O2 gave {reference:?}"))
                }
                Err(e) => failures.push(format!("{name} -O {opt}: {e}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} examples differ on {arch:?}:\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
    );
}

#[test]
fn examples_agree_with_llc19_on_x86_64() {
    differential(Arch::X86_64);
}

#[test]
fn examples_agree_with_llc19_on_aarch64() {
    differential(Arch::Aarch64);
}

/// `patchmap run` JIT-compiles `main` and prints its result last: the rest of its output and the
/// result's low byte must match the natively linked program's output and exit status.
#[test]
fn jit_run_agrees_with_native_execution() {
    if !support::x86_64_host("an x86-64 host (the native reference)") {
        return;
    }
    let (Some(llc), Some(toolchain)) = (support::tool("llc-19"), support::toolchain(Arch::X86_64)) else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for ll in support::ir_examples() {
        let name = ll.file_stem().unwrap().to_string_lossy().into_owned();
        let reference = support::llc_object(&llc, &ll, Arch::X86_64, "2", dir.path())
            .and_then(|obj| toolchain.link_and_run(&obj, dir.path(), &name))
            .unwrap_or_else(|e| panic!("{name}: reference: {e}"));
        let (code, stdout, stderr) = support::run(Command::new(support::patchmap_bin()).arg("run").arg(&ll));
        let text = stdout.strip_suffix('\n').unwrap_or(&stdout);
        let (output, last) = match text.rsplit_once('\n') {
            Some((output, last)) => (format!("{output}\n"), last),
            None => (String::new(), text),
        };
        let status = last.parse::<i64>().map(|v| (v & 0xff) as i32);
        let jit = (code, output, status);
        let expected = (0, reference.stdout.clone(), Ok(reference.status));
        if jit != expected {
            failures.push(format!("{name}: patchmap run gave {jit:?} (stderr: {stderr}), native {expected:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
