//! Property tests of the stack map format: random models round-trip through every version and byte
//! order (the frame-table layout included); random and mutated sections never panic the parser or the
//! printer.

use patchmap::stackmap::{
    self, Endian, Frame, FrameRegister, FunctionRecord, LiveOut, Location, LocationKind, Record, StackMap,
    StackMapView, Version,
};
use proptest::prelude::*;

fn kind() -> impl Strategy<Value = LocationKind> {
    prop_oneof![
        Just(LocationKind::Register),
        Just(LocationKind::Direct),
        Just(LocationKind::Indirect),
        Just(LocationKind::Constant),
        Just(LocationKind::ConstantIndex),
    ]
}

fn location(constants: usize) -> impl Strategy<Value = Location> {
    (kind(), any::<u16>(), any::<u16>(), any::<i32>()).prop_map(move |(kind, size, dwarf_reg, offset)| {
        let offset = match kind {
            // Keep pool indices valid: parsing checks them.
            LocationKind::ConstantIndex if constants == 0 => return Location::constant(offset),
            LocationKind::ConstantIndex => (offset.unsigned_abs() as usize % constants) as i32,
            _ => offset,
        };
        Location { kind, size, dwarf_reg, offset }
    })
}

fn record(constants: usize) -> impl Strategy<Value = Record> {
    (
        any::<u64>(),
        any::<u32>(),
        prop::collection::vec(location(constants), 0..12),
        prop::collection::vec(
            (any::<u16>(), any::<u8>()).prop_map(|(dwarf_reg, size)| LiveOut { dwarf_reg, size }),
            0..9,
        ),
        any::<u8>(),
        any::<bool>(),
    )
        .prop_map(|(id, instruction_offset, locations, live_outs, call_size, has_live_out_info)| Record {
            id,
            instruction_offset,
            locations,
            live_outs,
            call_size,
            has_live_out_info,
        })
}

fn frame() -> impl Strategy<Value = Frame> {
    (
        any::<u32>(),
        any::<[bool; 4]>(),
        any::<u16>(),
        prop::collection::vec(
            (any::<u16>(), any::<i16>(), any::<u8>(), any::<bool>()).prop_map(
                |(dwarf_reg, offset, size, is_spilled)| FrameRegister {
                    dwarf_reg,
                    offset: i32::from(offset),
                    size,
                    is_spilled,
                },
            ),
            0..4,
        ),
    )
        .prop_map(|(function_size, flags, base_register, registers)| Frame {
            function_size,
            has_frame: flags[0],
            has_variable_size_alloca: flags[1],
            has_stack_realignment: flags[2],
            has_live_out_info: flags[3],
            base_register,
            registers,
        })
}

/// A model with consistent record counts.
fn model() -> impl Strategy<Value = StackMap> {
    prop::collection::vec(any::<u64>(), 0..6).prop_flat_map(|constants| {
        let n = constants.len();
        (
            Just(constants),
            prop::collection::vec(
                (any::<u64>(), any::<u64>(), frame(), prop::collection::vec(record(n), 1..5), any::<bool>()),
                0..5,
            ),
        )
            .prop_map(|(constants, functions)| {
                let mut map = StackMap { constants, ..StackMap::default() };
                for (address, stack_size, frame, mut records, repeat) in functions {
                    if repeat {
                        // A record like an earlier one: the frame table shares its lists.
                        let again = Record { id: 99, ..records[0].clone() };
                        records.push(again);
                    }
                    map.push_function_with_frame(address, stack_size, Some(frame), records);
                }
                map
            })
    })
}

fn version() -> impl Strategy<Value = Version> {
    prop_oneof![Just(Version::V1), Just(Version::V2), Just(Version::V3), Just(Version::FrameTable)]
}

fn endian() -> impl Strategy<Value = Endian> {
    prop_oneof![Just(Endian::Little), Just(Endian::Big)]
}

/// `map` within the frame-table layout's limits: location sizes of 8 bits, stack sizes of 32.
fn fit_for(map: StackMap, version: Version) -> StackMap {
    let mut map = map;
    if version == Version::FrameTable {
        for loc in map.records.iter_mut().flat_map(|r| r.locations.iter_mut()) {
            loc.size &= 0xff;
        }
        for f in &mut map.functions {
            if f.stack_size != stackmap::DYNAMIC_STACK_SIZE {
                f.stack_size %= u64::from(u32::MAX);
            }
        }
    }
    map
}

/// What survives writing `map` in `version`: v1/v2 keep 8 bits of location sizes, v1 no record counts,
/// v1–v3 none of the frame-table fields.
fn expected_after(map: &StackMap, version: Version) -> StackMap {
    if version == Version::FrameTable {
        return map.clone();
    }
    let mut expected = map.without_frames();
    if version != Version::V3 {
        for loc in expected.records.iter_mut().flat_map(|r| r.locations.iter_mut()) {
            loc.size &= 0xff;
        }
    }
    if version == Version::V1 {
        for f in &mut expected.functions {
            f.record_count = 0;
        }
    }
    expected
}

/// Parsing, printing and converting `bytes` returns (an error or a result) without panicking, and what
/// parses re-encodes to the same bytes.
fn exercise(bytes: &[u8], endian: Endian) {
    if let Ok(blobs) = stackmap::parse_section(bytes, endian) {
        for blob in &blobs {
            let mut text = Vec::new();
            stackmap::print(blob, &mut text).unwrap();
            let model = blob.to_model();
            for f in 0..blob.num_functions() as usize + 1 {
                let _ = blob.record_at(f, 0);
            }
            if let Ok(index) = blob.address_index() {
                let _ = blob.records_at_address(&index, 0).count();
            }
            // Reserved fields are not kept, so compare after one normalising round.
            match model.write(blob.version(), endian) {
                Ok(again) => {
                    let reparsed = StackMapView::parse_version(&again, blob.version(), endian).unwrap().to_model();
                    assert_eq!(reparsed, model);
                }
                // The only refusal possible for a parsed frame table: its re-encoding also reads as v2.
                Err(stackmap::Error::AmbiguousVersion2 { .. }) => assert_eq!(blob.version(), Version::FrameTable),
                Err(e) => panic!("a parsed blob does not re-encode: {e}"),
            }
        }
    }
    let _ = StackMapView::parse(bytes, endian).map(|v| v.to_model());
    // The frame-table reader alone, where the check against LLVM 4.0's v2 would refuse first.
    if let Ok(blob) = StackMapView::parse_version(bytes, Version::FrameTable, endian) {
        let _ = blob.to_model();
        stackmap::print(&blob, &mut std::io::sink()).unwrap();
    }
    let _ = Endian::guess(bytes);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn models_round_trip(map in model(), version in version(), endian in endian()) {
        let map = fit_for(map, version);
        let bytes = map.write(version, endian).unwrap();
        prop_assert_eq!(bytes.len(), map.encoded_size(version));
        prop_assert_eq!(bytes.len() % 8, 0);
        let view = StackMapView::parse(&bytes, endian).unwrap();
        prop_assert_eq!(view.version(), version);
        prop_assert_eq!(view.len(), bytes.len());
        let parsed = view.to_model();
        prop_assert_eq!(&parsed, &expected_after(&map, version));
        // Lookups agree with the model.
        if version != Version::V1 {
            for (f, _) in map.functions.iter().enumerate() {
                let ours: Vec<Record> = view.records_of(f).unwrap().map(|r| r.to_record()).collect();
                prop_assert_eq!(&ours[..], parsed.records_of(f).unwrap());
                for r in &ours {
                    let found = view.record_at(f, r.instruction_offset).unwrap().unwrap();
                    prop_assert_eq!(found.instruction_offset(), r.instruction_offset);
                }
            }
            let index = view.address_index().unwrap();
            prop_assert_eq!(index.len(), map.records.len());
            for (f, function) in map.functions.iter().enumerate() {
                for r in parsed.records_of(f).unwrap() {
                    let address = function.address.wrapping_add(u64::from(r.instruction_offset));
                    prop_assert!(view.records_at_address(&index, address).any(|v| v.to_record() == *r));
                }
            }
        } else {
            prop_assert!(view.records_of(0).is_err() || map.functions.is_empty());
        }
        // Several blobs in one section, as a linker concatenates them.
        let mut section = bytes.clone();
        map.write_into(version, endian, &mut section).unwrap();
        let blobs = stackmap::parse_section(&section, endian).unwrap();
        prop_assert_eq!(blobs.len(), 2);
        prop_assert_eq!(blobs[1].range().start, bytes.len());
        prop_assert_eq!(blobs[1].to_model(), parsed);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512), endian in endian()) {
        exercise(&bytes, endian);
    }

    #[test]
    fn mutated_sections_never_panic(
        map in model(),
        version in version(),
        endian in endian(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
        cut in any::<prop::sample::Index>(),
        huge in prop::option::of((0usize..3, any::<u32>())),
    ) {
        let map = fit_for(map, version);
        let mut bytes = map.write(version, endian).unwrap();
        for (at, value) in flips {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        if let Some((field, count)) = huge {
            // NumFunctions, NumConstants or NumRecords (a table offset in the frame-table layout).
            let at = 4 + 4 * field;
            let encoded = match endian { Endian::Little => count.to_le_bytes(), Endian::Big => count.to_be_bytes() };
            bytes[at..at + 4].copy_from_slice(&encoded);
        }
        exercise(&bytes, endian);
        let len = cut.index(bytes.len() + 1);
        exercise(&bytes[..len], endian);
    }

    #[test]
    fn derived_v1_record_counts_fit_the_layout_rules(
        sizes in prop::collection::vec(1u64..64, 1..6),
        per_function in prop::collection::vec(prop::collection::vec(0u32..64, 1..4), 1..6),
    ) {
        // Records in code order within each function, offsets within the function's size.
        let n = sizes.len().min(per_function.len());
        let mut map = StackMap::new();
        for f in 0..n {
            let mut offsets: Vec<u32> = per_function[f].iter().map(|&o| o % (sizes[f] as u32 + 1)).collect();
            offsets.sort();
            map.push_function(0, 8, offsets.into_iter().map(|instruction_offset| Record { instruction_offset, ..Record::default() }));
        }
        let truth: Vec<u64> = map.functions.iter().map(|f| f.record_count).collect();
        let mut derived = map.clone();
        for f in &mut derived.functions {
            f.record_count = 0;
        }
        match derived.derive_record_counts(&sizes[..n]) {
            Ok(()) => prop_assert_eq!(derived.functions.iter().map(|f| f.record_count).collect::<Vec<_>>(), truth),
            Err(stackmap::Error::AmbiguousRecordCounts) => prop_assert!(derived.record_counts_consistent()),
            Err(e) => prop_assert!(false, "a valid layout was rejected: {}", e),
        }
    }
}

#[test]
fn overflow_records_match_llvm() {
    let mut map = StackMap::new();
    let many =
        Record { id: 5, instruction_offset: 12, locations: vec![Location::constant(1); 65536], ..Record::default() };
    let many_live = Record {
        id: 6,
        instruction_offset: 20,
        locations: vec![],
        live_outs: vec![LiveOut { dwarf_reg: 0, size: 8 }; 65536],
        ..Record::default()
    };
    assert!(many.overflows() && many_live.overflows());
    map.push_function(0, 8, [many, many_live]);
    for version in [Version::V1, Version::V2, Version::V3] {
        let bytes = map.write(version, Endian::Little).unwrap();
        let view = StackMapView::parse(&bytes, Endian::Little).unwrap();
        let records: Vec<Record> = view.records().map(|r| r.to_record()).collect();
        for (r, offset) in records.iter().zip([12, 20]) {
            assert_eq!(r.id, stackmap::OVERFLOW_RECORD_ID);
            assert_eq!(r.instruction_offset, offset);
            assert!(r.locations.is_empty() && r.live_outs.is_empty());
        }
        // ID, offset, then 12 zero bytes: 24 bytes per record.
        let records_at = 16 + version.function_record_size();
        assert_eq!(bytes.len(), records_at + 48);
        assert!(bytes[records_at + 12..records_at + 24].iter().all(|&b| b == 0));
    }
}

#[test]
fn v1_v2_truncate_location_sizes_to_a_byte() {
    let mut map = StackMap::new();
    map.push_function(
        0,
        16,
        [Record {
            id: 1,
            instruction_offset: 4,
            locations: vec![Location::indirect(6, -8, 8192 + 3)],
            ..Record::default()
        }],
    );
    for version in [Version::V1, Version::V2] {
        let bytes = map.write(version, Endian::Little).unwrap();
        let location = 16 + version.function_record_size() + 16;
        assert_eq!(bytes[location + 1], 3, "{version:?}");
    }
    let v3 = map.write(Version::V3, Endian::Little).unwrap();
    let parsed = StackMapView::parse(&v3, Endian::Little).unwrap().to_model();
    assert_eq!(parsed.records[0].locations[0].size, 8195);
}

#[test]
fn writer_rejects_inconsistent_record_counts() {
    let mut map = StackMap::new();
    map.functions.push(FunctionRecord { address: 0, stack_size: 8, record_count: 2, frame: None });
    map.records.push(Record::default());
    assert!(matches!(map.write(Version::V3, Endian::Little), Err(stackmap::Error::RecordCountMismatch { .. })));
    // v1 does not store the counts.
    assert!(map.write(Version::V1, Endian::Little).is_ok());
}

#[test]
fn errors_name_the_offset_of_the_problem() {
    let mut map = StackMap::new();
    let index = map.constant_location(1 << 40);
    map.push_function(0, 8, [Record { id: 1, instruction_offset: 4, locations: vec![index], ..Record::default() }]);
    let bytes = map.write(Version::V3, Endian::Little).unwrap();
    // Truncated inside the only record.
    let err = StackMapView::parse(&bytes[..bytes.len() - 8], Endian::Little).unwrap_err();
    assert!(matches!(err, stackmap::Error::UnexpectedEnd { .. }), "{err}");
    // A version byte of 4.
    let mut bad = bytes.clone();
    bad[0] = 4;
    assert_eq!(
        StackMapView::parse(&bad, Endian::Little).unwrap_err().to_string(),
        "at byte 0: unsupported stack map version 4 (supported: 1, 2, 3)"
    );
    // A constant index past the pool: location at 16 + 24 + 8 + 16 = 64, index field at +8.
    let mut bad = bytes.clone();
    bad[72] = 1;
    let err = StackMapView::parse(&bad, Endian::Little).unwrap_err();
    assert!(err.to_string().starts_with("at byte 64: constant index 1 is out of range"), "{err}");
    // Errors in a second blob name section offsets.
    let mut section = bytes.clone();
    section.extend_from_slice(&bad);
    let err = stackmap::parse_section(&section, Endian::Little).unwrap_err();
    assert!(err.to_string().starts_with(&format!("at byte {}:", bytes.len() + 64)), "{err}");
}
