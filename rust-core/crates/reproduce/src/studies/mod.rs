//! The seeds' tables and figures: which scenario runs reproduce each, how --quick shrinks
//! them, the seed's numbers, and the direction each result must keep.

mod arrivals;
mod edit;
mod gossipsub;
mod pull;
mod read;
mod strokkur;

use super::Study;

pub static STUDIES: &[Study] = &[
    pull::CAT_VS_FLOOD,
    pull::NEO_GO,
    gossipsub::GOSSIPSUB_MULTI,
    gossipsub::GOSSIPSUB_SINGLE,
    strokkur::FIG6,
    strokkur::FIG7,
    strokkur::FIG8,
    strokkur::FIG9,
    strokkur::FIG10,
    strokkur::FIG11,
    arrivals::ARRIVALS,
];
