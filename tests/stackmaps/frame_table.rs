//! The frame-table layout of the 2015 "StackMap v2" proposal (`Version::FrameTable`, `rfc2`): the writer's
//! bytes checked by the reader written from the proposal's field list alone (`seed_reader`), round trips,
//! uniquing, telling it from LLVM 4.0's version 2, malformed blobs, field limits, the printer and
//! conversion.

use crate::seed_reader;
use crate::support;

use std::process::Command;

use object::write::{Object, Relocation, StandardSection, Symbol};
use object::{
    Architecture, BinaryFormat, Endianness, RelocationEncoding, RelocationFlags, RelocationKind, SectionKind,
    SymbolFlags, SymbolKind, SymbolScope,
};
use patchmap::stackmap::{
    self, object_file, Endian, Error, Frame, FrameRegister, LiveOut, Location, Record, StackMap, StackMapView, Version,
    DYNAMIC_STACK_SIZE,
};

fn frame(function_size: u32, registers: Vec<FrameRegister>) -> Frame {
    Frame {
        function_size,
        has_frame: true,
        has_variable_size_alloca: false,
        has_stack_realignment: true,
        has_live_out_info: true,
        base_register: 6,
        registers,
    }
}

fn saved(dwarf_reg: u16, offset: i32) -> FrameRegister {
    FrameRegister { dwarf_reg, offset, size: 8, is_spilled: true }
}

/// Two functions; records 0, 1 and 3 have equal location lists, records 0 and 3 equal live-outs, and
/// both functions save the same registers, so all of those share ranges.
fn sample() -> StackMap {
    let mut map = StackMap::new();
    let big = map.constant_location(1 << 40);
    let shared = vec![Location::register(3, 8), Location::indirect(6, -24, 4), big];
    let live = vec![LiveOut { dwarf_reg: 0, size: 8 }, LiveOut { dwarf_reg: 7, size: 8 }];
    let registers =
        vec![saved(3, -8), saved(12, -16), FrameRegister { dwarf_reg: 17, offset: 32, size: 16, is_spilled: false }];
    map.push_function_with_frame(
        0x1000,
        40,
        Some(frame(96, registers.clone())),
        [
            Record {
                id: 1,
                instruction_offset: 12,
                locations: shared.clone(),
                live_outs: live.clone(),
                call_size: 5,
                has_live_out_info: true,
            },
            Record {
                id: 2,
                instruction_offset: 30,
                locations: shared.clone(),
                live_outs: vec![],
                call_size: 3,
                has_live_out_info: false,
            },
            Record {
                id: 3,
                instruction_offset: 44,
                locations: vec![Location::constant(-1), Location::direct(7, 8, 8)],
                live_outs: vec![],
                call_size: 0,
                has_live_out_info: true,
            },
        ],
    );
    map.push_function_with_frame(
        0x2000,
        DYNAMIC_STACK_SIZE,
        Some(Frame { has_variable_size_alloca: true, has_stack_realignment: false, ..frame(200, registers) }),
        [Record {
            id: 4,
            instruction_offset: 190,
            locations: shared,
            live_outs: live,
            call_size: 13,
            has_live_out_info: true,
        }],
    );
    map
}

#[test]
fn an_independent_reader_finds_every_field_where_the_proposal_puts_it() {
    let map = sample();
    for endian in [Endian::Little, Endian::Big] {
        let bytes = map.write(Version::FrameTable, endian).unwrap();
        let blob = seed_reader::Blob { bytes: &bytes, endian };
        assert_eq!(bytes[0], 2, "version");
        assert_eq!(&bytes[1..4], [0, 0, 0], "reserved");
        let offsets = blob.offsets();
        // Header of 28 bytes aligned to 8; packed tables, each aligned as the proposal says.
        let registers = 3; // shared by both functions
        let locations = 3 + 2; // the shared list and record 3's
        let live_outs = 2;
        let expected_frame_registers = (offsets[1] + 28 * 2).next_multiple_of(4);
        assert_eq!(
            offsets,
            [
                32,
                32 + 8,
                expected_frame_registers,
                (expected_frame_registers + 6 * registers).next_multiple_of(8),
                (offsets[3] + 22 * 4).next_multiple_of(4),
                (offsets[4] + 8 * locations).next_multiple_of(2),
            ],
            "{endian:?}"
        );
        assert_eq!(
            offsets[0] % 8 + offsets[1] % 8 + offsets[2] % 4 + offsets[3] % 8 + offsets[4] % 4 + offsets[5] % 2,
            0
        );
        assert_eq!(bytes.len(), (offsets[5] + 4 * live_outs).next_multiple_of(8));
        assert!(bytes[28..32].iter().all(|&b| b == 0), "header padding");
        assert_eq!(blob.constant(0), 1 << 40);

        // Flags: bit 0 HasFrame, 1 HasVariableSizeAlloca, 2 HasStackRealignment, 3 HasLiveOutInfo.
        assert_eq!(
            blob.frame_record(0),
            seed_reader::FrameRecord {
                address: 0x1000,
                function_size: 96,
                stack_size: 40,
                flags: 0b1101,
                base: 6,
                num_registers: 3,
                register_index: 0,
                num_records: 3,
                record_index: 0,
            }
        );
        assert_eq!(
            blob.frame_record(1),
            seed_reader::FrameRecord {
                address: 0x2000,
                function_size: 200,
                stack_size: u32::MAX,
                flags: 0b1011,
                base: 6,
                num_registers: 3,
                register_index: 0,
                num_records: 1,
                record_index: 3,
            }
        );
        assert_eq!(blob.frame_register(0), (3, -8, 8, 1));
        assert_eq!(blob.frame_register(1), (12, -16, 8, 1));
        assert_eq!(blob.frame_register(2), (17, 32, 16, 0));

        let records: Vec<_> = (0..4).map(|i| blob.record(i)).collect();
        let expect = |id, offset, call_size, flags, num_locations, location_index, num_live_outs, live_out_index| {
            seed_reader::StackMapRecord {
                id,
                offset,
                call_size,
                flags,
                num_locations,
                location_index,
                num_live_outs,
                live_out_index,
            }
        };
        assert_eq!(records[0], expect(1, 12, 5, 1, 3, 0, 2, 0));
        assert_eq!(records[1], expect(2, 30, 3, 0, 3, 0, 0, 0));
        assert_eq!(records[2], expect(3, 44, 0, 1, 2, 3, 0, 0));
        assert_eq!(records[3], expect(4, 190, 13, 1, 3, 0, 2, 0));
        // Register 1, Indirect 3, ConstantIndex 5, Constant 4, Direct 2; the size in byte 1.
        assert_eq!(blob.location(0), (1, 8, 3, 0));
        assert_eq!(blob.location(1), (3, 4, 6, -24));
        assert_eq!(blob.location(2), (5, 8, 0, 0));
        assert_eq!(blob.location(3), (4, 8, 0, -1));
        assert_eq!(blob.location(4), (2, 8, 7, 8));
        assert_eq!(blob.live_out(0), (0, 0, 8));
        assert_eq!(blob.live_out(1), (7, 0, 8));
    }
}

#[test]
fn frame_tables_round_trip_in_both_byte_orders_and_in_linked_sections() {
    let map = sample();
    for endian in [Endian::Little, Endian::Big] {
        let bytes = map.write(Version::FrameTable, endian).unwrap();
        assert_eq!(bytes.len(), map.encoded_size(Version::FrameTable));
        let view = StackMapView::parse(&bytes, endian).unwrap();
        assert_eq!(view.version(), Version::FrameTable);
        assert_eq!(view.len(), bytes.len());
        assert_eq!(view.to_model(), map);
        assert_eq!(view.frame_registers(1).count(), 3);
        let record = view.record_at(1, 190).unwrap().unwrap();
        assert_eq!((record.call_size(), record.has_live_out_info()), (13, true));
        // Function-address fields are where relocations go: FrameRecords at 32 + 8 * constants, 28 apart.
        assert_eq!(view.function_address_offset(1), 40 + 28);
        assert_eq!(map.function_table_offset(Version::FrameTable), 40);

        let mut section = bytes.clone();
        map.write_into(Version::V3, endian, &mut section).unwrap();
        map.write_into(Version::FrameTable, endian, &mut section).unwrap();
        let blobs = stackmap::parse_section(&section, endian).unwrap();
        let versions: Vec<Version> = blobs.iter().map(|b| b.version()).collect();
        assert_eq!(versions, [Version::FrameTable, Version::V3, Version::FrameTable]);
        assert_eq!(blobs[2].to_model(), map);
        assert_eq!(blobs[1].to_model(), map.without_frames());
    }
}

#[test]
fn equal_lists_share_one_range() {
    let map = sample();
    let bytes = map.write(Version::FrameTable, Endian::Little).unwrap();
    let blob = seed_reader::Blob { bytes: &bytes, endian: Endian::Little };
    // Records 0, 1 and 3 (two functions) point at the same three locations; 0 and 3 at the same live-outs.
    let (r0, r1, r3) = (blob.record(0), blob.record(1), blob.record(3));
    assert_eq!((r0.location_index, r1.location_index, r3.location_index), (0, 0, 0));
    assert_eq!((r0.live_out_index, r3.live_out_index), (0, 0));
    assert_eq!(blob.frame_record(0).register_index, blob.frame_record(1).register_index);
    let offsets = blob.offsets();
    assert_eq!((offsets[5] - offsets[4]) / 8, 5, "5 distinct locations of 11 written");
    // Without sharing the same map takes more: 11 locations, 4 live-outs, 6 frame registers.
    let mut distinct = map.clone();
    for (k, r) in distinct.records.iter_mut().enumerate() {
        for l in &mut r.locations {
            l.offset += 1000 * k as i32 + 1;
            l.kind = patchmap::stackmap::LocationKind::Indirect;
        }
        for lo in &mut r.live_outs {
            lo.size += k as u8;
        }
    }
    distinct.functions[1].frame.as_mut().unwrap().registers[0].size = 4;
    let unshared = distinct.write(Version::FrameTable, Endian::Little).unwrap();
    let blob = seed_reader::Blob { bytes: &unshared, endian: Endian::Little };
    let offsets = blob.offsets();
    assert_eq!((offsets[5] - offsets[4]) / 8, 11);
    assert!(unshared.len() > bytes.len());
}

#[test]
fn llvm_4_v2_and_the_frame_table_are_told_apart_and_ambiguity_is_an_error() {
    let map = sample();
    let v2 = map.write(Version::V2, Endian::Little).unwrap();
    assert_eq!(StackMapView::parse(&v2, Endian::Little).unwrap().version(), Version::V2);
    let ft = map.write(Version::FrameTable, Endian::Little).unwrap();
    assert_eq!(StackMapView::parse(&ft, Endian::Little).unwrap().version(), Version::FrameTable);
    // A v2 blob with 32 functions has the frame table's Constants Offset (32) at byte 4, and still reads
    // as v2.
    let mut many = StackMap::new();
    for i in 0..32 {
        many.push_function(i, 8, [Record { id: i, instruction_offset: 4, ..Record::default() }]);
    }
    let v2_32 = many.write(Version::V2, Endian::Little).unwrap();
    assert_eq!(StackMapView::parse(&v2_32, Endian::Little).unwrap().version(), Version::V2);

    // Valid neither way: the error is the frame table's when byte 4 holds its Constants Offset (32).
    let err = StackMapView::parse(&ft[..100], Endian::Little).unwrap_err().to_string();
    assert!(err.starts_with("at byte 32: frame-table tables needs"), "{err}");
    let err = StackMapView::parse(&v2[..40], Endian::Little).unwrap_err().to_string();
    assert!(err.starts_with("at byte 16: function table needs"), "{err}");
    // Valid both ways: an empty frame table (all offsets 32) followed by bytes that complete a v2 blob
    // of 32 functions, 32 constants and 32 records (function 0 owns all records; zero records are valid).
    let mut both = vec![0u8; 16 + 32 * 24 + 32 * 8 + 32 * 24];
    both[0] = 2;
    for k in 0..6 {
        both[4 + 4 * k..8 + 4 * k].copy_from_slice(&32u32.to_le_bytes());
    }
    both[32..40].copy_from_slice(&32u64.to_le_bytes()); // v2: record count of function 0
    let as_v2 = StackMapView::parse_version(&both, Version::V2, Endian::Little).unwrap();
    assert_eq!((as_v2.num_functions(), as_v2.num_records()), (32, 32));
    let as_ft = StackMapView::parse_version(&both, Version::FrameTable, Endian::Little).unwrap();
    assert_eq!((as_ft.num_functions(), as_ft.len()), (0, 32));
    let err = StackMapView::parse(&both, Endian::Little).unwrap_err();
    assert!(matches!(err, Error::AmbiguousVersion2 { offset: 0 }), "{err}");
    assert!(err.to_string().starts_with("at byte 0: the blob is valid both as LLVM 4.0's"), "{err}");
    // In a section, after another blob: the blob's own offset.
    let mut section = ft.clone();
    section.extend_from_slice(&both);
    let err = stackmap::parse_section(&section, Endian::Little).unwrap_err();
    assert!(matches!(err, Error::AmbiguousVersion2 { offset } if offset == ft.len()), "{err}");
}

/// `bytes` with the u16 at `at` replaced.
fn with_u16(bytes: &[u8], at: usize, value: u16) -> Vec<u8> {
    let mut bad = bytes.to_vec();
    bad[at..at + 2].copy_from_slice(&value.to_le_bytes());
    bad
}

#[test]
fn malformed_frame_tables_are_errors_at_the_wrong_byte() {
    let map = sample();
    let bytes = map.write(Version::FrameTable, Endian::Little).unwrap();
    let blob = seed_reader::Blob { bytes: &bytes, endian: Endian::Little };
    let [_, frame_records, frame_registers, records, locations, live_outs] = blob.offsets();
    let error_at =
        |bad: &[u8]| StackMapView::parse_version(bad, Version::FrameTable, Endian::Little).unwrap_err().to_string();
    let cases: Vec<(Vec<u8>, usize, &str)> = vec![
        (
            {
                let mut b = bytes.clone();
                b[2] = 1;
                b
            },
            2,
            "reserved header byte",
        ),
        (
            {
                let mut b = bytes.clone();
                b[4] = 40;
                b
            },
            4,
            "Constants Offset is 40",
        ),
        (with_u16(&bytes, 12, (frame_records - 1) as u16), 12, "before"),
        (with_u16(&bytes, 12, (frame_registers + 4) as u16), 12, "not a whole number of 28-byte entries"),
        (with_u16(&bytes, frame_records + 16, 0x10), frame_records + 16, "reserved flag bits"),
        (with_u16(&bytes, frame_records + 28 + 26, 2), frame_records + 28 + 26, "records start at index 2, not 3"),
        (with_u16(&bytes, frame_records + 28 + 20, 5), 16, "not the end of the 5 referenced frame registers"),
        (
            {
                let mut b = bytes.clone();
                b[frame_registers + 6 + 5] = 2;
                b
            },
            frame_registers + 6 + 5,
            "frame register 1 has reserved",
        ),
        (
            {
                let mut b = bytes.clone();
                b[records + 22 + 13] = 0x80;
                b
            },
            records + 22 + 13,
            "record 1 has reserved",
        ),
        (with_u16(&bytes, records + 22 * 2 + 14, 4), records + 22 * 2 + 14, "locations end at 7, past the 5"),
        (
            {
                let mut b = bytes.clone();
                b[locations + 8 * 3] = 9;
                b
            },
            locations + 8 * 3,
            "invalid location type 9",
        ),
        (
            {
                let mut b = bytes.clone();
                b[locations + 8 * 2 + 4] = 1;
                b
            },
            locations + 8 * 2,
            "constant index 1 is out of range",
        ),
        (with_u16(&bytes, records + 18, 30), live_outs, "live-outs needs 120 bytes"),
    ];
    for (bad, offset, what) in cases {
        let err = error_at(&bad);
        assert!(
            err.starts_with(&format!("at byte {offset}:")) && err.contains(what),
            "expected byte {offset}, {what}: {err}"
        );
    }
    // Every cut before the padding is an error with an offset (never a panic).
    let unpadded = live_outs + 4 * 2;
    for len in 0..unpadded {
        let err = error_at(&bytes[..len]);
        assert!(err.starts_with("at byte "), "{len}: {err}");
    }
    // The padding to 8 is optional at the end of a section.
    assert!(StackMapView::parse(&bytes[..unpadded], Endian::Little).is_ok());
    // In a second blob, offsets are section offsets.
    let mut section = bytes.clone();
    section.extend_from_slice(&with_u16(&bytes, frame_records + 16, 0x10));
    let err = stackmap::parse_section(&section, Endian::Little).unwrap_err().to_string();
    assert!(err.starts_with(&format!("at byte {}:", bytes.len() + frame_records + 16)), "{err}");
}

/// The error writing `map` as a frame table.
fn write_error(map: &StackMap) -> Error {
    map.write(Version::FrameTable, Endian::Little).unwrap_err()
}

#[test]
fn values_beyond_the_fields_are_errors_naming_the_function() {
    let mut map = sample();
    map.functions[1].frame.as_mut().unwrap().registers.push(saved(13, 40000));
    let err = write_error(&map);
    assert!(matches!(&err, Error::FrameTableOverflow { function: 1, address: 0x2000, limit: "i16", .. }), "{err}");
    assert!(
        err.to_string().contains("function 1 (address 0x2000): frame register offset of R#13 40000 does not fit i16"),
        "{err}"
    );

    let mut map = sample();
    map.records[2].locations[0].size = 300;
    let err = write_error(&map).to_string();
    assert!(
        err.contains("function 0 (address 0x1000): size of location 1 of record 2 (ID 3) 300 does not fit u8"),
        "{err}"
    );

    let mut map = sample();
    map.functions[0].stack_size = u64::from(u32::MAX);
    assert!(matches!(write_error(&map), Error::FrameTableOverflow { function: 0, .. }));

    let mut map = sample();
    map.functions[0].frame = None;
    let err = write_error(&map);
    assert!(matches!(err, Error::MissingFrame { function: 0, address: 0x1000 }), "{err}");
    assert!(err.to_string().contains("has no frame information"), "{err}");

    // More than 65535 records in one function: the count; after them, the next function's index.
    let mut map = StackMap::new();
    map.push_function_with_frame(0, 8, Some(Frame::default()), vec![Record::default(); 65536]);
    assert!(write_error(&map)
        .to_string()
        .contains("function 0 (address 0x0): number of records 65536 does not fit u16"));
    let mut map = StackMap::new();
    map.push_function_with_frame(0, 8, Some(Frame::default()), vec![Record::default(); 65535]);
    map.push_function_with_frame(0, 8, Some(Frame::default()), vec![Record::default(); 1]);
    map.push_function_with_frame(8, 8, Some(Frame::default()), vec![Record::default(); 1]);
    assert!(write_error(&map).to_string().contains("function 2 (address 0x8): record index 65536 does not fit u16"));

    // A record with more than 65535 live-outs is an error (v1-v3 write LLVM's overflow record).
    let mut map = StackMap::new();
    let live = vec![LiveOut { dwarf_reg: 1, size: 8 }; 65536];
    map.push_function_with_frame(0, 8, Some(Frame::default()), [Record { live_outs: live, ..Record::default() }]);
    assert!(write_error(&map).to_string().contains("number of live-outs of record 0 (ID 0) 65536 does not fit u16"));

    // Location lists: the third distinct list would start at entry 80000.
    let list = |base: i32| (0..40000).map(|i| Location::constant(base + i)).collect::<Vec<_>>();
    let mut map = StackMap::new();
    let records = [0, 40000, 80000].map(|base| Record { id: base as u64, locations: list(base), ..Record::default() });
    map.push_function_with_frame(0x40, 8, Some(Frame::default()), records);
    assert!(write_error(&map)
        .to_string()
        .contains("function 0 (address 0x40): location index of record 2 (ID 80000) 80000 does not fit u16"));
    // ...but the same list again shares the first range and fits.
    map.records[2].locations = list(0);
    let bytes = map.write(Version::FrameTable, Endian::Little).unwrap();
    assert_eq!(StackMapView::parse(&bytes, Endian::Little).unwrap().to_model(), map);
}

#[test]
fn the_printer_shows_every_frame_table_field() {
    let map = sample();
    let bytes = map.write(Version::FrameTable, Endian::Little).unwrap();
    let mut text = Vec::new();
    stackmap::print(&StackMapView::parse(&bytes, Endian::Little).unwrap(), &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    let expected = "\
LLVM StackMap Version: 2 (frame table, rfc2)
Num Functions: 2
  Function address: 4096, stack size: 40, callsite record count: 3
    Function size: 96, flags: [ HasFrame HasStackRealignment HasLiveOutInfo ], frame base: R#6
    3 frame registers: [ R#3 [FB + -8] (8-bytes, spilled) R#12 [FB + -16] (8-bytes, spilled) R#17 [FB + 32] (16-bytes) ]
  Function address: 8192, stack size: 18446744073709551615, callsite record count: 1
    Function size: 200, flags: [ HasFrame HasVariableSizeAlloca HasLiveOutInfo ], frame base: R#6
    3 frame registers: [ R#3 [FB + -8] (8-bytes, spilled) R#12 [FB + -16] (8-bytes, spilled) R#17 [FB + 32] (16-bytes) ]
Num Constants: 1
  #1: 1099511627776
Num Records: 4
  Record ID: 1, instruction offset: 12
    Call size: 5, flags: [ HasLiveOutInfo ]
    3 locations:
      #1: Register R#3, size: 8
      #2: Indirect [R#6 + -24], size: 4
      #3: ConstantIndex #0 (1099511627776), size: 8
    2 live-outs: [ R#0 (8-bytes) R#7 (8-bytes) ]
  Record ID: 2, instruction offset: 30
    Call size: 3, flags: [ ]
    3 locations:
      #1: Register R#3, size: 8
      #2: Indirect [R#6 + -24], size: 4
      #3: ConstantIndex #0 (1099511627776), size: 8
    0 live-outs: [ ]
  Record ID: 3, instruction offset: 44
    Call size: 0, flags: [ HasLiveOutInfo ]
    2 locations:
      #1: Constant 4294967295, size: 8
      #2: Direct R#7 + 8, size: 8
    0 live-outs: [ ]
  Record ID: 4, instruction offset: 190
    Call size: 13, flags: [ HasLiveOutInfo ]
    3 locations:
      #1: Register R#3, size: 8
      #2: Indirect [R#6 + -24], size: 4
      #3: ConstantIndex #0 (1099511627776), size: 8
    2 live-outs: [ R#0 (8-bytes) R#7 (8-bytes) ]
";
    assert_eq!(text, expected);
}

/// An x86-64 ELF object with two functions and `map` written as `version`, relocated as llc relocates it.
fn object_with(map: &StackMap, version: Version) -> Vec<u8> {
    let mut obj = Object::new(BinaryFormat::Elf, Architecture::X86_64, Endianness::Little);
    let text = obj.section_id(StandardSection::Text);
    obj.append_section_data(text, &[0xc3; 0x300], 16);
    let mut symbol = |name: &str, value: u64, size: u64| {
        obj.add_symbol(Symbol {
            name: name.as_bytes().to_vec(),
            value,
            size,
            kind: SymbolKind::Text,
            scope: SymbolScope::Linkage,
            weak: false,
            section: object::write::SymbolSection::Section(text),
            flags: SymbolFlags::None,
        })
    };
    let (f, g) = (symbol("f", 0, 96), symbol("g", 0x100, 200));
    let maps = obj.add_section(Vec::new(), b".llvm_stackmaps".to_vec(), SectionKind::ReadOnlyData);
    let mut unrelocated = map.clone();
    for function in &mut unrelocated.functions {
        function.address = 0;
    }
    obj.append_section_data(maps, &unrelocated.write(version, Endian::Little).unwrap(), 8);
    let flags =
        RelocationFlags::Generic { kind: RelocationKind::Absolute, encoding: RelocationEncoding::Generic, size: 64 };
    let at = unrelocated.function_table_offset(version) as u64;
    let step = version.function_record_size() as u64;
    obj.add_relocation(maps, Relocation { offset: at, symbol: f, addend: 0, flags }).unwrap();
    obj.add_relocation(maps, Relocation { offset: at + step, symbol: g, addend: 0, flags }).unwrap();
    obj.write().unwrap()
}

fn models(object: &[u8]) -> Vec<StackMap> {
    object_file::read_models(object).unwrap().0
}

#[test]
fn conversion_writes_any_version_from_a_frame_table_and_refuses_to_invent_one() {
    let mut map = sample();
    for function in &mut map.functions {
        function.address = 0;
    }
    let ft = object_with(&map, Version::FrameTable);
    assert_eq!(models(&ft), [map.clone()]);
    for version in [Version::V1, Version::V2, Version::V3] {
        let converted = object_file::convert_to(&ft, version).unwrap();
        if version == Version::V1 {
            // v1 holds no record counts, and the symbol sizes (96 and 200) fit f's last two records
            // in g as well: reading refuses to guess, and takes the counts when they are stated.
            let err = object_file::read_models(&converted).unwrap_err().to_string();
            assert!(err.contains("record 1 (ID 2, offset 30) can belong to f (function 0) or g (function 1)"), "{err}");
            let stated = object_file::V1Split::Counts(vec![3, 1]);
            assert_eq!(object_file::read_models_with(&converted, &stated).unwrap().0, [map.without_frames()]);
        } else {
            assert_eq!(models(&converted), [map.without_frames()], "{version}");
        }
        // Relocations moved with their fields: the function symbols are still found.
        let mut text = Vec::new();
        object_file::dump(&converted, true, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("    Symbol: f\n") && text.contains("    Symbol: g\n"), "{version}: {text}");
        // And back: from any of 1, 2, 3 the frame table is refused, saying what is missing.
        let err = object_file::convert_to(&converted, Version::FrameTable).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!(
                "cannot convert a version {} stack map to the frame-table layout (rfc2)",
                version.number()
            )) && err.contains("frame flags, the frame base register, the saved frame registers or call sizes"),
            "{err}"
        );
    }
    // Frame table to frame table keeps everything, relocations included.
    let again = object_file::convert_to(&ft, Version::FrameTable).unwrap();
    assert_eq!(models(&again), [map]);
}

#[test]
fn the_command_line_converts_to_rfc2_only_from_a_frame_table_and_dumps_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut map = sample();
    for function in &mut map.functions {
        function.address = 0;
    }
    let ft = dir.path().join("ft.o");
    std::fs::write(&ft, object_with(&map, Version::FrameTable)).unwrap();
    let v3 = dir.path().join("v3.o");
    std::fs::write(&v3, object_with(&map, Version::V3)).unwrap();
    let out = dir.path().join("out.o");
    let convert = |input: &std::path::Path, version: &str| {
        support::run(
            Command::new(support::patchmap_bin())
                .args(["convert", "--to-version", version])
                .arg(input)
                .arg("-o")
                .arg(&out),
        )
    };
    let (code, _, err) = convert(&ft, "rfc2");
    assert_eq!(code, 0, "{err}");
    assert_eq!(models(&std::fs::read(&out).unwrap()), [map.clone()]);
    let (code, _, err) = convert(&v3, "rfc2");
    assert_ne!(code, 0);
    assert!(err.contains("cannot convert a version 3 stack map to the frame-table layout (rfc2)"), "{err}");
    let (code, _, err) = convert(&v3, "4");
    assert_ne!(code, 0);
    assert!(err.contains("unknown stack map version '4' (expected 1, 2, 3 or rfc2)"), "{err}");
    let (code, text, err) = support::run(Command::new(support::patchmap_bin()).args(["dump", "--symbols"]).arg(&ft));
    assert_eq!(code, 0, "{err}");
    assert!(text.starts_with("LLVM StackMap Version: 2 (frame table, rfc2)\n"), "{text}");
    assert!(
        text.contains(
            "    Symbol: g\n    Function size: 200, flags: [ HasFrame HasVariableSizeAlloca HasLiveOutInfo ]"
        ),
        "{text}"
    );
    // Compiling writes it too, with the frames and call sizes the compiler knows.
    let compiled = dir.path().join("compiled.o");
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ir-examples/gc_basic.ll");
    let (code, _, err) = support::run(
        Command::new(support::patchmap_bin())
            .args(["compile", "--target", "x86_64", "--stackmap-version", "rfc2", "-o"])
            .arg(&compiled)
            .arg(&example),
    );
    assert_eq!(code, 0, "{err}");
    let (code, text, err) =
        support::run(Command::new(support::patchmap_bin()).args(["dump", "--symbols"]).arg(&compiled));
    assert_eq!(code, 0, "{err}");
    assert!(text.starts_with("LLVM StackMap Version: 2 (frame table, rfc2)\n"), "{text}");
    assert!(text.contains("flags: [ HasFrame ], frame base: R#6"), "{text}");
    assert!(text.contains("Call size: 5"), "{text}");
}

#[test]
fn version_names_parse_and_print() {
    for version in Version::ALL {
        assert_eq!(version.to_string().parse::<Version>().unwrap(), version);
    }
    assert_eq!("rfc2".parse::<Version>().unwrap(), Version::FrameTable);
    assert_eq!(Version::FrameTable.number(), 2);
    assert!("0".parse::<Version>().is_err());
}
