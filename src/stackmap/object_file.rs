//! Finding, dumping and converting the stack map section of object files, executables and shared
//! libraries.
//!
//! The section is `.llvm_stackmaps` in ELF and COFF and `__LLVM_STACKMAPS,__llvm_stackmaps` in Mach-O.
//! [`dump`] prints every blob of every such section in llvm-readobj's format; [`convert`] rewrites the
//! section of an ELF file in another version, moving the function-address relocations with their fields.

use std::collections::HashMap;
use std::io::Write;

use object::build::elf::SectionData;
use object::read::{Object, ObjectSection, ObjectSymbol, RelocationTarget};
use object::{FileKind, SectionKind, SymbolKind};

use super::model::{Endian, StackMap, Version};
use super::read::{parse_section, StackMapView};
use super::{print_with_symbols, Error, Result};

/// ELF and COFF section name.
pub const SECTION_NAME: &str = ".llvm_stackmaps";
/// Mach-O segment name.
pub const MACHO_SEGMENT_NAME: &str = "__LLVM_STACKMAPS";
/// Mach-O section name.
pub const MACHO_SECTION_NAME: &str = "__llvm_stackmaps";

fn is_stack_map_section<'data>(section: &impl ObjectSection<'data>) -> bool {
    match section.segment_name() {
        Ok(Some(segment)) if !segment.is_empty() => {
            segment == MACHO_SEGMENT_NAME && section.name() == Ok(MACHO_SECTION_NAME)
        }
        _ => section.name() == Ok(SECTION_NAME),
    }
}

fn file_endian(file: &object::File<'_>) -> Endian {
    if file.is_little_endian() {
        Endian::Little
    } else {
        Endian::Big
    }
}

/// A function's symbol, as far as the file tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionSymbol {
    /// The symbol's name, or `section+0xoffset` when no symbol names the location.
    pub name: String,
    /// The symbol's size (ELF `st_size`), if known and non-zero.
    pub size: Option<u64>,
}

/// Names the function of every function record of `view` (a blob of `section`): by the relocation on
/// its address field (relocatable objects: a function symbol, or a section symbol plus addend for local
/// functions), otherwise by looking its address up among the file's symbols (linked files).
pub fn function_symbols<'data>(
    file: &object::File<'data>,
    section: &object::Section<'data, '_>,
    view: &StackMapView<'_>,
) -> Vec<Option<FunctionSymbol>> {
    named_functions(file, section, view, &symbols_by_address(file))
}

/// [`function_symbols`] with the address map built once per file.
fn named_functions<'data>(
    file: &object::File<'data>,
    section: &object::Section<'data, '_>,
    view: &StackMapView<'_>,
    by_address: &HashMap<u64, FunctionSymbol>,
) -> Vec<Option<FunctionSymbol>> {
    let relocations: HashMap<u64, object::Relocation> = section.relocations().collect();
    view.functions()
        .enumerate()
        .map(|(i, function)| {
            let field = view.function_address_offset(i) as u64;
            match relocations.get(&field) {
                Some(reloc) => relocation_symbol(file, reloc, function.address, by_address),
                None => by_address.get(&function.address).cloned(),
            }
        })
        .collect()
}

/// Function symbols by address (the first named text symbol at each address, globals preferred).
fn symbols_by_address(file: &object::File<'_>) -> HashMap<u64, FunctionSymbol> {
    let mut map: HashMap<u64, (bool, FunctionSymbol)> = HashMap::new();
    for symbol in file.symbols().chain(file.dynamic_symbols()) {
        if symbol.kind() != SymbolKind::Text || !symbol.is_definition() {
            continue;
        }
        let Ok(name) = symbol.name() else { continue };
        if name.is_empty() {
            continue;
        }
        let entry = (symbol.is_global(), FunctionSymbol { name: name.to_owned(), size: nonzero(symbol.size()) });
        match map.get(&symbol.address()) {
            Some((global, _)) if *global || !entry.0 => {}
            _ => {
                map.insert(symbol.address(), entry);
            }
        }
    }
    map.into_iter().map(|(address, (_, symbol))| (address, symbol)).collect()
}

fn nonzero(size: u64) -> Option<u64> {
    (size != 0).then_some(size)
}

/// The function a function-address relocation points at (`field` is the address field's contents).
///
/// A sized function symbol with no addend names itself. Any other form — a section symbol plus addend
/// (llc's form for `internal` functions), an unsized label, a symbol plus addend, a Mach-O section
/// relocation — gives a place in a section, named by the text symbol defined there (the sized one
/// first, since its size bounds the function's records), else by the label, else as `section+offset`.
fn relocation_symbol(
    file: &object::File<'_>,
    reloc: &object::Relocation,
    field: u64,
    by_address: &HashMap<u64, FunctionSymbol>,
) -> Option<FunctionSymbol> {
    // Mach-O and COFF keep the addend in the field itself.
    let addend = if reloc.has_implicit_addend() { reloc.addend().wrapping_add(field as i64) } else { reloc.addend() };
    let (section_index, address, label) = match reloc.target() {
        RelocationTarget::Symbol(index) => {
            let symbol = file.symbol_by_index(index).ok()?;
            let label = if symbol.kind() == SymbolKind::Section {
                None
            } else {
                let name = symbol.name().ok()?.to_owned();
                let name = if addend == 0 { name } else { format!("{name}{addend:+#x}") };
                Some(FunctionSymbol { name, size: nonzero(symbol.size()).filter(|_| addend == 0) })
            };
            if label.as_ref().is_some_and(|l| l.size.is_some()) {
                return label;
            }
            match symbol.section_index() {
                Some(section) => (section, symbol.address().wrapping_add(addend as u64), label),
                None => return label.or_else(|| by_address.get(&(addend as u64)).cloned()),
            }
        }
        // Mach-O's non-external relocations: the field holds the target's address.
        RelocationTarget::Section(index) => (index, addend as u64, None),
        RelocationTarget::Absolute => return by_address.get(&(addend as u64)).cloned(),
        _ => return None,
    };
    let section = file.section_by_index(section_index).ok()?;
    let defined_here = file
        .symbols()
        .filter(|s| s.section_index() == Some(section_index) && s.address() == address && s.kind() == SymbolKind::Text);
    let mut best: Option<FunctionSymbol> = None;
    for symbol in defined_here {
        let Ok(name) = symbol.name() else { continue };
        if best.as_ref().is_none_or(|b| b.size.is_none() && symbol.size() != 0) {
            best = Some(FunctionSymbol { name: name.to_owned(), size: nonzero(symbol.size()) });
        }
    }
    best.or_else(|| by_address.get(&address).cloned()).or(label).or_else(|| {
        let offset = address.wrapping_sub(section.address());
        Some(FunctionSymbol { name: format!("{}+{offset:#x}", section.name().ok()?), size: None })
    })
}

/// Prints every stack map blob of `bytes` (an ELF, Mach-O or COFF object, executable or shared library)
/// as `llvm-readobj --stackmap` prints the first one, without its file preamble.
///
/// A single blob prints exactly llvm-readobj's block. Each further blob (linked files hold one per
/// linked object) follows after a line `Stack map blob <n> at <section> offset <offset>:` so the first
/// block still matches llvm-readobj. With `symbols`, each function line is followed by
/// `    Symbol: <name>` (see [`function_symbols`]).
pub fn dump(bytes: &[u8], symbols: bool, out: &mut dyn Write) -> Result<()> {
    let file = object::File::parse(bytes).map_err(|e| Error::object(bytes, e))?;
    let endian = file_endian(&file);
    let mut found = false;
    let mut blob_number = 0;
    let by_address = if symbols { symbols_by_address(&file) } else { HashMap::new() };
    for section in file.sections().filter(is_stack_map_section) {
        found = true;
        let data = section.data().map_err(|e| Error::object(bytes, e))?;
        let name = section.name().unwrap_or(SECTION_NAME);
        for view in parse_section(data, endian)? {
            blob_number += 1;
            if blob_number > 1 {
                writeln!(out, "Stack map blob {blob_number} at {name} offset {}:", view.range().start)?;
            }
            let names: Vec<Option<String>> = if symbols {
                named_functions(&file, &section, &view, &by_address).into_iter().map(|s| s.map(|s| s.name)).collect()
            } else {
                Vec::new()
            };
            print_with_symbols(&view, &names, out)?;
        }
    }
    if found {
        Ok(())
    } else {
        Err(Error::NoStackMapSection)
    }
}

/// How a reader splits a v1 blob's records between its functions when several splits fit (v1 does
/// not store which records a function has; see [`StackMap::derive_record_counts`]). An unambiguous
/// split is taken whatever this says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum V1Split {
    /// Refuse an ambiguous split: [`Error::AmbiguousRecordSplit`], naming the records in question
    /// and the functions that can hold each.
    #[default]
    Refuse,
    /// Take the likeliest split ([`StackMap::derive_record_counts`]'s choice).
    Likeliest,
    /// The record counts, one per function of every v1 blob in section order, checked against the
    /// layout rules ([`StackMap::set_record_counts`]). Blobs of other versions take none.
    Counts(Vec<u64>),
}

/// The blobs of the stack map section of an object, as owned models, with the section's byte order.
/// v1 blobs get record counts derived from the functions' symbol sizes; an ambiguous split is an error
/// (see [`blob_models`]; [`read_models_with`] accepts a stated choice).
pub fn read_models(bytes: &[u8]) -> Result<(Vec<StackMap>, Endian)> {
    read_models_with(bytes, &V1Split::Refuse)
}

/// [`read_models`], splitting v1 blobs' records as `split` says.
pub fn read_models_with(bytes: &[u8], split: &V1Split) -> Result<(Vec<StackMap>, Endian)> {
    let file = object::File::parse(bytes).map_err(|e| Error::object(bytes, e))?;
    let section = file.sections().find(is_stack_map_section).ok_or(Error::NoStackMapSection)?;
    let data = section.data().map_err(|e| Error::object(bytes, e))?;
    let endian = file_endian(&file);
    Ok((blob_models(&file, &section, &parse_section(data, endian)?, split)?, endian))
}

/// The owned models of parsed blobs. For v1 blobs, which do not store per-function record counts, the
/// counts are derived with [`StackMap::derive_record_counts`] from the sizes of the functions' symbols
/// (found as [`function_symbols`] does; a function without a known size is unconstrained). When several
/// splits fit, `split` decides: an error naming the records and their candidate functions, the
/// likeliest split, or the stated counts.
pub fn blob_models(
    file: &object::File<'_>,
    section: &object::Section<'_, '_>,
    views: &[StackMapView<'_>],
    split: &V1Split,
) -> Result<Vec<StackMap>> {
    let by_address = symbols_by_address(file);
    let mut stated = match split {
        V1Split::Counts(counts) => Some(counts.as_slice()),
        _ => None,
    };
    let mut models = Vec::with_capacity(views.len());
    for view in views {
        let mut model = view.to_model();
        if view.version() == Version::V1 {
            let symbols = named_functions(file, section, view, &by_address);
            let sizes: Vec<u64> = symbols.iter().map(|s| s.as_ref().and_then(|s| s.size).unwrap_or(u64::MAX)).collect();
            if let Some(counts) = stated.as_mut() {
                let n = model.functions.len().min(counts.len());
                model.set_record_counts(&counts[..n], &sizes)?;
                *counts = &counts[n..];
            } else {
                match model.derive_record_counts(&sizes) {
                    Ok(()) => {}
                    Err(Error::AmbiguousRecordCounts) if *split == V1Split::Likeliest => {}
                    Err(Error::AmbiguousRecordCounts) => {
                        return Err(ambiguous_split(&model, view, &symbols, &sizes));
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        models.push(model);
    }
    if let Some(rest) = stated.filter(|rest| !rest.is_empty()) {
        return Err(Error::StatedRecordCounts {
            reason: format!("{} more counts than the v1 blobs have functions", rest.len()),
        });
    }
    Ok(models)
}

/// The error for a v1 blob whose records fit several splits (`model` holds the likeliest's counts).
fn ambiguous_split(
    model: &StackMap,
    view: &StackMapView<'_>,
    symbols: &[Option<FunctionSymbol>],
    sizes: &[u64],
) -> Error {
    let name = |f: usize| match &symbols[f] {
        Some(symbol) => format!("{} (function {f})", symbol.name),
        None => format!("function {f} at {:#x}", model.functions[f].address),
    };
    let records = match model.ambiguous_records(sizes) {
        Ok(ambiguous) => {
            // A long list says nothing more than its start.
            const SHOWN: usize = 8;
            let mut words: Vec<String> = ambiguous
                .iter()
                .take(SHOWN)
                .map(|a| {
                    let r = &model.records[a.record];
                    let functions: Vec<String> = a.functions.iter().map(|&f| name(f)).collect();
                    format!(
                        "record {} (ID {}, offset {}) can belong to {}",
                        a.record,
                        r.id,
                        r.instruction_offset,
                        functions.join(" or ")
                    )
                })
                .collect();
            if ambiguous.len() > SHOWN {
                words.push(format!("and {} more records", ambiguous.len() - SHOWN));
            }
            words.join("; ")
        }
        Err(e) => e.to_string(),
    };
    let likeliest: Vec<String> = model.functions.iter().map(|f| f.record_count.to_string()).collect();
    Error::AmbiguousRecordSplit { offset: view.range().start, records, likeliest: likeliest.join(",") }
}

/// Rewrites the stack map section of an ELF file in `version` (1, 2 or 3), keeping everything else:
/// [`convert_to`] with the version of that number.
pub fn convert(bytes: &[u8], version: u8) -> Result<Vec<u8>> {
    let version = Version::from_byte(version).ok_or(Error::InvalidTargetVersion(version))?;
    convert_to(bytes, version)
}

/// [`convert_to`], splitting v1 blobs' records between their functions as `split` says.
pub fn convert_with(bytes: &[u8], version: Version, split: &V1Split) -> Result<Vec<u8>> {
    match FileKind::parse(bytes).map_err(|e| Error::object(bytes, e))? {
        FileKind::Elf32 | FileKind::Elf64 => convert_elf(bytes, version, split),
        FileKind::MachO32 | FileKind::MachO64 | FileKind::MachOFat32 | FileKind::MachOFat64 => {
            Err(Error::UnsupportedConvertFormat { format: "Mach-O" })
        }
        FileKind::Coff | FileKind::CoffBig | FileKind::CoffImport => {
            Err(Error::UnsupportedConvertFormat { format: "COFF" })
        }
        _ => Err(Error::UnsupportedConvertFormat { format: "this kind of" }),
    }
}

/// Rewrites the stack map section of an ELF file in `version`, keeping everything else.
///
/// The function-address relocations move with their fields (section offset `16 + i·16` in v1,
/// `16 + i·24` in v2/v3 from each blob's start). v1 record counts are derived as [`blob_models`]
/// describes: a split several layouts fit is an error ([`convert_with`] accepts a stated choice). When the new section has the same size and the relocations keep their offsets, the
/// section bytes are replaced in place and the rest of the file is untouched; otherwise the file is
/// rebuilt with `object::build::elf` (relocatable objects; an executable whose section would change
/// size fails, because its segments fix the section offsets). Mach-O and COFF give
/// [`Error::UnsupportedConvertFormat`].
///
/// Converting from the frame-table layout ([`Version::FrameTable`]) to 1, 2 or 3 drops what only it holds
/// (function sizes, frame flags and registers, call sizes, live-out flags). Converting to it needs that
/// information, which a v1, v2 or v3 section does not hold: [`Error::FrameTableUnknown`]. Function sizes
/// could be taken from the symbol table, but frame flags, the frame base register, the saved registers
/// and call sizes cannot, so such a conversion is refused rather than written with invented values.
pub fn convert_to(bytes: &[u8], version: Version) -> Result<Vec<u8>> {
    convert_with(bytes, version, &V1Split::Refuse)
}

/// Largest section alignment a rebuild accepts: the builder pads to it, so a corrupt value would make it
/// write gigabytes of zeros.
const MAX_REBUILD_ALIGN: u64 = 1 << 24;

/// Refuses ELF files whose rebuild would be absurdly large (corrupt alignments or offsets). The
/// builder keeps the file's sections in order, without section 0.
fn check_rebuild_size(builder: &object::build::elf::Builder<'_>, bytes: &[u8]) -> Result<()> {
    use super::malformed::{section_field, SectionField};
    let input_len = bytes.len();
    for (i, s) in builder.sections.iter().enumerate() {
        let name = String::from_utf8_lossy(s.name.as_slice());
        let field = |field| section_field(bytes, i + 1, field).unwrap_or(0);
        if s.sh_addralign > MAX_REBUILD_ALIGN {
            return Err(Error::UnsupportedElf {
                offset: field(SectionField::Align),
                reason: format!("section {name} has alignment {:#x}", s.sh_addralign),
            });
        }
        // With segments the builder keeps alloc sections at their file offsets.
        if !builder.segments.is_empty()
            && s.is_alloc()
            && s.sh_type != object::elf::SHT_NOBITS
            && s.sh_offset > input_len as u64
        {
            return Err(Error::UnsupportedElf {
                offset: field(SectionField::Offset),
                reason: format!("section {name} starts past the end of the file"),
            });
        }
        // The builder rewrites `.gnu.hash` from its header: a bloom count that is not a power of two (zero
        // underflows its mask), larger than the file could hold (the filter is allocated), or a shift past
        // a 32-bit hash makes `object` panic or allocate without bound.
        let (count, shift) = (builder.gnu_hash_bloom_count, builder.gnu_hash_bloom_shift);
        if matches!(s.data, SectionData::GnuHash)
            && (!count.is_power_of_two() || u64::from(count) * 8 > input_len as u64 || shift >= 32)
        {
            return Err(Error::UnsupportedElf {
                // The header's bloom count (its third word).
                offset: s.sh_offset + 8,
                reason: format!("section {name} has bloom count {count} and shift {shift}"),
            });
        }
    }
    Ok(())
}

fn convert_elf(bytes: &[u8], version: Version, split: &V1Split) -> Result<Vec<u8>> {
    let file = object::File::parse(bytes).map_err(|e| Error::object(bytes, e))?;
    let section = file.sections().find(is_stack_map_section).ok_or(Error::NoStackMapSection)?;
    if section.kind() == SectionKind::UninitializedData {
        return Err(Error::NoSectionData);
    }
    let data = section.data().map_err(|e| Error::object(bytes, e))?;
    let endian = file_endian(&file);
    let views = parse_section(data, endian)?;
    if version == Version::FrameTable {
        if let Some(view) = views.iter().find(|v| v.version() != Version::FrameTable) {
            return Err(Error::FrameTableUnknown {
                from: view.version(),
                missing: "frame flags, the frame base register, the saved frame registers or call sizes \
                          (function sizes alone could come from the symbol table)",
            });
        }
    }
    let models = blob_models(&file, &section, &views, split)?;

    // New section bytes, and where each function-address field moves.
    let mut new_data = Vec::new();
    let mut moved: HashMap<u64, u64> = HashMap::new();
    for (view, model) in views.iter().zip(&models) {
        let new_start = new_data.len().next_multiple_of(8);
        model.write_into(version, endian, &mut new_data)?;
        let functions_at = new_start + model.function_table_offset(version);
        for i in 0..model.functions.len() {
            let old = view.function_address_offset(i) as u64;
            let new = (functions_at + i * version.function_record_size()) as u64;
            moved.insert(old, new);
        }
    }
    for (offset, _) in section.relocations() {
        if !moved.contains_key(&offset) {
            return Err(Error::UnexpectedRelocation { offset });
        }
    }

    let relocations_stay = moved.iter().all(|(old, new)| old == new);
    if new_data.len() == data.len() && relocations_stay {
        if let Some((start, len)) = section.file_range() {
            let mut out = bytes.to_vec();
            if let Some(slot) = out.get_mut(start as usize..(start + len) as usize) {
                slot.copy_from_slice(&new_data);
                return Ok(out);
            }
        }
    }

    let mut builder = object::build::elf::Builder::read(bytes).map_err(|e| Error::build(bytes, e))?;
    // LLVM shares one string table between section and symbol names; the builder keeps it for the
    // symbols and needs a section-name table of its own.
    if !builder.sections.iter().any(|s| matches!(s.data, SectionData::SectionString)) {
        let shstrtab = builder.sections.add();
        shstrtab.name = b".shstrtab"[..].into();
        shstrtab.sh_type = object::elf::SHT_STRTAB;
        shstrtab.sh_addralign = 1;
        shstrtab.data = SectionData::SectionString;
    }
    let id = builder
        .sections
        .iter()
        .find(|s| s.name.as_slice() == SECTION_NAME.as_bytes())
        .map(|s| s.id())
        .ok_or(Error::NoStackMapSection)?;
    for s in builder.sections.iter_mut() {
        if s.sh_info_section != Some(id) {
            continue;
        }
        if let SectionData::Relocation(relocations) = &mut s.data {
            for r in relocations.iter_mut() {
                r.r_offset = *moved.get(&r.r_offset).ok_or(Error::UnexpectedRelocation { offset: r.r_offset })?;
            }
        }
    }
    check_rebuild_size(&builder, bytes)?;
    let stack_maps = builder.sections.get_mut(id);
    stack_maps.sh_size = new_data.len() as u64;
    stack_maps.data = SectionData::Data(new_data.into());
    let mut out = Vec::new();
    builder.write(&mut out).map_err(|e| Error::build(bytes, e))?;
    Ok(out)
}
