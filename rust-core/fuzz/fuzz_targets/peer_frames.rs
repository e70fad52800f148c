//! Hostile peers: arbitrary bytes cut into frames and handed to live nodes exactly as the light
//! node and the relay hand them over (`proto::live`): CAT, Strokkur and GossipSub (the libp2p
//! pubsub RPC decoder, then the router, with the host's verdicts on what it must validate), and
//! INV and Shrec through their decoders. Time moves on between frames and timers fire; what the
//! nodes send is encoded. Nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use proto::cat::{Cat, CatConfig};
use proto::gossipsub::{GossipsubConfig, Limits as RpcLimits, Verdict, Version};
use proto::inv::{Inv, InvConfig, InvMsg};
use proto::live::{Framed, GossipNode, Live, Outbox};
use proto::shrec::{Shrec, ShrecConfig, ShrecMsg};
use proto::strokkur::{Strokkur, StrokkurConfig};
use proto::{Driver, Input, NodeSetup, PeerIdx, Protocol, Rng, StoreLimits, Time, TxStore};

const PEERS: u32 = 4;

/// A small store, so that eviction is exercised too.
fn store() -> TxStore {
    TxStore::new(StoreLimits {
        max_entries: 64,
        max_bytes: 1 << 16,
        max_unbacked: 16,
    })
}

fn driver<P: Protocol>(config: &P::Config) -> Driver<P> {
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

/// A live node takes one frame, fires its timers and says what it would send.
fn live(node: &mut dyn Live, now: Time, from: u32, frame: &[u8], out: &mut Outbox) {
    let _ = node.frame(now, from, frame);
    node.poll(now);
    node.drain(out);
}

fuzz_target!(|data: &[u8]| {
    let (inv_config, shrec_config) = (InvConfig::default(), ShrecConfig::default());
    let mut cat = Framed::<Cat>::new(CatConfig::default(), 7, store());
    let mut strokkur = Framed::<Strokkur>::new(StrokkurConfig::default(), 7, store());
    let gossip_config = GossipsubConfig {
        version: Version::V2_0,
        topics: vec!["a".into(), "b".into()],
        ..Default::default()
    };
    let mut gossip = GossipNode::new(&gossip_config, 7, store(), RpcLimits::default());
    let mut inv = driver::<Inv>(&inv_config);
    let mut shrec = driver::<Shrec>(&shrec_config);
    let mut out = Outbox::default();
    let lives: [&mut dyn Live; 3] = [&mut cat, &mut strokkur, &mut gossip];
    for node in lives {
        for p in 0..PEERS {
            let _ = node.peer_up(Time::ZERO, p, if p % 2 == 0 { "/meshsub/1.2.0" } else { "" });
        }
    }

    // Each frame: a head of 4 bytes (protocol and peer, length, time step), then its bytes.
    let mut rest = data;
    let mut now = 0u64;
    while let [kind, len_lo, len_hi, step, tail @ ..] = rest {
        let from = u32::from(*kind >> 4) % PEERS;
        let len = (usize::from(u16::from_le_bytes([*len_lo, *len_hi])) % 4096).min(tail.len());
        let (frame, after) = tail.split_at(len);
        rest = after;
        now += u64::from(*step) * 20_000; // up to about 5 s between frames
        let t = Time(now);
        match kind % 6 {
            0 => live(&mut cat, t, from, frame, &mut out),
            1 => live(&mut strokkur, t, from, frame, &mut out),
            2 => {
                live(&mut gossip, t, from, frame, &mut out);
                // The host's verdicts: some accepted, some rejected, some ignored.
                for (i, v) in out.validations.drain(..).enumerate() {
                    let verdict = [Verdict::Accept, Verdict::Reject, Verdict::Ignore][(i + now as usize) % 3];
                    gossip.validated(t, v.handle, verdict);
                }
            }
            3 => {
                // A peer leaves and another takes its index.
                let node: &mut dyn Live = if frame.first().is_some_and(|b| b % 2 == 0) { &mut gossip } else { &mut cat };
                node.peer_down(t, from);
                let _ = node.peer_up(t, from, "/meshsub/2.0.0");
                let _ = node.submit(t, frame);
            }
            4 => {
                if let Ok(m) = InvMsg::decode(frame, inv_config.max_tx_bytes) {
                    feed(&mut inv, t, PeerIdx(from), m);
                }
            }
            _ => {
                if let Ok(m) = ShrecMsg::decode(frame, shrec_config.max_tx_bytes) {
                    feed(&mut shrec, t, PeerIdx(from), m);
                }
            }
        }
        out.frames.clear();
        out.delivered.clear();
    }
});
