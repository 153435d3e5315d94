//! llc-19's statepoint rules as an oracle (the rules are written out in `tests/statepoints/llc.rs`): from
//! a program's text, the layout llc-19 gives each statepoint's record at -O0 and -O2 (which IR value
//! every location holds), the check of a record against it, and the comparisons of what the run-time
//! checker reads through two compilers' records.
//!
//! The text scanner expects one instruction per line, as `tests/generator/statepoint.rs` and the
//! `ir-examples/gc_*.ll` programs write them.

use std::collections::{HashMap, HashSet};

use patchmap::stackmap::{Location, LocationKind, Record, StackMap};

use super::checker::{normalize, LiveType, Normalized, RecordHit};

/// The ID llc-19 gives a call with a "deopt" bundle and no "statepoint-id" attribute.
pub const DEOPT_BUNDLE_ID: u64 = 0xABCD_EF0F;

/// The value llc-19 records for `undef` and `poison`.
pub const UNDEF: u64 = 0xFEFE_FEFE;

/// An operand as written: its type and its value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Operand {
    pub ty: String,
    pub value: String,
}

impl Operand {
    fn parse(text: &str) -> Operand {
        let text = text.trim();
        let (ty, value) = text.rsplit_once(' ').unwrap_or(("", text));
        Operand { ty: ty.trim().to_string(), value: value.to_string() }
    }

    /// A GC pointer for `gc "statepoint-example"`.
    pub fn is_gc(&self) -> bool {
        self.ty == "ptr addrspace(1)"
    }

    /// The 64-bit value llc-19 records for a constant operand (integers sign-extended from their
    /// width, floating-point bit patterns zero-extended, null 0, undef and poison 0xFEFEFEFE), or
    /// `None` for a value that is not a constant (an SSA value, a global's address).
    pub fn constant(&self) -> Option<u64> {
        let v = self.value.as_str();
        if v.starts_with('%') || v.starts_with('@') || v.starts_with('<') {
            return None;
        }
        match v {
            "undef" | "poison" => return Some(UNDEF),
            "null" => return Some(0),
            "true" => return Some(u64::MAX),
            "false" => return Some(0),
            _ => {}
        }
        match self.ty.as_str() {
            "double" => Some(parse_double(v)?.to_bits()),
            "float" => Some(u64::from((parse_double(v)? as f32).to_bits())),
            ty => {
                let bits: u32 = ty.strip_prefix('i')?.parse().ok()?;
                let n: i128 = v.parse().ok()?;
                let shift = 128 - bits;
                Some((((n << shift) >> shift) as i64) as u64)
            }
        }
    }

    /// The bytes of the value's spill slot (its store size).
    pub fn store_size(&self) -> u16 {
        match self.ty.as_str() {
            "i1" | "i8" => 1,
            "i16" => 2,
            "i32" | "float" => 4,
            "i128" => 16,
            ty if ty.starts_with('<') => {
                // <N x iM>
                let inner = ty.trim_matches(|c| c == '<' || c == '>');
                let (n, elem) = inner.split_once(" x ").unwrap_or(("1", "i64"));
                let n: u16 = n.trim().parse().unwrap_or(1);
                n * Operand { ty: elem.trim().into(), value: String::new() }.store_size()
            }
            _ => 8,
        }
    }
}

fn parse_double(v: &str) -> Option<f64> {
    match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok().map(f64::from_bits),
        None => v.parse().ok(),
    }
}

/// One `gc.relocate` of a statepoint.
#[derive(Clone, Debug)]
pub struct Relocate {
    pub name: String,
    pub base: usize,
    pub derived: usize,
    pub block: String,
}

/// A statepoint, or a call with a "deopt" bundle (which llc-19 lowers as one).
#[derive(Clone, Debug)]
pub struct Site {
    pub function: String,
    pub block: String,
    pub token: String,
    pub id: u64,
    pub cc: u64,
    pub flags: u64,
    pub patch_bytes: u64,
    pub deopt: Vec<Operand>,
    pub gc_live: Vec<Operand>,
    /// In textual order.
    pub relocates: Vec<Relocate>,
    /// A "deopt" bundle on an ordinary call rather than a gc.statepoint.
    pub bundle_call: bool,
}

/// What a record location holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Calling convention, flags, deopt count.
    Header(u64),
    Deopt(usize, Operand),
    Base(Operand, Operand),
    Derived(Operand, Operand),
    /// A gc-live alloca.
    Alloca(Operand),
}

impl Slot {
    /// A name for the location that does not depend on the optimisation level.
    pub fn key(&self, index: usize) -> String {
        match self {
            Slot::Header(_) => format!("header{index}"),
            Slot::Deopt(i, _) => format!("deopt{i}"),
            Slot::Base(b, d) => format!("pair {} {} base", b.value, d.value),
            Slot::Derived(b, d) => format!("pair {} {} derived", b.value, d.value),
            Slot::Alloca(a) => format!("alloca {}", a.value),
        }
    }
}

/// The GEP defining a pointer: its pointer operand and whether every index is a small constant (what
/// CodeGenPrepare's derived-pointer rewrite requires).
#[derive(Clone, Debug)]
struct Gep {
    pointer: String,
    small: bool,
}

/// A program's statepoints and what the rules need to know about its values.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub sites: Vec<Site>,
    geps: HashMap<(String, String), Gep>,
    /// Allocas by (function, name): their allocated size.
    allocas: HashMap<(String, String), u64>,
    /// The relocates CodeGenPrepare erases at -O1 and above, by (function, name).
    erased: HashSet<(String, String)>,
}

/// Splits at top-level commas.
fn split_top(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '<' | '{' => depth += 1,
            ')' | ']' | '>' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(text[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !text[start..].trim().is_empty() {
        parts.push(text[start..].trim().to_string());
    }
    parts
}

/// The text inside the parenthesis opening at `open`, and the index after the closing one.
fn parenthesised(text: &str, open: usize) -> (&str, usize) {
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return (&text[open + 1..open + i], open + i + 1);
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced parentheses in {text:?}");
}

fn bundle(line: &str, name: &str) -> Vec<Operand> {
    let tag = format!("\"{name}\"(");
    match line.find(&tag) {
        Some(at) => {
            let (inner, _) = parenthesised(line, at + tag.len() - 1);
            split_top(inner).iter().map(|op| Operand::parse(op)).collect()
        }
        None => Vec::new(),
    }
}

fn calling_convention(line: &str) -> u64 {
    let after = line.split_once("call ").map_or("", |(_, rest)| rest);
    if after.starts_with("fastcc ") {
        8
    } else if after.starts_with("coldcc ") {
        9
    } else if let Some(rest) = after.strip_prefix("cc ") {
        rest.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0)
    } else {
        0
    }
}

fn attribute(line: &str, name: &str) -> Option<u64> {
    let tag = format!("\"{name}\"=\"");
    let at = line.find(&tag)? + tag.len();
    line[at..].split('"').next()?.parse().ok()
}

fn alloca_size(ty: &str) -> u64 {
    let ty = ty.trim();
    if let Some(inner) = ty.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        let (n, elem) = inner.split_once(" x ").unwrap();
        return n.trim().parse::<u64>().unwrap() * alloca_size(elem);
    }
    u64::from(Operand { ty: ty.into(), value: String::new() }.store_size())
}

impl Program {
    pub fn parse(text: &str) -> Program {
        let mut program = Program::default();
        let (mut function, mut block) = (String::new(), String::new());
        for line in text.lines() {
            if line.starts_with("define ") {
                let at = line.find('@').unwrap();
                function = line[at..].split('(').next().unwrap().to_string();
                block = "entry".into();
                continue;
            }
            if !line.starts_with(' ') && !line.starts_with(';') && line.trim_end().ends_with(':') {
                block = line.trim_end().trim_end_matches(':').to_string();
                continue;
            }
            let line = line.split(" ; ").next().unwrap().trim();
            let Some((lhs, rhs)) = line.split_once(" = ") else {
                if line.contains("call ") && line.contains("\"deopt\"(") {
                    program.sites.push(Self::bundle_call(line, &function, &block));
                }
                continue;
            };
            let lhs = lhs.trim().to_string();
            if let Some(at) = rhs.find("@llvm.experimental.gc.statepoint.p0(") {
                let open = at + "@llvm.experimental.gc.statepoint.p0".len();
                let (inner, _) = parenthesised(rhs, open);
                let args = split_top(inner);
                let num = |i: usize| -> u64 { Operand::parse(&args[i]).value.parse().unwrap() };
                program.sites.push(Site {
                    function: function.clone(),
                    block: block.clone(),
                    token: lhs,
                    id: num(0),
                    cc: calling_convention(rhs),
                    flags: num(4),
                    patch_bytes: num(1),
                    deopt: bundle(rhs, "deopt"),
                    gc_live: bundle(rhs, "gc-live"),
                    relocates: Vec::new(),
                    bundle_call: false,
                });
            } else if let Some(at) = rhs.find("@llvm.experimental.gc.relocate.p1(") {
                let (inner, _) = parenthesised(rhs, at + "@llvm.experimental.gc.relocate.p1".len());
                let args = split_top(inner);
                let token = Operand::parse(&args[0]).value;
                let index = |i: usize| -> usize { Operand::parse(&args[i]).value.parse().unwrap() };
                let site = program
                    .sites
                    .iter_mut()
                    .rev()
                    .find(|s| s.function == function && s.token == token)
                    .unwrap_or_else(|| panic!("relocate of an unknown token: {line}"));
                site.relocates.push(Relocate { name: lhs, base: index(1), derived: index(2), block: block.clone() });
            } else if let Some(rest) = rhs.strip_prefix("getelementptr ") {
                let rest = rest.strip_prefix("inbounds ").unwrap_or(rest);
                let parts = split_top(rest);
                let pointer = Operand::parse(&parts[1]);
                let small = parts[2..]
                    .iter()
                    .all(|i| Operand::parse(i).value.parse::<i128>().is_ok_and(|n| (0..=20).contains(&n)));
                program.geps.insert((function.clone(), lhs), Gep { pointer: pointer.value, small });
            } else if let Some(rest) = rhs.strip_prefix("alloca ") {
                let ty = split_top(rest)[0].clone();
                program.allocas.insert((function.clone(), lhs), alloca_size(&ty));
            } else if rhs.contains("call ") && rhs.contains("\"deopt\"(") {
                program.sites.push(Self::bundle_call(rhs, &function, &block));
            }
        }
        program.erase_offsetable_relocates();
        program
    }

    /// CodeGenPrepare's simplifyOffsetableRelocate, statepoint by statepoint in code order: for the
    /// first relocate per (base, derived) index pair in use-list order, a derived relocate next to a
    /// (base, base) one in the same block, whose derived value is a GEP of exactly the base with small
    /// constant indices, is replaced by a GEP of the relocated base and erased. The replacement is a
    /// GEP too, so a later statepoint that has it in gc-live sees a GEP of that relocated base.
    fn erase_offsetable_relocates(&mut self) {
        let mut geps = self.geps.clone();
        for site in self.sites.iter().filter(|s| !s.bundle_call) {
            let mut by_key: Vec<((usize, usize), &Relocate)> = Vec::new();
            for r in site.relocates.iter().rev() {
                if !by_key.iter().any(|(k, _)| *k == (r.base, r.derived)) {
                    by_key.push(((r.base, r.derived), r));
                }
            }
            for ((b, d), r) in &by_key {
                if b == d {
                    continue;
                }
                let Some((_, base_relocate)) = by_key.iter().find(|(k, _)| *k == (*b, *b)) else { continue };
                if base_relocate.block != r.block {
                    continue;
                }
                let gep = geps.get(&(site.function.clone(), site.gc_live[*d].value.clone()));
                if gep.is_some_and(|g| g.small && g.pointer == site.gc_live[*b].value) {
                    self.erased.insert((site.function.clone(), r.name.clone()));
                    geps.insert(
                        (site.function.clone(), r.name.clone()),
                        Gep { pointer: base_relocate.name.clone(), small: true },
                    );
                }
            }
        }
    }

    fn bundle_call(line: &str, function: &str, block: &str) -> Site {
        Site {
            function: function.into(),
            block: block.into(),
            token: String::new(),
            id: attribute(line, "statepoint-id").unwrap_or(DEOPT_BUNDLE_ID),
            cc: calling_convention(line),
            flags: 0,
            patch_bytes: attribute(line, "statepoint-num-patch-bytes").unwrap_or(0),
            deopt: bundle(line, "deopt"),
            gc_live: Vec::new(),
            relocates: Vec::new(),
            bundle_call: true,
        }
    }

    /// The site with `id` (IDs are unique in the programs this is used for).
    pub fn site(&self, id: u64) -> Option<&Site> {
        self.sites.iter().find(|s| s.id == id)
    }

    pub fn is_alloca(&self, site: &Site, op: &Operand) -> bool {
        self.allocas.contains_key(&(site.function.clone(), op.value.clone()))
    }

    /// What each location of `site`'s record holds when llc-19 compiles at `-O<opt>`.
    pub fn layout(&self, site: &Site, opt: u8) -> Vec<Slot> {
        let mut slots = vec![Slot::Header(site.cc), Slot::Header(site.flags), Slot::Header(site.deopt.len() as u64)];
        slots.extend(site.deopt.iter().enumerate().map(|(i, op)| Slot::Deopt(i, op.clone())));
        // The token's users in use-list order: the reverse of the text.
        let mut users: Vec<&Relocate> = site.relocates.iter().rev().collect();
        if opt > 0 {
            users.retain(|r| !self.erased.contains(&(site.function.clone(), r.name.clone())));
        }
        let mut seen: HashSet<String> = HashSet::new();
        let mut pairs: Vec<(Operand, Operand)> = Vec::new();
        for r in users {
            let derived = &site.gc_live[r.derived];
            if seen.insert(derived.value.clone()) {
                pairs.push((site.gc_live[r.base].clone(), derived.clone()));
            }
        }
        if !site.bundle_call {
            for op in site.deopt.iter().filter(|op| op.is_gc()) {
                if seen.insert(op.value.clone()) {
                    pairs.push((op.clone(), op.clone()));
                }
            }
        }
        for (b, d) in pairs {
            slots.push(Slot::Base(b.clone(), d.clone()));
            slots.push(Slot::Derived(b, d));
        }
        for op in &site.gc_live {
            if self.is_alloca(site, op) {
                slots.push(Slot::Alloca(op.clone()));
            }
        }
        slots
    }

    /// How the run-time checker's value of each location is compared (see `checker::normalize`).
    pub fn live_types(&self, site: &Site, layout: &[Slot]) -> Vec<LiveType> {
        layout
            .iter()
            .map(|slot| match slot {
                Slot::Header(_) => LiveType::Int(64),
                Slot::Deopt(_, op) => {
                    if op.constant() == Some(UNDEF) && matches!(op.value.as_str(), "undef" | "poison") {
                        LiveType::Undef
                    } else if site.flags & 2 != 0 && op.constant().is_none() && !op.is_gc() {
                        // Deopt values live in: llc-19 names registers that the call has clobbered
                        // by the time the record's PC (the return address) is reached.
                        LiveType::Undef
                    } else if let Some(size) = self.allocas.get(&(site.function.clone(), op.value.clone())) {
                        LiveType::Ptr { pointee: Some(*size), private: false }
                    } else {
                        match op.ty.as_str() {
                            "float" => LiveType::Float,
                            "double" => LiveType::Double,
                            ty if ty.starts_with("ptr") => LiveType::Ptr { pointee: None, private: false },
                            ty => match ty.strip_prefix('i').and_then(|b| b.parse::<u8>().ok()) {
                                Some(bits) if bits <= 64 => LiveType::Int(bits),
                                _ => LiveType::Undef,
                            },
                        }
                    }
                }
                Slot::Base(..) | Slot::Derived(..) => LiveType::Ptr { pointee: None, private: false },
                // What a gc alloca holds is a heap address, which differs between binaries.
                Slot::Alloca(_) => LiveType::Ptr { pointee: Some(0), private: false },
            })
            .collect()
    }
}

/// Whether a constant location of this value is a `Constant` (it fits in i32) or a `ConstantIndex`.
fn constant_kind(value: u64) -> LocationKind {
    if i32::try_from(value as i64).is_ok() {
        LocationKind::Constant
    } else {
        LocationKind::ConstantIndex
    }
}

/// Checks one of llc-19's records against the rules: `layout` from [`Program::layout`], `sp` the
/// stack pointer's DWARF number (7 on x86-64, 31 on AArch64).
pub fn check_llc_record(
    program: &Program,
    map: &StackMap,
    record: &Record,
    site: &Site,
    layout: &[Slot],
    sp: u16,
) -> Result<(), String> {
    let locs = &record.locations;
    if locs.len() != layout.len() {
        return Err(format!(
            "ID {}: {} locations, the rules say {}: {:?}",
            record.id,
            locs.len(),
            layout.len(),
            layout.iter().enumerate().map(|(i, s)| s.key(i)).collect::<Vec<_>>()
        ));
    }
    let mut slots: HashMap<String, Location> = HashMap::new();
    for (i, (loc, slot)) in locs.iter().zip(layout).enumerate() {
        let bad = |why: &str| Err(format!("ID {} location {} ({}): {loc:?}: {why}", record.id, i + 1, slot.key(i)));
        let op = match slot {
            Slot::Header(v) => {
                if loc.kind != LocationKind::Constant || map.constant_value(loc) != Some(*v) || loc.size != 8 {
                    return bad(&format!("expected Constant {v}"));
                }
                continue;
            }
            Slot::Alloca(op) => {
                if loc.kind != LocationKind::Direct || loc.size != 8 || loc.dwarf_reg != sp {
                    return bad("expected Direct [SP + offset], size 8");
                }
                op
            }
            Slot::Deopt(_, op) | Slot::Base(op, _) | Slot::Derived(_, op) => op,
        };
        if let Some(c) = op.constant() {
            if map.constant_value(loc) != Some(c) || loc.kind != constant_kind(c) || loc.size != 8 {
                return bad(&format!("expected the constant {c:#x} as {:?}, size 8", constant_kind(c)));
            }
            continue;
        }
        if matches!(slot, Slot::Alloca(_)) {
            continue;
        }
        let size = if matches!(slot, Slot::Deopt(..)) { op.store_size() } else { 8 };
        if program.is_alloca(site, op) {
            if loc.kind != LocationKind::Direct || loc.size != 8 || loc.dwarf_reg != sp {
                return bad("expected an alloca's address: Direct [SP + offset], size 8");
            }
        } else if site.flags & 2 != 0 && matches!(slot, Slot::Deopt(..)) && !op.is_gc() {
            // A value in a floating-point register has the register's size (x86-64: 16 for an XMM).
            let ok = match loc.kind {
                LocationKind::Register => {
                    loc.size == size || (op.ty == "float" || op.ty == "double") && loc.size >= size
                }
                // Spilled by the register allocator: an XMM spill slot is 16 bytes.
                LocationKind::Indirect => {
                    loc.size == size || (op.ty == "float" || op.ty == "double") && loc.size >= size
                }
                _ => false,
            };
            if !ok {
                return bad(&format!("expected a live-in deopt value (Register), size {size}"));
            }
            continue;
        } else if loc.kind != LocationKind::Indirect || loc.size != size || loc.dwarf_reg != sp {
            return bad(&format!("expected a spill slot: Indirect [SP + offset], size {size}"));
        }
        // One slot per value and statepoint.
        if let Some(other) = slots.insert(op.value.clone(), *loc) {
            if other.kind != loc.kind || other.dwarf_reg != loc.dwarf_reg || other.offset != loc.offset {
                return bad(&format!("{} is also in {other:?}", op.value));
            }
        }
    }
    Ok(())
}

/// The shapes two compilers' statepoint records must share, record by record (matched by ID, which
/// must be unique): the same number of locations, the same three leading constants, and per location
/// the same size and, where llc-19 has a constant, the same constant.
pub fn compare_shapes(ours: &StackMap, llc: &StackMap) -> Result<(), String> {
    let mut ids: Vec<u64> = llc.records.iter().map(|r| r.id).collect();
    let mut our_ids: Vec<u64> = ours.records.iter().map(|r| r.id).collect();
    ids.sort();
    our_ids.sort();
    if ids != our_ids {
        return Err(format!("record IDs {our_ids:?}, llc-19 {ids:?}"));
    }
    let mut problems = Vec::new();
    for theirs in &llc.records {
        let mine = ours.records.iter().find(|r| r.id == theirs.id).unwrap();
        if mine.locations.len() != theirs.locations.len() {
            let ndeopt = |m: &StackMap, r: &Record| r.locations.get(2).and_then(|l| m.constant_value(l));
            problems.push(format!(
                "ID {}: {} locations (deopt count {:?}), llc-19 {} (deopt count {:?})",
                theirs.id,
                mine.locations.len(),
                ndeopt(ours, mine),
                theirs.locations.len(),
                ndeopt(llc, theirs)
            ));
            continue;
        }
        let flags = theirs.locations.get(1).and_then(|l| llc.constant_value(l)).unwrap_or(0);
        let deopt = theirs.locations.get(2).and_then(|l| llc.constant_value(l)).unwrap_or(0) as usize;
        for (i, (a, b)) in mine.locations.iter().zip(&theirs.locations).enumerate() {
            let (va, vb) = (ours.constant_value(a), llc.constant_value(b));
            let what = if i < 3 { "a leading constant" } else { "location" };
            // patchmap's documented difference: with FLAGS bit 1 (deopt values live in), llc-19 names
            // registers the call clobbers (an XMM register: size 16); patchmap spills the value as
            // without the flag (`Indirect`, the value's size), readable at the return address.
            let live_in = flags & 2 != 0
                && (3..3 + deopt).contains(&i)
                && vb.is_none()
                && a.kind == LocationKind::Indirect
                && a.size <= b.size;
            if live_in {
                continue;
            }
            if (vb.is_some() && (va != vb || a.kind != b.kind)) || (i < 3 && va.is_none()) || a.size != b.size {
                problems.push(format!(
                    "ID {} {what} {}: {a:?} (value {va:?}), llc-19 {b:?} (value {vb:?})",
                    theirs.id,
                    i + 1
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// Record executions with each location named by [`Slot::key`].
pub type Keyed = Vec<(u64, Vec<(String, Normalized)>)>;

/// Names and normalises what the checker read at every record execution, per the layout of `-O<opt>`.
pub fn keyed(program: &Program, hits: &[RecordHit], opt: u8) -> Result<Keyed, String> {
    hits.iter()
        .map(|hit| {
            let site = program.site(hit.id).ok_or_else(|| format!("record ID {} is no statepoint", hit.id))?;
            let layout = program.layout(site, opt);
            if layout.len() != hit.values.len() {
                return Err(format!(
                    "ID {}: {} values read, the layout has {}",
                    hit.id,
                    hit.values.len(),
                    layout.len()
                ));
            }
            let values = normalize(&hit.values, &program.live_types(site, &layout));
            Ok((hit.id, layout.iter().enumerate().map(|(i, s)| s.key(i)).zip(values).collect()))
        })
        .collect()
}

/// Two compilations (with possibly different layouts) agree: the same record executions, and the
/// same value wherever both record the same thing.
pub fn compare_keyed(a: &Keyed, b: &Keyed) -> Result<(), String> {
    let ids = |k: &Keyed| k.iter().map(|h| h.0).collect::<Vec<_>>();
    if ids(a) != ids(b) {
        return Err(format!("record executions differ: {:?} vs {:?}", ids(a), ids(b)));
    }
    let mut compared = 0;
    for (n, (x, y)) in a.iter().zip(b).enumerate() {
        for (key, value) in &x.1 {
            if let Some((_, other)) = y.1.iter().find(|(k, _)| k == key) {
                compared += 1;
                if value != other {
                    return Err(format!("execution {n} (ID {}), {key}: {value:?} vs {other:?}", x.0));
                }
            }
        }
    }
    if compared == 0 && !a.is_empty() {
        return Err("nothing compared".into());
    }
    Ok(())
}

/// Every pair location read a pointer into `@heap` or null: the values compared are the GC pointers.
pub fn pairs_point_into_the_heap(keyed: &Keyed) -> Result<(), String> {
    for (id, values) in keyed {
        for (key, value) in values {
            if key.starts_with("pair ") {
                let ok = match value {
                    Normalized::Pointee { symbol: Some((name, _)), .. } => name == "heap",
                    Normalized::Bits(0) => key.starts_with("pair null "),
                    _ => false,
                };
                if !ok {
                    return Err(format!("ID {id}, {key}: {value:?} is no pointer into @heap"));
                }
            }
        }
    }
    Ok(())
}
