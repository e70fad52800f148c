//! What the node inspector shows beyond a protocol's summary lines: named groups of peers the
//! page highlights on the canvas (a GossipSub mesh, its fanout) and tables with a row per
//! peer or per tx. Cells that name peers stay peers here; the host turns them into the node
//! ids it knows them by.

use crate::{PeerIdx, TxId};

/// One table cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Text(String),
    Num(f64),
    Peer(PeerIdx),
    Peers(Vec<PeerIdx>),
}

impl From<&str> for Cell {
    fn from(s: &str) -> Cell {
        Cell::Text(s.to_string())
    }
}

impl From<String> for Cell {
    fn from(s: String) -> Cell {
        Cell::Text(s)
    }
}

impl From<f64> for Cell {
    fn from(x: f64) -> Cell {
        Cell::Num(x)
    }
}

impl From<usize> for Cell {
    fn from(x: usize) -> Cell {
        Cell::Num(x as f64)
    }
}

/// What a row is about.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RowKey {
    Peer(PeerIdx),
    Tx(TxId),
}

/// A titled table: `columns` name the cells of each row, after its key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub title: &'static str,
    pub columns: Vec<&'static str>,
    pub rows: Vec<(RowKey, Vec<Cell>)>,
}

impl Table {
    pub fn new(title: &'static str, columns: &[&'static str]) -> Table {
        Table {
            title,
            columns: columns.to_vec(),
            rows: Vec::new(),
        }
    }
    pub fn peer(&mut self, peer: PeerIdx, cells: Vec<Cell>) {
        self.rows.push((RowKey::Peer(peer), cells));
    }
    pub fn tx(&mut self, tx: TxId, cells: Vec<Cell>) {
        self.rows.push((RowKey::Tx(tx), cells));
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Detail {
    /// Named groups of peers ("mesh", "fanout"), drawn highlighted around the node.
    pub groups: Vec<(&'static str, Vec<PeerIdx>)>,
    pub tables: Vec<Table>,
}
