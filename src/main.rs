//! The `patchmap` command line: every command is one library call plus printing.

#![deny(unsafe_op_in_unsafe_fn)]

use std::io::{IsTerminal, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "patchmap", version, about = "LLVM stack maps and patch points without LLVM")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile an IR file (LLVM IR subset) to a relocatable object with a `.llvm_stackmaps` section.
    Compile {
        /// The input `.ll` file.
        input: PathBuf,
        /// The object file to write; `-` for standard output.
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
        /// Target triple, or `x86_64` / `aarch64` as shorthands. Default: the host.
        #[arg(long)]
        target: Option<String>,
        /// Optimisation level.
        #[arg(short = 'O', default_value = "speed", value_parser = ["none", "speed"])]
        opt: String,
        /// Version of the stack map section to write: 1, 2, 3, or rfc2 (the frame-table layout of the
        /// 2015 StackMap v2 proposal: function and call sizes, frame flags, saved registers).
        #[arg(long = "stackmap-version", default_value = "1", value_parser = clap::value_parser!(patchmap::stackmap::Version))]
        stackmap_version: patchmap::stackmap::Version,
        /// As llc-19's option: up to N GC pointers of each statepoint with a call stay in
        /// callee-saved registers, which the record names (0: every one in a frame slot).
        #[arg(long = "max-registers-for-gc-values", default_value_t = 0, value_name = "N")]
        max_registers_for_gc_values: u32,
        /// As llc-19's option: statepoints' deopt values stay in callee-saved registers or spill
        /// slots, wherever the register allocator keeps them, instead of frame slots of their own.
        #[arg(long = "use-registers-for-deopt-values")]
        use_registers_for_deopt_values: bool,
    },
    /// JIT-compile an IR file (or interpret it), call a function with i64 arguments and print its return value.
    Run {
        /// The input `.ll` file.
        input: PathBuf,
        /// The function to call.
        #[arg(long, default_value = "main")]
        entry: String,
        /// Optimisation level.
        #[arg(short = 'O', default_value = "speed", value_parser = ["none", "speed"])]
        opt: String,
        /// Run the entry function in the reference interpreter instead of the JIT.
        #[arg(long)]
        interpret: bool,
        /// Integer arguments passed to the entry function.
        #[arg(allow_negative_numbers = true)]
        args: Vec<i64>,
    },
    /// Parse and verify an IR file without compiling it.
    Check {
        /// The input `.ll` file.
        input: PathBuf,
    },
    /// Compile an embedded example program for both targets, run it in the JIT, and show the result.
    Demo,
    /// Print every stack map blob of an object, executable or shared library, as llvm-readobj does.
    Dump {
        /// An ELF, Mach-O or COFF file.
        file: PathBuf,
        /// Name each function record by the symbol its relocation (or address) points at.
        #[arg(long)]
        symbols: bool,
    },
    /// Rewrite the stack map section of an object in another version, keeping everything else.
    Convert {
        /// The input object.
        input: PathBuf,
        /// The version to write: 1, 2, 3, or rfc2 (the frame-table layout of the 2015 StackMap v2 proposal;
        /// only from a section that already holds its frame information).
        #[arg(long = "to-version", value_parser = clap::value_parser!(patchmap::stackmap::Version))]
        to_version: patchmap::stackmap::Version,
        /// The object file to write; `-` for standard output.
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
        /// A version 1 section does not say which function each record belongs to: when its records
        /// fit more than one split between the functions, `refuse` stops with an error naming the
        /// records and the functions that can hold them; `likeliest` takes the split whose
        /// functions' last records come closest to their ends.
        #[arg(long = "v1-split", value_enum, default_value = "refuse", conflicts_with = "v1_record_counts")]
        v1_split: V1SplitChoice,
        /// The record counts of a version 1 section's functions, in table order (every v1 blob's
        /// functions, blob after blob), e.g. `3,4`: checked against the layout rules, then used.
        #[arg(long = "v1-record-counts", value_delimiter = ',')]
        v1_record_counts: Option<Vec<u64>>,
    },
}

/// `convert --v1-split`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum V1SplitChoice {
    /// An error when several splits fit.
    Refuse,
    /// The likeliest split.
    Likeliest,
}

fn main() -> ExitCode {
    // Output piped into `head` and the like: end quietly when the reader goes, as C tools do,
    // rather than panic in `println!`.
    // SAFETY: restoring a signal's default disposition before any thread starts.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// The command line's message for a compile error: IR errors carry their own `file:line:col: error:`
/// prefix; the others get the program's.
fn report(error: patchmap::compile::CompileError) -> String {
    match error {
        patchmap::compile::CompileError::Ir(e) => e.to_string(),
        other => format!("patchmap: error: {other}"),
    }
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    patchmap::input::read(path).map_err(|e| format!("patchmap: error: cannot read {}: {e}", path.display()))
}

/// `-o -`: the output goes to standard output.
fn is_stdout(output: &Path) -> bool {
    output == Path::new("-")
}

/// Refuses an output that is one of the inputs (by file identity: through links and `..` too), before
/// any work is done.
fn check_output(output: &Path, inputs: &[&Path]) -> Result<(), String> {
    if is_stdout(output) {
        return check_stdout(inputs);
    }
    for input in inputs {
        if identity(input).is_some_and(|input| Some(input) == identity(output)) {
            return Err(format!(
                "patchmap: error: the output {} is the input {}; name another output file",
                output.display(),
                input.display()
            ));
        }
    }
    Ok(())
}

/// A file's identity (device and inode), through links, without opening it: opening a FIFO would
/// wait for its writer.
fn identity(path: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// Refuses a standard output that is one of the inputs (`-o - 1<> input`): a regular file with the
/// input's identity, which writing would overwrite as it is read.
fn check_stdout(inputs: &[&Path]) -> Result<(), String> {
    let Ok(stdout) = same_file::Handle::stdout() else { return Ok(()) };
    let Ok(metadata) = stdout.as_file().metadata() else { return Ok(()) };
    if !metadata.is_file() {
        return Ok(());
    }
    for input in inputs {
        if identity(input) == Some((metadata.dev(), metadata.ino())) {
            return Err(format!(
                "patchmap: error: standard output is the input {}; redirect it to another file",
                input.display()
            ));
        }
    }
    Ok(())
}

/// Writes a whole output: to standard output for `-`; else to a temporary file beside the destination,
/// renamed over it once complete, so a failed or killed write never leaves a partial file. A device or
/// FIFO (`/dev/null`) is written in place: renaming over it would replace the node.
fn write(output: &Path, bytes: &[u8]) -> Result<(), String> {
    let error = |e: std::io::Error| format!("patchmap: error: cannot write {}: {e}", output.display());
    if is_stdout(output) {
        let mut stdout = std::io::stdout().lock();
        if stdout.is_terminal() {
            return Err(
                "patchmap: error: not writing a binary object to a terminal; redirect standard output".to_string()
            );
        }
        return stdout.write_all(bytes).and_then(|()| stdout.flush()).map_err(error);
    }
    // An existing destination is replaced where it really is: a symbolic link keeps pointing at it.
    let destination = match std::fs::metadata(output) {
        Ok(metadata) if !metadata.is_file() && !metadata.is_dir() => {
            return std::fs::write(output, bytes).map_err(error)
        }
        Ok(_) => std::fs::canonicalize(output).map_err(error)?,
        Err(_) => output.to_path_buf(),
    };
    let dir = match destination.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".patchmap-").suffix(".tmp");
    // The mode a plain create would give (the umask applies), not the temporary file's 0600.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    // The temporary file exists only while `removal` names it to the signal handlers.
    let (mut file, removal) = cleanup::on_signal(|| builder.tempfile_in(dir)).map_err(error)?;
    file.write_all(bytes).and_then(|()| file.as_file().sync_all()).map_err(error)?;
    let persisted = file.persist(&destination);
    drop(removal);
    persisted.map_err(|e| error(e.error))?;
    Ok(())
}

/// Removal of the temporary file of [`write`] when a signal ends the program during the write
/// (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, and SIGXFSZ past a file size limit): the handler
/// unlinks it, then the signal's default action ends the process as it would have. A signal the
/// parent ignores (`nohup`) stays ignored. SIGKILL cannot be caught: it leaves the file.
mod cleanup {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    use std::sync::atomic::{AtomicPtr, Ordering};
    use std::sync::Once;

    const SIGNALS: [libc::c_int; 6] =
        [libc::SIGHUP, libc::SIGINT, libc::SIGQUIT, libc::SIGTERM, libc::SIGPIPE, libc::SIGXFSZ];

    /// The temporary file's path, for the handler; null when there is none.
    static TEMPORARY: AtomicPtr<libc::c_char> = AtomicPtr::new(std::ptr::null_mut());

    /// While alive, a signal removes the temporary file before ending the program.
    pub struct Removal;

    impl Drop for Removal {
        fn drop(&mut self) {
            let path = TEMPORARY.swap(std::ptr::null_mut(), Ordering::SeqCst);
            if !path.is_null() {
                // SAFETY: made by `CString::into_raw` in `on_signal`, and taken back from the handler.
                drop(unsafe { CString::from_raw(path) });
            }
        }
    }

    /// Creates the temporary file with `create` and has signals remove it until the [`Removal`] is
    /// dropped. The signals are held back while the file is created and named to the handler, so
    /// none falls between the two.
    pub fn on_signal(
        create: impl FnOnce() -> std::io::Result<tempfile::NamedTempFile>,
    ) -> std::io::Result<(tempfile::NamedTempFile, Removal)> {
        static INSTALL: Once = Once::new();
        INSTALL.call_once(install);
        // SAFETY: zeroed sets are valid values for sigemptyset/sigaddset/sigprocmask to fill in.
        let (mut held, mut previous): (libc::sigset_t, libc::sigset_t) = unsafe { std::mem::zeroed() };
        // SAFETY: the sets are valid; blocking signals has no other precondition.
        unsafe {
            libc::sigemptyset(&mut held);
            for signal in SIGNALS {
                libc::sigaddset(&mut held, signal);
            }
            libc::sigprocmask(libc::SIG_BLOCK, &held, &mut previous);
        }
        let created = create().map(|file| {
            let path = CString::new(file.path().as_os_str().as_bytes()).ok();
            TEMPORARY.store(path.map_or(std::ptr::null_mut(), CString::into_raw), Ordering::SeqCst);
            (file, Removal)
        });
        // SAFETY: puts back the mask saved above; a signal that came meanwhile is delivered now.
        unsafe { libc::sigprocmask(libc::SIG_SETMASK, &previous, std::ptr::null_mut()) };
        created
    }

    fn install() {
        for signal in SIGNALS {
            // SAFETY: a zeroed `sigaction` is a valid value (no handler, empty mask).
            let mut previous: libc::sigaction = unsafe { std::mem::zeroed() };
            // SAFETY: reads the current action into a valid struct.
            unsafe { libc::sigaction(signal, std::ptr::null(), &mut previous) };
            if previous.sa_sigaction == libc::SIG_IGN {
                continue;
            }
            // SAFETY: as above.
            let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
            action.sa_sigaction = handler as *const () as usize;
            // SA_RESETHAND: the signal raised again in the handler meets the default action.
            action.sa_flags = libc::SA_RESETHAND;
            // SAFETY: installs a handler that only unlinks a path and raises the signal.
            unsafe { libc::sigaction(signal, &action, std::ptr::null_mut()) };
        }
    }

    extern "C" fn handler(signal: libc::c_int) {
        let path = TEMPORARY.swap(std::ptr::null_mut(), Ordering::SeqCst);
        if !path.is_null() {
            // SAFETY: unlink(2) is async-signal-safe; `path` is a NUL-terminated string that is
            // never freed once taken here.
            unsafe { libc::unlink(path) };
        }
        // SAFETY: raise(3) is async-signal-safe. The signal is blocked until the handler returns,
        // then ends the process with its default action (reset by SA_RESETHAND).
        unsafe { libc::raise(signal) };
    }
}

/// Inputs from this size on get [`heap_in_huge_pages`]: below it the memory touched is a few MiB,
/// and zeroing whole 2 MiB pages would cost more than the faults it saves.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const HUGE_HEAP_MIN_INPUT: u64 = 256 << 10;

/// Before a large module is read: the C allocator's main heap gets room for the compile in
/// transparent huge pages. Compiling touches memory in proportion to the module (12-18 bytes per
/// byte of IR), and faulting it in 4 KiB at a time was 5-7% of a single-threaded compile's CPU time
/// (5,700 faults for a 1.6 MB module; 360 in 2 MiB pages). glibc's `glibc.malloc.hugetlb=1` tunable
/// does the same but is read from the environment only. How: the mmap threshold raised so that
/// blocks up to 30 MiB come from the heap, a region of 32 bytes per input byte (at most 256 MiB)
/// allocated from its top, marked `MADV_HUGEPAGE`, and freed with trimming off, so that the heap
/// keeps it and later allocations are carved from it. Only pages used are ever backed. Worker
/// threads allocate from arenas of their own, which this leaves as they are.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn heap_in_huge_pages(input_bytes: u64) {
    const HUGE_PAGE: usize = 2 << 20;
    const BLOCK: usize = 30 << 20;
    if input_bytes < HUGE_HEAP_MIN_INPUT {
        return;
    }
    let region = input_bytes.saturating_mul(32).min(256 << 20) as usize;
    // SAFETY: mallopt, malloc, madvise and free as documented; the blocks are freed once, and
    // madvise only changes how the kernel backs pages of the heap that the blocks cover.
    unsafe {
        if libc::mallopt(libc::M_MMAP_THRESHOLD, (BLOCK + HUGE_PAGE) as libc::c_int) == 0
            || libc::mallopt(libc::M_TRIM_THRESHOLD, libc::c_int::MAX) == 0
        {
            return;
        }
        let mut blocks = Vec::with_capacity(region.div_ceil(BLOCK));
        for _ in 0..region.div_ceil(BLOCK) {
            let block = libc::malloc(BLOCK);
            if block.is_null() {
                break;
            }
            blocks.push(block);
        }
        // Blocks from the top of the heap lie one after the other.
        if let (Some(&first), Some(&last)) = (blocks.first(), blocks.last()) {
            let start = (first as usize).next_multiple_of(HUGE_PAGE);
            let end = (last as usize + BLOCK) & !(HUGE_PAGE - 1);
            if end > start {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
        for block in blocks.into_iter().rev() {
            libc::free(block);
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn heap_in_huge_pages(_input_bytes: u64) {}

fn run(command: Command) -> Result<ExitCode, String> {
    match command {
        Command::Check { input } => {
            patchmap::ir::parse_file(&input).and_then(|m| patchmap::ir::verify(&m)).map_err(|e| e.to_string())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Compile {
            input,
            output,
            target,
            opt,
            stackmap_version,
            max_registers_for_gc_values,
            use_registers_for_deopt_values,
        } => {
            check_output(&output, &[&input])?;
            let options = patchmap::compile::Options::new(target.as_deref(), &opt, 1)
                .map_err(|e| format!("patchmap: error: {e}"))?
                .with_stackmap_version(stackmap_version)
                .with_max_registers_for_gc_values(max_registers_for_gc_values)
                .with_registers_for_deopt_values(use_registers_for_deopt_values);
            // Before the module's memory is allocated.
            if let Ok(meta) = std::fs::metadata(&input) {
                heap_in_huge_pages(meta.len());
            }
            let module = patchmap::ir::parse_file(&input).map_err(|e| e.to_string())?;
            let object = patchmap::emit::object::compile(&module, &options).map_err(report)?;
            write(&output, &object)?;
            // The process ends here: freeing a large module node by node would only cost time.
            std::mem::forget(module);
            Ok(ExitCode::SUCCESS)
        }
        Command::Run { input, entry, interpret: true, args, .. } => interpret(&input, &entry, &args),
        Command::Run { input, entry, opt, args, .. } => {
            let module = patchmap::ir::parse_file(&input).map_err(|e| e.to_string())?;
            let options =
                patchmap::compile::Options::new(None, &opt, 3).map_err(|e| format!("patchmap: error: {e}"))?;
            let jit = patchmap::emit::jit::JitCode::compile(&module, &options).map_err(report)?;
            // SAFETY: running the user's program is what `run` is for; its IR answers for its behaviour.
            let result = fault::reported(&jit, || unsafe { jit.call_i64(&entry, &args) }).map_err(report)?;
            // As a program's exit: static destructors before the result is printed.
            // SAFETY: as above.
            fault::reported(&jit, || unsafe { jit.run_destructors() });
            println!("{result}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Demo => demo(),
        Command::Dump { file, symbols } => {
            let bytes = read(&file)?;
            let mut out = std::io::stdout().lock();
            patchmap::stackmap::object_file::dump(&bytes, symbols, &mut out)
                .map_err(|e| format!("patchmap: error: {}: {e}", file.display()))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Convert { input, to_version, output, v1_split, v1_record_counts } => {
            use patchmap::stackmap::object_file::{convert_with, V1Split};
            check_output(&output, &[&input])?;
            let bytes = read(&input)?;
            let split = match (v1_record_counts, v1_split) {
                (Some(counts), _) => V1Split::Counts(counts),
                (None, V1SplitChoice::Refuse) => V1Split::Refuse,
                (None, V1SplitChoice::Likeliest) => V1Split::Likeliest,
            };
            let converted = convert_with(&bytes, to_version, &split)
                .map_err(|e| format!("patchmap: error: {}: {e}", input.display()))?;
            write(&output, &converted)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `patchmap run --interpret`: prints what `run` prints, computed by the interpreter.
fn interpret(input: &Path, entry: &str, args: &[i64]) -> Result<ExitCode, String> {
    let module = patchmap::ir::parse_file(input).map_err(|e| e.to_string())?;
    patchmap::ir::verify(&module).map_err(|e| e.to_string())?;
    let id = module.function_by_name(entry).ok_or_else(|| format!("patchmap: error: no function named '{entry}'"))?;
    let args: Vec<u64> = args.iter().map(|&a| a as u64).collect();
    let mut interp = patchmap::interp::Interpreter::new(&module);
    // SAFETY: running the user's program is what `run` is for; its IR answers for its behaviour.
    // Static constructors and destructors around it, as a program's start and exit run them.
    let result = unsafe {
        interp.run_static_functions(patchmap::ir::StaticPhase::Constructor).map_err(|e| e.to_string())?;
        let result = interp.call(id, &args).map_err(|e| e.to_string())?;
        interp.run_static_functions(patchmap::ir::StaticPhase::Destructor).map_err(|e| e.to_string())?;
        result
    };
    // The JIT's result, sign-extended from its width.
    let result = match (&module.function(id).ret, result) {
        (patchmap::ir::Type::Int(bits), Some(v)) if *bits > 1 && *bits < 64 => {
            ((v << (64 - bits)) as i64) >> (64 - bits)
        }
        (_, v) => v.unwrap_or(0) as i64,
    };
    println!("{result}");
    Ok(ExitCode::SUCCESS)
}

/// The embedded default program of `patchmap demo`: a loop with stack maps.
const DEMO_FILE: &str = "ir-examples/sm_loop.ll";
const DEMO_TEXT: &str = include_str!("../ir-examples/sm_loop.ll");

fn demo() -> Result<ExitCode, String> {
    let module = patchmap::ir::parse(DEMO_FILE, DEMO_TEXT).map_err(|e| e.to_string())?;
    patchmap::ir::verify(&module).map_err(|e| e.to_string())?;
    let defined = module.functions.iter().filter(|f| !f.is_declaration()).count();
    println!("{DEMO_FILE}: {defined} functions, a stack map in a loop and one after it");
    for arch in patchmap::arch::Arch::ALL {
        let options = patchmap::compile::Options::new(Some(arch.triple()), "speed", 3)
            .map_err(|e| format!("patchmap: error: {e}"))?;
        let object = patchmap::emit::object::compile(&module, &options).map_err(report)?;
        println!("\n{}: a {}-byte ELF relocatable object; its .llvm_stackmaps:", arch.name(), object.len());
        patchmap::stackmap::object_file::dump(&object, true, &mut std::io::stdout().lock())
            .map_err(|e| format!("patchmap: error: {e}"))?;
    }
    let options = patchmap::compile::Options::new(None, "speed", 3).map_err(|e| format!("patchmap: error: {e}"))?;
    let jit = patchmap::emit::jit::JitCode::compile(&module, &options).map_err(report)?;
    println!(
        "\nthe JIT's section: {} bytes with absolute addresses; running main() (S lines: the values each stack map records):",
        jit.stack_map_section().len()
    );
    // SAFETY: the embedded program is one of the differential-tested examples.
    let result = unsafe { jit.call_i64("main", &[]) }.map_err(report)?;
    println!("main() returned {result}");
    Ok(ExitCode::SUCCESS)
}

/// `patchmap run`'s report of a fault in generated code: the signal, what the faulting instruction
/// checks (Cranelift's trap record), and the function and offset, before the signal's default action
/// ends the process as it would have without the report.
mod fault {
    use std::fmt::Write as _;
    use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

    use patchmap::emit::jit::JitCode;

    /// The code being run, for the handler; null outside [`reported`].
    static CODE: AtomicPtr<JitCode> = AtomicPtr::new(std::ptr::null_mut());
    /// The lowest address the running thread's stack may grow to (0: unknown), found before the run:
    /// `pthread_getattr_np` is no call for a signal handler.
    static STACK_LIMIT: AtomicUsize = AtomicUsize::new(0);

    /// How far below the stack's limit a fault still counts as running out of stack: the kernel's
    /// guard gap below a growing stack (256 pages) and a guard page or two of a thread's.
    const GUARD_BYTES: usize = 1 << 20;
    /// The alternate signal stack the handler runs on: a fault from running out of stack has no
    /// stack left to run it on.
    const ALTERNATE_STACK_BYTES: usize = 64 << 10;

    const SIGNALS: [(libc::c_int, &str); 4] =
        [(libc::SIGSEGV, "SIGSEGV"), (libc::SIGBUS, "SIGBUS"), (libc::SIGILL, "SIGILL"), (libc::SIGFPE, "SIGFPE")];

    /// Runs `run` (which calls into `code`) with the fault handlers installed.
    pub fn reported<R>(code: &JitCode, run: impl FnOnce() -> R) -> R {
        CODE.store(code as *const JitCode as *mut JitCode, Ordering::SeqCst);
        STACK_LIMIT.store(stack_limit().unwrap_or(0), Ordering::SeqCst);
        let mut alternate = vec![0u8; ALTERNATE_STACK_BYTES];
        let stack = libc::stack_t { ss_sp: alternate.as_mut_ptr().cast(), ss_flags: 0, ss_size: alternate.len() };
        // SAFETY: a zeroed `stack_t` is a valid value for sigaltstack to fill in.
        let mut previous_stack: libc::stack_t = unsafe { std::mem::zeroed() };
        // SAFETY: the buffer outlives the handlers, which are removed (and the previous stack put
        // back) before it is freed below.
        unsafe { libc::sigaltstack(&stack, &mut previous_stack) };
        // SAFETY: a zeroed `sigaction` is a valid value (no handler, empty mask); `previous` receives
        // the actions in place, which are put back below.
        let mut previous: [libc::sigaction; 4] = unsafe { std::mem::zeroed() };
        for (&(signal, _), previous) in SIGNALS.iter().zip(&mut previous) {
            // SAFETY: as above.
            let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
            action.sa_sigaction = handler as *const () as usize;
            // SA_RESETHAND: the handler returns to the faulting instruction, which then meets the
            // default action. SA_ONSTACK: the alternate stack set up above, for a stack overflow.
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_RESETHAND;
            // SAFETY: installs a handler that only reads `CODE` and writes to standard error.
            unsafe { libc::sigaction(signal, &action, previous) };
        }
        let result = run();
        for (&(signal, _), previous) in SIGNALS.iter().zip(&previous) {
            // SAFETY: puts back the action saved above.
            unsafe { libc::sigaction(signal, previous, std::ptr::null_mut()) };
        }
        // SAFETY: puts back the alternate stack found above (disabled if there was none).
        unsafe { libc::sigaltstack(&previous_stack, std::ptr::null_mut()) };
        drop(alternate);
        CODE.store(std::ptr::null_mut(), Ordering::SeqCst);
        result
    }

    /// The lowest address of the calling thread's stack (for the main thread, as low as its size
    /// limit lets it grow).
    fn stack_limit() -> Option<usize> {
        // SAFETY: a zeroed attribute object is filled in by pthread_getattr_np and destroyed after
        // use; the out-pointers are valid.
        unsafe {
            let mut attr: libc::pthread_attr_t = std::mem::zeroed();
            if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
                return None;
            }
            let (mut address, mut size) = (std::ptr::null_mut(), 0);
            let ok = libc::pthread_attr_getstack(&attr, &mut address, &mut size) == 0;
            libc::pthread_attr_destroy(&mut attr);
            ok.then_some(address as usize)
        }
    }

    /// Whether a fault at `address` is the stack running out: at or just below the stack's limit.
    fn is_stack_overflow(address: usize) -> bool {
        let limit = STACK_LIMIT.load(Ordering::SeqCst);
        limit != 0 && address < limit.saturating_add(4096) && address >= limit.saturating_sub(GUARD_BYTES)
    }

    /// A message built without allocating (a signal handler must not).
    struct Message {
        bytes: [u8; 512],
        len: usize,
    }

    impl std::fmt::Write for Message {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            let n = s.len().min(self.bytes.len() - self.len);
            self.bytes[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
            self.len += n;
            Ok(())
        }
    }

    extern "C" fn handler(signal: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo and ucontext to an SA_SIGINFO handler.
        let (pc, address) = unsafe { (program_counter(context), (*info).si_addr() as usize) };
        let name = SIGNALS.iter().find(|s| s.0 == signal).map_or("signal", |s| s.1);
        // SAFETY: `CODE` points to the JitCode borrowed by `reported`, alive while its handlers are.
        let code = unsafe { CODE.load(Ordering::SeqCst).as_ref() };
        let place = code.and_then(|code| code.locate(pc));
        let mut m = Message { bytes: [0; 512], len: 0 };
        let _ = write!(m, "patchmap: error: ");
        let overflow = matches!(signal, libc::SIGSEGV | libc::SIGBUS) && is_stack_overflow(address);
        let _ = match (place.and_then(|p| p.trap), signal) {
            _ if overflow => write!(m, "stack overflow at address {address:#x}"),
            (Some(kind), libc::SIGSEGV | libc::SIGBUS) => write!(m, "{kind} at address {address:#x}"),
            (Some(kind), _) => write!(m, "{kind}"),
            (None, libc::SIGSEGV | libc::SIGBUS) => write!(m, "invalid memory access at address {address:#x}"),
            (None, libc::SIGFPE) => write!(m, "arithmetic fault"),
            (None, _) => write!(m, "illegal instruction"),
        };
        let _ = match place {
            Some(p) => writeln!(m, " ({name}) in function '{}' at offset {:#x}", p.function, p.offset),
            None => writeln!(m, " ({name}) outside the generated code, at pc {pc:#x}"),
        };
        // SAFETY: write(2) is async-signal-safe; the buffer is initialised up to `len`.
        unsafe { libc::write(2, m.bytes.as_ptr().cast(), m.len) };
    }

    /// The interrupted program counter of a signal's context.
    ///
    /// # Safety
    /// `context` must be the ucontext an SA_SIGINFO handler received.
    unsafe fn program_counter(context: *mut libc::c_void) -> usize {
        let context = context as *const libc::ucontext_t;
        // SAFETY: per the function's contract.
        #[cfg(target_arch = "x86_64")]
        return unsafe { (*context).uc_mcontext.gregs[libc::REG_RIP as usize] as usize };
        // SAFETY: per the function's contract.
        #[cfg(target_arch = "aarch64")]
        return unsafe { (*context).uc_mcontext.pc as usize };
        #[allow(unreachable_code)]
        0
    }
}
