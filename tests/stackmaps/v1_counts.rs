//! v1 sections do not store per-function record counts: reading one derives them from the functions'
//! sizes, found through the relocation on each function's address field, in whatever form it comes.
//! When several splits fit, readers and `convert` refuse by default, naming the records and the
//! functions that can hold them, and take a stated choice (counts, or the likeliest split).

use crate::support;

use std::process::Command;

use object::write::{Object, Relocation, StandardSection, Symbol, SymbolId, SymbolSection};
use object::{
    Architecture, BinaryFormat, Endianness, RelocationEncoding, RelocationFlags, RelocationKind, SectionKind,
    SymbolFlags, SymbolKind, SymbolScope,
};
use patchmap::stackmap::object_file::{self, FunctionSymbol, V1Split};
use patchmap::stackmap::{parse_section, Endian, Record, StackMap, Version};

/// An internal function with three stack maps, called from a global one with four: llc-19 relocates
/// the internal one's address against `.text` plus an addend, not against its symbol.
const INTERNAL_AND_GLOBAL: &str = r#"
declare void @llvm.experimental.stackmap(i64, i32, ...)

define internal i64 @helper(i64 %x) {
entry:
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i64 %x)
  %y = add i64 %x, 1
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 0, i64 %y)
  %z = mul i64 %y, 3
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 3, i32 0, i64 %z)
  ret i64 %z
}

define i64 @main() {
entry:
  %a = call i64 @helper(i64 5)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 4, i32 0, i64 %a)
  %b = call i64 @helper(i64 %a)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 5, i32 0, i64 %b)
  %c = add i64 %a, %b
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 6, i32 0, i64 %c)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 7, i32 0, i64 %c)
  ret i64 %c
}
"#;

fn record_counts(object: &[u8]) -> Vec<u64> {
    record_counts_with(object, &V1Split::Refuse).unwrap()
}

fn record_counts_with(object: &[u8], split: &V1Split) -> Result<Vec<u64>, String> {
    let (models, _) = object_file::read_models_with(object, split).map_err(|e| e.to_string())?;
    Ok(models.iter().flat_map(|m| m.functions.iter().map(|f| f.record_count)).collect())
}

/// `patchmap convert` with `extra` arguments: its exit code and standard error.
fn patchmap_convert(input: &std::path::Path, version: &str, output: &std::path::Path, extra: &[&str]) -> (i32, String) {
    let (code, _, err) = support::run(
        Command::new(support::patchmap_bin())
            .args(["convert", "--to-version", version])
            .args(extra)
            .arg(input)
            .arg("-o")
            .arg(output),
    );
    (code, err)
}

/// Two functions whose records cannot be split but one way: the first one's records lie past
/// everything the second one's could reach, and the second one's first record comes before the
/// first one's last (offsets do not decrease within a function).
const UNAMBIGUOUS: &str = r#"
declare void @llvm.experimental.stackmap(i64, i32, ...)
declare i64 @work(i64)

define i64 @long(i64 %x) {
entry:
  %a = call i64 @work(i64 %x)
  %b = call i64 @work(i64 %a)
  %c = call i64 @work(i64 %b)
  %d = call i64 @work(i64 %c)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i64 %d)
  %e = call i64 @work(i64 %d)
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 2, i32 0, i64 %e)
  ret i64 %e
}

define i64 @short(i64 %x) {
entry:
  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 3, i32 0, i64 %x)
  %y = add i64 %x, 1
  ret i64 %y
}
"#;

/// llc-19's objects converted to v1 and back: a split only one layout fits comes back by default;
/// an ambiguous one is refused, naming the records and both functions, and comes back with the
/// stated counts.
#[test]
fn llc19_objects_survive_a_v1_round_trip_or_say_why_not() {
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let (mut ambiguous, mut unambiguous) = (0, 0);
    for (name, text, counts) in [("internal", INTERNAL_AND_GLOBAL, [3u64, 4]), ("unambiguous", UNAMBIGUOUS, [2, 1])] {
        let ll = dir.path().join(format!("{name}.ll"));
        std::fs::write(&ll, text).unwrap();
        let stated = format!("{},{}", counts[0], counts[1]);
        for arch in support::Arch::ALL {
            for opt in ["0", "2"] {
                let what = format!("{name} llc-19 {arch:?} -O{opt}");
                let v3 = dir.path().join("v3.o");
                std::fs::write(&v3, support::llc_object(&llc, &ll, arch, opt, dir.path()).unwrap()).unwrap();
                assert_eq!(record_counts(&std::fs::read(&v3).unwrap()), counts, "{what}");
                let (v1, back) = (dir.path().join("v1.o"), dir.path().join("back.o"));
                assert_eq!(patchmap_convert(&v3, "1", &v1, &[]).0, 0, "{what} to v1");
                let v1_bytes = std::fs::read(&v1).unwrap();
                let (code, err) = patchmap_convert(&v1, "3", &back, &[]);
                if code == 0 {
                    unambiguous += 1;
                    assert_eq!(record_counts(&std::fs::read(&back).unwrap()), counts, "{what} via v1");
                    assert_eq!(record_counts(&v1_bytes), counts, "{what}: the reader");
                } else {
                    ambiguous += 1;
                    assert!(name != "unambiguous", "{what}: {err}");
                    assert!(
                        err.contains("more than one split")
                            && err.contains("can belong to")
                            && err.contains("helper (function 0) or main (function 1)"),
                        "{what}: {err}"
                    );
                    let read = record_counts_with(&v1_bytes, &V1Split::Refuse).unwrap_err();
                    assert!(read.contains("can belong to"), "{what}: the reader: {read}");
                    let (code, err) = patchmap_convert(&v1, "3", &back, &["--v1-record-counts", &stated]);
                    assert_eq!(code, 0, "{what}: with the stated counts: {err}");
                    assert_eq!(record_counts(&std::fs::read(&back).unwrap()), counts, "{what} via v1, stated");
                    let (code, err) = patchmap_convert(&v1, "3", &back, &["--v1-split", "likeliest"]);
                    assert_eq!(code, 0, "{what}: the likeliest split: {err}");
                }
                // A stated split that does not fit is refused, whatever the rest.
                let (code, err) = patchmap_convert(&v1, "3", &back, &["--v1-record-counts", "1,1"]);
                assert_ne!(code, 0, "{what}: counts that do not add up");
                assert!(err.contains("the counts add up to"), "{what}: {err}");
            }
        }
    }
    eprintln!("llc-19 objects via v1: {unambiguous} unambiguous, {ambiguous} ambiguous");
    assert!(ambiguous > 0 && unambiguous >= 4, "{ambiguous} ambiguous, {unambiguous} unambiguous");
}

/// How the object built below points the first function record at `helper`.
#[derive(Debug, Clone, Copy)]
enum HelperRelocation {
    /// `.text` section symbol + 48 (llc's form for local functions).
    SectionPlusAddend,
    /// `helper` itself.
    FunctionSymbol,
    /// An unsized local label at `helper`'s address (assembler output).
    Label,
    /// An unsized label 16 bytes before `helper`, + 16.
    LabelPlusAddend,
}

/// An x86-64 ELF object laid out like llc-19's output for [`INTERNAL_AND_GLOBAL`], but with `main` (46
/// bytes) first in `.text` and `helper` (14 bytes) at 48, and a v1 stack map section whose function
/// table lists `helper` (records at 4, 8, 12) then `main` (25, 37, 40, 40).
fn v1_object(form: HelperRelocation) -> Vec<u8> {
    let mut obj = Object::new(BinaryFormat::Elf, Architecture::X86_64, Endianness::Little);
    let text = obj.section_id(StandardSection::Text);
    obj.append_section_data(text, &[0xcc; 64], 16);
    let symbol = |obj: &mut Object, name: &str, value: u64, size: u64, kind: SymbolKind, scope: SymbolScope| {
        obj.add_symbol(Symbol {
            name: name.as_bytes().to_vec(),
            value,
            size,
            kind,
            scope,
            weak: false,
            section: SymbolSection::Section(text),
            flags: SymbolFlags::None,
        })
    };
    let main = symbol(&mut obj, "main", 0, 46, SymbolKind::Text, SymbolScope::Linkage);
    let helper = symbol(&mut obj, "helper", 48, 14, SymbolKind::Text, SymbolScope::Compilation);
    let (target, addend): (SymbolId, i64) = match form {
        HelperRelocation::SectionPlusAddend => (obj.section_symbol(text), 48),
        HelperRelocation::FunctionSymbol => (helper, 0),
        HelperRelocation::Label => {
            (symbol(&mut obj, ".Lhelper", 48, 0, SymbolKind::Label, SymbolScope::Compilation), 0)
        }
        HelperRelocation::LabelPlusAddend => {
            (symbol(&mut obj, ".Lbefore", 32, 0, SymbolKind::Label, SymbolScope::Compilation), 16)
        }
    };

    let records = |offsets: &[u32]| -> Vec<Record> {
        offsets.iter().map(|&instruction_offset| Record { instruction_offset, ..Record::default() }).collect()
    };
    let mut map = StackMap::new();
    map.push_function(0, 8, records(&[4, 8, 12]));
    map.push_function(0, 24, records(&[25, 37, 40, 40]));
    let maps = obj.add_section(Vec::new(), b".llvm_stackmaps".to_vec(), SectionKind::ReadOnlyData);
    obj.append_section_data(maps, &map.write(Version::V1, Endian::Little).unwrap(), 8);
    let flags =
        RelocationFlags::Generic { kind: RelocationKind::Absolute, encoding: RelocationEncoding::Generic, size: 64 };
    obj.add_relocation(maps, Relocation { offset: 16, symbol: target, addend, flags }).unwrap();
    obj.add_relocation(maps, Relocation { offset: 32, symbol: main, addend: 0, flags }).unwrap();
    obj.write().unwrap()
}

#[test]
fn every_relocation_form_finds_the_function_and_its_size() {
    for form in [
        HelperRelocation::SectionPlusAddend,
        HelperRelocation::FunctionSymbol,
        HelperRelocation::Label,
        HelperRelocation::LabelPlusAddend,
    ] {
        let bytes = v1_object(form);
        let file = object::File::parse(&*bytes).unwrap();
        let section = object::Object::section_by_name(&file, ".llvm_stackmaps").unwrap();
        let data = object::ObjectSection::data(&section).unwrap();
        let views = parse_section(data, Endian::Little).unwrap();
        let names = object_file::function_symbols(&file, &section, &views[0]);
        assert_eq!(
            names,
            [
                Some(FunctionSymbol { name: "helper".into(), size: Some(14) }),
                Some(FunctionSymbol { name: "main".into(), size: Some(46) })
            ],
            "{form:?}"
        );
        // helper's records (4, 8, 12) and main's (25, 37, 40, 40) fit helper | main at 3 | 4 and at
        // 1 | 6 and 2 | 5: the reader refuses, naming the records main or helper can hold.
        let err = record_counts_with(&bytes, &V1Split::Refuse).unwrap_err();
        assert!(
            err.contains("record 1 (ID 0, offset 8) can belong to helper (function 0) or main (function 1)")
                && err.contains("likeliest split (3,4;"),
            "{form:?}: {err}"
        );
        assert!(!err.contains("record 3 "), "{form:?}: record 3 (offset 25) only fits main: {err}");
        assert_eq!(record_counts_with(&bytes, &V1Split::Likeliest).unwrap(), [3, 4], "{form:?}");
        assert!(object_file::convert(&bytes, 3).is_err(), "{form:?}");
        let v3 = object_file::convert_with(&bytes, Version::V3, &V1Split::Counts(vec![3, 4])).unwrap();
        assert_eq!(record_counts(&v3), [3, 4], "{form:?} converted to v3");
        let v3 = object_file::convert_with(&bytes, Version::V3, &V1Split::Counts(vec![2, 5])).unwrap();
        assert_eq!(record_counts(&v3), [2, 5], "{form:?} converted to v3, as stated");
        // helper is 14 bytes: a record at 25 is past it.
        let err = object_file::convert_with(&bytes, Version::V3, &V1Split::Counts(vec![4, 3])).unwrap_err();
        assert!(err.to_string().contains("function 0 would get a record past its size (14 bytes)"), "{err}");
    }
}
