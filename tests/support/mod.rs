//! What the integration tests share: finding external tools and the shared reference vectors.
#![allow(dead_code)]

pub mod checker;
pub mod statepoint;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Whether a missing external tool fails the test (`PATCHMAP_REQUIRE_TOOLS=1`, set by the README's test
/// command and CI) instead of skipping it.
pub fn tools_required() -> bool {
    std::env::var("PATCHMAP_REQUIRE_TOOLS").is_ok_and(|v| v == "1")
}

/// The path of an external tool, or `None` after printing "skipped: <tool> not found".
/// Panics instead when tools are required.
pub fn tool(name: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|dir| dir.join(name)).find(|p| p.is_file()));
    if found.is_none() {
        if tools_required() {
            panic!("{name} not found, and PATCHMAP_REQUIRE_TOOLS=1 requires it");
        }
        eprintln!("skipped: {name} not found");
    }
    found
}

/// Whether this host can run a test that needs `what` (`supported` says if it can): `false` after
/// printing "skipped: <what>"; panics instead when tools are required (CI runs on an x86-64 Linux host
/// with a JIT, so nothing may skip there).
pub fn host_has(supported: bool, what: &str) -> bool {
    if !supported {
        if tools_required() {
            panic!("{what} is not available on this host, and PATCHMAP_REQUIRE_TOOLS=1 requires it");
        }
        eprintln!("skipped: {what} not found");
    }
    supported
}

/// Whether the host is x86-64 (the native reference of the differential tests), as [`host_has`].
pub fn x86_64_host(what: &str) -> bool {
    host_has(std::env::consts::ARCH == "x86_64", what)
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

/// How `patchmap run` executes a program: compiled in the JIT, or in the interpreter.
pub const RUN_MODES: [&str; 2] = ["jit", "interpreter"];

/// `patchmap run` with `args` (options, the file, then the entry's arguments), once per [`RUN_MODES`]
/// (`--interpret` before `args` for the interpreter): each mode's name and `run`'s result.
pub fn run_both_ways(args: &[&std::ffi::OsStr]) -> [(&'static str, (i32, String, String)); 2] {
    RUN_MODES.map(|mode| {
        let mut cmd = Command::new(patchmap_bin());
        cmd.arg("run");
        if mode == "interpreter" {
            cmd.arg("--interpret");
        }
        (mode, run(cmd.args(args)))
    })
}

/// `patchmap run -O level ll` (the JIT, entry `main`): `run`'s result.
pub fn run_in_jit(ll: &Path, level: &str) -> (i32, String, String) {
    run(Command::new(patchmap_bin()).args(["run", "-O", level]).arg(ll))
}

pub use patchmap::arch::Arch;

/// The tools needed to link and run a program for `arch` on this (x86-64) host; `None` (after the
/// skip message) when one is missing.
pub fn toolchain(arch: Arch) -> Option<Toolchain> {
    match arch {
        Arch::X86_64 => Some(Toolchain { arch, linker: tool("cc")?, runner: None }),
        Arch::Aarch64 => {
            let linker = tool("aarch64-linux-gnu-gcc")?;
            let runner = tool("qemu-aarch64")?;
            Some(Toolchain { arch, linker, runner: Some(runner) })
        }
    }
}

/// [`toolchain`] for C++ programs: linked by a C++ driver, which adds libstdc++ (clang++-19 on
/// x86-64, the cross g++ on AArch64, statically for qemu-user).
pub fn cxx_toolchain(arch: Arch) -> Option<Toolchain> {
    match arch {
        Arch::X86_64 => Some(Toolchain { arch, linker: tool("clang++-19")?, runner: None }),
        Arch::Aarch64 => {
            let linker = tool("aarch64-linux-gnu-g++")?;
            let runner = tool("qemu-aarch64")?;
            Some(Toolchain { arch, linker, runner: Some(runner) })
        }
    }
}

/// How a program ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub status: i32,
    pub stdout: String,
}

/// A linker and, for foreign architectures, an emulator.
pub struct Toolchain {
    pub arch: Arch,
    pub linker: PathBuf,
    pub runner: Option<PathBuf>,
}

impl Toolchain {
    /// A command that runs `exe` for this architecture (under the emulator where there is one).
    pub fn command(&self, exe: &Path) -> Command {
        match &self.runner {
            Some(runner) => {
                let mut c = Command::new(runner);
                c.arg(exe);
                c
            }
            None => Command::new(exe),
        }
    }

    /// Links `object` (statically for AArch64, which runs under qemu-user) into `dir/name` and runs it
    /// with a time limit.
    pub fn link_and_run(&self, object: &[u8], dir: &Path, name: &str) -> Result<Outcome, String> {
        self.link_all_and_run(&[object], dir, name)
    }

    /// [`Toolchain::link_and_run`] for several objects.
    pub fn link_all_and_run(&self, objects: &[&[u8]], dir: &Path, name: &str) -> Result<Outcome, String> {
        let exe = dir.join(name);
        let mut link = Command::new(&self.linker);
        for (i, object) in objects.iter().enumerate() {
            let obj = dir.join(format!("{name}.{i}.o"));
            std::fs::write(&obj, object).map_err(|e| e.to_string())?;
            link.arg(&obj);
        }
        link.arg("-o").arg(&exe).arg("-lm");
        if self.arch == Arch::Aarch64 {
            link.arg("-static");
        }
        let (code, _, err) = run(&mut link);
        if code != 0 {
            return Err(format!("linking {} failed: {err}", exe.display()));
        }
        let mut cmd = self.command(&exe);
        let (status, stdout) = run_with_deadline(&mut cmd, Duration::from_secs(20))?;
        let status = status.ok_or_else(|| format!("{} was killed by a signal", exe.display()))?;
        Ok(Outcome { status, stdout })
    }
}

/// llc-19's object for `ll` at `-O<opt>` on `arch`.
pub fn llc_object(llc: &Path, ll: &Path, arch: Arch, opt: &str, dir: &Path) -> Result<Vec<u8>, String> {
    let out = dir.join(format!(
        "{}.llc{opt}.{}.o",
        ll.file_stem().unwrap().to_string_lossy(),
        if arch == Arch::X86_64 { "x86_64" } else { "aarch64" }
    ));
    let mut cmd = Command::new(llc);
    // llc-19's patch point liveness crashes when a call or a floating-point operation follows a patch
    // point in the same function (shared/reference/llc19-errors/README.txt); references go without it.
    if std::fs::read_to_string(ll).is_ok_and(|text| text.contains("@llvm.experimental.patchpoint")) {
        cmd.arg("-enable-patchpoint-liveness=false");
    }
    let (code, _, err) = run(cmd
        .arg(format!("-O{opt}"))
        .arg("-filetype=obj")
        .arg("-relocation-model=pic")
        .arg(format!("-mtriple={}", arch.triple()))
        .arg(ll)
        .arg("-o")
        .arg(&out));
    if code != 0 {
        return Err(format!("llc-19 failed on {}: {err}", ll.display()));
    }
    std::fs::read(&out).map_err(|e| e.to_string())
}

/// The `ir-examples/sm_*.ll` and `pp_*.ll` files (programs with stack maps or patch points, for the
/// location checker), sorted.
pub fn stackmap_examples() -> Vec<PathBuf> {
    let mut files = ir_examples();
    files.retain(|p| is_stackmap_example(p));
    files
}

fn is_stackmap_example(path: &Path) -> bool {
    path.file_name().is_some_and(|n| {
        let n = n.to_string_lossy();
        n.starts_with("sm_") || n.starts_with("pp_")
    })
}

/// Every `ir-examples/*.ll` file, sorted.
pub fn ir_examples() -> Vec<PathBuf> {
    ll_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("ir-examples"))
}

/// The `ir-examples/gc_*.ll` files (programs with GC statepoints), sorted, which
/// `tests/statepoints/llc.rs` also checks record by record.
pub fn statepoint_examples() -> Vec<PathBuf> {
    let mut files = ll_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("ir-examples"));
    files.retain(|p| is_statepoint_example(p));
    files
}

fn is_statepoint_example(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("gc_"))
}

/// Every `*.ll` file of `dir`, sorted; none if it cannot be read (the callers assert a count).
pub fn ll_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "ll"));
    files.sort();
    files
}

/// Runs `cmd` to completion or kills it past `limit`: (exit code, `None` after a signal; stdout).
/// A deadline of our own, not `timeout(1)`, whose status 124 a program may return itself.
pub fn run_with_deadline(cmd: &mut Command, limit: Duration) -> Result<(Option<i32>, String), String> {
    let mut child =
        cmd.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    // Read the output while the child runs: a full pipe would otherwise stop it until the deadline.
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut bytes).map(|_| bytes)
    });
    let start = Instant::now();
    while child.try_wait().map_err(|e| e.to_string())?.is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{cmd:?} ran longer than {limit:?}"));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    let bytes = reader.join().map_err(|_| "the output reader panicked".to_string())?.map_err(|e| e.to_string())?;
    Ok((status.code(), String::from_utf8_lossy(&bytes).into_owned()))
}

/// Runs `check` on every seed, on as many threads as the machine has, and returns the failures as
/// "seed N: message", in seed order.
pub fn failing_seeds(seeds: std::ops::Range<u64>, check: impl Fn(u64) -> Result<(), String> + Sync) -> Vec<String> {
    let next = std::sync::atomic::AtomicU64::new(seeds.start);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..std::thread::available_parallelism().map_or(2, |n| n.get()) {
            scope.spawn(|| loop {
                let seed = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if seed >= seeds.end {
                    break;
                }
                if let Err(e) = check(seed) {
                    failures.lock().unwrap().push((seed, format!("seed {seed}: {e}")));
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    failures.into_iter().map(|f| f.1).collect()
}

/// Each of `programs` (whole `.ll` programs with a `main`), built by patchmap and by llc-19, linked and
/// run on both targets (AArch64 under qemu), prints the same and exits with the same status, the
/// reference printing at least `min_lines` lines; on an x86-64 host `patchmap run` (the JIT) and
/// `patchmap run --interpret` print it too. Skips (as [`tool`]) without llc-19.
pub fn programs_run_as_llc19_builds_them(programs: &[PathBuf], min_lines: usize) {
    let Some(llc) = tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut compared = 0;
    for ll in programs {
        let name = ll.file_stem().unwrap().to_string_lossy().into_owned();
        let module = patchmap::ir::parse_file(ll).unwrap_or_else(|e| panic!("{e}"));
        patchmap::ir::verify(&module).unwrap_or_else(|e| panic!("{e}"));
        for arch in Arch::ALL {
            let Some(toolchain) = toolchain(arch) else { continue };
            let reference = llc_object(&llc, ll, arch, "2", dir.path())
                .and_then(|o| toolchain.link_and_run(&o, dir.path(), &format!("{name}-llc")))
                .unwrap_or_else(|e| panic!("{name} {arch:?}: reference: {e}"));
            assert!(reference.stdout.lines().count() >= min_lines, "{name} {arch:?} printed too little: {reference:?}");
            let options = patchmap::compile::Options::new(Some(arch.triple()), "speed", 1).unwrap();
            let object = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
            let ours = toolchain
                .link_and_run(&object, dir.path(), &format!("{name}-patchmap"))
                .unwrap_or_else(|e| panic!("{name} {arch:?}: {e}"));
            assert_eq!(ours, reference, "{name} on {arch:?}: patchmap's build against llc-19's");
            compared += 1;
            if arch != Arch::X86_64 || !x86_64_host("the JIT and the interpreter") {
                continue;
            }
            for (mode, (code, out, err)) in run_both_ways(&[ll.as_os_str()]) {
                if mode == "interpreter" && name.starts_with("i128") {
                    // The interpreter holds values in 64 bits: it refuses i128 computations by name.
                    assert!(code == 1 && err.contains("the interpreter does not run i128 values"), "{name}: {err}");
                    continue;
                }
                // `run` prints main's result after the program's own output.
                let expected = format!("{}{}\n", reference.stdout, reference.status);
                assert_eq!((code, out), (0, expected), "{name} run {mode:?}: {err}");
            }
        }
    }
    assert!(compared >= programs.len(), "only {compared} programs compared");
}

/// One target's pairings of a two-object program (see [`halves_cross_the_c_abi`]).
pub struct AbiPairings<'a> {
    pub arch: Arch,
    pub toolchain: &'a Toolchain,
    /// llc-19's callee and caller objects.
    pub llc_callee: &'a [u8],
    pub llc_caller: &'a [u8],
    /// What llc-19's pair prints.
    pub reference: &'a Outcome,
    pub dir: &'a Path,
}

/// `dir/callee.ll` and `dir/caller.ll`, each built by patchmap and by llc-19, in all four pairings
/// on both targets (AArch64 under qemu): each pairing prints what llc-19's pair prints, at least
/// `min_lines` lines. `more` then gets each target's llc-19 objects for pairings of its own.
/// Skips (as [`tool`]) without llc-19.
pub fn halves_cross_the_c_abi(dir: &Path, min_lines: usize, mut more: impl FnMut(&AbiPairings)) {
    let Some(llc) = tool("llc-19") else { return };
    let tmp = tempfile::tempdir().unwrap();
    for arch in Arch::ALL {
        let Some(toolchain) = toolchain(arch) else { continue };
        let build = |half: &str| {
            let ll = dir.join(format!("{half}.ll"));
            let ours = compile_for(arch, &std::fs::read_to_string(&ll).unwrap()).unwrap_or_else(|e| panic!("{e}"));
            let reference = llc_object(&llc, &ll, arch, "2", tmp.path()).unwrap_or_else(|e| panic!("{e}"));
            (ours, reference)
        };
        let (callee, caller) = (build("callee"), build("caller"));
        let reference = toolchain.link_all_and_run(&[&callee.1, &caller.1], tmp.path(), "abi-llc").unwrap();
        assert!(reference.stdout.lines().count() >= min_lines, "{arch:?}: {reference:?}");
        for (name, objects) in [
            ("patchmap callee", [&callee.0, &caller.1]),
            ("patchmap caller", [&callee.1, &caller.0]),
            ("patchmap both", [&callee.0, &caller.0]),
        ] {
            let objects = objects.map(|o| o.as_slice());
            let ours = toolchain.link_all_and_run(&objects, tmp.path(), "abi-mixed").unwrap();
            assert_eq!(ours, reference, "{name} on {arch:?} against llc-19's pair");
        }
        more(&AbiPairings {
            arch,
            toolchain: &toolchain,
            llc_callee: &callee.1,
            llc_caller: &caller.1,
            reference: &reference,
            dir: tmp.path(),
        });
    }
}

/// patchmap's object for the IR file `ll` on `arch`, compiled for speed with a version 3 stack map.
pub fn compile_file_v3(ll: &Path, arch: Arch) -> Vec<u8> {
    let module = patchmap::ir::parse_file(ll).unwrap_or_else(|e| panic!("{e}"));
    let options = patchmap::compile::Options::new(Some(arch.triple()), "speed", 3).unwrap();
    patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"))
}

/// A record's ID and the kind and size of each of its locations.
pub type RecordShape = (u64, Vec<(patchmap::stackmap::LocationKind, u16)>);

/// The kinds and sizes of each record's locations in `object`, with its ID, sorted by ID (all
/// functions): what a comparison with llc-19's records looks at where registers and offsets differ.
pub fn record_shapes(object: &[u8]) -> Vec<RecordShape> {
    let (maps, _) = patchmap::stackmap::object_file::read_models(object).expect("a readable stack map section");
    let mut records: Vec<_> = maps
        .iter()
        .flat_map(|m| &m.records)
        .map(|r| (r.id, r.locations.iter().map(|l| (l.kind, l.size)).collect::<Vec<_>>()))
        .collect();
    records.sort_by_key(|r| r.0);
    records
}

/// [`record_shapes`] of patchmap's version 3 object and of llc-19 -O2's for the IR file `ll` on
/// `arch` (llc-19's object written in `dir`): the pair the record comparisons start from.
pub fn record_shapes_of_both(llc: &Path, ll: &Path, arch: Arch, dir: &Path) -> (Vec<RecordShape>, Vec<RecordShape>) {
    let ours = record_shapes(&compile_file_v3(ll, arch));
    let reference = llc_object(llc, ll, arch, "2", dir).unwrap_or_else(|e| panic!("{e}"));
    (ours, record_shapes(&reference))
}

/// Each record's ID and number of locations, from [`record_shapes`].
pub fn ids_and_counts(records: &[RecordShape]) -> Vec<(u64, usize)> {
    records.iter().map(|(id, l)| (*id, l.len())).collect()
}

/// patchmap's object for IR `text` on `arch` (parsed, verified, compiled for speed).
pub fn compile_for(arch: Arch, text: &str) -> Result<Vec<u8>, String> {
    let module = patchmap::ir::parse("input.ll", text).map_err(|e| e.to_string())?;
    patchmap::ir::verify(&module).map_err(|e| e.to_string())?;
    let options = patchmap::compile::Options::new(Some(arch.triple()), "speed", 1).map_err(|e| e.to_string())?;
    patchmap::emit::object::compile(&module, &options).map_err(|e| e.to_string())
}
