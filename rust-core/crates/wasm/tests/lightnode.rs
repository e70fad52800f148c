//! Two light nodes wired back to back through their byte frames, as two browsers would be.

use txcast_wasm::LightNode;

/// Split `take_frames`'s flat encoding into (peer, frame) pairs.
fn frames(flat: &[u8]) -> Vec<(u32, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < flat.len() {
        let peer = u32::from_le_bytes(flat[at..at + 4].try_into().unwrap());
        let len = u32::from_le_bytes(flat[at + 4..at + 8].try_into().unwrap()) as usize;
        out.push((peer, flat[at + 8..at + 8 + len].to_vec()));
        at += 8 + len;
    }
    out
}

/// Deliver frames both ways, firing timers, until nothing moves for a simulated second.
fn exchange(a: &mut LightNode, b: &mut LightNode, mut now: f64) -> f64 {
    for _ in 0..2000 {
        now += 10.0;
        a.poll(now);
        b.poll(now);
        let (fa, fb) = (frames(&a.take_frames()), frames(&b.take_frames()));
        for (_, f) in &fa {
            assert!(b.on_frame(0, f, now));
        }
        for (_, f) in &fb {
            assert!(a.on_frame(0, f, now));
        }
    }
    now
}

fn pair(protocol: &str) -> (LightNode, LightNode) {
    let mut a = LightNode::new(protocol, "{}", 1, 0.0).unwrap();
    let mut b = LightNode::new(protocol, "{}", 2, 0.0).unwrap();
    a.peer_up(0, 0.0).unwrap();
    b.peer_up(0, 0.0).unwrap();
    (a, b)
}

#[test]
fn cat_txs_cross_between_two_light_nodes() {
    let (mut a, mut b) = pair("cat");
    let id_a = a.submit(300, 1.0).unwrap();
    let id_b = b.submit(500, 1.0).unwrap();
    exchange(&mut a, &mut b, 1.0);
    assert_eq!(a.take_delivered(), vec![id_a.clone(), id_b.clone()]);
    assert_eq!(b.take_delivered(), vec![id_b, id_a]);
}

#[test]
fn strokkur_txs_cross_between_two_light_nodes() {
    let (mut a, mut b) = pair("strokkur");
    let sent: Vec<String> = (0..20)
        .map(|i| a.submit(128, 1.0 + i as f64).unwrap())
        .collect();
    exchange(&mut a, &mut b, 30.0);
    let mut got = b.take_delivered();
    got.sort();
    let mut want = sent;
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn malformed_frames_are_counted_not_fatal() {
    let (mut a, mut b) = pair("cat");
    assert!(!a.on_frame(0, &[0xff; 12], 1.0));
    assert!(!a.on_frame(0, &[], 1.0));
    assert!(!a.on_frame(0, &vec![0u8; 3 << 20], 1.0));
    assert!(!a.on_frame(999_999, &[1, 2, 3], 1.0));
    let counters: serde_json::Value = serde_json::from_str(&a.counters()).unwrap();
    assert_eq!(counters["lightnode.malformed_frames"], 4);
    assert_eq!(counters["lightnode.oversized_frames"], 1);
    // Still working afterwards.
    let id = b.submit(100, 2.0).unwrap();
    exchange(&mut a, &mut b, 2.0);
    assert!(a.take_delivered().contains(&id));
}

#[test]
fn frame_info_tells_payload_from_control() {
    let (mut a, mut b) = pair("cat");
    let id = a.submit(300, 1.0).unwrap();
    let mut now = 1.0;
    let mut kinds = Vec::new();
    // Step by hand so that every frame each way is described before it is handed over.
    for _ in 0..200 {
        now += 10.0;
        a.poll(now);
        b.poll(now);
        for (_, f) in frames(&a.take_frames()) {
            kinds.push(a.frame_info(&f));
            assert!(b.on_frame(0, &f, now));
        }
        for (_, f) in frames(&b.take_frames()) {
            kinds.push(b.frame_info(&f));
            assert!(a.on_frame(0, &f, now));
        }
    }
    assert!(b.take_delivered().contains(&id));
    // The tx went over once as payload (its bytes and id); everything else was control.
    let payload: Vec<&String> = kinds.iter().filter(|k| !k.ends_with(" 0 -")).collect();
    assert_eq!(payload.len(), 1, "{kinds:?}");
    let parts: Vec<&str> = payload[0].split(' ').collect();
    assert_eq!(parts[1..], ["300", id.as_str()]);
    assert!(kinds.iter().all(|k| !k.is_empty()));
    assert_eq!(a.frame_info(&[0xff; 12]), "");
    assert_eq!(a.frame_info(&[]), "");
}
