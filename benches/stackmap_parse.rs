//! Parse + index throughput of the stack map parser on a large synthetic section (written with the
//! writer): `cargo bench --bench stackmap_parse`.
//!
//! The `rfc2_vs_v3` groups compare the frame-table layout ([`Version::FrameTable`]) with v3 on the same
//! models: the section sizes are printed (uniquing of location and live-out lists), and parsing is timed.
//! Its `u16` indexes limit a blob to 65535 records and list starts, so both layouts are written as blobs
//! of 512 functions, as a linker concatenates per-object blobs.
//!
//! Measured (2 shared cores, 32 MiB of v3 in 70 blobs): the frame table is 66% of v3's bytes with random
//! lists (8-byte locations, no record padding, shared empty and repeated short lists) and 40% with the
//! repetitive ones; `parse_section` took 3.9 ms against 6.5 ms (random) and 2.9 ms against 6.4 ms
//! (repetitive), parse + `to_model` 41 ms against 45 ms and 41 ms against 44 ms.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use patchmap::stackmap::{self, Endian, Frame, FrameRegister, LiveOut, Location, Record, StackMap, Version};

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
                ..Record::default()
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

/// Blobs of `FUNCTIONS_PER_BLOB` functions of 12 records, about `bytes` of v3 in all. With `repetitive`,
/// each function's records take their location lists from three per-function lists (as statepoints at
/// consecutive calls with the same spill slots do); otherwise every list is random.
fn blobs(bytes: usize, repetitive: bool) -> Vec<StackMap> {
    const FUNCTIONS_PER_BLOB: u64 = 512;
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut maps = vec![StackMap::new()];
    let mut size = 0;
    let mut function = 0u64;
    while size < bytes {
        let list = |next: &mut dyn FnMut() -> u64| -> Vec<Location> {
            (0..next() % 9)
                .map(|k| match k % 4 {
                    0 => Location::register((next() % 16) as u16, 8),
                    1 => Location::indirect(6, -8 * (k as i32 + 1), 8),
                    2 => Location::constant((next() % 64) as i32),
                    _ => Location::direct(6, -16, 8),
                })
                .collect()
        };
        let shared: Vec<Vec<Location>> = (0..3).map(|_| list(&mut next)).collect();
        let records: Vec<Record> = (0..12u32)
            .map(|i| Record {
                id: next(),
                instruction_offset: i * 16 + 4,
                locations: if repetitive { shared[(next() % 3) as usize].clone() } else { list(&mut next) },
                live_outs: (0..next() % 3).map(|r| LiveOut { dwarf_reg: r as u16, size: 8 }).collect(),
                call_size: 5,
                has_live_out_info: true,
            })
            .collect();
        let frame = Frame {
            function_size: 16 * 12 + 16,
            has_frame: true,
            has_live_out_info: true,
            base_register: 6,
            registers: vec![
                FrameRegister { dwarf_reg: 3, offset: -8, size: 8, is_spilled: true },
                FrameRegister { dwarf_reg: 12, offset: -16, size: 8, is_spilled: true },
            ],
            ..Frame::default()
        };
        if function.is_multiple_of(FUNCTIONS_PER_BLOB) && function > 0 {
            maps.push(StackMap::new());
        }
        let map = maps.last_mut().expect("one map");
        let before = map.encoded_size(Version::V3);
        map.push_function_with_frame(0x1000 + function * 0x400, 32, Some(frame), records);
        size += map.encoded_size(Version::V3) - before;
        function += 1;
    }
    maps
}

fn section(maps: &[StackMap], version: Version) -> Vec<u8> {
    let mut out = Vec::new();
    for map in maps {
        map.write_into(version, Endian::Little, &mut out).expect("writable");
    }
    out
}

fn rfc2_vs_v3(c: &mut Criterion) {
    for repetitive in [false, true] {
        let maps = blobs(32 << 20, repetitive);
        let kind = if repetitive { "repetitive" } else { "random" };
        let mut group = c.benchmark_group(format!("rfc2_vs_v3_{kind}"));
        group.sample_size(10);
        let v3 = section(&maps, Version::V3);
        for version in [Version::V3, Version::FrameTable] {
            let bytes = section(&maps, version);
            eprintln!(
                "{kind} lists, {version}: {} bytes ({:.1}% of v3), {} blobs",
                bytes.len(),
                100.0 * bytes.len() as f64 / v3.len() as f64,
                maps.len()
            );
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            group.bench_function(format!("parse_{version}"), |b| {
                b.iter(|| stackmap::parse_section(&bytes, Endian::Little).expect("valid").len())
            });
            group.bench_function(format!("parse+to_model_{version}"), |b| {
                b.iter(|| {
                    let blobs = stackmap::parse_section(&bytes, Endian::Little).expect("valid");
                    blobs.iter().map(|blob| blob.to_model().records.len()).sum::<usize>()
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench, rfc2_vs_v3);
criterion_main!(benches);
