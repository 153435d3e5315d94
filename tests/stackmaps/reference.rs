//! The stack map format against llc-19's reference vectors and llvm-readobj-19.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use object::{Object, ObjectSection};
use patchmap::stackmap::{self, object_file, Endian, StackMapView, Version};

/// Every object of the reference set that has a stack map section: top-level llc-19 objects (both
/// targets, big-endian too), `objfmt/` (COFF, Mach-O) and the linked executable.
fn reference_objects(reference: &Path) -> Vec<PathBuf> {
    let llc19 = reference.join("llc19");
    let mut objects = Vec::new();
    for dir in [llc19.clone(), llc19.join("objfmt")] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "o") {
                objects.push(path);
            }
        }
    }
    objects.push(llc19.join("linked/linked.x86_64"));
    objects.sort();
    assert!(objects.len() >= 30, "reference set looks incomplete: {objects:?}");
    objects
}

/// Top-level ELF objects with a stored `.stackmaps.bin`.
fn elf_objects(reference: &Path) -> Vec<PathBuf> {
    reference_objects(reference)
        .into_iter()
        .filter(|p| p.parent() == Some(&reference.join("llc19")) && p.with_extension("stackmaps.bin").exists())
        .collect()
}

/// The text llvm-readobj prints after its File/Format/Arch/AddressSize/LoadName preamble.
fn stackmap_block(readobj_output: &str) -> &str {
    let start = readobj_output.find("LLVM StackMap Version:").expect("no stack map block in llvm-readobj output");
    &readobj_output[start..]
}

fn section_bytes(file: &[u8]) -> (Vec<u8>, Endian) {
    let obj = object::File::parse(file).unwrap();
    let section = obj
        .sections()
        .find(|s| matches!(s.name(), Ok(".llvm_stackmaps") | Ok("__llvm_stackmaps")))
        .expect("no stack map section");
    let endian = if obj.is_little_endian() { Endian::Little } else { Endian::Big };
    (section.data().unwrap().to_vec(), endian)
}

fn patchmap(args: &[&str]) -> (i32, String, String) {
    support::run(Command::new(support::patchmap_bin()).args(args))
}

#[test]
fn dump_matches_llvm_readobj_and_stored_output() {
    let Some(reference) = support::reference_dir() else { return };
    let Some(readobj) = support::tool("llvm-readobj-19") else { return };
    for object in reference_objects(&reference) {
        let path = object.to_str().unwrap();
        let (code, ours, err) = patchmap(&["dump", path]);
        assert_eq!(code, 0, "patchmap dump {path} failed: {err}");
        let (code, theirs, err) = support::run(Command::new(&readobj).arg("--stackmap").arg(&object));
        assert_eq!(code, 0, "llvm-readobj-19 {path}: {err}");
        let theirs = stackmap_block(&theirs);
        let stored = std::fs::read_to_string(object.with_extension("readobj.txt"))
            .or_else(|_| std::fs::read_to_string(format!("{path}.readobj.txt")))
            .unwrap_or_else(|e| panic!("no stored readobj output for {path}: {e}"));
        assert_eq!(stackmap_block(&stored), theirs, "stored output of {path} is stale");

        let (section, _) = section_bytes(&std::fs::read(&object).unwrap());
        let blobs = stackmap::parse_section(&section, section_bytes(&std::fs::read(&object).unwrap()).1).unwrap();
        if blobs.len() == 1 {
            assert_eq!(ours, theirs, "dump of {path} differs from llvm-readobj-19");
        } else {
            // llvm-readobj prints only the first blob.
            assert!(ours.starts_with(theirs), "first blob of {path} differs from llvm-readobj-19:\n{ours}");
            let separator = format!("Stack map blob 2 at .llvm_stackmaps offset {}:\n", blobs[1].range().start);
            let rest = &ours[theirs.len()..];
            assert!(rest.starts_with(&separator), "missing separator in {path}:\n{rest}");
            assert_eq!(rest.matches("LLVM StackMap Version: 3").count(), blobs.len() - 1);
        }
    }
}

#[test]
fn parse_then_write_v3_reproduces_reference_sections() {
    let Some(reference) = support::reference_dir() else { return };
    let mut checked = 0;
    for object in reference_objects(&reference) {
        let bytes = std::fs::read(&object).unwrap();
        let (section, endian) = section_bytes(&bytes);
        let stored = object.with_extension("stackmaps.bin");
        if stored.exists() {
            assert_eq!(std::fs::read(&stored).unwrap(), section, "{} differs from its .o", stored.display());
        }
        let blobs = stackmap::parse_section(&section, endian).unwrap();
        assert!(!blobs.is_empty());
        let mut written = Vec::new();
        for blob in &blobs {
            assert_eq!(blob.version(), Version::V3);
            blob.to_model().write_into(Version::V3, endian, &mut written).unwrap();
        }
        assert_eq!(written, section, "rewriting {} changed its section", object.display());
        checked += 1;
    }
    assert!(checked >= 30);
}

#[test]
fn big_endian_vector_needs_and_is_guessed_big_endian() {
    let Some(reference) = support::reference_dir() else { return };
    let bin = std::fs::read(reference.join("llc19/sm_example_aarch64_be.stackmaps.bin")).unwrap();
    let little = std::fs::read(reference.join("llc19/sm_example_aarch64.stackmaps.bin")).unwrap();
    assert_eq!(Endian::guess(&bin), Endian::Big);
    assert_eq!(Endian::guess(&little), Endian::Little);
    let be = StackMapView::parse(&bin, Endian::Big).unwrap().to_model();
    let le = StackMapView::parse(&little, Endian::Little).unwrap().to_model();
    assert_eq!(be, le, "the big-endian vector holds the same stack map as the little-endian one");
    assert_eq!(le.write(Version::V3, Endian::Big).unwrap(), bin);
}

#[test]
fn synthetic_v1_v2_vectors_round_trip() {
    let Some(reference) = support::reference_dir() else { return };
    let synthetic = reference.join("llc19/synthetic");
    for arch in ["x86_64", "aarch64"] {
        let v3 = std::fs::read(reference.join(format!("llc19/sm_example_{arch}.stackmaps.bin"))).unwrap();
        let v3_model = StackMapView::parse(&v3, Endian::Little).unwrap().to_model();
        for version in [Version::V1, Version::V2] {
            let name = format!("sm_example_{arch}.v{}.SYNTHETIC.bin", version.number());
            let bytes = std::fs::read(synthetic.join(&name)).unwrap();
            let view = StackMapView::parse(&bytes, Endian::Little).unwrap();
            assert_eq!(view.version(), version, "{name}");
            assert_eq!(view.len(), bytes.len(), "{name}");
            let mut model = view.to_model();
            assert_eq!(model.write(version, Endian::Little).unwrap(), bytes, "{name} does not round-trip");
            if version == Version::V1 {
                assert!(view.record_range(0).is_err(), "v1 cannot know record counts");
                assert!(model.functions.iter().all(|f| f.record_count == 0));
                model.derive_record_counts(&vec![u64::MAX; model.functions.len()]).unwrap();
            }
            assert_eq!(model, v3_model, "{name} holds a different stack map than the v3 vector");
            assert_eq!(model.write(Version::V3, Endian::Little).unwrap(), v3, "{name} -> v3");
        }
    }
}

#[test]
fn dump_prints_synthetic_v1_and_v2_with_their_version() {
    let Some(reference) = support::reference_dir() else { return };
    let synthetic = reference.join("llc19/synthetic");
    let original = reference.join("llc19/sm_example_x86_64.o");
    let (_, v3_text, _) = patchmap(&["dump", original.to_str().unwrap()]);
    for (file, version) in [("sm_example_x86_64.v1.SYNTHETIC.o", 1), ("sm_example_x86_64.v2.SYNTHETIC.o", 2)] {
        let (code, text, err) = patchmap(&["dump", synthetic.join(file).to_str().unwrap()]);
        assert_eq!(code, 0, "{file}: {err}");
        let mut expected = v3_text.replace("Version: 3", &format!("Version: {version}"));
        if version == 1 {
            expected = expected.replace(", callsite record count: 2", "");
        }
        assert_eq!(text, expected, "{file}");
    }
}

/// Relocations and symbols as llvm-readelf prints them, minus file offsets that move on rebuild.
fn relocations_and_symbols(readelf: &Path, file: &Path) -> String {
    let (code, out, err) = support::run(Command::new(readelf).args(["-r", "-s", "--wide"]).arg(file));
    assert_eq!(code, 0, "{err}");
    out.lines().filter(|l| !l.contains("at offset")).collect::<Vec<_>>().join("\n")
}

#[test]
fn convert_to_v1_v2_and_back_reproduces_llc_sections() {
    let Some(reference) = support::reference_dir() else { return };
    let Some(readobj) = support::tool("llvm-readobj-19") else { return };
    let Some(readelf) = support::tool("llvm-readelf-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let objects = elf_objects(&reference);
    assert!(objects.len() >= 25);
    let mut ambiguous = Vec::new();
    for object in objects {
        let name = object.file_stem().unwrap().to_str().unwrap();
        let original = std::fs::read(object.with_extension("stackmaps.bin")).unwrap();
        for version in ["1", "2"] {
            let old = dir.path().join(format!("{name}.v{version}.o"));
            let back = dir.path().join(format!("{name}.v{version}.v3.o"));
            let (code, _, err) =
                patchmap(&["convert", object.to_str().unwrap(), "--to-version", version, "-o", old.to_str().unwrap()]);
            assert_eq!(code, 0, "{name} -> v{version}: {err}");
            let (converted, endian) = section_bytes(&std::fs::read(&old).unwrap());
            let view = StackMapView::parse(&converted, endian).unwrap();
            assert_eq!(view.version().number().to_string(), version);
            // Relocations moved to the new function-record offsets.
            let (_, relocs, _) = support::run(Command::new(&readelf).arg("-r").arg(&old));
            let relocated: Vec<u64> = relocs
                .split("'.rela.llvm_stackmaps'")
                .nth(1)
                .map(|s| s.split("\n\n").next().unwrap_or(""))
                .unwrap_or("")
                .lines()
                .filter_map(|l| u64::from_str_radix(l.split_whitespace().next()?, 16).ok())
                .collect();
            let expected: Vec<u64> =
                (0..view.num_functions() as usize).map(|i| view.function_address_offset(i) as u64).collect();
            assert_eq!(relocated, expected, "{name} v{version} relocation offsets");

            let (code, _, err) =
                patchmap(&["convert", old.to_str().unwrap(), "--to-version", "3", "-o", back.to_str().unwrap()]);
            if version == "1" && code != 0 {
                // v1 does not say which function holds which record: where several splits fit, convert
                // refuses, naming the records, and takes the counts stated (here llc-19's).
                assert!(err.contains("can belong to") && err.contains("--v1-record-counts"), "{name}: {err}");
                ambiguous.push(name.to_owned());
                let (models, _) = object_file::read_models(&std::fs::read(&object).unwrap()).unwrap();
                let counts: Vec<String> =
                    models.iter().flat_map(|m| m.functions.iter().map(|f| f.record_count.to_string())).collect();
                let (code, _, err) = patchmap(&[
                    "convert",
                    old.to_str().unwrap(),
                    "--to-version",
                    "3",
                    "--v1-record-counts",
                    &counts.join(","),
                    "-o",
                    back.to_str().unwrap(),
                ]);
                assert_eq!(code, 0, "{name} v1 -> v3 with the counts stated: {err}");
            } else {
                assert_eq!(code, 0, "{name} v{version} -> v3: {err}");
            }
            assert_eq!(section_bytes(&std::fs::read(&back).unwrap()).0, original, "{name} via v{version}");
            let (_, theirs, _) = support::run(Command::new(&readobj).arg("--stackmap").arg(&back));
            let (_, expected, _) = support::run(Command::new(&readobj).arg("--stackmap").arg(&object));
            assert_eq!(stackmap_block(&theirs), stackmap_block(&expected), "{name} via v{version}");
            assert_eq!(
                relocations_and_symbols(&readelf, &back),
                relocations_and_symbols(&readelf, &object),
                "{name} via v{version}: relocations or symbols changed"
            );
        }
    }
    eprintln!("v1 splits several layouts fit: {ambiguous:?}");
    // The reference objects include multi-function ones both ways (sm_shadow on AArch64 is ambiguous).
    assert!(!ambiguous.is_empty() && ambiguous.len() < 10, "{ambiguous:?}");
}

#[test]
fn convert_to_same_version_leaves_the_file_identical() {
    let Some(reference) = support::reference_dir() else { return };
    for object in elf_objects(&reference) {
        let bytes = std::fs::read(&object).unwrap();
        assert_eq!(object_file::convert(&bytes, 3).unwrap(), bytes, "{}", object.display());
    }
}

#[test]
fn convert_rejects_mach_o_coff_and_bad_versions() {
    let Some(reference) = support::reference_dir() else { return };
    let macho = std::fs::read(reference.join("llc19/objfmt/sm_basic.x86_64-apple-macosx11.0.o")).unwrap();
    let coff = std::fs::read(reference.join("llc19/objfmt/sm_basic.x86_64-pc-windows-msvc.o")).unwrap();
    let elf = std::fs::read(reference.join("llc19/sm_basic.x86_64.o")).unwrap();
    assert!(object_file::convert(&macho, 1).unwrap_err().to_string().contains("Mach-O"));
    assert!(object_file::convert(&coff, 1).unwrap_err().to_string().contains("COFF"));
    assert!(matches!(object_file::convert(&elf, 4), Err(stackmap::Error::InvalidTargetVersion(4))));
}

/// `--symbols` names each function record by the symbol its relocation points at (checked against
/// llvm-readelf's relocations and llvm-nm), or by address in the linked executable.
#[test]
fn dump_symbols_names_functions_like_the_relocations() {
    let Some(reference) = support::reference_dir() else { return };
    let Some(readelf) = support::tool("llvm-readelf-19") else { return };
    let Some(nm) = support::tool("llvm-nm-19") else { return };
    let objects = elf_objects(&reference).into_iter().chain([reference.join("llc19/linked/linked.x86_64")]);
    for object in objects {
        let path = object.to_str().unwrap();
        let (code, plain, _) = patchmap(&["dump", path]);
        assert_eq!(code, 0);
        let (code, named, err) = patchmap(&["dump", "--symbols", path]);
        assert_eq!(code, 0, "{err}");
        // The extra lines do not disturb the standard ones.
        let without: Vec<&str> = named.lines().filter(|l| !l.starts_with("    Symbol: ")).collect();
        assert_eq!(without, plain.lines().collect::<Vec<_>>());
        let ours: Vec<&str> = named.lines().filter_map(|l| l.strip_prefix("    Symbol: ")).collect();

        let (_, nm_out, _) = support::run(Command::new(&nm).arg(&object));
        let symbols: Vec<(u64, &str, &str)> = nm_out
            .lines()
            .filter_map(|l| {
                let mut f = l.split_whitespace();
                Some((u64::from_str_radix(f.next()?, 16).ok()?, f.next()?, f.next()?))
            })
            .collect();
        let function_at =
            |address: u64| symbols.iter().find(|(a, kind, _)| *a == address && matches!(*kind, "t" | "T")).map(|s| s.2);
        let expected: Vec<String> = if path.ends_with("linked.x86_64") {
            plain
                .lines()
                .filter_map(|l| l.strip_prefix("  Function address: "))
                .map(|l| function_at(l.split(',').next().unwrap().parse().unwrap()).unwrap().to_owned())
                .collect()
        } else {
            let (_, relocs, _) = support::run(Command::new(&readelf).args(["-r", "--wide"]).arg(&object));
            let section = relocs.split("'.rela.llvm_stackmaps'").nth(1).unwrap().split("\n\n").next().unwrap();
            section
                .lines()
                .filter(|l| l.starts_with('0'))
                .map(|l| {
                    // "... <symbol> + <addend>"
                    let fields: Vec<&str> = l.split_whitespace().collect();
                    let (target, addend) = (fields[fields.len() - 3], fields[fields.len() - 1]);
                    let addend = u64::from_str_radix(addend, 16).unwrap();
                    if target.starts_with('.') {
                        function_at(addend).unwrap().to_owned()
                    } else {
                        target.to_owned()
                    }
                })
                .collect()
        };
        assert!(!expected.is_empty());
        assert_eq!(ours, expected, "{path}");
    }
}

#[test]
fn dump_reports_malformed_sections_with_offsets() {
    let Some(reference) = support::reference_dir() else { return };
    let Some(objcopy) = support::tool("llvm-objcopy-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let object = reference.join("llc19/sm_example_x86_64.o");
    let mut section = std::fs::read(reference.join("llc19/sm_example_x86_64.stackmaps.bin")).unwrap();
    // Location 1 of record 0: header 16 + one function 24 + one constant 8 + record header 16.
    let location = 16 + 24 + 8 + 16;
    section[location] = 9;
    let bad_section = dir.path().join("bad.bin");
    let bad = dir.path().join("bad.o");
    std::fs::write(&bad_section, &section).unwrap();
    let (code, _, err) = support::run(
        Command::new(&objcopy)
            .arg(format!("--update-section=.llvm_stackmaps={}", bad_section.display()))
            .arg(&object)
            .arg(&bad),
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = patchmap(&["dump", bad.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains(&format!("at byte {location}: invalid location type 9")), "{err}");
}

/// Found by fuzzing: a corrupt 4 GiB section alignment made the ELF rebuild allocate 4 GiB.
#[test]
fn convert_refuses_corrupt_section_alignment() {
    let Some(reference) = support::reference_dir() else { return };
    let mut bytes = std::fs::read(reference.join("llc19/sm_example_x86_64.o")).unwrap();
    let index = {
        let obj = object::File::parse(&*bytes).unwrap();
        obj.section_by_name(".note.GNU-stack").unwrap().index().0
    };
    let shoff = u64::from_le_bytes(bytes[0x28..0x30].try_into().unwrap()) as usize;
    let align = shoff + index * 64 + 48;
    bytes[align..align + 8].copy_from_slice(&(1u64 << 32).to_le_bytes());
    let err = object_file::convert(&bytes, 1).unwrap_err();
    assert!(matches!(err, stackmap::Error::UnsupportedElf { .. }), "{err}");
    assert!(err.to_string().starts_with(&format!("at byte {align}: ")), "{err}");
}

/// Found by fuzzing: `.gnu.hash` headers that `object`'s ELF writer cannot rewrite (a bloom count of
/// zero underflowed its mask and panicked; a huge count or a shift of 32 or more would too).
#[test]
fn convert_refuses_corrupt_gnu_hash_header() {
    let Some(reference) = support::reference_dir() else { return };
    let original = std::fs::read(reference.join("llc19/linked/linked.x86_64")).unwrap();
    let header = {
        let obj = object::File::parse(&*original).unwrap();
        obj.section_by_name(".gnu.hash").unwrap().file_range().unwrap().0 as usize
    };
    // Header words: bucket count, symbol base, bloom count, bloom shift.
    for (word, value) in [(2, 0u32), (2, 3), (2, 1 << 30), (3, 32)] {
        let mut bytes = original.clone();
        let at = header + 4 * word;
        bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
        let err = object_file::convert(&bytes, 1).unwrap_err();
        assert!(matches!(err, stackmap::Error::UnsupportedElf { .. }), "word {word} = {value}: {err}");
        // At the bloom count, the header's third word.
        assert!(err.to_string().starts_with(&format!("at byte {}: ", header + 8)), "{err}");
    }
}

/// Little-endian ELF64 fields of an object, for mutating it.
struct Elf64<'a>(&'a [u8]);

impl Elf64<'_> {
    fn u(&self, at: usize, size: usize) -> u64 {
        self.0[at..at + size].iter().rev().fold(0, |v, &b| v << 8 | u64::from(b))
    }
    fn shoff(&self) -> usize {
        self.u(0x28, 8) as usize
    }
    /// The offset of section header `index`.
    fn header(&self, index: usize) -> usize {
        self.shoff() + index * 64
    }
    fn index(&self, name: &str) -> usize {
        object::File::parse(self.0).unwrap().section_by_name(name).unwrap().index().0
    }
    fn offset(&self, name: &str) -> usize {
        self.u(self.header(self.index(name)) + 24, 8) as usize
    }
}

fn set(bytes: &mut [u8], at: usize, value: u64, size: usize) {
    bytes[at..at + size].copy_from_slice(&value.to_le_bytes()[..size]);
}

/// Errors about malformed objects name the byte offset of the wrong field: the header's, a section
/// header's, a symbol's, a relocation's. One mutation per field, on objects for both targets, through
/// `dump` and `convert` (whose ELF rebuild reads more of the file); then every byte of the object
/// changed in turn gives no object error without an offset.
#[test]
fn malformed_object_errors_name_the_byte_offset() {
    let module =
        patchmap::ir::parse_file(&Path::new(env!("CARGO_MANIFEST_DIR")).join("ir-examples/sm_loop.ll")).unwrap();
    for arch in support::Arch::ALL {
        let options = patchmap::compile::Options::new(Some(arch.triple()), "speed", 3).unwrap();
        let original = patchmap::emit::object::compile(&module, &options).unwrap();
        let elf = Elf64(&original);
        let shnum = elf.u(0x3c, 2) as usize;
        let rela = elf.index(".rela.llvm_stackmaps");
        let symtab = elf.index(".symtab");
        let text = elf.index(".text");
        let first_symbol = elf.offset(".symtab") + 24;
        let first_relocation = elf.offset(".rela.llvm_stackmaps");
        let cases: Vec<(&str, usize, u64, usize, usize, &str)> = vec![
            // (what, where, value, size, expected offset, words of the message)
            ("EI_CLASS", 4, 7, 1, 4, "EI_CLASS"),
            ("EI_DATA", 5, 0, 1, 5, "EI_DATA"),
            ("e_shentsize", 0x3a, 40, 2, 0x3a, "e_shentsize 40"),
            ("e_shoff", 0x28, original.len() as u64 - 64, 8, 0x28, "end past the end of the file"),
            ("e_shstrndx", 0x3e, shnum as u64, 2, 0x3e, "e_shstrndx"),
            ("sh_offset", elf.header(text) + 24, 1 << 40, 8, elf.header(text) + 24, "end past the end"),
            ("sh_name", elf.header(text), 1 << 20, 4, elf.header(text), "sh_name"),
            ("sh_type", elf.header(text) + 4, 0x6fff_1234, 4, elf.header(text) + 4, "sh_type 0x6fff1234"),
            ("sh_link", elf.header(rela) + 40, 500, 4, elf.header(rela) + 40, "sh_link 500"),
            ("sh_info", elf.header(rela) + 44, 500, 4, elf.header(rela) + 44, "sh_info 500"),
            ("symtab sh_size", elf.header(symtab) + 32, 25, 8, elf.header(symtab) + 32, "whole number of symbols"),
            ("st_name", first_symbol, 1 << 20, 4, first_symbol, "st_name"),
            ("symtab sh_link", elf.header(symtab) + 40, 0, 4, elf.header(symtab) + 40, "no string table"),
            ("st_shndx", first_symbol + 6, 700, 2, first_symbol + 6, "st_shndx 700"),
            ("r_info", first_relocation + 12, 32767, 4, first_relocation + 8, "symbol 32767"),
        ];
        for (what, at, value, size, expected, words) in cases {
            let mut bytes = original.clone();
            set(&mut bytes, at, value, size);
            let mut out = Vec::new();
            let errors = [
                object_file::dump(&bytes, true, &mut out).err(),
                object_file::convert(&bytes, 2).err(),
                object_file::convert(&bytes, 1).err(),
            ];
            let messages: Vec<String> = errors.into_iter().flatten().map(|e| e.to_string()).collect();
            assert!(!messages.is_empty(), "{arch:?} {what}: accepted");
            for m in &messages {
                assert!(m.starts_with(&format!("at byte {expected}: ")) && m.contains(words), "{arch:?} {what}: {m}");
            }
        }
        // Truncated inside the header: at the end of the file.
        let err = object_file::dump(&original[..20], false, &mut Vec::new()).unwrap_err().to_string();
        assert!(err.starts_with("at byte 20: "), "{err}");

        for at in 0..original.len() {
            for change in [0xffu8, 1] {
                let mut bytes = original.clone();
                bytes[at] = bytes[at].wrapping_add(change);
                let mut out = Vec::new();
                let errors = [
                    object_file::dump(&bytes, true, &mut out).err(),
                    object_file::convert(&bytes, 2).err(),
                    object_file::convert(&bytes, 1).err(),
                ];
                for e in errors.into_iter().flatten() {
                    let located =
                        !matches!(e, stackmap::Error::ObjectUnlocated(_) | stackmap::Error::BuildUnlocated(_));
                    assert!(located, "{arch:?} byte {at} + {change:#x}: {e}");
                }
            }
        }
    }
}
