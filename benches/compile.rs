//! Compile throughput in process: parse, verify, lower, compile and emit an object for a large
//! generated module, and the front end alone on the same text.

#[path = "../tests/generator/mod.rs"]
mod generator;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use patchmap::compile::Options;

fn compile_throughput(c: &mut Criterion) {
    let text = generator::large_module(200);
    let mut group = c.benchmark_group("compile");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.bench_function("parse+verify", |b| {
        b.iter(|| {
            let module = patchmap::ir::parse("large.ll", &text).unwrap();
            patchmap::ir::verify(&module).unwrap();
            module
        })
    });
    for (target, opt) in [("x86_64", "speed"), ("x86_64", "none"), ("aarch64", "speed")] {
        let options = Options::new(Some(target), opt, 1).unwrap();
        group.bench_function(format!("object {target} -O {opt}"), |b| {
            b.iter(|| {
                let module = patchmap::ir::parse("large.ll", &text).unwrap();
                patchmap::ir::verify(&module).unwrap();
                patchmap::emit::object::compile(&module, &options).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, compile_throughput);
criterion_main!(benches);
