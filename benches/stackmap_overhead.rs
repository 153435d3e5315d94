//! Code size a stack map costs: each input compiled with and without its `llvm.experimental.stackmap`
//! calls, by patchmap and by `llc-19 -O2`, for x86-64 and AArch64. Prints the `.text` bytes added per
//! stack map and per non-constant live value. Run with `cargo bench --bench stackmap_overhead`.
//! Besides the table, prints `TABLE|what|ours|theirs|ratio` lines for `scripts/bench-table.sh`.

use std::path::{Path, PathBuf};
use std::process::Command;

use object::{Object, ObjectSection};
use patchmap::compile::Options;
use patchmap::stackmap::{object_file, LocationKind};

fn text_size(object: &[u8]) -> u64 {
    let file = object::File::parse(object).expect("an object");
    file.sections().filter(|s| s.name().is_ok_and(|n| n.starts_with(".text"))).map(|s| s.size()).sum()
}

/// (stack maps, non-constant live values) of an object's stack map.
fn counts(object: &[u8]) -> (usize, usize) {
    let Ok((maps, _)) = object_file::read_models(object) else { return (0, 0) };
    let records = maps.iter().flat_map(|m| &m.records);
    let live = records
        .clone()
        .flat_map(|r| &r.locations)
        .filter(|l| !matches!(l.kind, LocationKind::Constant | LocationKind::ConstantIndex))
        .count();
    (records.count(), live)
}

fn ours(text: &str, target: &str) -> Vec<u8> {
    let module = patchmap::ir::parse("input.ll", text).expect("valid IR");
    patchmap::emit::object::compile(&module, &Options::new(Some(target), "speed", 3).unwrap()).expect("compiles")
}

fn llc(llc: &Path, text: &str, target: &str, dir: &Path) -> Vec<u8> {
    let input = dir.join("input.ll");
    let output = dir.join("input.o");
    std::fs::write(&input, text).unwrap();
    let status = Command::new(llc)
        .args(["-O2", "-filetype=obj", &format!("-mtriple={target}-unknown-linux-gnu"), "-o"])
        .arg(&output)
        .arg(&input)
        .status()
        .expect("llc-19 runs");
    assert!(status.success());
    std::fs::read(output).unwrap()
}

fn main() {
    let Some(llc_path) = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join("llc-19"))
        .find(|p| p.is_file())
    else {
        println!("skipped: llc-19 not found");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(root.join("ir-examples"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("sm_")))
        .collect();
    inputs.sort();
    let dir = tempfile::tempdir().unwrap();
    println!(
        "{:<28} {:>7} {:>5} {:>5} | {:>8} {:>8} | {:>8} {:>8}",
        "input", "target", "maps", "live", "ours/map", "ours/val", "llc/map", "llc/val"
    );
    let mut summary = Vec::new();
    for target in ["x86_64", "aarch64"] {
        let (mut total_maps, mut total_live, mut ours_added, mut llc_added) = (0, 0, 0i64, 0i64);
        for input in &inputs {
            let text = std::fs::read_to_string(input).unwrap();
            let without: String = text
                .lines()
                .filter(|l| !l.contains("call void (i64, i32, ...) @llvm.experimental.stackmap("))
                .map(|l| format!("{l}\n"))
                .collect();
            let with_ours = ours(&text, target);
            let (maps, live) = counts(&with_ours);
            let ours_delta = text_size(&with_ours) as i64 - text_size(&ours(&without, target)) as i64;
            let llc_delta = text_size(&llc(&llc_path, &text, target, dir.path())) as i64
                - text_size(&llc(&llc_path, &without, target, dir.path())) as i64;
            let per = |delta: i64, n: usize| if n == 0 { f64::NAN } else { delta as f64 / n as f64 };
            println!(
                "{:<28} {:>7} {:>5} {:>5} | {:>8.1} {:>8.1} | {:>8.1} {:>8.1}",
                input.file_stem().unwrap().to_string_lossy(),
                target,
                maps,
                live,
                per(ours_delta, maps),
                per(ours_delta, live),
                per(llc_delta, maps),
                per(llc_delta, live)
            );
            total_maps += maps;
            total_live += live;
            ours_added += ours_delta;
            llc_added += llc_delta;
        }
        println!(
            "{:<28} {:>7} {:>5} {:>5} | {:>8.1} {:>8.1} | {:>8.1} {:>8.1}",
            "all",
            target,
            total_maps,
            total_live,
            ours_added as f64 / total_maps.max(1) as f64,
            ours_added as f64 / total_live.max(1) as f64,
            llc_added as f64 / total_maps.max(1) as f64,
            llc_added as f64 / total_live.max(1) as f64
        );
        for (what, n) in [("stack map", total_maps), ("live value", total_live)] {
            let (ours, theirs) = (ours_added as f64 / n.max(1) as f64, llc_added as f64 / n.max(1) as f64);
            summary.push(format!(
                "TABLE|code bytes per {what}, {target}, vs llc-19 -O2 ({} inputs)|{ours:.1}|{theirs:.1}|{:.2}",
                inputs.len(),
                ours / theirs
            ));
        }
    }
    println!();
    for line in summary {
        println!("{line}");
    }
}
