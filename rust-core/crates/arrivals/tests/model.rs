//! Property tests: the encodings invert, keep order, and the log behaves like a plain ordered
//! map from seq to first arrival.

use std::collections::BTreeMap;

use arrivals::{varlong, Arrival, ArrivalLog, ImportLimits, Layout, Put};
use proptest::prelude::*;

fn layout() -> impl Strategy<Value = Layout> {
    // Small quanta so partitions and 256-column chunks are both crossed often.
    (
        prop::sample::select(vec![1u64, 2, 3, 4, 16, 64]),
        1u64..1_500,
    )
        .prop_map(|(np, per_row)| Layout::new(np * per_row, np).unwrap())
}

fn arrival() -> impl Strategy<Value = Arrival> {
    prop_oneof![
        1 => Just(Arrival::Never),
        6 => (0u64..2_000_000).prop_map(Arrival::AfterUs),
        1 => any::<u64>().prop_map(Arrival::AfterUs),
    ]
}

fn seq() -> impl Strategy<Value = u64> {
    prop_oneof![
        8 => 0u64..5_000,
        1 => 1_000_000u64..1_010_000,
        1 => any::<u64>(),
    ]
}

/// The model: first arrival wins, later ones are counted.
#[derive(Default)]
struct Model {
    map: BTreeMap<u64, Arrival>,
    duplicates: u64,
}

impl Model {
    fn put(&mut self, seq: u64, a: Arrival) -> Put {
        match self.map.get(&seq) {
            Some(&kept) => {
                self.duplicates += 1;
                Put::Duplicate { kept }
            }
            None => {
                self.map.insert(seq, a);
                Put::Inserted
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn varlong_round_trips_and_keeps_order(a in any::<u64>(), b in any::<u64>()) {
        let (ea, eb) = (varlong::encode(a), varlong::encode(b));
        prop_assert_eq!(ea.len(), varlong::len(a));
        prop_assert_eq!(varlong::decode(&ea, "a"), Ok(a));
        prop_assert_eq!(ea.cmp(&eb), a.cmp(&b));
    }

    #[test]
    fn cells_round_trip_and_sort_like_their_keys(
        l in layout(), s in seq(), t in seq(), a in arrival()
    ) {
        let cell = l.encode_cell(s, a);
        prop_assert_eq!(l.decode_cell(&cell.row, &cell.column, &cell.value), Ok((s, a)));
        prop_assert!(l.column(s) < l.columns_per_row());
        prop_assert!(l.row(s) <= s);
        // Byte order of row ++ column is the order of (row key, column).
        let other = l.encode_cell(t, a);
        let bytes = |c: &arrivals::Cell| [c.row.to_vec(), c.column.clone()].concat();
        let tuple = |x: u64| (u64::from_be_bytes(arrivals::row_key(l.row(x))), l.column(x));
        prop_assert_eq!(bytes(&cell).cmp(&bytes(&other)), tuple(s).cmp(&tuple(t)));
        // Within a partition the mapping keeps seq order as (column, row).
        let p = l.partitioning_quantum();
        if s / p == t / p {
            let ct = (l.column(s), l.row(s)).cmp(&(l.column(t), l.row(t)));
            prop_assert_eq!(ct, s.cmp(&t));
        }
    }

    #[test]
    fn log_agrees_with_an_ordered_map(
        l in layout(),
        puts in prop::collection::vec((seq(), arrival()), 0..400),
        close in (0u64..5_000, 0u64..600),
        ranges in prop::collection::vec((seq(), 0u64..3_000), 1..8),
    ) {
        let mut log = ArrivalLog::new(l);
        let mut model = Model::default();
        for &(s, a) in &puts {
            prop_assert_eq!(log.put_unless_exists(s, a), model.put(s, a));
        }
        // Closing a range writes "never" where nothing arrived.
        let (from, len) = close;
        let mut filled = 0;
        for s in from..from + len {
            if let std::collections::btree_map::Entry::Vacant(e) = model.map.entry(s) {
                e.insert(Arrival::Never);
                filled += 1;
            }
        }
        prop_assert_eq!(log.fill_never(from..from + len), Ok(filled));
        prop_assert_eq!(log.len(), model.map.len() as u64);
        prop_assert_eq!(log.duplicates(), model.duplicates);

        let everything: Vec<(u64, Arrival)> = model.map.iter().map(|(&s, &a)| (s, a)).collect();
        prop_assert_eq!(log.scan(..).collect::<Vec<_>>(), everything.clone());
        for &(start, span) in &ranges {
            let end = start.saturating_add(span);
            let want: Vec<(u64, Arrival)> =
                model.map.range(start..end).map(|(&s, &a)| (s, a)).collect();
            prop_assert_eq!(log.scan(start..end).collect::<Vec<_>>(), want);
            let want: Vec<(u64, Arrival)> =
                model.map.range(start..=end).map(|(&s, &a)| (s, a)).collect();
            prop_assert_eq!(log.scan(start..=end).collect::<Vec<_>>(), want);
        }

        let asked: Vec<u64> = puts.iter().map(|p| p.0)
            .chain(ranges.iter().map(|r| r.0))
            .chain([from, from + 1])
            .collect();
        let want: Vec<Option<Arrival>> = asked.iter().map(|s| model.map.get(s).copied()).collect();
        prop_assert_eq!(log.get_many(&asked), want.clone());
        prop_assert_eq!(asked.iter().map(|&s| log.get(s)).collect::<Vec<_>>(), want);

        // Raw cells and the blob both bring back the same log.
        let mut from_cells = ArrivalLog::new(l);
        for c in log.cells() {
            prop_assert_eq!(from_cells.insert_cell(&c.row, &c.column, &c.value), Ok(Put::Inserted));
        }
        prop_assert_eq!(from_cells.scan(..).collect::<Vec<_>>(), everything.clone());
        let blob = log.export();
        let back = ArrivalLog::import(&blob, ImportLimits::default()).unwrap();
        prop_assert_eq!(back.scan(..).collect::<Vec<_>>(), everything);
        prop_assert_eq!(back.export(), blob);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    /// Arbitrary bytes: an error, or the one canonical encoding of what they decode to.
    #[test]
    fn bad_bytes_give_errors_not_panics(bytes in prop::collection::vec(any::<u8>(), 0..14)) {
        if let Ok(v) = varlong::decode(&bytes, "v") {
            prop_assert_eq!(varlong::encode(v), bytes.clone());
        }
        if let Ok(a) = Arrival::decode(&bytes) {
            prop_assert_eq!(a.encode(), bytes.clone());
        }
        let l = Layout::default();
        let (row, rest) = bytes.split_at(bytes.len().min(8));
        let (column, value) = rest.split_at(rest.len().min(3));
        if let Ok((s, a)) = l.decode_cell(row, column, value) {
            let c = l.encode_cell(s, a);
            prop_assert_eq!((&c.row[..], &c.column[..], &c.value[..]), (row, column, value));
        }
    }

    /// A corrupted export: an error, or a log that exports back to exactly those bytes.
    #[test]
    fn corrupted_exports_are_rejected_or_canonical(
        seqs in prop::collection::vec(0u64..3_000, 1..60),
        at in any::<prop::sample::Index>(),
        xor in 1u8..=255,
        cut in any::<prop::sample::Index>(),
    ) {
        let mut log = ArrivalLog::new(Layout::new(1_000, 8).unwrap());
        for &s in &seqs {
            log.put_unless_exists(s, Arrival::AfterUs(s * 37));
        }
        let mut blob = log.export();
        let i = at.index(blob.len());
        blob[i] ^= xor;
        let end = blob.len() - cut.index(blob.len() / 4 + 1);
        for bytes in [&blob[..], &blob[..end]] {
            if let Ok(back) = ArrivalLog::import(bytes, ImportLimits::default()) {
                prop_assert_eq!(back.export(), bytes.to_vec());
            }
        }
    }
}
