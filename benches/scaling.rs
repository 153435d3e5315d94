//! How compile time grows with the number of stack maps in one function (1k, 4k, 16k) and with the size
//! of a shadow or patch point region (1 KB, 1 MB), for x86-64 and AArch64: parse, verify, compile and
//! emit an object, as `patchmap compile` does. Prints, after criterion's figures, the growth factor of
//! each step (time ratio; a cost linear in the count gives x4 per 4x stack maps). Not a timed test: it
//! asserts only that each object holds the records it should. Run with `cargo bench --bench scaling`.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use patchmap::compile::Options;
use patchmap::stackmap::object_file;

const TARGETS: [&str; 2] = ["x86_64", "aarch64"];
const STACK_MAPS: [usize; 3] = [1_000, 4_000, 16_000];
const REGION_BYTES: [u32; 2] = [1 << 10, 1 << 20];

/// One function of `n` stack maps in a chain of arithmetic: each records the value just computed, the
/// three arguments (live across every map), the value of four maps before, and a constant; every fourth
/// has an 8-byte shadow, every eighth a 64-bit constant of its own (one constant pool entry each).
fn stack_maps(n: usize) -> String {
    let mut ir = String::from(
        "declare void @llvm.experimental.stackmap(i64, i32, ...)\n\
         define i64 @f(i64 %a, i64 %b, i64 %c) {\nentry:\n  %v0 = add i64 %a, %b\n",
    );
    let ops = ["add", "xor", "mul", "sub"];
    let sources = ["%a", "%b", "%c", "12345"];
    for k in 1..=n {
        let (op, src) = (ops[k % 4], sources[(k / 4) % 4]);
        writeln!(ir, "  %v{k} = {op} i64 %v{}, {src}", k - 1).unwrap();
        let shadow = if k % 4 == 0 { 8 } else { 0 };
        let constant = if k % 8 == 0 { (1i64 << 40) + k as i64 } else { k as i64 };
        writeln!(
            ir,
            "  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 {k}, i32 {shadow}, i64 %v{k}, \
             i64 %a, i64 %b, i64 %c, i64 %v{}, i64 {constant})",
            k.saturating_sub(4)
        )
        .unwrap();
    }
    writeln!(ir, "  ret i64 %v{n}\n}}").unwrap();
    ir
}

/// One stack map with a shadow of `bytes`, followed by a few bytes of code.
fn shadow(bytes: u32) -> String {
    format!(
        "declare void @llvm.experimental.stackmap(i64, i32, ...)\n\
         define i64 @f(i64 %a, i64 %b) {{\n\
         \x20 call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 {bytes}, i64 %a, i64 %b)\n\
         \x20 %r = add i64 %a, %b\n  ret i64 %r\n}}\n"
    )
}

/// One patch point with a region of `bytes` (target null: all nops until patched).
fn region(bytes: u32) -> String {
    format!(
        "declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)\n\
         define i64 @f(i64 %a, i64 %b) {{\n\
         \x20 call void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 1, i32 {bytes}, \
         ptr null, i32 0, i64 %a, i64 %b)\n\
         \x20 %r = add i64 %a, %b\n  ret i64 %r\n}}\n"
    )
}

fn compile(text: &str, options: &Options) -> Vec<u8> {
    let module = patchmap::ir::parse("scaling.ll", text).expect("valid IR");
    patchmap::ir::verify(&module).expect("verifies");
    patchmap::emit::object::compile(&module, options).expect("compiles")
}

/// The least time per compile seen for each benchmark, over criterion's warm-up and samples: the
/// figure least disturbed by other work on the machine.
type Best = RefCell<BTreeMap<String, Duration>>;

fn bench(c: &mut Criterion, best: &Best, group: &str, name: String, text: &str, options: &Options) {
    let mut g = c.benchmark_group(group);
    g.sample_size(10);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(3));
    g.bench_function(&name, |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                std::hint::black_box(compile(text, options));
            }
            let total = start.elapsed();
            let each = total.div_f64(iters as f64);
            let mut best = best.borrow_mut();
            let slot = best.entry(format!("{group}/{name}")).or_insert(each);
            *slot = (*slot).min(each);
            total
        })
    });
    g.finish();
}

fn records(object: &[u8]) -> usize {
    let (maps, _) = object_file::read_models(object).expect("a stack map section");
    maps.iter().map(|m| m.records.len()).sum()
}

fn scaling(c: &mut Criterion) {
    let best = Best::default();
    let maps: Vec<(usize, String)> = STACK_MAPS.iter().map(|&n| (n, stack_maps(n))).collect();
    for target in TARGETS {
        let options = Options::new(Some(target), "speed", 3).unwrap();
        for (n, text) in &maps {
            assert_eq!(records(&compile(text, &options)), *n, "{target}: {n} stack maps");
            bench(c, &best, "stack maps per function", format!("{target}/{n}"), text, &options);
        }
        for (what, make) in [("shadow", shadow as fn(u32) -> String), ("region", region)] {
            for bytes in REGION_BYTES {
                let text = make(bytes);
                let object = compile(&text, &options);
                assert_eq!(records(&object), 1);
                assert!(object.len() as u32 > bytes, "{target}: the {what} is in the code");
                bench(c, &best, &format!("{what} bytes"), format!("{target}/{bytes}"), &text, &options);
            }
        }
    }
    let best = best.into_inner();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("\nGrowth (least time per compile; a cost linear in n gives x4.0 per 4x stack maps):");
    for target in TARGETS {
        // Benchmarks a filter left out are not reported.
        let times: Option<Vec<Duration>> =
            STACK_MAPS.iter().map(|n| best.get(&format!("stack maps per function/{target}/{n}")).copied()).collect();
        if let Some(times) = times {
            let mut line = format!("  stack maps, {target:<7}:");
            for (n, t) in STACK_MAPS.iter().zip(&times) {
                write!(line, " {n}: {:.1} ms,", ms(*t)).unwrap();
            }
            for (pair, t) in STACK_MAPS.windows(2).zip(times.windows(2)) {
                let factor = t[1].as_secs_f64() / t[0].as_secs_f64();
                write!(line, " {}k->{}k x{factor:.2}", pair[0] / 1000, pair[1] / 1000).unwrap();
            }
            let last = STACK_MAPS.len() - 1;
            let per_map = times[last].as_secs_f64() / STACK_MAPS[last] as f64 * 1e6;
            println!("{line}; {per_map:.1} us per stack map at {}", STACK_MAPS[last]);
        }
        for what in ["shadow", "region"] {
            let [small, large] = REGION_BYTES.map(|b| best.get(&format!("{what} bytes/{target}/{b}")).copied());
            if let (Some(small), Some(large)) = (small, large) {
                println!(
                    "  {what} bytes, {target:<7}: 1 KB: {:.2} ms, 1 MB: {:.2} ms, 1 MB / 1 KB x{:.2} (bytes x1024)",
                    ms(small),
                    ms(large),
                    large.as_secs_f64() / small.as_secs_f64()
                );
            }
        }
    }
}

criterion_group!(benches, scaling);
criterion_main!(benches);
