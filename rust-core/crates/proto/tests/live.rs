//! GossipSub on the live path: real RPC bytes between `GossipNode`s, versions negotiated per
//! peer, validation by the host, hostile peers, and peer indices handed to new peers.

use proto::content::sha256;
use proto::gossipsub::{GossipsubConfig, Limits, Verdict, Version};
use proto::live::{GossipNode, Live, Outbox};
use proto::{PeerIdx, Time, TxStore};

/// Nodes on explicit links; `links[i]` lists (peer index at i) -> (node j, i's index at j).
struct Net {
    nodes: Vec<GossipNode>,
    links: Vec<Vec<(usize, u32)>>,
    outs: Vec<Outbox>,
    /// (from node, to node, kinds, topics) of every frame delivered.
    log: Vec<(usize, usize, Vec<&'static str>, Vec<String>)>,
    now: Time,
    /// The host's verdict on a message's data.
    judge: fn(&[u8]) -> Verdict,
}

fn ms(v: u64) -> Time {
    Time(v * 1_000)
}

fn config(version: Version, d_announce: u32) -> GossipsubConfig {
    GossipsubConfig {
        version,
        topics: vec!["txcast/tx/1".into()],
        // Every link of a line in the mesh: a middle node grafts both its peers.
        d: 4,
        d_lo: 2,
        d_hi: 8,
        d_score: 1,
        d_announce,
        ..Default::default()
    }
}

impl Net {
    /// A line 0 - 1 - 2 - ... with one protocol id per link (what that link negotiated).
    fn line(configs: &[GossipsubConfig], link_ids: &[&str]) -> Net {
        let n = configs.len();
        let nodes = configs
            .iter()
            .enumerate()
            .map(|(i, c)| GossipNode::new(c, i as u64 + 1, TxStore::default(), Limits::default()))
            .collect();
        let mut links = vec![Vec::new(); n];
        for i in 0..n - 1 {
            let (a, b) = (links[i].len() as u32, links[i + 1].len() as u32);
            links[i].push((i + 1, b));
            links[i + 1].push((i, a));
        }
        let mut net = Net {
            nodes,
            links,
            outs: (0..n).map(|_| Outbox::default()).collect(),
            log: Vec::new(),
            now: Time::ZERO,
            judge: |_| Verdict::Accept,
        };
        for (i, id) in link_ids.iter().enumerate().take(n - 1) {
            let (a, b) = (net.links[i].len() as u32 - 1, 0);
            net.nodes[i].peer_up(Time::ZERO, a, id).unwrap();
            net.nodes[i + 1].peer_up(Time::ZERO, b, id).unwrap();
        }
        net
    }

    /// Runs in 5 ms steps until `until`: timers, frames (delivered the next step), verdicts.
    fn run(&mut self, until: Time) {
        let mut in_flight: Vec<(usize, u32, Vec<u8>, usize)> = Vec::new();
        while self.now < until {
            self.now = Time(self.now.0 + 5_000);
            for (to, from_idx, bytes, from) in std::mem::take(&mut in_flight) {
                let info = self.nodes[to]
                    .frame(self.now, from_idx, &bytes)
                    .expect("decodes");
                self.log.push((from, to, info.kinds, info.topics));
            }
            for i in 0..self.nodes.len() {
                let node = &mut self.nodes[i];
                node.poll(self.now);
                node.drain(&mut self.outs[i]);
                for v in std::mem::take(&mut self.outs[i].validations) {
                    node.validated(self.now, v.handle, (self.judge)(&v.data));
                }
                node.drain(&mut self.outs[i]);
                for f in std::mem::take(&mut self.outs[i].frames) {
                    let (to, back) = self.links[i][f.peer as usize];
                    in_flight.push((to, back, f.bytes, i));
                }
            }
        }
    }

    fn delivered(&self, node: usize) -> Vec<[u8; 32]> {
        self.outs[node].delivered.iter().map(|d| d.hash).collect()
    }

    fn count(&self, node: usize, name: &str) -> u64 {
        self.outs[node].counters.get(name).copied().unwrap_or(0)
    }

    fn sent(&self, from: usize, to: usize, kind: &str) -> usize {
        self.log
            .iter()
            .filter(|(f, t, _, _)| *f == from && *t == to)
            .map(|(_, _, kinds, _)| kinds.iter().filter(|k| **k == kind).count())
            .sum()
    }
}

#[test]
fn v2_nodes_negotiate_lazy_pull_and_deliver_with_iannounce_and_ineed() {
    let c = config(Version::V2_0, 4);
    let mut net = Net::line(&[c.clone(), c.clone(), c], &["/meshsub/2.0.0"; 2]);
    net.run(ms(2_000));
    let hash = net.nodes[0].submit(net.now, &[5u8; 3_000]).unwrap();
    net.run(ms(3_000));
    for i in 0..3 {
        assert_eq!(net.delivered(i), vec![hash], "node {i}");
    }
    // The publisher sends in full; node 1 announces to node 2 (D_announce = D), which pulls.
    assert_eq!(net.sent(0, 1, "publish"), 1);
    assert_eq!(net.sent(1, 2, "iannounce"), 1);
    assert_eq!(net.sent(2, 1, "ineed"), 1);
    assert_eq!(net.sent(1, 2, "publish"), 1);
    assert_eq!(net.count(1, "gossipsub.iannounce_sent"), 1);
    assert_eq!(net.count(2, "gossipsub.ineed_sent"), 1);
    // Each entry is told with its topic, the INEED's learnt from the IANNOUNCE it answers.
    for (_, _, kinds, topics) in &net.log {
        assert_eq!(kinds.len(), topics.len());
        for (kind, topic) in kinds.iter().zip(topics) {
            if ["publish", "iannounce", "ineed"].contains(kind) {
                assert_eq!(topic, "txcast/tx/1", "{kind}");
            }
        }
    }
}

#[test]
fn a_v1_2_peer_never_gets_iannounce_or_ineed() {
    // Node 1 speaks v2.0 but its link to node 2 negotiated /meshsub/1.2.0.
    let c = config(Version::V2_0, 4);
    let mut net = Net::line(
        &[c.clone(), c.clone(), config(Version::V1_2, 0)],
        &["/meshsub/2.0.0", "/meshsub/1.2.0"],
    );
    net.run(ms(2_000));
    let hash = net.nodes[0].submit(net.now, &[6u8; 3_000]).unwrap();
    net.run(ms(3_000));
    assert_eq!(net.delivered(2), vec![hash]);
    assert_eq!(net.sent(1, 2, "iannounce"), 0);
    assert_eq!(net.sent(1, 2, "publish"), 1, "sent in full instead");
    assert_eq!(net.sent(2, 1, "ineed"), 0);
}

#[test]
fn idontwant_goes_to_v1_2_mesh_peers_for_large_messages_only() {
    // A triangle would need more links; a line of four: 0 - 1 - 2 - 3, all v1.2.
    let c = config(Version::V1_2, 0);
    let mut net = Net::line(
        &[c.clone(), c.clone(), c.clone(), c],
        &["/meshsub/1.2.0"; 3],
    );
    net.run(ms(2_000));
    net.nodes[0].submit(net.now, &[1u8; 100]).unwrap();
    net.run(ms(2_500));
    assert_eq!(
        net.count(1, "gossipsub.idontwant_sent"),
        0,
        "100 bytes: under the 1 KiB threshold"
    );
    net.nodes[0].submit(net.now, &[2u8; 2_000]).unwrap();
    net.run(ms(3_000));
    assert!((0..4).all(|i| net.delivered(i).len() == 2));
    // Node 1 got it from 0 and tells its other mesh peer, node 2, not to send it back.
    assert_eq!(net.sent(1, 2, "idontwant"), 1);
    assert_eq!(net.sent(2, 3, "idontwant"), 1);
}

#[test]
fn rejected_messages_cost_the_sender_and_are_not_delivered() {
    let c = config(Version::V1_2, 0);
    let mut net = Net::line(&[c.clone(), c], &["/meshsub/1.2.0"]);
    net.judge = |data| {
        if data[0] == 0xad {
            Verdict::Reject
        } else {
            Verdict::Accept
        }
    };
    net.run(ms(2_000));
    net.nodes[0].submit(net.now, &[0xad; 10]).unwrap();
    net.run(ms(2_500));
    assert!(net.delivered(1).is_empty());
    assert_eq!(net.count(1, "gossipsub.invalid_message"), 1);
    assert!(net.nodes[1].driver().protocol().peer_score(PeerIdx(0)) < 0.0);
}

#[test]
fn an_announcer_that_never_answers_is_penalized_and_the_next_one_asked() {
    // Node 1 in the middle gets IANNOUNCE from a withholding node 0 (hand-made bytes) and from
    // node 2, which answers.
    let c = config(Version::V2_0, 4);
    let mut net = Net::line(&[c.clone(), c.clone(), c], &["/meshsub/2.0.0"; 2]);
    net.run(ms(2_000));
    let id = sha256(&[3u8; 1_500]);
    let announce = |topic: &str| {
        let mut item = vec![0x0a, topic.len() as u8];
        item.extend(topic.as_bytes());
        item.extend([0x12, 32]);
        item.extend(id);
        let mut control = vec![6 << 3 | 2, item.len() as u8];
        control.extend(item);
        let mut rpc = vec![0x1a, control.len() as u8];
        rpc.extend(control);
        rpc
    };
    let rpc = announce("txcast/tx/1");
    let now = net.now;
    net.nodes[1].frame(now, 0, &rpc).unwrap();
    net.nodes[1].drain(&mut net.outs[1]);
    let first: Vec<_> = net.outs[1].frames.drain(..).collect();
    assert_eq!(first.len(), 1);
    assert_eq!(
        (first[0].peer, first[0].info.kinds.clone()),
        (0, vec!["ineed"])
    );
    // Node 2 announces too while the INEED to node 0 is in flight: queued.
    net.nodes[1].frame(now, 1, &rpc).unwrap();
    net.nodes[1].drain(&mut net.outs[1]);
    assert!(net.outs[1].frames.is_empty());
    // Node 0 never answers: after the INEED timeout (400 ms) node 2 is asked.
    net.nodes[1].poll(Time(now.0 + 401_000));
    net.nodes[1].drain(&mut net.outs[1]);
    let second: Vec<_> = net.outs[1].frames.drain(..).collect();
    assert_eq!(
        second
            .iter()
            .map(|f| (f.peer, f.info.kinds.clone()))
            .collect::<Vec<_>>(),
        vec![(1, vec!["ineed"])]
    );
    assert_eq!(net.count(1, "gossipsub.ineed_timeout"), 1);
    let gs = net.nodes[1].driver().protocol();
    assert!(
        gs.peer_score(PeerIdx(0)) < 0.0,
        "the silent announcer is penalized"
    );
    assert_eq!(gs.peer_score(PeerIdx(1)), 0.0);
}

#[test]
fn a_reused_peer_index_starts_with_nothing() {
    let c = config(Version::V2_0, 4);
    let mut net = Net::line(&[c.clone(), c], &["/meshsub/2.0.0"]);
    net.judge = |_| Verdict::Reject;
    net.run(ms(2_000));
    net.nodes[0].submit(net.now, &[1u8; 50]).unwrap();
    net.run(ms(2_500));
    let gs = net.nodes[1].driver().protocol();
    assert!(gs.peer_score(PeerIdx(0)) < 0.0);
    assert!(gs.backed_off(PeerIdx(0), net.now), "pruned for its score");
    // Peer 0 leaves; a new peer gets index 0 and is judged on its own.
    let now = net.now;
    net.nodes[1].peer_down(now, 0);
    net.nodes[1].peer_up(now, 0, "/meshsub/1.2.0").unwrap();
    let gs = net.nodes[1].driver().protocol();
    assert_eq!(gs.peer_score(PeerIdx(0)), 0.0);
    assert!(gs.mesh().is_empty());
    assert!(!gs.backed_off(PeerIdx(0), now));
    // And it can join the mesh at the next heartbeat (its side sees a new connection too).
    net.nodes[0].peer_down(now, 0);
    net.nodes[0].peer_up(now, 0, "/meshsub/1.2.0").unwrap();
    net.judge = |_| Verdict::Accept;
    net.run(Time(now.0 + 2_000_000));
    assert_eq!(net.nodes[1].driver().protocol().mesh(), &[PeerIdx(0)]);
}

#[test]
fn every_live_protocol_refuses_a_tx_that_would_not_fit_a_frame() {
    use proto::cat::CatConfig;
    use proto::live::{Framed, MAX_FRAME_BYTES};
    let mut cat = Framed::cat(CatConfig::default(), 1, TxStore::default());
    let max = cat.max_tx_bytes();
    assert!(max < MAX_FRAME_BYTES);
    assert!(cat.submit(Time::ZERO, &vec![1; max + 1]).is_err());
    assert!(cat.submit(Time::ZERO, &[]).is_err());
    assert!(cat.submit(Time::ZERO, &vec![1; max]).is_ok());
    let mut gossip = GossipNode::new(
        &config(Version::V1_2, 0),
        1,
        TxStore::default(),
        Limits::default(),
    );
    let max = gossip.max_tx_bytes();
    assert!(gossip.submit(Time::ZERO, &vec![1; max + 1]).is_err());
    assert!(gossip.submit(Time::ZERO, &vec![1; max]).is_ok());
}
