//! Code size a stack map costs: each input compiled with and without its `llvm.experimental.stackmap`
//! calls, by patchmap and by `llc-19 -O2`, for x86-64 and AArch64. Prints the `.text` bytes added per
//! stack map and per non-constant live value. Run with `cargo bench --bench stackmap_overhead`.
//! Besides the table, prints `TABLE|what|ours|theirs|ratio` lines for `scripts/bench-table.sh`.
//!
//! patchmap's figures are given at `-O speed` and at `-O none`. The difference is Cranelift's mid-end:
//! at `-O speed` it computes a pure value right before its first use, so a stack map that is a value's
//! first use makes it computed earlier and live longer than without the map; at `-O none` (and in
//! llc-19 on these inputs) each value is computed where the IR computes it, with or without the map.

use std::path::{Path, PathBuf};
use std::process::Command;

use object::{Object, ObjectSection};
use patchmap::compile::Options;
use patchmap::stackmap::{object_file, LocationKind};

/// How every input's stack maps are written: the line the build without them leaves out.
const STACKMAP_CALL: &str = "call void (i64, i32, ...) @llvm.experimental.stackmap(";

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

fn ours(text: &str, target: &str, opt: &str) -> Vec<u8> {
    let module = patchmap::ir::parse("input.ll", text).expect("valid IR");
    patchmap::emit::object::compile(&module, &Options::new(Some(target), opt, 3).unwrap()).expect("compiles")
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

/// `text` with each stack map operand stored (volatile) right after the instruction that computes
/// it: with or without the maps, every value is then computed where the IR computes it and is live
/// at the maps anyway. What a map adds to such a program is the map's own cost, without the effect
/// of Cranelift's scheduling (see the top of this file).
fn computed_in_place(text: &str) -> String {
    const TYPES: [&str; 7] = ["i8", "i16", "i32", "i64", "float", "double", "ptr"];
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut start = 0;
    while start < lines.len() {
        // One function at a time: value names are per function.
        let end = if lines[start].starts_with("define") {
            start + lines[start..].iter().position(|l| *l == "}").expect("a function ends")
        } else {
            start
        };
        let body = &lines[start..=end];
        let mut operands = std::collections::HashMap::new();
        for line in body.iter().filter_map(|l| l.split_once(STACKMAP_CALL)) {
            let args = line.1.rsplit_once(')').map_or(line.1, |(a, _)| a);
            for arg in args.split(',').skip(2) {
                if let Some((ty, name)) = arg.trim().rsplit_once(' ') {
                    if TYPES.contains(&ty) && name.starts_with('%') {
                        operands.insert(name, ty);
                    }
                }
            }
        }
        for line in body {
            out.push_str(line);
            out.push('\n');
            let Some((name, rest)) = line.trim_start().split_once(" = ") else { continue };
            if let Some(ty) = operands.get(name) {
                if !rest.starts_with("phi ") && !rest.starts_with("alloca ") {
                    out.push_str(&format!("  store volatile {ty} {name}, ptr @stackmap_overhead_sink\n"));
                }
            }
        }
        start = end + 1;
    }
    out.push_str("@stackmap_overhead_sink = internal global [2 x i64] zeroinitializer, align 16\n");
    out
}

/// How a variant of the measurement rewrites each input.
type Rewrite = fn(&str) -> String;

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
    let mut summary = Vec::new();
    let variants: [(&str, Rewrite); 2] =
        [("as written", str::to_string), ("values computed in place", computed_in_place)];
    for (variant, rewrite) in variants {
        println!("\n{variant}:");
        println!(
            "{:<22} {:>7} {:>4} {:>4} | {:>8} {:>8} | {:>8} {:>8} | {:>8} {:>8}",
            "input", "target", "maps", "live", "speed/map", "/val", "none/map", "/val", "llc/map", "/val"
        );
        for target in ["x86_64", "aarch64"] {
            let (mut total_maps, mut total_live) = (0, 0);
            // Bytes added: patchmap -O speed, patchmap -O none, llc-19 -O2.
            let mut added = [0i64; 3];
            for input in &inputs {
                let text = rewrite(&std::fs::read_to_string(input).unwrap());
                let without: String =
                    text.lines().filter(|l| !l.contains(STACKMAP_CALL)).map(|l| format!("{l}\n")).collect();
                let with_speed = ours(&text, target, "speed");
                let (maps, live) = counts(&with_speed);
                let delta = |with: &[u8], without: &[u8]| text_size(with) as i64 - text_size(without) as i64;
                let deltas = [
                    delta(&with_speed, &ours(&without, target, "speed")),
                    delta(&ours(&text, target, "none"), &ours(&without, target, "none")),
                    delta(&llc(&llc_path, &text, target, dir.path()), &llc(&llc_path, &without, target, dir.path())),
                ];
                let per = |delta: i64, n: usize| if n == 0 { f64::NAN } else { delta as f64 / n as f64 };
                print!("{:<22} {:>7} {:>4} {:>4}", input.file_stem().unwrap().to_string_lossy(), target, maps, live);
                for d in deltas {
                    print!(" | {:>8.1} {:>8.1}", per(d, maps), per(d, live));
                }
                println!();
                total_maps += maps;
                total_live += live;
                for (sum, d) in added.iter_mut().zip(deltas) {
                    *sum += d;
                }
            }
            print!("{:<22} {:>7} {:>4} {:>4}", "all", target, total_maps, total_live);
            for d in added {
                print!(" | {:>8.1} {:>8.1}", d as f64 / total_maps.max(1) as f64, d as f64 / total_live.max(1) as f64);
            }
            println!();
            for (what, n) in [("stack map", total_maps), ("live value", total_live)] {
                let per = |d: i64| d as f64 / n.max(1) as f64;
                let theirs = per(added[2]);
                for (level, ours) in [("-O speed", per(added[0])), ("-O none", per(added[1]))] {
                    // The figures (as written, -O speed) per map and per value; the
                    // others, which explain them, per map only.
                    if what == "live value" && (level != "-O speed" || variant != "as written") {
                        continue;
                    }
                    summary.push(format!(
                        "TABLE|code bytes per {what}, {target}, {level} vs llc-19 -O2 ({} inputs, {variant})|{ours:.1}|{theirs:.1}|{:.2}",
                        inputs.len(),
                        ours / theirs
                    ));
                }
            }
        }
    }
    println!();
    for line in summary {
        println!("{line}");
    }
}
