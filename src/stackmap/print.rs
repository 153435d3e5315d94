//! The llvm-readobj text of a blob: for v3 exactly what `llvm-readobj-19 --stackmap` prints after its
//! `File:/Format:/Arch:/AddressSize:/LoadName:` preamble (LLVM's `StackMapPrinter.h`).
//!
//! v2 blobs print the same layout with "Version: 2". v1 blobs have no record counts, so their function
//! lines end after the stack size (as LLVM 3.7's v1 printer did) unless counts were supplied with
//! [`StackMapView::with_record_counts`]; their locations still print the size from byte 1.

use std::io::{self, Write};

use super::model::{LocationKind, Version};
use super::read::StackMapView;

/// Prints `view` as llvm-readobj does.
pub fn print(view: &StackMapView<'_>, out: &mut dyn Write) -> io::Result<()> {
    print_with_symbols(view, &[], out)
}

/// Prints `view` as llvm-readobj does, adding a line `    Symbol: <name>` after function line *i* when
/// `symbols[i]` is `Some` (the extra lines keep the standard ones unchanged, so filters still match).
pub fn print_with_symbols(view: &StackMapView<'_>, symbols: &[Option<String>], out: &mut dyn Write) -> io::Result<()> {
    // One buffered pass: large sections print millions of short lines.
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    writeln!(out, "LLVM StackMap Version: {}", view.version().number())?;
    writeln!(out, "Num Functions: {}", view.num_functions())?;
    let counts_known = view.version() != Version::V1 || view.has_record_counts();
    for (i, f) in view.functions().enumerate() {
        write!(out, "  Function address: {}, stack size: {}", f.address, f.stack_size)?;
        if counts_known {
            write!(out, ", callsite record count: {}", f.record_count)?;
        }
        writeln!(out)?;
        if let Some(Some(name)) = symbols.get(i) {
            writeln!(out, "    Symbol: {name}")?;
        }
    }
    writeln!(out, "Num Constants: {}", view.num_constants())?;
    for (i, c) in view.constants().enumerate() {
        writeln!(out, "  #{}: {}", i + 1, c)?;
    }
    writeln!(out, "Num Records: {}", view.num_records())?;
    for r in view.records() {
        writeln!(out, "  Record ID: {}, instruction offset: {}", r.id(), r.instruction_offset())?;
        writeln!(out, "    {} locations:", r.num_locations())?;
        for (i, loc) in r.locations().enumerate() {
            write!(out, "      #{}: ", i + 1)?;
            write!(out, "{loc}")?;
            if loc.kind == LocationKind::ConstantIndex {
                // Parsing checked the index against the pool.
                let value = view.constant(loc.constant_pool_index() as usize).unwrap_or_default();
                write!(out, " ({value})")?;
            }
            writeln!(out, ", size: {}", loc.size)?;
        }
        write!(out, "    {} live-outs: [ ", r.num_live_outs())?;
        for lo in r.live_outs() {
            write!(out, "R#{} ({}-bytes) ", lo.dwarf_reg, lo.size)?;
        }
        writeln!(out, "]")?;
    }
    out.flush()
}
