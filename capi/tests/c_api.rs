//! The C API (issue 29): the header is what cbindgen makes of `capi/src/`; C programs built with the
//! system compiler against it and against the static and the shared library: `readobj.c` prints
//! exactly what `patchmap dump` prints for the `ir-examples` objects of both targets in every version
//! (patchmap's, and llc-19's);
//! `jit_stop.c` stops JIT-compiled ir-examples at their records through patched exit calls and reads
//! every value, which must be what the program printed for that record; `copying_collector.c` is a
//! moving collector rooted through the statepoint walk (or the frame-table walk, with GC pointers in
//! registers too) that runs tests/gc_collector's programs, and
//! whose broken variants are caught; `frame_walk.c` walks nested frames of JIT code stopped in an
//! entry with the frame table, reads every value of every frame and writes some, and its broken
//! variants are caught. All run clean under valgrind; `patchmap.pc` builds a program;
//! the README's example runs; the entry points survive malformed sections (a mutation loop, and
//! libFuzzer where clang-19's runtime is installed).

use std::ffi::CStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use patchmap::compile::Options;
use patchmap::stackmap::Version;
use patchmap_c::*;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Whether the tests must fail rather than skip without a tool (the README's test command sets it).
fn tools_required() -> bool {
    std::env::var("PATCHMAP_REQUIRE_TOOLS").is_ok_and(|v| v == "1")
}

fn tool(name: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|p| p.join(name)).find(|p| p.is_file()));
    if found.is_none() {
        assert!(!tools_required(), "{name} not found, and PATCHMAP_REQUIRE_TOOLS=1 requires it");
        eprintln!("skipped: {name} not found");
    }
    found
}

#[test]
fn the_header_is_what_cbindgen_makes_of_the_source() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).unwrap();
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen reads the crate")
        .write(&mut generated);
    let header = root().join("include/patchmap.h");
    if std::env::var("PATCHMAP_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&header, &generated).unwrap();
    }
    let current = std::fs::read(&header).unwrap_or_default();
    assert!(
        current == generated,
        "include/patchmap.h is stale: regenerate it with PATCHMAP_BLESS=1 cargo test -p patchmap-capi --test c_api"
    );
}

/// `libpatchmap_c.a` and `libpatchmap_c.so`: `cargo test` builds only the rlib it links, so the C
/// libraries come from `PATCHMAP_CAPI_LIBRARIES` (a directory `cargo build -p patchmap-capi --lib`
/// filled: scripts/test.sh builds them into the main target directory, sharing its dependencies) or
/// are built here, once, as a C user builds them, in a target directory of their own beside this
/// test's (a nested cargo cannot wait on this one's target directory).
fn library_dir() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            if let Some(dir) = std::env::var_os("PATCHMAP_CAPI_LIBRARIES") {
                let dir = PathBuf::from(dir);
                for library in ["libpatchmap_c.a", "libpatchmap_c.so"] {
                    assert!(dir.join(library).is_file(), "PATCHMAP_CAPI_LIBRARIES: no {library} in {}", dir.display());
                }
                return dir;
            }
            // target/<profile>/deps/c_api-* -> target/capi-libraries
            let target = std::env::current_exe().unwrap().ancestors().nth(3).unwrap().join("capi-libraries");
            let out = Command::new(env!("CARGO"))
                .args(["build", "--quiet", "-p", "patchmap-capi", "--lib", "--manifest-path"])
                .arg(root().join("Cargo.toml"))
                .arg("--target-dir")
                .arg(&target)
                .output()
                .unwrap();
            assert!(out.status.success(), "building the C libraries failed: {}", String::from_utf8_lossy(&out.stderr));
            target.join("debug")
        })
        .clone()
}

/// The C program `capi/tests/<name>.c` linked against the static (`static_lib`) or the shared library.
fn build_c(dir: &Path, name: &str, static_lib: bool) -> PathBuf {
    build_c_file(dir, &root().join(format!("capi/tests/{name}.c")), static_lib)
}

/// The C file `source` linked against the static (`static_lib`) or the shared library.
fn build_c_file(dir: &Path, source: &Path, static_lib: bool) -> PathBuf {
    let name = source.file_stem().unwrap().to_string_lossy();
    let exe = dir.join(format!("{name}-{}", if static_lib { "static" } else { "shared" }));
    let mut cc = Command::new("cc");
    cc.args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-DPATCHMAP_COMPILER", "-o"])
        .arg(&exe)
        .arg("-I")
        .arg(root().join("include"))
        .arg(source);
    let libs = library_dir();
    if static_lib {
        cc.arg(libs.join("libpatchmap_c.a")).args(["-lpthread", "-ldl", "-lm", "-lgcc_s"]);
    } else {
        // DT_RPATH, which LD_LIBRARY_PATH does not override: cargo test points that at target/debug,
        // whose libpatchmap_c.so may be another build's (a runtime-only one, say).
        cc.arg("-L").arg(&libs).arg("-lpatchmap_c").arg(format!("-Wl,--disable-new-dtags,-rpath,{}", libs.display()));
    }
    let out = cc.output().unwrap();
    assert!(out.status.success(), "cc failed: {}", String::from_utf8_lossy(&out.stderr));
    exe
}

fn build_readobj(dir: &Path, static_lib: bool) -> PathBuf {
    build_c(dir, "readobj", static_lib)
}

/// patchmap's objects of the ir-examples on both targets, in every version, and one object of two
/// blobs (two objects merged by `ld -r`).
fn objects(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut examples: Vec<PathBuf> = std::fs::read_dir(root().join("ir-examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    examples.sort();
    for ll in &examples {
        let text = std::fs::read_to_string(ll).unwrap();
        if !text.contains("@llvm.experimental.") {
            continue;
        }
        let module = patchmap::ir::parse(&ll.to_string_lossy(), &text).unwrap();
        for (target, version) in [
            ("x86_64-unknown-linux-gnu", Version::V3),
            ("aarch64-unknown-linux-gnu", Version::V3),
            ("x86_64-unknown-linux-gnu", Version::V1),
            ("aarch64-unknown-linux-gnu", Version::V2),
            ("x86_64-unknown-linux-gnu", Version::FrameTable),
            ("aarch64-unknown-linux-gnu", Version::FrameTable),
        ] {
            let options = Options::new(Some(target), "speed", 3).unwrap().with_stackmap_version(version);
            let Ok(object) = patchmap::emit::object::compile(&module, &options) else { continue };
            let name = format!("{}.{target}.{version:?}.o", ll.file_stem().unwrap().to_string_lossy());
            std::fs::write(dir.join(&name), object).unwrap();
            out.push(dir.join(name));
        }
    }
    assert!(out.len() >= 100, "only {} objects", out.len());
    if let (Some(ld), Some(objcopy)) = (tool("ld"), tool("objcopy")) {
        // The same object twice, the second's symbols renamed so that they do not clash.
        let first = out.iter().find(|p| p.to_string_lossy().contains("x86_64-unknown-linux-gnu.V3")).unwrap().clone();
        let second = dir.join("second.o");
        let status = Command::new(objcopy).arg("--prefix-symbols=second_").arg(&first).arg(&second).status().unwrap();
        assert!(status.success());
        let merged = dir.join("two-blobs.o");
        let status = Command::new(ld).arg("-r").arg("-o").arg(&merged).arg(&first).arg(&second).status().unwrap();
        assert!(status.success());
        out.push(merged);
    }
    out
}

/// llc-19's objects of the same ir-examples on both targets (LLVM's own sections, as a C runtime
/// reads them); empty without llc-19. An example llc-19 crashes on is left out (llc-19 segfaults on
/// two x86-64 patch point examples).
fn llc_objects(dir: &Path) -> Vec<PathBuf> {
    let Some(llc) = tool("llc-19") else { return Vec::new() };
    let mut out = Vec::new();
    let mut examples: Vec<PathBuf> = std::fs::read_dir(root().join("ir-examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .filter(|p| std::fs::read_to_string(p).unwrap().contains("@llvm.experimental."))
        .collect();
    examples.sort();
    for ll in &examples {
        for target in ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"] {
            let object = dir.join(format!("{}.{target}.llc.o", ll.file_stem().unwrap().to_string_lossy()));
            let status = Command::new(&llc)
                .args(["-O2", &format!("-mtriple={target}"), "-filetype=obj", "-o"])
                .arg(&object)
                .arg(ll)
                .stderr(std::process::Stdio::null())
                .status()
                .unwrap();
            if status.success() {
                out.push(object);
            }
        }
    }
    assert!(out.len() >= 40, "llc-19 compiled only {} ir-examples objects", out.len());
    out
}

fn dump(object: &Path, symbols: bool) -> String {
    let mut text = Vec::new();
    patchmap::stackmap::object_file::dump(&std::fs::read(object).unwrap(), symbols, &mut text).unwrap();
    String::from_utf8(text).unwrap()
}

#[test]
fn a_c_readobj_prints_what_patchmap_dump_prints() {
    if tool("cc").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let builds = [build_readobj(dir.path(), true), build_readobj(dir.path(), false)];
    let mut objects = objects(dir.path());
    objects.extend(llc_objects(dir.path()));
    let mut blobs = 0;
    for object in &objects {
        for symbols in [false, true] {
            let expected = dump(object, symbols);
            blobs += expected.matches("LLVM StackMap Version").count();
            for readobj in &builds {
                let mut cmd = Command::new(readobj);
                if symbols {
                    cmd.arg("--symbols");
                }
                let out = cmd.arg(object).output().unwrap();
                assert!(out.status.success(), "{}: {}", object.display(), String::from_utf8_lossy(&out.stderr));
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout),
                    expected,
                    "{} ({})",
                    object.display(),
                    readobj.display()
                );
            }
        }
    }
    assert!(blobs > objects.len() * 2, "the merged object's second blob was printed");
    // A file without a section, and one that is no object: a message, status 1, no crash.
    for (bytes, message) in [(b"not an object".to_vec(), "not an object file")] {
        let bad = dir.path().join("bad.o");
        std::fs::write(&bad, bytes).unwrap();
        for readobj in &builds {
            let out = Command::new(readobj).arg(&bad).output().unwrap();
            assert_eq!(out.status.code(), Some(1));
            assert!(String::from_utf8_lossy(&out.stderr).contains(message), "{}", String::from_utf8_lossy(&out.stderr));
        }
    }
}

/// valgrind failing (status 99) on any invalid access or leak of any kind; JIT code and patched
/// code are checked as they change (`--smc-check=all`).
fn valgrind_command(valgrind: &Path) -> Command {
    let mut command = Command::new(valgrind);
    command
        .args(["--quiet", "--smc-check=all", "--leak-check=full", "--show-leak-kinds=all"])
        .args(["--errors-for-leak-kinds=all", "--error-exitcode=99"])
        .arg(format!("--suppressions={}", root().join("capi/tests/valgrind.supp").display()));
    command
}

#[test]
fn the_c_readobj_runs_clean_under_valgrind() {
    let (Some(valgrind), Some(_)) = (tool("valgrind"), tool("cc")) else { return };
    let dir = tempfile::tempdir().unwrap();
    let objects = objects(dir.path());
    for static_lib in [true, false] {
        let readobj = build_readobj(dir.path(), static_lib);
        for object in objects.iter().step_by(17).chain(objects.last()) {
            let out = valgrind_command(&valgrind).arg(&readobj).arg("--symbols").arg(object).output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{} under valgrind: {}",
                object.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// Every entry point on a section with one byte changed or cut short: a status, never a crash;
/// a malformed blob's message names a byte offset.
#[test]
fn entry_points_survive_malformed_sections() {
    let dir = tempfile::tempdir().unwrap();
    let objects = objects(dir.path());
    let mut malformed = 0;
    let mut parsed = 0;
    for object in objects.iter().step_by(5) {
        let bytes = std::fs::read(object).unwrap();
        let section = {
            use object::{Object, ObjectSection};
            let file = object::File::parse(&*bytes).unwrap();
            let s = file.section_by_name(".llvm_stackmaps").unwrap();
            s.data().unwrap().to_vec()
        };
        for at in 0..section.len() {
            for change in [0x00u8, 0xff, 0x80, 0x01] {
                let mut blob = section.clone();
                blob[at] ^= change.max(1);
                for len in [blob.len(), at] {
                    let mut map = std::ptr::null_mut();
                    // SAFETY: `blob` holds `len` bytes and `map` is a valid out-parameter.
                    let status = unsafe { patchmap_stackmap_parse(blob.as_ptr(), len, 0, &mut map) };
                    if status != PatchmapStatus::Ok {
                        assert_eq!(status, PatchmapStatus::Malformed);
                        // SAFETY: the message is a C string of this thread.
                        let message = unsafe { CStr::from_ptr(patchmap_last_error()) }.to_string_lossy().into_owned();
                        assert!(message.contains("offset") || message.contains("byte"), "{message}");
                        malformed += 1;
                        continue;
                    }
                    parsed += 1;
                    // SAFETY: `map` is live until freed below; every out-parameter is valid.
                    unsafe { walk(map) };
                    // SAFETY: the handle is ours.
                    unsafe { patchmap_stackmap_free(map) };
                }
            }
        }
    }
    assert!(malformed > 100 && parsed > 100, "malformed {malformed}, parsed {parsed}");
    // Huge counts and offsets: every 4-byte field of each header (and the first records) set to
    // values no section of this size can hold.
    let mut huge = 0;
    for object in objects.iter().step_by(3) {
        let bytes = std::fs::read(object).unwrap();
        let section = {
            use object::{Object, ObjectSection};
            let file = object::File::parse(&*bytes).unwrap();
            file.section_by_name(".llvm_stackmaps").unwrap().data().unwrap().to_vec()
        };
        for at in (0..section.len().min(64)).step_by(4) {
            for value in [u32::MAX, 0x8000_0000, 0x0001_0000, 0xffff] {
                let mut blob = section.clone();
                let end = (at + 4).min(blob.len());
                blob[at..end].copy_from_slice(&value.to_le_bytes()[..end - at]);
                for version in [0, 1, 2, 3, 0x72] {
                    let mut map = std::ptr::null_mut();
                    // SAFETY: `blob` holds its bytes and `map` is a valid out-parameter.
                    let status = unsafe { patchmap_stackmap_parse(blob.as_ptr(), blob.len(), version, &mut map) };
                    if status == PatchmapStatus::Ok {
                        // SAFETY: `map` is live until freed.
                        unsafe {
                            walk(map);
                            patchmap_stackmap_free(map);
                        }
                    } else {
                        assert_eq!(status, PatchmapStatus::Malformed);
                        // SAFETY: the message is a C string of this thread.
                        let message = unsafe { CStr::from_ptr(patchmap_last_error()) }.to_string_lossy().into_owned();
                        assert!(message.contains("offset") || message.contains("byte"), "{message}");
                        huge += 1;
                    }
                }
            }
        }
        // The whole object with its section's header made huge: an error, never a crash.
        let mut changed = bytes.clone();
        let start = bytes.windows(section.len().min(16)).position(|w| w == &section[..section.len().min(16)]).unwrap();
        changed[start + 4..start + 16].fill(0xff);
        let mut object = std::ptr::null_mut();
        // SAFETY: `changed` holds its bytes.
        let status = unsafe { patchmap_object_parse(changed.as_ptr(), changed.len(), &mut object) };
        assert_eq!(status, PatchmapStatus::Malformed);
    }
    assert!(huge > 100, "only {huge} huge-count sections were refused");
    // Null arguments.
    let mut map = std::ptr::null_mut();
    // SAFETY: null pointers are what is tested.
    unsafe {
        assert_eq!(patchmap_stackmap_parse(std::ptr::null(), 0, 0, &mut map), PatchmapStatus::InvalidArgument);
        assert_eq!(patchmap_stackmap_parse([3u8].as_ptr(), 1, 9, &mut map), PatchmapStatus::InvalidArgument);
        let mut record = PatchmapRecord::default();
        assert_eq!(patchmap_stackmap_record(std::ptr::null(), 0, &mut record), PatchmapStatus::InvalidArgument);
        assert_eq!(patchmap_stackmap_num_records(std::ptr::null()), 0);
        patchmap_stackmap_free(std::ptr::null_mut());
        patchmap_object_free(std::ptr::null_mut());
    }
}

/// Reads everything a handle offers, and one index past each end.
///
/// # Safety
/// `map` is a live handle.
unsafe fn walk(map: *const PatchmapStackMap) {
    // SAFETY: the caller vouches for the handle; every out-parameter is a local.
    unsafe {
        let mut f = PatchmapFunction::default();
        let functions = patchmap_stackmap_num_functions(map);
        for i in 0..=functions {
            let status = patchmap_stackmap_function(map, i, &mut f);
            assert_eq!(status == PatchmapStatus::Ok, i < functions);
            let mut frame = PatchmapFrame::default();
            if patchmap_stackmap_frame(map, i, &mut frame) == PatchmapStatus::Ok {
                let mut r = PatchmapFrameRegister::default();
                for k in 0..=frame.num_registers {
                    assert_eq!(
                        patchmap_stackmap_frame_register(map, i, k, &mut r) == PatchmapStatus::Ok,
                        k < frame.num_registers
                    );
                }
            }
        }
        let mut c = 0u64;
        let constants = patchmap_stackmap_num_constants(map);
        assert_eq!(patchmap_stackmap_constant(map, constants, &mut c), PatchmapStatus::OutOfRange);
        let records = patchmap_stackmap_num_records(map);
        let mut record = PatchmapRecord::default();
        for i in 0..=records {
            let status = patchmap_stackmap_record(map, i, &mut record);
            assert_eq!(status == PatchmapStatus::Ok, i < records);
            if status != PatchmapStatus::Ok {
                continue;
            }
            let mut l = std::mem::zeroed::<PatchmapLocation>();
            for k in 0..=record.num_locations {
                assert_eq!(
                    patchmap_stackmap_location(map, i, k, &mut l) == PatchmapStatus::Ok,
                    k < record.num_locations
                );
            }
            let mut lo = PatchmapLiveOut::default();
            for k in 0..=record.num_live_outs {
                assert_eq!(
                    patchmap_stackmap_live_out(map, i, k, &mut lo) == PatchmapStatus::Ok,
                    k < record.num_live_outs
                );
            }
        }
        let mut found = 0usize;
        let status = patchmap_stackmap_records_at(map, 0x1234, std::ptr::null_mut(), 0, &mut found);
        assert!(matches!(status, PatchmapStatus::Ok | PatchmapStatus::InvalidArgument));
        // Every location read through callbacks that answer anything, and a statepoint walk over
        // a made-up frame chain from the first record: statuses, never a crash.
        unsafe extern "C" fn any_register(_: *mut std::ffi::c_void, dwarf: u16, value: *mut u64) -> bool {
            // SAFETY: the library passes a valid out-parameter.
            unsafe { *value = 0x7000 + u64::from(dwarf) };
            !dwarf.is_multiple_of(3)
        }
        unsafe extern "C" fn any_memory(_: *mut std::ffi::c_void, address: u64, _: usize, value: *mut u64) -> bool {
            // SAFETY: as above.
            unsafe { *value = address ^ 0x5a5a };
            !address.is_multiple_of(5)
        }
        unsafe extern "C" fn chain(_: *mut std::ffi::c_void, address: u64, value: *mut u64) -> bool {
            // SAFETY: as above.
            unsafe { *value = address.wrapping_add(0x40) };
            address < 0x10_0000
        }
        unsafe extern "C" fn visit(context: *mut std::ffi::c_void, frame: *const PatchmapGcFrame) -> bool {
            // SAFETY: the library passes a frame whose arrays live during the call.
            let frame = unsafe { &*frame };
            let roots = unsafe { std::slice::from_raw_parts(frame.roots, frame.num_roots) };
            // SAFETY: the context is the test's counter.
            unsafe { *(context as *mut usize) += 1 + roots.len() };
            true
        }
        let access = PatchmapFrameAccess {
            context: std::ptr::null_mut(),
            read_register: Some(any_register),
            read_memory: Some(any_memory),
        };
        let mut l = std::mem::zeroed::<PatchmapLocation>();
        for i in 0..records {
            if patchmap_stackmap_record(map, i, &mut record) != PatchmapStatus::Ok {
                continue;
            }
            for k in 0..record.num_locations {
                assert_eq!(patchmap_stackmap_location(map, i, k, &mut l), PatchmapStatus::Ok);
                let mut value = 0;
                let status = patchmap_read_location(map, &l, &access, &mut value);
                assert_ne!(status, PatchmapStatus::Panic);
            }
        }
        let mut table = std::ptr::null_mut();
        if patchmap_stackmap_num_functions(map) > 0
            && patchmap_statepoint_table_new(map, &mut table) == PatchmapStatus::Ok
        {
            let (mut function, mut first) = (PatchmapFunction::default(), PatchmapRecord::default());
            if patchmap_stackmap_function(map, 0, &mut function) == PatchmapStatus::Ok
                && patchmap_stackmap_record(map, 0, &mut first) == PatchmapStatus::Ok
            {
                let start = PatchmapFrameState {
                    return_address: function.address.wrapping_add(u64::from(first.instruction_offset)),
                    stack_pointer: 0x8000,
                    frame_pointer: 0x8010,
                };
                let mut seen = 0usize;
                let seen_ptr: *mut usize = &mut seen;
                let status = patchmap_statepoint_walk(
                    table,
                    PatchmapArch::X86_64,
                    start,
                    Some(chain),
                    std::ptr::null_mut(),
                    Some(visit),
                    seen_ptr as *mut std::ffi::c_void,
                    std::ptr::null_mut(),
                );
                assert_ne!(status, PatchmapStatus::Panic);
            }
            patchmap_statepoint_table_free(table);
        }
        // A frame-table walk from made-up registers stopped at the first record, on both targets,
        // with every location of every frame placed, read and written.
        unsafe extern "C" fn chain_memory(_: *mut std::ffi::c_void, address: u64, _: usize, value: *mut u64) -> bool {
            // SAFETY: the library passes a valid out-parameter.
            unsafe { *value = address.wrapping_add(0x40) };
            address < 0x10_0000
        }
        unsafe extern "C" fn any_write(_: *mut std::ffi::c_void, address: u64, _: usize, _: u64) -> bool {
            !address.is_multiple_of(7)
        }
        let mut frame_table = std::ptr::null_mut();
        let (mut function, mut first) = (PatchmapFunction::default(), PatchmapRecord::default());
        if patchmap_frame_table_new(map, &mut frame_table) == PatchmapStatus::Ok {
            if patchmap_stackmap_function(map, 0, &mut function) == PatchmapStatus::Ok
                && patchmap_stackmap_record(map, 0, &mut first) == PatchmapStatus::Ok
            {
                let memory =
                    PatchmapMemory { context: std::ptr::null_mut(), read: Some(chain_memory), write: Some(any_write) };
                for arch in [PatchmapArch::X86_64, PatchmapArch::Aarch64] {
                    let mut registers = std::mem::zeroed::<PatchmapRegisters>();
                    registers.return_address = function.address.wrapping_add(u64::from(first.instruction_offset));
                    registers.stack_pointer = 0x8000;
                    registers.general[usize::from(patchmap_arch_frame_pointer(arch))] = 0x8010;
                    let mut walk = std::ptr::null_mut();
                    let status = patchmap_frame_table_walk(frame_table, arch, &registers, &memory, &mut walk);
                    assert_ne!(status, PatchmapStatus::Panic);
                    if status != PatchmapStatus::Ok {
                        continue;
                    }
                    let mut frame = std::mem::zeroed::<PatchmapWalkedFrame>();
                    let frames = patchmap_stack_walk_num_frames(walk);
                    assert!(frames >= 1);
                    for i in 0..=frames {
                        let mut value = 0;
                        let status = patchmap_stack_walk_register(walk, i, i as u16, &registers, &memory, &mut value);
                        assert_ne!(status, PatchmapStatus::Panic);
                        let mut roots = [PatchmapRoot {
                            base: PatchmapSlot { kind: PatchmapSlotKind::Constant, value: 0 },
                            derived: PatchmapSlot { kind: PatchmapSlotKind::Constant, value: 0 },
                        }; 4];
                        let mut count = 0;
                        let status =
                            patchmap_stack_walk_roots(walk, i, &registers, &memory, roots.as_mut_ptr(), 4, &mut count);
                        assert_ne!(status, PatchmapStatus::Panic);
                        let status = patchmap_stack_walk_frame(walk, i, &mut frame);
                        assert_eq!(status == PatchmapStatus::Ok, i < frames);
                        if status != PatchmapStatus::Ok
                            || patchmap_stackmap_record(map, frame.record, &mut record) != PatchmapStatus::Ok
                        {
                            continue;
                        }
                        for k in 0..record.num_locations {
                            assert_eq!(patchmap_stackmap_location(map, frame.record, k, &mut l), PatchmapStatus::Ok);
                            let mut place = PatchmapPlace { kind: PatchmapPlaceKind::Value, value: 0 };
                            for status in [
                                patchmap_stack_walk_place(walk, i, &l, &registers, &memory, &mut place),
                                patchmap_stack_walk_read(walk, i, &l, &registers, &memory, &mut value),
                                patchmap_stack_walk_write(walk, i, &l, value ^ 1, &mut registers, &memory),
                            ] {
                                assert_ne!(status, PatchmapStatus::Panic);
                            }
                        }
                    }
                    patchmap_stack_walk_free(walk);
                }
            }
            patchmap_frame_table_free(frame_table);
        }
    }
}

/// `patchmap_records_at` and `patchmap_read_location` on a JIT-compiled function's section: each
/// record is found at its address, and a location reads through the callbacks.
#[test]
fn records_are_found_by_address_and_locations_read_through_callbacks() {
    let Some(_) = patchmap::arch::Arch::host() else { return };
    let text = "declare void @llvm.experimental.stackmap(i64, i32, ...)
define i64 @f(i64 %a) {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 7, i32 0, i64 %a, i64 1099511627776, i64 -5)
  ret i64 %a
}
";
    let module = patchmap::ir::parse("f.ll", text).unwrap();
    let jit = patchmap::emit::jit::JitCode::compile(&module, &Options::new(None, "speed", 3).unwrap()).unwrap();
    let section = jit.stack_map_section();
    let mut map = std::ptr::null_mut();
    // SAFETY: the section's bytes and a valid out-parameter.
    assert_eq!(unsafe { patchmap_stackmap_parse(section.as_ptr(), section.len(), 3, &mut map) }, PatchmapStatus::Ok);
    let site = jit.sites()[0].address as u64;
    let mut indices = [usize::MAX; 4];
    let mut count = 0;
    // SAFETY: `map` is live; `indices` holds 4.
    let status = unsafe { patchmap_stackmap_records_at(map, site, indices.as_mut_ptr(), 4, &mut count) };
    assert_eq!((status, count, indices[0]), (PatchmapStatus::Ok, 1, 0));

    unsafe extern "C" fn register(context: *mut std::ffi::c_void, dwarf: u16, value: *mut u64) -> bool {
        // SAFETY: the test's context is a u16 register number it answers for.
        let wanted = unsafe { *(context as *const u16) };
        if dwarf == wanted {
            unsafe { *value = 0x5eed };
        }
        dwarf == wanted
    }
    let mut l = unsafe { std::mem::zeroed::<PatchmapLocation>() };
    // SAFETY: as above.
    unsafe {
        assert_eq!(patchmap_stackmap_location(map, 0, 0, &mut l), PatchmapStatus::Ok);
        let mut reg = l.dwarf_reg;
        let reg: *mut u16 = &mut reg;
        let access = PatchmapFrameAccess {
            context: reg as *mut std::ffi::c_void,
            read_register: Some(register),
            read_memory: None,
        };
        let mut value = 0;
        if l.kind == PatchmapLocationKind::Register as u8 {
            assert_eq!(patchmap_read_location(map, &l, &access, &mut value), PatchmapStatus::Ok);
            assert_eq!(value, 0x5eed);
        }
        // The large constant comes from the pool, the small one sign-extended.
        assert_eq!(patchmap_stackmap_location(map, 0, 1, &mut l), PatchmapStatus::Ok);
        assert_eq!((l.kind, l.constant), (PatchmapLocationKind::ConstantIndex as u8, 1 << 40));
        assert_eq!(patchmap_read_location(map, &l, &access, &mut value), PatchmapStatus::Ok);
        assert_eq!(value, 1 << 40);
        assert_eq!(patchmap_stackmap_location(map, 0, 2, &mut l), PatchmapStatus::Ok);
        assert_eq!(patchmap_read_location(map, &l, &access, &mut value), PatchmapStatus::Ok);
        assert_eq!(value, -5i64 as u64);
        // A register the callbacks do not give.
        let other = PatchmapLocation {
            kind: PatchmapLocationKind::Register as u8,
            size: 8,
            dwarf_reg: 3,
            offset: 0,
            constant: 0,
        };
        *reg = 99;
        assert_eq!(patchmap_read_location(map, &other, &access, &mut value), PatchmapStatus::Unreadable);
        let message = CStr::from_ptr(patchmap_last_error()).to_string_lossy().into_owned();
        assert!(message.contains("R#3"), "{message}");
        patchmap_stackmap_free(map);
    }
}

/// Whether this host runs JIT code, entries and exits (Linux on x86-64 or AArch64); says so if not.
fn runs_jit_code() -> bool {
    let runs = cfg!(target_os = "linux") && patchmap::arch::Arch::host().is_some();
    if !runs {
        eprintln!("skipped: the host cannot run patchmap's JIT code (Linux on x86-64 or AArch64)");
    }
    runs
}

/// ir-examples whose programs print each stack map's values before reaching it ("S<id> <bits>:<hex>
/// ..."), with records whose shadows hold an exit call.
const STOPPED_EXAMPLES: [&str; 3] = ["sm_shadows", "sm_branches", "sm_spill_many"];

/// Checks `jit_stop`'s output: every `stop <record> S<id> <size>:<hex>...` line holds the values the
/// program printed for `S<id>` last before it, in the same run. Returns how many values were compared.
fn compare_stops(example: &str, stdout: &str) -> usize {
    let mut run: Vec<&str> = Vec::new();
    let (mut compared, mut stops) = (0, 0);
    for line in stdout.lines() {
        assert!(!line.starts_with("unreached"), "{example}: {line}");
        let Some(stop) = line.strip_prefix("stop ") else {
            run.push(line);
            continue;
        };
        stops += 1;
        let mut words = stop.split(' ').skip(1);
        let id = words.next().unwrap();
        let read: Vec<&str> = words.collect();
        let printed = run
            .iter()
            .rev()
            .find(|l| l.split(' ').next() == Some(id))
            .unwrap_or_else(|| panic!("{example}: the program printed no {id} line before `{line}`"));
        let printed: Vec<&str> = printed.split(' ').skip(1).collect();
        assert_eq!(printed.len(), read.len(), "{example}: {line}\nvs the program's {id} {printed:?}");
        for (p, r) in printed.iter().zip(&read) {
            // Pointer contents (`*bits:hex`) and undef (`-`) are not values a location holds.
            if p.starts_with('*') || *p == "-" {
                continue;
            }
            let value = |token: &str| {
                let (width, hex) = token.split_once(':').unwrap();
                (width.parse::<u32>().unwrap(), u64::from_str_radix(hex, 16).unwrap())
            };
            let ((bits, expected), (_, got)) = (value(p), value(r));
            let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
            assert_eq!(got & mask, expected & mask, "{example}: {line}\nvs the program's {id} {printed:?}");
            compared += 1;
        }
        run.clear();
    }
    assert!(stops > 0, "{example}: no stop in\n{stdout}");
    compared
}

/// The low 32 bits of what the interpreter's `@main()` of `ll` returns (its output discarded).
fn interpreted_main(ll: &Path) -> u64 {
    let module = patchmap::ir::parse(&ll.to_string_lossy(), &std::fs::read_to_string(ll).unwrap()).unwrap();
    let main = module.function_by_name("main").unwrap();
    let mut interpreter = patchmap::interp::Interpreter::new(&module);
    interpreter.output_to(std::io::sink());
    // SAFETY: the ir-examples are free of undefined behaviour.
    let result = unsafe { interpreter.call(main, &[]) }.unwrap().unwrap();
    result & 0xffff_ffff
}

/// `jit_stop.c`: JIT-compiles ir-examples through the C API, stops them at each stack map whose
/// shadow holds an exit call, reads every value of the record there, and puts the code back.
#[test]
fn a_c_program_stops_jit_code_at_records_and_reads_every_value() {
    if tool("cc").is_none() || !runs_jit_code() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for static_lib in [true, false] {
        let exe = build_c(dir.path(), "jit_stop", static_lib);
        let mut compared = 0;
        for example in STOPPED_EXAMPLES {
            let ll = root().join(format!("ir-examples/{example}.ll"));
            let out = Command::new(&exe).arg(&ll).arg("main").output().unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{example}: {}{stdout}", String::from_utf8_lossy(&out.stderr));
            compared += compare_stops(example, &stdout);
            // The unpatched code runs to its end after every site was put back, with the
            // interpreter's result.
            assert_eq!(stdout.lines().last().unwrap(), format!("result {}", interpreted_main(&ll)), "{example}");
        }
        assert!(compared >= 40, "only {compared} values compared");
    }
    // A file that does not compile: the message has its position.
    let bad = dir.path().join("bad.ll");
    std::fs::write(&bad, "define i32 @main() {\n  ret i32 %nope\n}\n").unwrap();
    let out = Command::new(dir.path().join("jit_stop-shared")).arg(&bad).arg("main").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("bad.ll:2:"), "{stderr}");
}

/// `copying_collector.c`: a moving collector in C whose roots come from the API's statepoint walk
/// runs tests/gc_collector's programs with a collection at every allocation and safepoint: the output
/// is the program's, and the collections and deopt values are those tests/gc_collector counts with
/// its own section parser and libgcc's unwinder; the same with the roots from the frame-table walk,
/// GC pointers in callee-saved registers included (some must be). Collectors that skip the derived
/// pointers or a frame are caught, with either walk.
#[test]
fn a_c_moving_collector_finds_its_roots_through_the_api() {
    if tool("cc").is_none() || !runs_jit_code() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let gc = |name: &str| root().join("tests/gc_collector").join(name);
    // The statepoint walk; the frame-table walk (roots through `patchmap_stack_walk_roots`), with GC
    // pointers in frame slots only and with up to two per statepoint in callee-saved registers.
    let walks: [&[&str]; 3] = [&[], &["--frame-table"], &["--frame-table", "--gc-registers", "2"]];
    for static_lib in [true, false] {
        let exe = build_c(dir.path(), "copying_collector", static_lib);
        for program in ["gc_list", "gc_tree", "gc_arrays"] {
            for walk in walks {
                let out = Command::new(&exe).arg(gc(&format!("{program}.ll"))).args(walk).output().unwrap();
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert!(out.status.success(), "{program} {walk:?}: {stderr}");
                let expected = std::fs::read_to_string(gc(&format!("{program}.expected"))).unwrap();
                assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{program} {walk:?}");
                let stress = std::fs::read_to_string(gc(&format!("{program}.stress"))).unwrap();
                assert_eq!(stderr.lines().last().unwrap(), format!("gc: {}", stress.trim()), "{program} {walk:?}");
                if walk.contains(&"--gc-registers") {
                    let in_registers =
                        stderr.lines().find_map(|l| l.strip_prefix("gc: ")?.strip_suffix(" roots in registers"));
                    let in_registers: u64 = in_registers.unwrap_or_else(|| panic!("{stderr}")).parse().unwrap();
                    assert!(in_registers > 0, "{program} {walk:?}: no root was in a register");
                }
            }
        }
    }
    let exe = dir.path().join("copying_collector-shared");
    let broken: [&[&str]; 6] = [
        &["--skip-derived"],
        &["--skip-frame", "1"],
        &["--skip-frame", "2"],
        &["--frame-table", "--gc-registers", "2", "--skip-derived"],
        &["--frame-table", "--gc-registers", "2", "--skip-frame", "0"],
        &["--frame-table", "--gc-registers", "2", "--skip-frame", "1"],
    ];
    for broken in broken {
        let out = Command::new(&exe).arg(gc("gc_list.ll")).args(broken).output().unwrap();
        let expected = std::fs::read_to_string(gc("gc_list.expected")).unwrap();
        assert!(
            !out.status.success() || String::from_utf8_lossy(&out.stdout) != expected,
            "a collector run with {broken:?} went unnoticed"
        );
    }
    // GC pointers in callee-saved registers: a walk by frame pointer refuses, and says why.
    let out = Command::new(&exe).arg(gc("gc_list.ll")).args(["--gc-registers", "2"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let walk = PatchmapStatus::Walk as i32;
    assert!(stderr.contains(&format!("walk (status {walk})")) && stderr.contains("is in register R#"), "{stderr}");
}

/// `frame_walk.c` over `nested_calls.ll` (f0 -> f1 -> f2 -> a runtime entry, ten values live across
/// each call, compiled from C in the frame-table layout): the frame-table walk from the entry's
/// registers finds the three frames at their records, every value of every frame reads as the
/// program printed it (checked by the C program and again here from its output), some of them
/// callee-saved registers of outer frames found in inner frames' save slots; three values written
/// through the walk (a captured register, a spill slot, the outermost frame's saved register) are
/// what the program prints after the entry returns. Its broken variants are caught.
#[test]
fn a_c_program_walks_every_frame_with_the_frame_table_and_writes_values() {
    if tool("cc").is_none() || !runs_jit_code() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let program = root().join("capi/tests/nested_calls.ll");
    for static_lib in [true, false] {
        let exe = build_c(dir.path(), "frame_walk", static_lib);
        let out = Command::new(&exe).arg(&program).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}{stdout}", String::from_utf8_lossy(&out.stderr));
        // The program's own values, by (level, index), and the walk's reads of them.
        let mut printed = std::collections::HashMap::new();
        let mut reads = 0;
        for line in stdout.lines() {
            let words: Vec<&str> = line.split(' ').collect();
            match words[..] {
                ["value", level, index, hex] if level.len() == 1 => {
                    printed.insert((level.to_string(), index.to_string()), u64::from_str_radix(hex, 16).unwrap());
                }
                ["frame", frame, id, index, value, _] => {
                    let level = (id[1..].parse::<u64>().unwrap() - 100).to_string();
                    assert_eq!(frame.parse::<usize>().unwrap(), 2 - level.parse::<usize>().unwrap(), "{line}");
                    let (size, hex) = value.split_once(':').unwrap();
                    let mask = if size == "8" { u64::MAX } else { (1u64 << (8 * size.parse::<u32>().unwrap())) - 1 };
                    let expected = printed[&(level, index.to_string())];
                    assert_eq!(u64::from_str_radix(hex, 16).unwrap() & mask, expected & mask, "{line}");
                    reads += 1;
                }
                _ => {}
            }
        }
        assert_eq!((printed.len(), reads), (30, 30), "{stdout}");
        let summary = stdout.lines().last().unwrap();
        let numbers: Vec<usize> = summary.split(' ').filter_map(|w| w.parse().ok()).collect();
        assert!(summary.starts_with("walked"), "{summary}");
        let &[frames, values, saved, written] = &numbers[..] else { panic!("{summary}") };
        assert_eq!((frames, values, written), (3, 30, 3), "{summary}");
        assert!(saved >= 2, "only {saved} values of outer frames were in inner frames' save slots: {summary}");
    }
    let exe = dir.path().join("frame_walk-shared");
    for broken in ["--ignore-saves", "--wrong-frame", "--write-captured"] {
        let out = Command::new(&exe).arg(&program).arg(broken).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "frame_walk {broken} went unnoticed: {stderr}");
        assert!(stderr.contains("mismatch"), "{broken}: {stderr}");
    }
}

/// The C programs over JIT code, with either library, under valgrind: no invalid access, no leak.
#[test]
fn the_c_jit_programs_run_clean_under_valgrind() {
    let (Some(valgrind), Some(_)) = (tool("valgrind"), tool("cc")) else { return };
    if !runs_jit_code() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for static_lib in [true, false] {
        let collector = build_c(dir.path(), "copying_collector", static_lib);
        let gc_arrays = root().join("tests/gc_collector/gc_arrays.ll");
        let mut runs = vec![
            (build_c(dir.path(), "jit_stop", static_lib), root().join("ir-examples/sm_branches.ll"), vec!["main"]),
            (collector.clone(), gc_arrays.clone(), vec![]),
            (build_c(dir.path(), "frame_walk", static_lib), root().join("capi/tests/nested_calls.ll"), vec![]),
        ];
        if !static_lib {
            // Roots in registers through the frame-table walk (once: 11 s under valgrind).
            runs.push((collector, gc_arrays, vec!["--frame-table", "--gc-registers", "2"]));
        }
        for (exe, input, args) in runs {
            let out = valgrind_command(&valgrind).arg(&exe).arg(&input).args(&args).output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{} {} {args:?} under valgrind: {}",
                exe.display(),
                input.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// `capi/patchmap.pc.in` installed with a prefix: `pkg-config --cflags --libs patchmap` builds and
/// links a C program against the installed header and shared library.
#[test]
fn pkg_config_flags_build_a_c_program() {
    let (Some(pkg_config), Some(_)) = (tool("pkg-config"), tool("cc")) else { return };
    let prefix = tempfile::tempdir().unwrap();
    let p = prefix.path();
    for dir in ["include", "lib/pkgconfig"] {
        std::fs::create_dir_all(p.join(dir)).unwrap();
    }
    std::fs::copy(root().join("include/patchmap.h"), p.join("include/patchmap.h")).unwrap();
    for lib in ["libpatchmap_c.so", "libpatchmap_c.a"] {
        std::fs::copy(library_dir().join(lib), p.join("lib").join(lib)).unwrap();
    }
    let template = std::fs::read_to_string(root().join("capi/patchmap.pc.in")).unwrap();
    std::fs::write(p.join("lib/pkgconfig/patchmap.pc"), template.replace("@PREFIX@", &p.to_string_lossy())).unwrap();
    let out = Command::new(pkg_config)
        .args(["--cflags", "--libs", "patchmap"])
        .env("PKG_CONFIG_PATH", p.join("lib/pkgconfig"))
        .output()
        .unwrap();
    assert!(out.status.success(), "pkg-config: {}", String::from_utf8_lossy(&out.stderr));
    let flags = String::from_utf8(out.stdout).unwrap();
    assert!(flags.contains("-DPATCHMAP_COMPILER") && flags.contains("-lpatchmap_c"), "{flags}");
    let exe = p.join("jit_stop");
    let status = Command::new("cc")
        .args(["-std=c99", "-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg(root().join("capi/tests/jit_stop.c"))
        .args(flags.split_whitespace())
        .arg(format!("-Wl,--disable-new-dtags,-rpath,{}", p.join("lib").display()))
        .status()
        .unwrap();
    assert!(status.success(), "cc with pkg-config's flags ({flags}) failed");
    if runs_jit_code() {
        let out = Command::new(&exe).arg(root().join("ir-examples/sm_shadows.ll")).arg("main").output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        compare_stops("sm_shadows", &String::from_utf8_lossy(&out.stdout));
    }
}

/// The README's complete C example builds against both libraries and prints what it says.
#[test]
fn the_readme_s_c_example_runs() {
    if tool("cc").is_none() || !runs_jit_code() {
        return;
    }
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let from = readme.find("A complete program: compile IR").expect("the README's C API example");
    let code = &readme[from..];
    let code = &code[code.find("```c\n").unwrap() + 5..];
    let code = &code[..code.find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("readme_example.c");
    std::fs::write(&source, code).unwrap();
    for static_lib in [true, false] {
        let out = Command::new(build_c_file(dir.path(), &source, static_lib)).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "record 7 value 0: 5\nrecord 7 value 1: 15\n");
    }
}

/// `fuzz_stackmap.c` under libFuzzer (clang-19's runtime): a bounded run over mutations of real
/// sections and objects of both targets in every version, with every entry point on what parses.
#[test]
fn libfuzzer_runs_the_entry_points_on_mutated_sections() {
    let Some(clang) = tool("clang-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let probe = dir.path().join("probe.c");
    std::fs::write(&probe, "#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n").unwrap();
    let probed = Command::new(&clang)
        .args(["-fsanitize=fuzzer", "-o"])
        .arg(dir.path().join("probe"))
        .arg(&probe)
        .output()
        .unwrap();
    if !probed.status.success() {
        assert!(!tools_required(), "clang-19's libFuzzer runtime not found, and PATCHMAP_REQUIRE_TOOLS=1 requires it");
        eprintln!("skipped: clang-19's libFuzzer runtime (libclang-rt-19-dev) not found");
        return;
    }
    let fuzzer = dir.path().join("fuzz_stackmap");
    let out = Command::new(&clang)
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-fsanitize=fuzzer", "-o"])
        .arg(&fuzzer)
        .arg("-I")
        .arg(root().join("include"))
        .arg(root().join("capi/tests/fuzz_stackmap.c"))
        .arg(library_dir().join("libpatchmap_c.a"))
        .args(["-lpthread", "-ldl", "-lm", "-lgcc_s"])
        .output()
        .unwrap();
    assert!(out.status.success(), "clang-19 failed: {}", String::from_utf8_lossy(&out.stderr));
    // Seeds: each section behind the byte that makes the target parse it in its version, and the
    // whole object.
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    let mut seeds = 0;
    for example in ["sm_args", "sm_spill_many", "gc_derived", "pp_anyreg"] {
        let ll = root().join(format!("ir-examples/{example}.ll"));
        let module = patchmap::ir::parse(&ll.to_string_lossy(), &std::fs::read_to_string(&ll).unwrap()).unwrap();
        for target in ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"] {
            for (version, pick) in [(Version::V1, 1u8), (Version::V2, 2), (Version::V3, 3), (Version::FrameTable, 4)] {
                let options = Options::new(Some(target), "speed", 3).unwrap().with_stackmap_version(version);
                let Ok(object) = patchmap::emit::object::compile(&module, &options) else { continue };
                let section = {
                    use object::{Object, ObjectSection};
                    let file = object::File::parse(&*object).unwrap();
                    file.section_by_name(".llvm_stackmaps").unwrap().data().unwrap().to_vec()
                };
                let mut seed = vec![pick];
                seed.extend_from_slice(&section);
                std::fs::write(corpus.join(format!("{example}-{target}-{pick}")), seed).unwrap();
                std::fs::write(corpus.join(format!("{example}-{target}-{pick}.o")), &object).unwrap();
                seeds += 2;
            }
        }
    }
    assert!(seeds >= 40, "{seeds} seeds");
    let out = Command::new(&fuzzer)
        .args(["-runs=30000", "-seed=29", "-max_len=65536", "-timeout=10", "-rss_limit_mb=2048"])
        .arg(&corpus)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the fuzz target failed: {stderr}");
    assert!(stderr.contains("Done 30000 runs"), "{stderr}");
}

/// Compiling to an object in memory for either target, its errors with positions, and the call
/// encodings, as the Rust API gives them.
#[test]
fn objects_compile_in_memory_and_calls_encode_as_the_library_does() {
    let text = "declare void @llvm.experimental.stackmap(i64, i32, ...)
define i64 @f(i64 %a) {
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 7, i32 0, i64 %a)
  ret i64 %a
}
";
    for (target, version) in [(c"aarch64", 0u32), (c"x86_64-unknown-linux-gnu", 0x72)] {
        let options = PatchmapCompileOptions {
            target: target.as_ptr(),
            opt_level: c"none".as_ptr(),
            stackmap_version: version,
            max_registers_for_gc_values: 0,
            use_registers_for_deopt_values: false,
        };
        let mut buffer = std::ptr::null_mut();
        let mut object = std::ptr::null_mut();
        // SAFETY: valid text, options and out-parameters; the handles are freed below.
        unsafe {
            let status = patchmap_compile_object(text.as_ptr(), text.len(), c"f.ll".as_ptr(), &options, &mut buffer);
            assert_eq!(status, PatchmapStatus::Ok);
            let bytes = std::slice::from_raw_parts(patchmap_buffer_data(buffer), patchmap_buffer_len(buffer));
            assert_eq!(patchmap_object_parse(bytes.as_ptr(), bytes.len(), &mut object), PatchmapStatus::Ok);
            let map = patchmap_object_stackmap(object, 0);
            assert_eq!(patchmap_stackmap_version(map), if version == 0 { 3 } else { version });
            assert_eq!(patchmap_stackmap_num_records(map), 1);
            patchmap_object_free(object);
            patchmap_buffer_free(buffer);
        }
    }
    // Errors: the IR's position, an unknown option.
    let bad = "define i64 @f() {\n  ret i64 %missing\n}\n";
    let mut buffer = std::ptr::null_mut();
    // SAFETY: as above.
    unsafe {
        let status =
            patchmap_compile_object(bad.as_ptr(), bad.len(), c"bad.ll".as_ptr(), std::ptr::null(), &mut buffer);
        assert_eq!(status, PatchmapStatus::Compile);
        let message = CStr::from_ptr(patchmap_last_error()).to_string_lossy().into_owned();
        assert!(message.starts_with("bad.ll:2:"), "{message}");
        let options = PatchmapCompileOptions {
            target: c"sparc".as_ptr(),
            opt_level: std::ptr::null(),
            stackmap_version: 3,
            max_registers_for_gc_values: 0,
            use_registers_for_deopt_values: false,
        };
        let status = patchmap_compile_object(text.as_ptr(), text.len(), std::ptr::null(), &options, &mut buffer);
        assert_eq!(status, PatchmapStatus::InvalidArgument);
        assert_eq!(
            patchmap_compile_object_file(c"/nonexistent.ll".as_ptr(), std::ptr::null(), &mut buffer),
            PatchmapStatus::Compile
        );
    }
    // The encodings are the library's, and a short buffer is refused.
    for (arch, c_arch) in
        [(patchmap::arch::Arch::X86_64, PatchmapArch::X86_64), (patchmap::arch::Arch::Aarch64, PatchmapArch::Aarch64)]
    {
        let target = 0x1234_5678_9abcu64;
        let mut buffer = [0u8; 32];
        let mut len = 0;
        // SAFETY: the buffer holds 32 bytes.
        unsafe {
            assert_eq!(patchmap_encode_call(c_arch, target, buffer.as_mut_ptr(), 32, &mut len), PatchmapStatus::Ok);
            assert_eq!(&buffer[..len], &arch.encode_call(target).unwrap()[..]);
            assert_eq!(
                patchmap_encode_exit_call(c_arch, target, buffer.as_mut_ptr(), 32, &mut len),
                PatchmapStatus::Ok
            );
            assert_eq!(&buffer[..len], &arch.encode_exit_call(target).unwrap()[..]);
            assert_eq!(len as u64, patchmap_exit_call_return_offset(c_arch));
            assert_eq!(
                patchmap_encode_call(c_arch, target, buffer.as_mut_ptr(), 3, &mut len),
                PatchmapStatus::OutOfRange
            );
        }
        assert_eq!(patchmap_arch_integer_argument(c_arch, 0), arch.integer_arguments()[0]);
        assert_eq!(patchmap_arch_integer_argument(c_arch, 99), u16::MAX);
    }
    // Patching refuses code longer than its region, and another architecture's code.
    let Some(host) = patchmap::arch::Arch::host() else { return };
    let (c_host, other) = if host == patchmap::arch::Arch::X86_64 {
        (PatchmapArch::X86_64, PatchmapArch::Aarch64)
    } else {
        (PatchmapArch::Aarch64, PatchmapArch::X86_64)
    };
    let mut region = [0u8; 8];
    let code = [0u8; 16];
    // SAFETY: both calls fail before touching the region (a stack buffer, not code).
    unsafe {
        assert_eq!(patchmap_patch_code(c_host, region.as_mut_ptr(), 8, code.as_ptr(), 16), PatchmapStatus::OutOfRange);
        assert_eq!(
            patchmap_patch_code(other, region.as_mut_ptr(), 8, code.as_ptr(), 4),
            PatchmapStatus::InvalidArgument
        );
    }
}
