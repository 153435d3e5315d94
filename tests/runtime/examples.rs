//! The `cargo run --example` demos run, print what happens and exit 0. `cargo test` builds them next
//! to the test binaries.

use crate::support;

use std::path::PathBuf;
use std::process::Command;

fn example(name: &str) -> Option<PathBuf> {
    // target/<profile>/deps/runtime-* -> target/<profile>/examples/<name>
    let exe = std::env::current_exe().ok()?;
    let path = exe.parent()?.parent()?.join("examples").join(name);
    path.is_file().then_some(path)
}

fn run(name: &str) -> String {
    let path = example(name).unwrap_or_else(|| panic!("example {name} was not built (cargo test builds examples)"));
    let out = Command::new(&path).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{name}: {:?}\n{stdout}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    stdout
}

#[test]
fn inline_cache_patches_its_region_and_speeds_up() {
    let out = run("inline_cache");
    if !support::host_has(!out.starts_with("no JIT"), "a JIT for this host") {
        return;
    }
    assert!(out.contains("slow path 1000000 calls, fast path 0 calls"), "{out}");
    assert!(out.contains("slow path 1000000 calls, fast path 1000000 calls"), "{out}");
    assert!(out.contains("speed-up: "), "{out}");
}

#[test]
fn deopt_exits_through_the_stub_and_finishes_in_the_interpreter() {
    let out = run("deopt");
    if !support::host_has(!out.starts_with("no JIT"), "a JIT for this host") {
        return;
    }
    assert!(out.contains("compiled code alone: ") && out.contains("(1000 safepoints), equals the uninterrupted run"));
    for at in [0, 1, 500, 999] {
        let exit = format!(
            "invalidated at iteration {at}: shadow patched with a call to the exit stub; exit at iteration {at},"
        );
        assert!(out.contains(&exit), "{exit}\n{out}");
        let split = format!("compiled code ran {} safepoints, the interpreter {}:", at + 1, 999 - at);
        assert!(out.contains(&split), "{split}\n{out}");
    }
    assert_eq!(out.matches("equals the uninterrupted run").count(), 5, "{out}");
    assert!(out.contains("Direct R#") && out.contains("%cell"), "the alloca is read as a Direct location: {out}");
    assert!(out.contains("every deoptimised run finished in the interpreter with the uninterrupted result"), "{out}");
}

#[test]
fn trace_logs_every_point_with_generated_handlers() {
    let out = run("trace");
    if !support::host_has(!out.starts_with("no JIT"), "a JIT for this host") {
        return;
    }
    assert!(out.contains("define explicitcc void @handler("), "the generated handler is shown: {out}");
    assert!(out.contains("noclobber(metadata"), "{out}");
    assert!(
        out.contains("the log equals the interpreter's values at all 114286 points, and the result is unchanged"),
        "{out}"
    );
    assert!(out.contains("unpatched: result ") && out.contains(", 0 points logged"), "{out}");
    assert!(out.contains("stack map 3: the shadow of the stack map of record 2 at "), "{out}");
}

#[test]
fn object_compiles_links_runs_and_dumps() {
    let out = run("object");
    assert!(out.contains("x86_64: ") && out.contains("aarch64: "), "{out}");
    assert!(out.contains("LLVM StackMap Version: 3") && out.contains("Record ID: 40"), "{out}");
    if std::env::consts::ARCH == "x86_64" && !out.contains("cc is not available") {
        assert!(out.contains("exit status Some(19)") && out.contains("S41 "), "{out}");
    }
}

#[test]
fn build_ir_builds_and_prints_a_module() {
    let out = run("build_ir");
    assert!(out.contains("define"), "{out}");
    assert!(out.contains("define explicitcc void @swap(i64 hwreg(metadata !0) %a"), "{out}");
}

#[test]
fn gc_moves_every_object_and_the_code_sees_it() {
    let out = run("gc");
    if !support::host_has(!out.starts_with("no JIT"), "a JIT for this host") {
        return;
    }
    // Three runs with each lowering of statepoints (slots, registers), all with one result.
    let results: Vec<&str> = out.lines().filter_map(|l| l.split(" = ").nth(1)?.split(';').next()).collect();
    assert_eq!(results.len(), 6, "{out}");
    assert!(results.iter().all(|r| *r == results[0]), "{out}");
    assert_eq!(out.matches("never collecting (64 MiB semispaces): ").count(), 2, "{out}");
    let stress: Vec<&str> = out.lines().filter(|l| l.trim_start().starts_with("stress")).collect();
    assert_eq!(stress.len(), 2, "{out}");
    for line in &stress {
        let collections: u64 = line.split("; ").nth(1).and_then(|s| s.split(' ').next()?.parse().ok()).unwrap_or(0);
        assert!(collections > 1000, "stress mode collects at every safepoint: {line}");
        assert!(!line.contains("(0 derived"), "the derived pointer moved with its base: {line}");
    }
    // The slot lowering's roots are all in slots; the register lowering's relocated roots are in registers.
    assert!(stress[0].contains(", 0 in registers)"), "{}", stress[0]);
    let in_registers: u64 =
        stress[1].split(" derived, ").nth(1).and_then(|s| s.split(' ').next()?.parse().ok()).unwrap_or(0);
    assert!(in_registers > 1000, "register roots relocated: {}", stress[1]);
    assert!(out.contains("the collector moved every live object, in slots and registers"), "{out}");
}
