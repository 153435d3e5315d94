//! Where a malformed object file is wrong. The `object` crate's errors say what it could not read but
//! not where; [`locate`] walks an ELF file's structure as `object` reads it (identification, header,
//! section table, section names and contents, symbol tables, relocations) and returns the first field
//! that is wrong, by its byte offset in the file.

/// A wrong field: its byte offset in the file and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// The field's byte offset from the start of the file.
    pub offset: u64,
    /// The field and what is wrong with it, e.g. "sh_link 255 of section 3 is past the 12 sections".
    pub field: String,
}

const SHF_ALLOC: u64 = 2;
const SHT_SYMTAB: u32 = 2;
const SHT_STRTAB: u32 = 3;
const SHT_RELA: u32 = 4;
const SHT_NOBITS: u32 = 8;
const SHT_REL: u32 = 9;
const SHT_DYNSYM: u32 = 11;
const SHT_SYMTAB_SHNDX: u32 = 18;
const SHN_LORESERVE: u64 = 0xff00;
const SHN_XINDEX: u64 = 0xffff;

/// The place of the problem behind `message` (an `object` error about `bytes`). A file too short for
/// its magic, or with an unknown magic, is wrong at byte 0; an ELF file at the first field found
/// wrong, preferring the section a message names (`... at index N`). `None` for errors deeper in a
/// Mach-O or COFF file.
pub fn locate(bytes: &[u8], message: &str) -> Option<Fault> {
    if bytes.len() < 4 {
        return Some(Fault { offset: 0, field: format!("the file magic: the file has only {} bytes", bytes.len()) });
    }
    if &bytes[..4] != b"\x7fELF" {
        // Another format's magic, or none: wrong from byte 0. Deeper Mach-O and COFF errors are not
        // followed.
        let magic = message.contains("magic");
        return magic.then(|| Fault { offset: 0, field: "the file magic".to_string() });
    }
    match Elf::new(bytes) {
        Ok(elf) => elf.check(message).err(),
        Err(fault) => Some(fault),
    }
}

/// The byte offset of field `field` (`sh_offset`, `sh_addralign`) of section header `index` of the
/// ELF file `bytes`, whose section table `object` has read.
pub fn section_field(bytes: &[u8], index: usize, field: SectionField) -> Option<u64> {
    let elf = Elf::new(bytes).ok()?;
    let shoff = elf.word(elf.header_fields().0)?;
    let at = shoff.checked_add((index as u64).checked_mul(elf.section_header_size())?)?;
    Some(match (field, elf.is64) {
        (SectionField::Offset, true) => at + 24,
        (SectionField::Offset, false) => at + 16,
        (SectionField::Align, true) => at + 48,
        (SectionField::Align, false) => at + 32,
    })
}

/// A field of a section header, for [`section_field`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionField {
    /// `sh_offset`.
    Offset,
    /// `sh_addralign`.
    Align,
}

fn fault(offset: u64, field: String) -> Result<(), Fault> {
    Err(Fault { offset, field })
}

/// Bounds-checked reads of an ELF file of either class and byte order.
struct Elf<'a> {
    bytes: &'a [u8],
    is64: bool,
    little: bool,
}

/// One section header, read.
#[derive(Clone, Copy)]
struct Header {
    index: u64,
    at: u64,
    name: u64,
    kind: u32,
    offset: u64,
    size: u64,
    link: u64,
    info: u64,
}

impl<'a> Elf<'a> {
    /// The identification bytes, checked as `object` checks them.
    fn new(bytes: &'a [u8]) -> Result<Elf<'a>, Fault> {
        let is64 = match bytes.get(4) {
            Some(1) => false,
            Some(2) => true,
            other => {
                return Err(Fault {
                    offset: 4,
                    field: format!("EI_CLASS {other:?} is neither 1 (32-bit) nor 2 (64-bit)"),
                })
            }
        };
        let little = match bytes.get(5) {
            Some(1) => true,
            Some(2) => false,
            other => {
                return Err(Fault { offset: 5, field: format!("EI_DATA {other:?} is neither 1 (LSB) nor 2 (MSB)") })
            }
        };
        match bytes.get(6) {
            Some(1) => {}
            other => return Err(Fault { offset: 6, field: format!("EI_VERSION {other:?} is not 1") }),
        }
        Ok(Elf { bytes, is64, little })
    }

    fn uint(&self, at: u64, size: usize) -> Option<u64> {
        let start = usize::try_from(at).ok()?;
        let field = self.bytes.get(start..start.checked_add(size)?)?;
        let mut value = 0u64;
        for i in 0..size {
            let byte = if self.little { field[size - 1 - i] } else { field[i] };
            value = value << 8 | u64::from(byte);
        }
        Some(value)
    }

    /// A word: 8 bytes in ELF64, 4 in ELF32.
    fn word(&self, at: u64) -> Option<u64> {
        self.uint(at, if self.is64 { 8 } else { 4 })
    }

    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    fn header_size(&self) -> u64 {
        if self.is64 {
            64
        } else {
            52
        }
    }

    /// Offsets in the file header of e_shoff, e_shentsize, e_shnum, e_shstrndx.
    fn header_fields(&self) -> (u64, u64, u64, u64) {
        if self.is64 {
            (40, 58, 60, 62)
        } else {
            (32, 46, 48, 50)
        }
    }

    fn section_header_size(&self) -> u64 {
        if self.is64 {
            64
        } else {
            40
        }
    }

    /// Offsets in a section header of sh_offset, sh_size, sh_link, sh_info.
    fn section_fields(&self) -> (u64, u64, u64, u64) {
        if self.is64 {
            (24, 32, 40, 44)
        } else {
            (16, 20, 24, 28)
        }
    }

    fn symbol_size(&self) -> u64 {
        if self.is64 {
            24
        } else {
            16
        }
    }

    fn section(&self, table: u64, index: u64) -> Option<Header> {
        let at = table + index * self.section_header_size();
        let (offset, size, link, info) = self.section_fields();
        Some(Header {
            index,
            at,
            name: self.uint(at, 4)?,
            kind: self.uint(at + 4, 4)? as u32,
            offset: self.word(at + offset)?,
            size: self.word(at + size)?,
            link: self.uint(at + link, 4)?,
            info: self.uint(at + info, 4)?,
        })
    }

    /// Where a string starting at `offset` of `table` is not a NUL-terminated string in it.
    fn bad_string(&self, table: &Header, offset: u64) -> bool {
        let start = table.offset.saturating_add(offset);
        let end = table.offset.saturating_add(table.size).min(self.len());
        offset >= table.size || start >= end || !self.bytes[start as usize..end as usize].contains(&0)
    }

    fn check(&self, message: &str) -> Result<(), Fault> {
        if self.len() < self.header_size() {
            return fault(
                self.len(),
                format!("the ELF header ({} bytes) is cut short by the end of the file", self.header_size()),
            );
        }
        let (shoff_at, shentsize_at, shnum_at, shstrndx_at) = self.header_fields();
        let shoff = self.word(shoff_at).unwrap_or(0);
        if shoff == 0 {
            return Ok(());
        }
        let shentsize = self.uint(shentsize_at, 2).unwrap_or(0);
        if shentsize != self.section_header_size() {
            return fault(
                shentsize_at,
                format!("e_shentsize {shentsize} is not the section header size, {}", self.section_header_size()),
            );
        }
        let section_0 = self.section(shoff, 0);
        let (mut shnum, mut shnum_at) = (self.uint(shnum_at, 2).unwrap_or(0), shnum_at);
        if shnum == 0 {
            let Some(section_0) = section_0 else {
                return fault(shoff_at, format!("e_shoff {shoff}: section 0 lies past the end of the file"));
            };
            shnum = section_0.size;
            shnum_at = section_0.at + self.section_fields().1;
        }
        let end = shnum.checked_mul(shentsize).and_then(|size| size.checked_add(shoff));
        if end.is_none_or(|end| end > self.len()) {
            return fault(
                shoff_at,
                format!(
                    "e_shoff {shoff}: the {shnum} section headers (count at byte {shnum_at}) end past the end of \
                     the file ({} bytes)",
                    self.len()
                ),
            );
        }
        let sections: Vec<Header> = (0..shnum).filter_map(|i| self.section(shoff, i)).collect();
        let (offset_field, size_field, link_field, info_field) = self.section_fields();

        // A section a message names: the builder's errors say "at index N". Its sh_link or
        // relocations are looked at first; its type only if no field of the file is found wrong
        // (an unsupported string table may be one no symbol table links to any more).
        let mut named = None;
        if let Some(index) = message.rsplit_once("at index ").and_then(|(_, n)| n.trim().parse::<u64>().ok()) {
            if let Some(s) = sections.get(index as usize) {
                if message.contains("sh_link") {
                    return fault(s.at + link_field, format!("sh_link {} of section {index}", s.link));
                }
                if message.starts_with("Invalid symbol index") {
                    self.check_relocations(s, &sections)?;
                    let flags = self.word(s.at + 8).unwrap_or(0);
                    if flags & SHF_ALLOC != 0 {
                        return fault(
                            s.at + 8,
                            format!(
                                "sh_flags {flags:#x} of relocation section {index}: SHF_ALLOC makes its symbols \
                                 the dynamic ones"
                            ),
                        );
                    }
                }
                named = Some(Fault { offset: s.at + 4, field: format!("sh_type {:#x} of section {index}", s.kind) });
            }
        }
        if let Some(kind) = message
            .strip_prefix("Unsupported section type ")
            .or(message.strip_prefix("Unsupported non-alloc section type "))
        {
            if let Some(s) =
                u32::from_str_radix(kind.trim(), 16).ok().and_then(|k| sections.iter().find(|s| s.kind == k))
            {
                named =
                    Some(Fault { offset: s.at + 4, field: format!("sh_type {:#x} of section {}", s.kind, s.index) });
            }
        }

        let mut shstrndx = self.uint(shstrndx_at, 2).unwrap_or(0);
        let mut shstrndx_at = shstrndx_at;
        if shstrndx == SHN_XINDEX {
            if let Some(s) = sections.first() {
                shstrndx = s.link;
                shstrndx_at = s.at + link_field;
            }
        }
        if shstrndx == 0 || shstrndx >= shnum {
            return fault(shstrndx_at, format!("e_shstrndx {shstrndx} names none of the {shnum} sections"));
        }
        let names = sections[shstrndx as usize];
        if names.kind != SHT_STRTAB {
            return fault(names.at + 4, format!("sh_type {} of the section name table is not SHT_STRTAB", names.kind));
        }
        for s in &sections[1..] {
            if s.kind != SHT_NOBITS && s.offset.checked_add(s.size).is_none_or(|end| end > self.len()) {
                return fault(
                    s.at + offset_field,
                    format!(
                        "sh_offset {} and sh_size {} of section {} end past the end of the file",
                        s.offset, s.size, s.index
                    ),
                );
            }
        }
        for s in &sections[1..] {
            if self.bad_string(&names, s.name) {
                return fault(
                    s.at,
                    format!("sh_name {} of section {} is not a name in the section name table", s.name, s.index),
                );
            }
            if s.link >= shnum {
                return fault(
                    s.at + link_field,
                    format!("sh_link {} of section {} is past the {shnum} sections", s.link, s.index),
                );
            }
            if matches!(s.kind, SHT_SYMTAB | SHT_DYNSYM) {
                if s.size % self.symbol_size() != 0 {
                    return fault(
                        s.at + size_field,
                        format!("sh_size {} of symbol table {} is not a whole number of symbols", s.size, s.index),
                    );
                }
                if s.link != 0 && sections[s.link as usize].kind != SHT_STRTAB {
                    return fault(
                        s.at + link_field,
                        format!("sh_link {} of symbol table {} is not a string table", s.link, s.index),
                    );
                }
            }
            if matches!(s.kind, SHT_REL | SHT_RELA) {
                if s.info >= shnum || (s.info != 0 && matches!(sections[s.info as usize].kind, SHT_REL | SHT_RELA)) {
                    return fault(
                        s.at + info_field,
                        format!("sh_info {} of relocation section {} is not a section to relocate", s.info, s.index),
                    );
                }
                if s.link != 0 && !matches!(sections[s.link as usize].kind, SHT_SYMTAB | SHT_DYNSYM) {
                    return fault(
                        s.at + link_field,
                        format!("sh_link {} of relocation section {} is not a symbol table", s.link, s.index),
                    );
                }
                if s.size % self.relocation_size(s.kind) != 0 {
                    return fault(
                        s.at + size_field,
                        format!(
                            "sh_size {} of relocation section {} is not a whole number of entries",
                            s.size, s.index
                        ),
                    );
                }
            }
        }
        for s in sections.iter().filter(|s| matches!(s.kind, SHT_SYMTAB | SHT_DYNSYM)) {
            self.check_symbols(s, &sections)?;
        }
        for s in sections.iter().filter(|s| matches!(s.kind, SHT_REL | SHT_RELA)) {
            self.check_relocations(s, &sections)?;
        }
        named.map_or(Ok(()), Err)
    }

    /// Whether a section's contents do not lie within the file (found wrong elsewhere).
    fn past_the_end(&self, section: &Header) -> bool {
        section.offset.checked_add(section.size).is_none_or(|end| end > self.len())
    }

    fn relocation_size(&self, kind: u32) -> u64 {
        match (self.is64, kind == SHT_RELA) {
            (true, true) => 24,
            (true, false) => 16,
            (false, true) => 12,
            (false, false) => 8,
        }
    }

    /// Symbol names in the string table, section indices among the sections.
    fn check_symbols(&self, table: &Header, sections: &[Header]) -> Result<(), Fault> {
        let strings = sections.get(table.link as usize).filter(|_| table.link != 0);
        if self.past_the_end(table) {
            return Ok(());
        }
        let has_extended = sections.iter().any(|s| s.kind == SHT_SYMTAB_SHNDX && s.link == table.index);
        let shndx_field = if self.is64 { 6 } else { 14 };
        for i in 1..table.size / self.symbol_size() {
            let at = table.offset + i * self.symbol_size();
            let name = self.uint(at, 4).unwrap_or(0);
            match strings {
                Some(strings) if name != 0 && self.bad_string(strings, name) => {
                    return fault(
                        at,
                        format!("st_name {name} of symbol {i} of section {} is not a string", table.index),
                    );
                }
                None if name != 0 => {
                    return fault(
                        table.at + self.section_fields().2,
                        format!("sh_link 0 of symbol table {}: symbol {i} is named, with no string table", table.index),
                    );
                }
                _ => {}
            }
            let shndx = self.uint(at + shndx_field, 2).unwrap_or(0);
            if shndx == SHN_XINDEX && !has_extended {
                return fault(
                    at + shndx_field,
                    format!("st_shndx SHN_XINDEX of symbol {i} of section {} has no SHT_SYMTAB_SHNDX", table.index),
                );
            }
            if shndx < SHN_LORESERVE && shndx >= sections.len() as u64 {
                return fault(
                    at + shndx_field,
                    format!(
                        "st_shndx {shndx} of symbol {i} of section {} is past the {} sections",
                        table.index,
                        sections.len()
                    ),
                );
            }
        }
        Ok(())
    }

    /// Each relocation's symbol among its symbol table's.
    fn check_relocations(&self, table: &Header, sections: &[Header]) -> Result<(), Fault> {
        let symbols = match sections.get(table.link as usize).filter(|_| table.link != 0) {
            Some(symbols) => symbols.size / self.symbol_size(),
            None => 0,
        };
        if self.past_the_end(table) {
            return Ok(());
        }
        let entry = self.relocation_size(table.kind);
        let info_field = if self.is64 { 8 } else { 4 };
        for i in 0..table.size / entry {
            let at = table.offset + i * entry + info_field;
            let info = self.word(at).unwrap_or(0);
            let symbol = if self.is64 { info >> 32 } else { info >> 8 };
            if symbol != 0 && table.link == 0 {
                return fault(
                    table.at + self.section_fields().2,
                    format!("sh_link 0 of relocation section {}: relocation {i} names symbol {symbol}", table.index),
                );
            }
            if symbol != 0 && symbol >= symbols {
                return fault(
                    at,
                    format!(
                        "r_info of relocation {i} of section {}: symbol {symbol} is past the {symbols} symbols",
                        table.index
                    ),
                );
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal little-endian ELF64 file: header, then `sections` headers right after it.
    fn elf(sections: &[[u64; 6]]) -> Vec<u8> {
        let mut bytes = vec![0u8; 64];
        bytes[..7].copy_from_slice(b"\x7fELF\x02\x01\x01");
        bytes[0x28..0x30].copy_from_slice(&64u64.to_le_bytes());
        bytes[0x3a..0x3c].copy_from_slice(&64u16.to_le_bytes());
        bytes[0x3c..0x3e].copy_from_slice(&(sections.len() as u16).to_le_bytes());
        bytes[0x3e..0x40].copy_from_slice(&1u16.to_le_bytes());
        for &[name, kind, offset, size, link, info] in sections {
            let mut header = [0u8; 64];
            header[0..4].copy_from_slice(&(name as u32).to_le_bytes());
            header[4..8].copy_from_slice(&(kind as u32).to_le_bytes());
            header[24..32].copy_from_slice(&offset.to_le_bytes());
            header[32..40].copy_from_slice(&size.to_le_bytes());
            header[40..44].copy_from_slice(&(link as u32).to_le_bytes());
            header[44..48].copy_from_slice(&(info as u32).to_le_bytes());
            bytes.extend_from_slice(&header);
        }
        bytes
    }

    /// A relocation section that a message names, with a size far past the file, is looked at
    /// without walking its (absent) entries: the walk ends, at the size's field.
    #[test]
    fn a_huge_named_relocation_section_ends_the_walk() {
        let bytes = elf(&[[0; 6], [0, u64::from(SHT_STRTAB), 0, 1, 0, 0], [0, u64::from(SHT_RELA), 0, 1 << 62, 0, 0]]);
        let fault = locate(&bytes, "Invalid symbol index 5 in relocation section at index 2").unwrap();
        assert_eq!(fault.offset, 64 + 2 * 64 + 24, "{fault:?}");
    }
}
