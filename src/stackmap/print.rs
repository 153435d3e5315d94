//! The llvm-readobj text of a blob: for v3 exactly what `llvm-readobj-19 --stackmap` prints after its
//! `File:/Format:/Arch:/AddressSize:/LoadName:` preamble (LLVM's `StackMapPrinter.h`).
//!
//! v2 blobs print the same layout with "Version: 2". v1 blobs have no record counts, so their function
//! lines end after the stack size (as LLVM 3.7's v1 printer did) unless counts were supplied with
//! [`StackMapView::with_record_counts`]; their locations still print the size from byte 1.
//!
//! Frame-table blobs ([`Version::FrameTable`]) print the same lines for what v3 also has, with the version
//! line `LLVM StackMap Version: 2 (frame table, rfc2)`, and after each function line and record line the
//! fields only they have:
//!
//! ```text
//!   Function address: 0, stack size: 24, callsite record count: 1
//!     Function size: 64, flags: [ HasFrame HasLiveOutInfo ], frame base: R#6
//!     2 frame registers: [ R#3 [FB + -16] (8-bytes, spilled) R#12 [FB + -8] (8-bytes) ]
//!   ...
//!   Record ID: 7, instruction offset: 38
//!     Call size: 5, flags: [ HasLiveOutInfo ]
//! ```

use std::io::{self, Write};

use super::model::{Frame, LocationKind, Version};
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
    write!(out, "LLVM StackMap Version: {}", view.version().number())?;
    if view.version() == Version::FrameTable {
        write!(out, " (frame table, rfc2)")?;
    }
    writeln!(out)?;
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
        if let Some(frame) = &f.frame {
            print_frame(frame, &mut out)?;
        }
    }
    writeln!(out, "Num Constants: {}", view.num_constants())?;
    for (i, c) in view.constants().enumerate() {
        writeln!(out, "  #{}: {}", i + 1, c)?;
    }
    writeln!(out, "Num Records: {}", view.num_records())?;
    for r in view.records() {
        writeln!(out, "  Record ID: {}, instruction offset: {}", r.id(), r.instruction_offset())?;
        if view.version() == Version::FrameTable {
            let flags = if r.has_live_out_info() { "HasLiveOutInfo " } else { "" };
            writeln!(out, "    Call size: {}, flags: [ {flags}]", r.call_size())?;
        }
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

/// The frame-table lines of one function.
fn print_frame(frame: &Frame, out: &mut dyn Write) -> io::Result<()> {
    write!(out, "    Function size: {}, flags: [ ", frame.function_size)?;
    for (set, name) in [
        (frame.has_frame, "HasFrame"),
        (frame.has_variable_size_alloca, "HasVariableSizeAlloca"),
        (frame.has_stack_realignment, "HasStackRealignment"),
        (frame.has_live_out_info, "HasLiveOutInfo"),
    ] {
        if set {
            write!(out, "{name} ")?;
        }
    }
    writeln!(out, "], frame base: R#{}", frame.base_register)?;
    write!(out, "    {} frame registers: [ ", frame.registers.len())?;
    for r in &frame.registers {
        write!(
            out,
            "R#{} [FB + {}] ({}-bytes{}) ",
            r.dwarf_reg,
            r.offset,
            r.size,
            if r.is_spilled { ", spilled" } else { "" }
        )?;
    }
    writeln!(out, "]")
}
