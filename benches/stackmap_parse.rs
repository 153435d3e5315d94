//! Parse + index throughput of the stack map parser on a large synthetic section (written with the
//! writer): `cargo bench --bench stackmap_parse`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use patchmap::stackmap::{self, Endian, LiveOut, Location, Record, StackMap, Version};

/// Size of the generated section, at least.
const TARGET_BYTES: usize = 128 << 20;

/// A v3 section of about `TARGET_BYTES`: functions of 12 records with 0..8 locations and 0..6 live-outs.
fn large_section(endian: Endian) -> Vec<u8> {
    let mut map = StackMap::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut function = 0u64;
    let mut size = 0;
    while size < TARGET_BYTES {
        let records: Vec<Record> = (0..12u32)
            .map(|i| Record {
                id: next(),
                instruction_offset: i * 16 + 4,
                locations: (0..next() % 9)
                    .map(|k| match k % 4 {
                        0 => Location::register((next() % 16) as u16, 8),
                        1 => Location::indirect(6, -8 * (k as i32 + 1), 8),
                        2 => Location::constant(next() as i32),
                        _ => Location::direct(6, -16, 8),
                    })
                    .collect(),
                live_outs: (0..next() % 7).map(|r| LiveOut { dwarf_reg: r as u16, size: 8 }).collect(),
            })
            .collect();
        let function_map = StackMap { records, ..StackMap::default() };
        size += function_map.encoded_size(Version::V3);
        map.push_function(0x1000 + function * 0x400, 8 * (function % 8 + 1), function_map.records);
        function += 1;
    }
    let section = map.write(Version::V3, endian).expect("writable");
    eprintln!(
        "synthetic section: {} bytes, {} functions, {} records",
        section.len(),
        map.functions.len(),
        map.records.len()
    );
    section
}

fn bench(c: &mut Criterion) {
    for endian in [Endian::Little, Endian::Big] {
        let section = large_section(endian);
        let mut group = c.benchmark_group(format!("stackmap_{endian:?}"));
        group.sample_size(10);
        group.throughput(Throughput::Bytes(section.len() as u64));
        group.bench_function("parse", |b| b.iter(|| stackmap::parse_section(&section, endian).expect("valid").len()));
        group.bench_function("parse+address_index", |b| {
            b.iter(|| {
                let blobs = stackmap::parse_section(&section, endian).expect("valid");
                blobs.iter().map(|blob| blob.address_index().expect("v3").len()).sum::<usize>()
            })
        });
        let blobs = stackmap::parse_section(&section, endian).expect("valid");
        let index = blobs[0].address_index().expect("v3");
        group.throughput(Throughput::Elements(1));
        group.bench_function("lookup_by_address", |b| {
            b.iter_batched(
                || 0x1000 + 0x400 * 1234 + 5 * 16 + 4,
                |address| blobs[0].records_at_address(&index, address).count(),
                BatchSize::SmallInput,
            )
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
