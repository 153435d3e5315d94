//! What the integration tests share: finding external tools and the shared reference vectors.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether a missing external tool fails the test (`PATCHMAP_REQUIRE_TOOLS=1`, set by the README's test
/// command and CI) instead of skipping it.
pub fn tools_required() -> bool {
    std::env::var("PATCHMAP_REQUIRE_TOOLS").is_ok_and(|v| v == "1")
}

/// The path of an external tool, or `None` after printing "skipped: <tool> not found".
/// Panics instead when tools are required.
pub fn tool(name: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths).map(|dir| dir.join(name)).find(|p| p.is_file())
    });
    if found.is_none() {
        if tools_required() {
            panic!("{name} not found, and PATCHMAP_REQUIRE_TOOLS=1 requires it");
        }
        eprintln!("skipped: {name} not found");
    }
    found
}

/// `../shared/reference`, beside the repository.
pub fn reference_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference");
    if dir.is_dir() {
        Some(dir)
    } else if tools_required() {
        panic!("{} not found, and PATCHMAP_REQUIRE_TOOLS=1 requires it", dir.display());
    } else {
        eprintln!("skipped: {} not found", dir.display());
        None
    }
}

/// Runs a command, returning (status code, stdout, stderr).
pub fn run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `patchmap` binary built for this test run.
pub fn patchmap_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_patchmap"))
}
