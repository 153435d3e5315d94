//! Language-specific data areas (LSDAs) in `.gcc_except_table`: what `__gxx_personality_v0` reads
//! to decide where an exception unwinding through a function lands, in LLVM's layout.
//!
//! Each LSDA is a header (no LPStart: landing pads are relative to the function's start; the type
//! table's encoding and offset), a call-site table (uleb128) covering the whole function (each
//! `invoke`'s return address with its landing pad and first action, the code between with no
//! landing pad, so that unwinding goes on through plain calls rather than reaching
//! `std::terminate`), the action table (chains of selector values: type ids for catches, negative
//! offsets into the exception specifications for filters), the type table (references to type
//! information, PC-relative and indirect through a pointer in `.data.rel.ro`, as llc-19 writes them
//! for PIC) and the exception specifications (uleb128 type ids, each list ended by 0).

use std::collections::HashMap;

use cranelift_codegen::gimli::constants::{DW_EH_PE_indirect, DW_EH_PE_omit, DW_EH_PE_pcrel, DW_EH_PE_sdata4};

use crate::ir::GlobalId;
use crate::lower::exceptions::FunctionExceptions;

/// The type table's encoding: a 4-byte offset from the entry to a pointer to the type information.
pub const TTYPE_ENCODING: u8 = DW_EH_PE_indirect.0 | DW_EH_PE_pcrel.0 | DW_EH_PE_sdata4.0;
/// The call-site table's encoding.
const DW_EH_PE_ULEB128: u8 = 0x01;

/// One function's LSDA: its bytes and the type table entries that must point at type information.
#[derive(Clone, Debug, PartialEq)]
pub struct Lsda {
    /// The bytes, to be placed at a 4-byte aligned offset.
    pub bytes: Vec<u8>,
    /// Each type table entry's offset in `bytes`, with the type information it refers to: the
    /// entry holds the distance to a pointer to it.
    pub type_refs: Vec<(usize, GlobalId)>,
}

fn uleb(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn sleb(out: &mut Vec<u8>, mut v: i64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
        if done {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn uleb_size(v: u64) -> usize {
    let mut out = Vec::new();
    uleb(&mut out, v);
    out.len()
}

fn sleb_size(v: i64) -> usize {
    let mut out = Vec::new();
    sleb(&mut out, v);
    out.len()
}

/// The LSDA of a function whose code is `code_len` bytes long.
pub fn lsda(exceptions: &FunctionExceptions, code_len: u32) -> Lsda {
    let tables = &exceptions.tables;
    // A filter's selector is the negative offset of its list in the exception specifications, in
    // bytes from the type table's base, less one (LLVM's `FilterOffsets`).
    let mut filter_offsets = Vec::with_capacity(tables.filter_ids.len());
    let mut offset = -1i64;
    for &id in &tables.filter_ids {
        filter_offsets.push(offset);
        offset -= uleb_size(u64::from(id)) as i64;
    }
    let selector = |id: i32| -> i64 {
        if id < 0 {
            filter_offsets[(-1 - id) as usize]
        } else {
            i64::from(id)
        }
    };
    // The action table: one chain per landing pad, each record pointing back to the one before;
    // a landing pad starts at its last record (its first clause).
    let mut actions = Vec::new();
    let mut first_action: HashMap<crate::ir::InstId, u64> = HashMap::new();
    for landing in &exceptions.landings {
        if first_action.contains_key(&landing.pad) {
            continue;
        }
        let ids = tables.pads.get(&landing.pad).map(Vec::as_slice).unwrap_or_default();
        let mut previous: Option<usize> = None;
        for &id in ids {
            let start = actions.len();
            let value = selector(id);
            sleb(&mut actions, value);
            let next = match previous {
                // From this record's `next` field back to the previous record's start.
                Some(p) => -((actions.len() - p) as i64),
                None => 0,
            };
            sleb(&mut actions, next);
            previous = Some(start);
            debug_assert_eq!(sleb_size(value) + sleb_size(next), actions.len() - start);
        }
        // 0: cleanup only (no action); else one past the first record's offset.
        first_action.insert(landing.pad, previous.map_or(0, |p| p as u64 + 1));
    }
    // The call sites, covering the whole function in order.
    let mut sites = Vec::new();
    let mut covered = 0u32;
    let no_pad = |sites: &mut Vec<u8>, from: u32, to: u32| {
        if to > from {
            uleb(sites, u64::from(from));
            uleb(sites, u64::from(to - from));
            uleb(sites, 0);
            uleb(sites, 0);
        }
    };
    for landing in &exceptions.landings {
        // The personality looks up the return address less one: the call's last byte (or any
        // byte of a patch point's region, where a call written into it returns).
        let start = landing.start;
        no_pad(&mut sites, covered, start);
        uleb(&mut sites, u64::from(start));
        uleb(&mut sites, u64::from(landing.ret_addr - start));
        uleb(&mut sites, u64::from(landing.pad_offset));
        uleb(&mut sites, first_action[&landing.pad]);
        covered = landing.ret_addr;
    }
    no_pad(&mut sites, covered, code_len);

    let mut rest = vec![DW_EH_PE_ULEB128];
    uleb(&mut rest, sites.len() as u64);
    rest.extend_from_slice(&sites);
    rest.extend_from_slice(&actions);
    let mut specs = Vec::new();
    for &id in &tables.filter_ids {
        uleb(&mut specs, u64::from(id));
    }
    let types_len = 4 * tables.types.len();
    let mut bytes = vec![DW_EH_PE_omit.0];
    let mut type_refs = Vec::new();
    if tables.types.is_empty() && tables.filter_ids.is_empty() {
        bytes.push(DW_EH_PE_omit.0);
        bytes.extend_from_slice(&rest);
        return Lsda { bytes, type_refs };
    }
    bytes.push(TTYPE_ENCODING);
    // The type table's base is its end, 4-byte aligned: pad before the table, and find the
    // offset's own length by trying each.
    let (base_offset, padding) = (1..=5)
        .find_map(|size| {
            let before = bytes.len() + size + rest.len();
            let padding = (4 - before % 4) % 4;
            let value = (rest.len() + padding + types_len) as u64;
            (uleb_size(value) == size).then_some((value, padding))
        })
        .expect("an LSDA offset fits in 5 uleb128 bytes");
    uleb(&mut bytes, base_offset);
    bytes.extend_from_slice(&rest);
    bytes.resize(bytes.len() + padding, 0);
    // Type id N first, type id 1 just before the base.
    for info in tables.types.iter().rev() {
        if let Some(g) = info {
            type_refs.push((bytes.len(), *g));
        }
        bytes.extend_from_slice(&[0; 4]);
    }
    bytes.extend_from_slice(&specs);
    Lsda { bytes, type_refs }
}

/// LSDAs laid out in memory for code outside any object (the JIT), in one allocation that must
/// outlive the frames registered with them: each LSDA 4-byte aligned, then the pointers to type
/// information that their type tables reach indirectly and PC-relatively, as in objects.
pub struct LsdasInMemory {
    /// The LSDAs and the pointers; never read, only kept alive.
    _bytes: Box<[u8]>,
    /// Each LSDA's address, in the order given.
    pub addresses: Vec<u64>,
}

impl LsdasInMemory {
    /// Places `lsdas`; `typeinfo` gives the address of a type information global.
    pub fn place(lsdas: &[&Lsda], typeinfo: impl Fn(GlobalId) -> u64) -> LsdasInMemory {
        let mut types: Vec<GlobalId> = lsdas.iter().flat_map(|l| l.type_refs.iter().map(|&(_, g)| g)).collect();
        types.sort_unstable_by_key(|g| g.0);
        types.dedup();
        let lsda_len: usize = lsdas.iter().map(|l| l.bytes.len().next_multiple_of(4)).sum();
        // Room to align the start to 8 for the pointers after the LSDAs.
        let mut bytes = vec![0u8; 8 + lsda_len.next_multiple_of(8) + 8 * types.len()].into_boxed_slice();
        let base = bytes.as_ptr() as usize;
        let start = base.next_multiple_of(8) - base;
        let pointers = start + lsda_len.next_multiple_of(8);
        for (i, &g) in types.iter().enumerate() {
            bytes[pointers + 8 * i..][..8].copy_from_slice(&typeinfo(g).to_ne_bytes());
        }
        let mut addresses = Vec::with_capacity(lsdas.len());
        let mut at = start;
        for lsda in lsdas {
            bytes[at..at + lsda.bytes.len()].copy_from_slice(&lsda.bytes);
            for &(offset, g) in &lsda.type_refs {
                let pointer = pointers + 8 * types.binary_search_by_key(&g.0, |t| t.0).expect("collected above");
                // Within one allocation: the distance fits in 32 bits.
                let distance = (pointer as i64 - (at + offset) as i64) as i32;
                bytes[at + offset..][..4].copy_from_slice(&distance.to_ne_bytes());
            }
            addresses.push((base + at) as u64);
            at += lsda.bytes.len().next_multiple_of(4);
        }
        LsdasInMemory { _bytes: bytes, addresses }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::InstId;
    use crate::lower::exceptions::{ExceptionTables, Landing};

    #[test]
    fn catches_chain_from_the_first_clause_and_calls_between_have_no_pad() {
        // `catch @a, catch null` on one pad (type ids: null 1, @a 2), cleanup alone on another.
        let mut tables = ExceptionTables { types: vec![None, Some(GlobalId(7))], ..Default::default() };
        tables.pads.insert(InstId(3), vec![1, 2]);
        tables.pads.insert(InstId(9), vec![]);
        let landings = vec![
            Landing { start: 9, ret_addr: 10, pad_offset: 40, pad: InstId(3) },
            Landing { start: 19, ret_addr: 20, pad_offset: 50, pad: InstId(9) },
        ];
        let l = lsda(&FunctionExceptions { tables, landings }, 64);
        let sites = [0, 9, 0, 0, 9, 1, 40, 3, 10, 9, 0, 0, 19, 1, 50, 0, 20, 44, 0, 0];
        let mut expected = vec![0xff, TTYPE_ENCODING];
        // Base: call-site encoding, length, sites, 4 action bytes, 3 padding, 8 type bytes.
        expected.push((2 + sites.len() + 4 + 3 + 8) as u8);
        expected.extend_from_slice(&[1, sites.len() as u8]);
        expected.extend_from_slice(&sites);
        // Record 1: type 1, end; record 2: type 2, back 3 bytes to record 1 (0x7d).
        expected.extend_from_slice(&[1, 0, 2, 0x7d]);
        expected.extend_from_slice(&[0, 0, 0]);
        expected.extend_from_slice(&[0; 8]);
        assert_eq!(l.bytes, expected);
        assert_eq!(expected.len() % 4, 0);
        assert_eq!(l.type_refs, vec![(expected.len() - 8, GlobalId(7))]);
    }

    #[test]
    fn filters_are_negative_offsets_into_the_specifications() {
        let mut tables =
            ExceptionTables { types: vec![Some(GlobalId(1))], filter_ids: vec![1, 0], ..Default::default() };
        tables.pads.insert(InstId(0), vec![-1]);
        let landings = vec![Landing { start: 4, ret_addr: 5, pad_offset: 8, pad: InstId(0) }];
        let l = lsda(&FunctionExceptions { tables, landings }, 5);
        // The single action record: selector -1 (0x7f), end.
        let actions = l.bytes.windows(2).position(|w| w == [0x7f, 0]);
        assert!(actions.is_some(), "{:x?}", l.bytes);
        assert_eq!(&l.bytes[l.bytes.len() - 2..], &[1, 0]);
    }
}
