//! Golden files of what patchmap emits for every `ir-examples` program, on both targets, without any
//! external tool: each function's code size and the stack map section as `patchmap dump --symbols`
//! prints it (records, locations, live-outs), in `tests/golden/<example>.<arch>.txt`. A change in
//! what we emit shows up here as a diff to review; `PATCHMAP_BLESS=1 cargo test --test programs golden` rewrites
//! the files from the actual output.

use crate::support;

use std::fmt::Write as _;
use std::path::Path;

use object::{Object, ObjectSymbol, SymbolKind};
use patchmap::compile::Options;
use patchmap::stackmap::object_file;

const TRIPLES: [(&str, &str); 2] = [("x86_64", "x86_64-unknown-linux-gnu"), ("aarch64", "aarch64-unknown-linux-gnu")];

/// What we pin of one object: function code sizes, then the section dump.
fn describe(object: &[u8]) -> String {
    let file = object::File::parse(object).unwrap();
    let mut out = String::new();
    let mut functions: Vec<(String, u64)> = file
        .symbols()
        .filter(|s| s.kind() == SymbolKind::Text && s.is_definition())
        .map(|s| (s.name().unwrap_or("?").to_string(), s.size()))
        .collect();
    functions.sort();
    for (name, size) in functions {
        writeln!(out, "function {name}: {size} bytes").unwrap();
    }
    let mut dump = Vec::new();
    match object_file::dump(object, true, &mut dump) {
        Ok(()) => out.push_str(&String::from_utf8(dump).unwrap()),
        Err(e) => writeln!(out, "no stack map section: {e}").unwrap(),
    }
    out
}

#[test]
fn emitted_code_sizes_and_records_match_the_golden_files() {
    let bless = std::env::var("PATCHMAP_BLESS").is_ok_and(|v| v == "1");
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in support::ir_examples() {
        let module = patchmap::ir::parse_file(&path).unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        for (arch, triple) in TRIPLES {
            let options = Options::new(Some(triple), "speed", 1).unwrap();
            let object = patchmap::emit::object::compile(&module, &options)
                .unwrap_or_else(|e| panic!("{}: {arch}: {e}", path.display()));
            let actual = describe(&object);
            let file = golden.join(format!("{stem}.{arch}.txt"));
            let expected = std::fs::read_to_string(&file).unwrap_or_default();
            if actual != expected {
                if bless {
                    std::fs::write(&file, &actual).unwrap();
                } else {
                    let line = actual.lines().zip(expected.lines()).position(|(a, b)| a != b);
                    failures
                        .push(format!("{} differs from what we emit (first differing line {line:?})", file.display()));
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} golden comparisons");
    assert!(
        failures.is_empty(),
        "{}\n(review the change; PATCHMAP_BLESS=1 cargo test --test programs golden rewrites the files)",
        failures.join("\n")
    );
}
