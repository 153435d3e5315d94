//! The interpreter against the JIT: `patchmap run --interpret` must print the same bytes and exit with
//! the same status as `patchmap run` for every `ir-examples/*.ll` program (bar the ones listed with the
//! error the interpreter gives) and for generated programs. `PATCHMAP_GENERATED_PROGRAMS` sets how many
//! (default 200); a failure names its seed.

use crate::generator;
use crate::support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Examples the interpreter refuses, with its exact message (after the file name): none since
/// native calls take variadic and floating-point arguments.
const REFUSED: &[(&str, &str)] = &[];

/// `patchmap run [--interpret] ll`: (exit status, stdout), or why it did not finish.
fn run(ll: &Path, interpret: bool) -> Result<(i32, String), String> {
    let mut cmd = Command::new(support::patchmap_bin());
    cmd.arg("run").arg(ll);
    if interpret {
        cmd.arg("--interpret");
    }
    match support::run_with_deadline(&mut cmd, Duration::from_secs(30))? {
        (Some(status), stdout) => Ok((status, stdout)),
        (None, _) => Err(format!("{cmd:?} was killed by a signal")),
    }
}

/// Runs `ll` both ways; `Err` describes how they differ.
fn agree(ll: &Path) -> Result<(), String> {
    let jit = run(ll, false)?;
    let interpreted = run(ll, true)?;
    if jit.0 != 0 {
        return Err(format!("the JIT failed: {jit:?}"));
    }
    if interpreted != jit {
        // The interpreter finished, so running it again to read its message terminates.
        let (_, _, stderr) = support::run(Command::new(support::patchmap_bin()).arg("run").arg(ll).arg("--interpret"));
        return Err(format!("the interpreter gave {interpreted:?} (stderr: {stderr}), the JIT {jit:?}"));
    }
    Ok(())
}

#[test]
fn examples_agree_with_the_jit() {
    let examples = support::ir_examples();
    assert!(examples.len() >= 12, "expected at least 12 ir-examples, found {}", examples.len());
    let mut failures = Vec::new();
    let mut compared = 0;
    for ll in &examples {
        let name = ll.file_name().unwrap().to_string_lossy().into_owned();
        let module = patchmap::ir::parse_file(ll).unwrap_or_else(|e| panic!("{e}"));
        assert!(module.function_by_name("main").is_some(), "{name} has no main: list it here if that is intended");
        if let Some((_, message)) = REFUSED.iter().find(|r| r.0 == name) {
            let (code, stdout, stderr) =
                support::run(Command::new(support::patchmap_bin()).arg("run").arg(ll).arg("--interpret"));
            let expected = format!("{}{message}", ll.display());
            if (code, stdout.as_str(), stderr.as_str()) != (1, "", expected.as_str()) {
                failures.push(format!("{name}: expected the refusal {expected:?}, got {code} {stdout:?} {stderr:?}"));
            }
            continue;
        }
        compared += 1;
        if let Err(e) = agree(ll) {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} examples:\n{}", failures.len(), examples.len(), failures.join("\n"));
    assert_eq!(compared + REFUSED.len(), examples.len());
}

fn count() -> u64 {
    std::env::var("PATCHMAP_GENERATED_PROGRAMS").ok().and_then(|v| v.parse().ok()).unwrap_or(200)
}

#[test]
fn generated_programs_agree_with_the_jit() {
    let dir = tempfile::tempdir().unwrap();
    let seeds = 5_000..5_000 + count();
    let failures = support::failing_seeds(seeds.clone(), |seed| {
        // Every other program records values in stack maps, which the interpreter skips.
        let config = if seed.is_multiple_of(2) { generator::with_stackmaps() } else { Default::default() };
        let ll = dir.path().join(format!("gen{seed}.ll"));
        std::fs::write(&ll, generator::program_with(seed, &config)).map_err(|e| e.to_string())?;
        agree(&ll)
    });
    assert!(
        failures.is_empty(),
        "{} of {} generated programs differ (reproduce with generator::program_with(seed, ...)):\n{}",
        failures.len(),
        seeds.end - seeds.start,
        failures.join("\n")
    );
}
