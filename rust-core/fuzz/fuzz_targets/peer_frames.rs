//! Hostile peers: arbitrary bytes cut into frames, each decoded as a CAT, Strokkur, GossipSub,
//! INV or Shrec message, and whatever decodes handed to a live node of that protocol from one
//! of its peers, with time moving on between frames and the node's timers firing. The light
//! node and the relay do exactly this with frames from the network: nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use proto::cat::{Cat, CatConfig, CatMsg};
use proto::gossipsub::{decode_frame, Gossipsub, GossipsubConfig, Limits as RpcLimits};
use proto::inv::{Inv, InvConfig, InvMsg};
use proto::shrec::{Shrec, ShrecConfig, ShrecMsg};
use proto::strokkur::{Strokkur, StrokkurConfig, StrokkurMsg};
use proto::{Driver, Input, NodeSetup, PeerIdx, Protocol, Rng, Time};

const PEERS: u32 = 4;

fn node<P: Protocol>(config: &P::Config) -> Driver<P> {
    let mut driver = Driver::new(config, &NodeSetup::default(), Rng::from_seed(7));
    for p in 0..PEERS {
        driver.handle_input(Time::ZERO, Input::PeerUp(PeerIdx(p)));
    }
    driver
}

/// Hands `msg` to the node, lets its due timers fire, and throws its actions away.
fn feed<P: Protocol>(driver: &mut Driver<P>, now: Time, from: PeerIdx, msg: P::Msg) {
    driver.handle_input(now, Input::Message(from, msg));
    driver.poll_timers(now);
    driver.drain().for_each(drop);
}

fuzz_target!(|data: &[u8]| {
    let (cat_config, inv_config, shrec_config) = (CatConfig::default(), InvConfig::default(), ShrecConfig::default());
    let mut cat = node::<Cat>(&cat_config);
    let mut strokkur = node::<Strokkur>(&StrokkurConfig::default());
    let mut gossipsub = node::<Gossipsub>(&GossipsubConfig::default());
    let mut inv = node::<Inv>(&inv_config);
    let mut shrec = node::<Shrec>(&shrec_config);
    let (rpc_limits, codeword_limits) = (RpcLimits::default(), ltcode::wire::Limits::default());
    let (mut rpcs, mut scratch) = (Vec::new(), Vec::new());

    // Each frame: a head of 4 bytes (protocol and peer, length, time step), then its bytes.
    let mut rest = data;
    let mut now = 0u64;
    while let [kind, len_lo, len_hi, step, tail @ ..] = rest {
        let from = PeerIdx(u32::from(*kind >> 4) % PEERS);
        let len = (usize::from(u16::from_le_bytes([*len_lo, *len_hi])) % 4096).min(tail.len());
        let (frame, after) = tail.split_at(len);
        rest = after;
        now += u64::from(*step) * 20_000; // up to about 5 s between frames
        let t = Time(now);
        match kind % 5 {
            0 => {
                if let Ok(m) = CatMsg::decode(frame, cat_config.max_tx_bytes) {
                    feed(&mut cat, t, from, m);
                }
            }
            1 => {
                if let Ok(m) = StrokkurMsg::decode(frame, &codeword_limits) {
                    feed(&mut strokkur, t, from, m);
                }
            }
            2 => {
                rpcs.clear();
                if decode_frame(frame, &rpc_limits, &mut rpcs, &mut scratch).is_ok() {
                    for rpc in rpcs.drain(..) {
                        feed(&mut gossipsub, t, from, rpc);
                    }
                }
            }
            3 => {
                if let Ok(m) = InvMsg::decode(frame, inv_config.max_tx_bytes) {
                    feed(&mut inv, t, from, m);
                }
            }
            _ => {
                if let Ok(m) = ShrecMsg::decode(frame, shrec_config.max_tx_bytes) {
                    feed(&mut shrec, t, from, m);
                }
            }
        }
    }
});
