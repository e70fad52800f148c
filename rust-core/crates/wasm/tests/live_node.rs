//! Two light nodes wired back to back through their byte frames, as two browsers would be.
//! (The protocols' live behaviour is tested in `proto/tests/live.rs`; this checks the wrapper.)

use txcast_wasm::LiveNode;

/// Deliver frames both ways, firing timers and accepting every message to validate, for 20
/// simulated seconds; returns what each frame carried, by kind.
fn exchange(a: &mut LiveNode, b: &mut LiveNode, mut now: f64) -> Vec<(String, u32, Vec<String>)> {
    let mut seen = Vec::new();
    for _ in 0..2000 {
        now += 10.0;
        a.poll(now).unwrap();
        b.poll(now).unwrap();
        for f in a.take_frames() {
            seen.push(hand_over(&f, b, now));
        }
        for f in b.take_frames() {
            seen.push(hand_over(&f, a, now));
        }
        for node in [&mut *a, &mut *b] {
            for v in node.take_validations() {
                node.validated(v.handle, "accept", now).unwrap();
            }
        }
    }
    seen
}

fn hand_over(
    f: &txcast_wasm::live_node::OutFrame,
    to: &mut LiveNode,
    now: f64,
) -> (String, u32, Vec<String>) {
    let info = to
        .on_frame(0, &f.bytes, now)
        .expect("a frame the other end sent decodes");
    assert_eq!(info.kinds, f.info.kinds, "both ends see the same frame");
    (info.kinds.join("+"), info.payload, info.txs)
}

fn pair(protocol: &str, config: &str) -> (LiveNode, LiveNode) {
    let mut a = LiveNode::new(protocol, config, 1, 0.0).unwrap();
    let mut b = LiveNode::new(protocol, config, 2, 0.0).unwrap();
    a.peer_up(0, 0.0, "").unwrap();
    b.peer_up(0, 0.0, "").unwrap();
    (a, b)
}

fn hashes(node: &mut LiveNode) -> Vec<String> {
    node.take_delivered().into_iter().map(|d| d.hash).collect()
}

#[test]
fn cat_carries_the_bytes_a_user_gives() {
    let (mut a, mut b) = pair("cat", "{}");
    let id_a = a.submit(b"hello from a", 1.0).unwrap();
    let id_b = b.submit(&[7u8; 500], 1.0).unwrap();
    let frames = exchange(&mut a, &mut b, 1.0);
    assert_eq!(hashes(&mut a), vec![id_a.clone(), id_b.clone()]);
    let got = b.take_delivered();
    assert_eq!(got[1].data, b"hello from a");
    assert_eq!(got[1].hash, id_a);
    // The tx crossed once each way as payload; everything else was control.
    let payload: Vec<_> = frames.iter().filter(|(_, p, _)| *p > 0).collect();
    assert_eq!(payload.len(), 2, "{frames:?}");
    assert!(payload
        .iter()
        .any(|(k, p, txs)| k == "Txs" && *p == 12 && txs == std::slice::from_ref(&id_a)));
}

#[test]
fn strokkur_carries_any_bytes() {
    let (mut a, mut b) = pair("strokkur", r#"{"idle_after_ms": 5000}"#);
    let mut sent: Vec<String> = (0..20u8)
        .map(|i| a.submit(&[i; 128], 1.0 + i as f64).unwrap())
        .collect();
    sent.push(a.submit(&[9u8; 1_000], 25.0).unwrap());
    exchange(&mut a, &mut b, 30.0);
    let mut got = hashes(&mut b);
    got.sort();
    sent.sort();
    assert_eq!(got, sent);
}

#[test]
fn gossipsub_validates_through_the_page_and_delivers() {
    let (mut a, mut b) = pair("gossipsub", r#"{"topics": ["t"], "version": "v1.2"}"#);
    exchange(&mut a, &mut b, 1.0);
    let id = a.submit(&[1u8; 2_000], 1_500.0).unwrap();
    let mut now = 1_500.0;
    let mut asked = Vec::new();
    for _ in 0..50 {
        now += 10.0;
        for f in a.take_frames() {
            b.on_frame(0, &f.bytes, now).unwrap();
        }
        for v in b.take_validations() {
            assert_eq!((v.topic.as_str(), v.data.len()), ("t", 2_000));
            asked.push(v.handle);
            b.validated(v.handle, "accept", now).unwrap();
        }
    }
    assert_eq!(asked.len(), 1);
    assert_eq!(hashes(&mut b), vec![id]);
}

#[test]
fn malformed_frames_are_counted_not_fatal() {
    let (mut a, mut b) = pair("cat", "");
    assert!(a.on_frame(0, &[0xff; 12], 1.0).is_none());
    assert!(a.on_frame(0, &[], 1.0).is_none());
    assert!(a.on_frame(0, &vec![0u8; 3 << 20], 1.0).is_none());
    assert!(a.on_frame(999_999, &[1, 2, 3], 1.0).is_none());
    let counters: serde_json::Value = serde_json::from_str(&a.counters()).unwrap();
    assert_eq!(counters["lightnode.malformed_frames"], 4);
    assert_eq!(counters["lightnode.oversized_frames"], 1);
    // Every name counted is described: the light node's own, or CAT's.
    let own = txcast_wasm::live_node::COUNTERS;
    proto::check_counters("lightnode", own).unwrap();
    for name in counters.as_object().unwrap().keys() {
        let mut known = own.iter().chain(proto::cat::counters::ALL);
        assert!(known.any(|c| c.name == *name), "{name}");
    }
    // Still working afterwards.
    let id = b.submit(b"after the garbage", 2.0).unwrap();
    exchange(&mut a, &mut b, 2.0);
    assert!(hashes(&mut a).contains(&id));
}

#[test]
fn txs_of_one_to_eight_bytes_arrive_intact_on_every_protocol() {
    let configs = [
        ("cat", "{}"),
        ("strokkur", r#"{"idle_after_ms": 5000}"#),
        ("gossipsub", r#"{"topics": ["t"], "version": "v1.2"}"#),
    ];
    for (protocol, config) in configs {
        let (mut a, mut b) = pair(protocol, config);
        exchange(&mut a, &mut b, 1.0);
        let sent: Vec<(String, Vec<u8>)> = (1..=8u8)
            .map(|n| {
                let bytes = vec![n; n as usize];
                (a.submit(&bytes, 30_000.0 + n as f64).unwrap(), bytes)
            })
            .collect();
        exchange(&mut a, &mut b, 30_100.0);
        let mut got: Vec<_> = b
            .take_delivered()
            .into_iter()
            .map(|d| (d.hash, d.data))
            .collect();
        got.sort();
        let mut want = sent.clone();
        want.sort();
        assert_eq!(got, want, "{protocol}");
    }
}

#[test]
fn only_a_connected_peer_number_may_hand_in_frames() {
    let (mut a, mut b) = pair("cat", "{}");
    b.submit(b"for a", 1.0).unwrap();
    let frames = b.take_frames();
    // Peer 1 never came up; peer 0 leaves and its number waits for the next peer.
    assert!(a.on_frame(1, &frames[0].bytes, 2.0).is_none());
    a.peer_down(0, 2.0).unwrap();
    assert!(a.on_frame(0, &frames[0].bytes, 3.0).is_none());
    let counters: serde_json::Value = serde_json::from_str(&a.counters()).unwrap();
    assert_eq!(counters["lightnode.from_peer_not_up"], 2);
    assert!(a.take_delivered().is_empty());
    a.peer_up(0, 4.0, "").unwrap();
    assert!(a.on_frame(0, &frames[0].bytes, 5.0).is_some());
    assert_eq!(a.take_delivered().len(), 1);
}

#[test]
fn the_largest_tx_fits_a_frame_and_a_bigger_one_is_refused() {
    let (mut a, mut b) = pair("cat", "{}");
    let max = a.max_tx_bytes() as usize;
    assert_eq!(max, (1 << 20) - 1024);
    // (A bigger one is refused with an error: tested in web/p2p, where errors are JS errors.)
    let id = a.submit(&vec![2u8; max], 1.0).unwrap();
    let frames = a.take_frames();
    assert!(frames[0].bytes.len() <= txcast_wasm::live_node::max_frame_bytes() as usize);
    b.on_frame(0, &frames[0].bytes, 2.0)
        .expect("a full-size tx crosses");
    assert_eq!(hashes(&mut b), vec![id]);
    let strokkur = LiveNode::new("strokkur", r#"{"max_fragments": 64}"#, 1, 0.0).unwrap();
    assert_eq!(strokkur.max_tx_bytes(), 64 * 93);
    let gossip = LiveNode::new("gossipsub", "{}", 1, 0.0).unwrap();
    assert_eq!(gossip.max_tx_bytes(), (1 << 20) - 1024);
}
