//! Exceptions written in IR by hand (`tests/exceptions/*.ll`): `invoke`, `landingpad` with catch,
//! filter and cleanup clauses, `resume`, `llvm.eh.typeid.for`, built by patchmap and by llc-19 on
//! both targets, linked with libstdc++ and run, and in the JIT: the same output. And what is
//! refused: the interpreter (it cannot unwind), `invoke` of a statepoint.

use crate::support;

use std::path::Path;

use patchmap::compile::Options;
use patchmap::ir;
use support::Arch;

fn programs() -> Vec<std::path::PathBuf> {
    support::ll_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/exceptions"))
}

#[test]
fn hand_written_landing_pads_run_as_llc19_builds_them() {
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let programs = programs();
    assert!(!programs.is_empty());
    for ll in &programs {
        let name = ll.file_stem().unwrap().to_string_lossy().into_owned();
        let module = ir::parse_file(ll).unwrap_or_else(|e| panic!("{e}"));
        for arch in Arch::ALL {
            let Some(toolchain) = support::cxx_toolchain(arch) else { continue };
            let reference = support::llc_object(&llc, ll, arch, "2", dir.path())
                .and_then(|o| toolchain.link_and_run(&o, dir.path(), &format!("{name}-llc")))
                .unwrap_or_else(|e| panic!("{name} {arch:?}: reference: {e}"));
            // Each catch, the filter and the cleanups are taken at least once; the selectors are
            // numbered as llc-19 numbers them.
            let lines: &[&str] = match name.as_str() {
                "landing_pads" => {
                    &["classify(1) = 41", "classify(2) = -1000", "outer(2) = 100", "cleanup in middle after call 2"]
                }
                "selectors" => &["selectors(0) = 2005 (142)", "selectors(1) = 1003 (142)", "selectors(3) = 1002 (142)"],
                _ => &[],
            };
            for line in lines {
                assert!(reference.stdout.contains(line), "{name} {arch:?}: llc-19's program printed {reference:?}");
            }
            let options = Options::new(Some(arch.triple()), "speed", 1).unwrap();
            let object = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
            let ours = toolchain.link_and_run(&object, dir.path(), &format!("{name}-patchmap")).unwrap();
            assert_eq!(ours, reference, "{name} {arch:?}");
        }
    }
}

#[test]
fn landing_pads_print_back_as_parsed() {
    for ll in programs() {
        let module = ir::parse_file(&ll).unwrap_or_else(|e| panic!("{e}"));
        let printed = module.to_string();
        for word in ["personality ptr @__gxx_personality_v0", "invoke", "unwind label", "landingpad", "catch ptr @"] {
            assert!(printed.contains(word), "{} printed without '{word}':\n{printed}", ll.display());
        }
        let again = ir::parse(ll.to_str().unwrap(), &printed).unwrap_or_else(|e| panic!("{e}\n{printed}"));
        ir::verify(&again).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again.to_string(), printed);
        // And LLVM reads the printed text as the same kind of IR.
        let Some(llc) = support::tool("llc-19") else { continue };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("printed.ll");
        std::fs::write(&path, &printed).unwrap();
        let (code, _, err) = support::run(
            std::process::Command::new(llc)
                .args(["-O2", "-mtriple=x86_64-unknown-linux-gnu", "-filetype=null"])
                .arg(&path),
        );
        assert_eq!(code, 0, "llc-19 rejects the printed {}: {err}\n{printed}", ll.display());
    }
}

#[test]
fn every_clause_kind_prints_back() {
    let ll = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/exceptions/landing_pads.ll");
    let printed = ir::parse_file(&ll).unwrap().to_string();
    for word in ["cleanup\n", "catch ptr null", "filter [1 x ptr] [ptr @_ZTIi]", "resume { ptr, i32 } %"] {
        assert!(printed.contains(word), "printed without '{word}':\n{printed}");
    }
}

#[test]
fn the_interpreter_refuses_landing_pads_with_a_position() {
    let ll = &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/exceptions/landing_pads.ll");
    let module = ir::parse_file(ll).unwrap();
    let classify = module.functions.iter().position(|f| f.name == "classify").unwrap();
    let mut interp = patchmap::interp::Interpreter::new(&module);
    // SAFETY: the interpreter stops at the invoke, before any call.
    let error = unsafe { interp.call(ir::FuncId(classify as u32), &[0]) }.unwrap_err();
    assert!(error.message.contains("'invoke' is not supported by the interpreter"), "{error}");
    assert!(error.span.line > 0, "{error}");
}

/// In the JIT (`patchmap run`, x86-64 hosts), the same programs print what llc-19's build prints:
/// the JIT registers its code's `.eh_frame`, with the LSDAs and personality, with the unwinder.
#[test]
fn hand_written_landing_pads_run_in_the_jit_as_llc19_builds_them() {
    if !support::x86_64_host("the JIT runs host code") {
        return;
    }
    let Some(llc) = support::tool("llc-19") else { return };
    let Some(toolchain) = support::cxx_toolchain(Arch::X86_64) else { return };
    let dir = tempfile::tempdir().unwrap();
    for ll in programs() {
        let name = ll.file_stem().unwrap().to_string_lossy().into_owned();
        let reference = support::llc_object(&llc, &ll, Arch::X86_64, "2", dir.path())
            .and_then(|o| toolchain.link_and_run(&o, dir.path(), &format!("{name}-llc")))
            .unwrap_or_else(|e| panic!("{name}: reference: {e}"));
        for level in ["none", "speed"] {
            let (code, stdout, stderr) = support::run_in_jit(&ll, level);
            assert_eq!(code, 0, "{name} at {level}: {stderr}");
            // `run` prints main's result last.
            assert_eq!(stdout, format!("{}{}\n", reference.stdout, reference.status), "{name} at {level}");
        }
    }
}

/// `frameless.ll`'s exception unwinds through frames without a frame pointer in patchmap's x86-64
/// build (the run against llc-19's is above): `busy` and `thrower` neither push nor set RBP, and
/// `busy` saves callee-saved registers with pushes, whose unwind rows restore the catcher's values.
#[test]
fn the_frameless_program_unwinds_through_functions_without_rbp() {
    use object::{Object, ObjectSection, ObjectSymbol};
    let ll = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/exceptions/frameless.ll");
    let module = ir::parse_file(&ll).unwrap();
    let options = Options::new(Some("x86_64"), "speed", 1).unwrap();
    let object = patchmap::emit::object::compile(&module, &options).unwrap();
    let file = object::File::parse(&*object).unwrap();
    let code = |name: &str| {
        let symbol = file.symbols().find(|s| s.name() == Ok(name)).unwrap();
        let data = file.section_by_index(symbol.section_index().unwrap()).unwrap().data().unwrap();
        data[symbol.address() as usize..(symbol.address() + symbol.size()) as usize].to_vec()
    };
    for name in ["busy", "thrower"] {
        let code = code(name);
        // `push %rbp` is 0x55, `mov %rsp, %rbp` 48 89 e5.
        assert_ne!(code[0], 0x55, "{name} starts with push %rbp: {code:02x?}");
        assert!(!code.windows(3).any(|w| w == [0x48, 0x89, 0xe5]), "{name} sets RBP: {code:02x?}");
    }
    // `busy` pushes callee-saves first (`push %rbx` 0x53, `push %r12`-`%r15` 41 54-57).
    let busy = code("busy");
    assert!(busy[0] == 0x53 || (busy[0] == 0x41 && (0x54..=0x57).contains(&busy[1])), "{busy:02x?}");
}
