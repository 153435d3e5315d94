//! The location layout of a statepoint's record (LLVM's `StackMaps::parseStatepointOpers`): three
//! constants (calling convention, flags, deopt count), the deopt values, the (base, derived) pairs
//! of the pointers a collector may move, then the `Direct` addresses of the GC allocas.

use super::{Location, LocationKind, Record, StackMap};

/// A statepoint record's locations, by role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatepointLayout<'r> {
    /// LLVM's number of the call's calling convention (0 for C).
    pub calling_convention: u64,
    /// The statepoint's FLAGS (bit 0: GC transition, bit 1: deopt values live in).
    pub flags: u64,
    /// The deopt values, one location each.
    pub deopt: &'r [Location],
    /// The (base, derived) pairs, two locations each, base first.
    pub pairs: &'r [Location],
    /// The addresses of the allocas the collector updates in place (`Direct` locations).
    pub allocas: &'r [Location],
}

/// Why a record does not have a statepoint's layout.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("record {id} is not a statepoint record: {reason}")]
pub struct NotAStatepoint {
    /// The record's ID.
    pub id: u64,
    /// What does not fit.
    pub reason: String,
}

impl<'r> StatepointLayout<'r> {
    /// Decodes `record`, a record of `map` (whose pool holds large constants).
    pub fn decode(record: &'r Record, map: &StackMap) -> Result<StatepointLayout<'r>, NotAStatepoint> {
        let fail = |reason: String| NotAStatepoint { id: record.id, reason };
        let locations = &record.locations[..];
        let constant = |i: usize, what: &str| {
            locations
                .get(i)
                .and_then(|l| map.constant_value(l))
                .ok_or_else(|| fail(format!("location {} (the {what}) is not a constant", i + 1)))
        };
        let calling_convention = constant(0, "calling convention")?;
        let flags = constant(1, "flags")?;
        let deopt_count = constant(2, "deopt count")?;
        let rest = &locations[3..];
        let deopt_count = usize::try_from(deopt_count)
            .ok()
            .filter(|&n| n <= rest.len())
            .ok_or_else(|| fail(format!("{deopt_count} deopt values, but {} locations follow", rest.len())))?;
        let (deopt, gc) = rest.split_at(deopt_count);
        // Allocas never form pairs and come last: the trailing `Direct` locations.
        let allocas_start = gc.iter().rposition(|l| l.kind != LocationKind::Direct).map_or(0, |i| i + 1);
        let (pairs, allocas) = gc.split_at(allocas_start);
        if pairs.len() % 2 != 0 {
            return Err(fail(format!("{} pointer locations do not make (base, derived) pairs", pairs.len())));
        }
        Ok(StatepointLayout { calling_convention, flags, deopt, pairs, allocas })
    }

    /// The (base, derived) pairs.
    pub fn pairs(&self) -> impl ExactSizeIterator<Item = (&'r Location, &'r Location)> + '_ {
        self.pairs.chunks_exact(2).map(|p| (&p[0], &p[1]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_llvm_layout() {
        let mut map = StackMap::new();
        let big = map.constant_location(1 << 40);
        let slot = |off| Location::indirect(7, off, 8);
        let record = Record {
            id: 7,
            instruction_offset: 26,
            locations: vec![
                Location::constant(0),
                Location::constant(2),
                Location::constant(2),
                slot(16),
                big,
                slot(8),
                slot(8),
                Location::constant(0),
                Location::constant(0),
                Location::direct(7, 24, 8),
            ],
            ..Record::default()
        };
        let layout = StatepointLayout::decode(&record, &map).unwrap();
        assert_eq!((layout.calling_convention, layout.flags), (0, 2));
        assert_eq!(layout.deopt, &[slot(16), big]);
        assert_eq!(
            layout.pairs().collect::<Vec<_>>(),
            vec![(&slot(8), &slot(8)), (&Location::constant(0), &Location::constant(0))]
        );
        assert_eq!(layout.allocas, &[Location::direct(7, 24, 8)]);

        let odd = Record { locations: record.locations[..8].to_vec(), ..record.clone() };
        assert!(StatepointLayout::decode(&odd, &map).unwrap_err().reason.contains("pairs"));
        let short = Record {
            locations: vec![Location::constant(0), Location::constant(0), Location::constant(5)],
            ..record.clone()
        };
        assert!(StatepointLayout::decode(&short, &map).unwrap_err().reason.contains("5 deopt values"));
        let stackmap = Record { locations: vec![slot(0)], ..record };
        assert!(StatepointLayout::decode(&stackmap, &map).is_err());
    }
}
