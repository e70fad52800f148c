//! The live codec: the bytes other libp2p implementations write and read, hostile frames,
//! signatures, message ids and batching.

use super::*;
use crate::gossipsub::rpc::{MSG_ID_LEN, TOPIC};
use crate::{TxStore, WireMsg};
use proptest::prelude::*;

const T0: TopicId = TopicId(0);

fn names() -> TopicNames {
    let mut n = TopicNames::default();
    n.intern(TOPIC);
    n
}

fn codec() -> Codec {
    Codec::new(&GossipsubConfig::default(), Limits::default())
}

/// A store holding message ids of the simulator's length (and a message), for size checks.
fn sim_store() -> (TxStore, TxId, Message) {
    let mut store = TxStore::default();
    let id = store.intern(&[7; MSG_ID_LEN]).unwrap();
    let msg = codec()
        .own_message(T0, &names(), &[1; 2_000], None, &mut store)
        .unwrap();
    (store, id, msg)
}

fn one(rpc: &Rpc, store: &TxStore) -> Vec<u8> {
    let mut out = Vec::new();
    assert_eq!(
        codec().encode(std::slice::from_ref(rpc), &names(), store, &mut out),
        0
    );
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].entries, [0]);
    out.pop().unwrap().bytes
}

fn decode(bytes: &[u8], store: &mut TxStore) -> Result<(Vec<Rpc>, DecodeReport), WireError> {
    let mut out = Vec::new();
    let report = codec().decode(bytes, &mut names(), store, &mut out)?;
    Ok((out, report))
}

#[test]
fn one_entry_costs_what_the_simulator_charges() {
    let (store, id, msg) = sim_store();
    let entries = [
        Rpc::Subscribe {
            topic: T0,
            subscribe: true,
        },
        Rpc::Subscribe {
            topic: T0,
            subscribe: false,
        },
        Rpc::Publish(msg),
        Rpc::IHave {
            topic: T0,
            ids: vec![id; 300].into(),
        },
        Rpc::IWant(vec![id, id]),
        Rpc::Graft { topic: T0 },
        Rpc::Prune {
            topic: T0,
            backoff_s: None,
        },
        Rpc::Prune {
            topic: T0,
            backoff_s: Some(60),
        },
        Rpc::IDontWant(id),
        Rpc::IAnnounce { topic: T0, id },
        Rpc::INeed(id),
    ];
    for rpc in &entries {
        let body = one(rpc, &store);
        assert_eq!(
            crate::wire::framed_len(body.len()),
            rpc.wire_len(),
            "{rpc:?}"
        );
    }
    // INEED: prefix 1 + control tag/len 2 + item tag/len 2 + id tag/len 2 + 20.
    assert_eq!(Rpc::INeed(id).wire_len(), 27);
    assert_eq!(msg.envelope, 0, "StrictNoSign adds nothing");
}

#[test]
fn field_numbers_follow_the_specs() {
    let (store, id, _) = sim_store();
    let ineed = one(&Rpc::INeed(id), &store);
    // RPC.control = 3, ControlMessage.ineed = 7, ControlINeed.messageID = 2.
    assert_eq!(&ineed[..5], &[0x1a, 24, 7 << 3 | 2, 22, 2 << 3 | 2]);
    let idontwant = one(&Rpc::IDontWant(id), &store);
    assert_eq!(idontwant[2], 5 << 3 | 2);
    let sub = one(
        &Rpc::Subscribe {
            topic: T0,
            subscribe: true,
        },
        &store,
    );
    assert_eq!(&sub[..5], &[0x0a, 24, 0x08, 1, 0x12]);
    // A GRAFT for topic "T" exactly as js-libp2p writes it.
    let mut s = TxStore::default();
    let mut n = TopicNames::default();
    let mut out = Vec::new();
    codec()
        .decode(&[0x1a, 5, 0x1a, 3, 0x0a, 1, b'T'], &mut n, &mut s, &mut out)
        .unwrap();
    assert_eq!(out, vec![Rpc::Graft { topic: TopicId(0) }]);
    assert_eq!(n.name(TopicId(0)), Some("T"));
}

#[test]
fn a_batch_round_trips_and_ids_map_between_stores() {
    let (store, id, msg) = sim_store();
    let entries = vec![
        Rpc::Subscribe {
            topic: T0,
            subscribe: true,
        },
        Rpc::Publish(msg),
        Rpc::IHave {
            topic: T0,
            ids: vec![id, msg.tx.id].into(),
        },
        Rpc::Graft { topic: T0 },
        Rpc::IDontWant(msg.tx.id),
        Rpc::IAnnounce { topic: T0, id },
    ];
    let mut frames = Vec::new();
    assert_eq!(codec().encode(&entries, &names(), &store, &mut frames), 0);
    assert_eq!(frames.len(), 1, "one RPC");
    assert_eq!(frames[0].entries, [0, 1, 2, 3, 4, 5]);
    let mut theirs = TxStore::default();
    let (back, report) = decode(&frames[0].bytes, &mut theirs).unwrap();
    assert_eq!(report, DecodeReport::default());
    let kinds: Vec<&str> = back.iter().map(|r| r.kind()).collect();
    // Fields in protobuf order, control items by number.
    assert_eq!(
        kinds,
        [
            "subscribe",
            "publish",
            "ihave",
            "graft",
            "idontwant",
            "iannounce"
        ]
    );
    let Rpc::Publish(got) = back[1] else { panic!() };
    assert_eq!(got.check, Check::Host, "the host judges received messages");
    assert_eq!(theirs.payload(got.tx.id), store.payload(msg.tx.id));
    assert_eq!(
        theirs.stored(got.tx.id),
        store.stored(msg.tx.id),
        "kept as sent"
    );
    let Rpc::IHave { ids, .. } = &back[2] else {
        panic!()
    };
    assert_eq!(ids[1], got.tx.id, "the same message id, the same handle");
    assert_eq!(theirs.key(ids[0]), store.key(id));
}

#[test]
fn message_ids_follow_the_configured_function() {
    let from = [&[0u8, 36, 8, 1, 18, 32][..], &[9; 32]].concat();
    let parts = MessageParts {
        from: Some(&from),
        data: Some(b"hello"),
        seqno: Some(&[0, 0, 0, 0, 0, 0, 0, 5]),
        topic: "T",
        signature: Some(&[1; 64]),
        key: None,
    };
    assert_eq!(parts.id(MessageIdFn::Content).unwrap(), sha256(b"hello"));
    let from_seqno = parts.id(MessageIdFn::FromSeqno).unwrap();
    assert_eq!(from_seqno.len(), 38 + 8);
    assert!(from_seqno.starts_with(&from));
    // js-libp2p: the key's protobuf (inside an identity multihash peer id) and the seqno.
    let key_seqno = parts.id(MessageIdFn::KeySeqno).unwrap();
    assert_eq!(&key_seqno[..36], &from[2..]);
    assert_eq!(key_seqno.len(), 44);
}

#[test]
fn signatures_cover_the_canonical_fields() {
    let from = [7u8; 38];
    let seqno = [0, 0, 0, 0, 0, 0, 1, 2];
    let parts = MessageParts {
        from: Some(&from),
        data: Some(b"hello"),
        seqno: Some(&seqno),
        topic: "T",
        signature: Some(&[3; 64]),
        key: Some(&[4; 36]),
    };
    let signable = parts.signable();
    let mut expected = b"libp2p-pubsub:".to_vec();
    expected.extend([0x0a, 38]);
    expected.extend(from);
    expected.extend([0x12, 5]);
    expected.extend(b"hello");
    expected.extend([0x1a, 8]);
    expected.extend(seqno);
    expected.extend([0x22, 1, b'T']);
    assert_eq!(signable, expected, "signature and key are not signed");
    // Empty data that was sent stays a field; absent data is no field.
    let empty = MessageParts {
        data: Some(b""),
        ..parts
    };
    let absent = MessageParts {
        data: None,
        ..parts
    };
    assert_ne!(empty.signable(), absent.signable());
}

#[test]
fn own_signed_messages_are_canonical_and_checked_by_the_policy() {
    let config = GossipsubConfig {
        signature_policy: SignaturePolicy::StrictSign,
        message_id: MessageIdFn::FromSeqno,
        ..Default::default()
    };
    let codec = Codec::new(&config, Limits::default());
    let mut store = TxStore::default();
    let from = [0x00, 36, 8, 1, 18, 32]
        .iter()
        .copied()
        .chain([5; 32])
        .collect::<Vec<_>>();
    let signed = OwnMessage {
        from: &from,
        seqno: [0, 0, 0, 0, 0, 0, 0, 1],
        signature: &[9; 64],
    };
    let msg = codec
        .own_message(T0, &names(), b"tx bytes", Some(signed), &mut store)
        .unwrap();
    assert_eq!(msg.envelope, crate::gossipsub::ENVELOPE_STRICT_SIGN);
    assert_eq!(store.payload(msg.tx.id), Some(&b"tx bytes"[..]));
    let mut unknown = 0;
    let parts = MessageParts::parse(store.stored(msg.tx.id).unwrap(), &mut unknown).unwrap();
    assert_eq!(parts.signature, Some(&[9u8; 64][..]));
    assert_eq!(
        store.key(msg.tx.id),
        parts.id(MessageIdFn::FromSeqno).as_deref()
    );
    // StrictSign needs the signed fields; StrictNoSign refuses them.
    assert!(codec
        .own_message(T0, &names(), b"x", None, &mut store)
        .is_none());
    assert!(
        super::Codec::new(&GossipsubConfig::default(), Limits::default())
            .own_message(T0, &names(), b"x", Some(signed), &mut store)
            .is_none()
    );

    // Received: a message breaking the policy is judged invalid at once, and not stored.
    let mut frames = Vec::new();
    codec.encode(&[Rpc::Publish(msg)], &names(), &store, &mut frames);
    let frame = &frames[0].bytes;
    let mut theirs = TxStore::default();
    let mut out = Vec::new();
    let nosign = super::Codec::new(&GossipsubConfig::default(), Limits::default());
    let report = nosign
        .decode(frame, &mut names(), &mut theirs, &mut out)
        .unwrap();
    assert_eq!(report.bad_messages, 1);
    assert!(matches!(
        out[0],
        Rpc::Publish(Message {
            check: Check::Invalid,
            ..
        })
    ));
    assert!(theirs.is_empty());
    out.clear();
    codec
        .decode(frame, &mut names(), &mut theirs, &mut out)
        .unwrap();
    assert!(matches!(
        out[0],
        Rpc::Publish(Message {
            check: Check::Host,
            ..
        })
    ));
}

#[test]
fn a_corrupt_node_spoils_the_data_it_sends() {
    let (store, _, msg) = sim_store();
    let bad = Message {
        check: Check::Invalid,
        ..msg
    };
    let mut frames = Vec::new();
    codec().encode(&[Rpc::Publish(bad)], &names(), &store, &mut frames);
    let mut theirs = TxStore::default();
    let (back, _) = decode(&frames[0].bytes, &mut theirs).unwrap();
    let Rpc::Publish(got) = back[0] else { panic!() };
    assert_ne!(theirs.payload(got.tx.id), store.payload(msg.tx.id));
    assert_ne!(
        theirs.key(got.tx.id),
        store.key(msg.tx.id),
        "content ids differ"
    );
}

#[test]
fn messages_are_packed_up_to_the_size_limit() {
    let limits = Limits {
        max_rpc_bytes: 10_000,
        ..Limits::default()
    };
    let codec = Codec::new(&GossipsubConfig::default(), limits);
    let mut store = TxStore::default();
    let msgs: Vec<Rpc> = (0..5u8)
        .map(|i| {
            Rpc::Publish(
                codec
                    .own_message(T0, &names(), &[i; 4_000], None, &mut store)
                    .unwrap(),
            )
        })
        .chain([Rpc::Graft { topic: T0 }])
        .collect();
    let mut frames = Vec::new();
    codec.encode(&msgs, &names(), &store, &mut frames);
    assert_eq!(
        frames.len(),
        3,
        "2 + 2 + 1 messages, the GRAFT with the first two"
    );
    let carried: Vec<&[usize]> = frames.iter().map(|f| &f.entries[..]).collect();
    assert_eq!(carried, [&[0, 1, 5][..], &[2, 3], &[4]]);
    assert!(frames.iter().all(|f| f.bytes.len() <= 10_000));
    let mut all = Vec::new();
    for f in &frames {
        codec
            .decode(&f.bytes, &mut names(), &mut TxStore::default(), &mut all)
            .unwrap();
    }
    assert_eq!(
        all.iter().filter(|r| matches!(r, Rpc::Publish(_))).count(),
        5
    );
    assert_eq!(
        all.iter()
            .filter(|r| matches!(r, Rpc::Graft { .. }))
            .count(),
        1
    );
}

#[test]
fn many_idontwants_travel_in_items_other_implementations_accept() {
    let mut store = TxStore::default();
    let entries: Vec<Rpc> = (0..600u32)
        .map(|i| Rpc::IDontWant(store.intern(&sha256(&i.to_le_bytes())).unwrap()))
        .collect();
    let mut frames = Vec::new();
    codec().encode(&entries, &names(), &store, &mut frames);
    let frame = &frames[0].bytes;
    let (back, _) = decode(frame, &mut TxStore::default()).unwrap();
    assert_eq!(back.len(), 600);
    // Two IDONTWANT items (512 + 88 ids), as js-libp2p drops an RPC with an item of more.
    let mut r = Reader::new(frame);
    assert_eq!(key(&mut r).unwrap(), (field::RPC_CONTROL, LEN));
    let control = bytes_field(&mut r, LEN, "control", usize::MAX).unwrap();
    let mut r = Reader::new(control);
    let mut sizes = Vec::new();
    while r.remaining() > 0 {
        assert_eq!(key(&mut r).unwrap(), (field::CTRL_IDONTWANT, LEN));
        let item = bytes_field(&mut r, LEN, "item", usize::MAX).unwrap();
        let mut budget = Budget {
            limits: &Limits {
                max_ids: 1_000,
                ..Limits::default()
            },
            entries: 0,
            ids: 0,
        };
        sizes.push(
            Item::parse(field::CTRL_IDONTWANT, item, &mut budget, &mut 0)
                .unwrap()
                .ids
                .len(),
        );
    }
    assert_eq!(sizes, [512, 88]);
}

#[test]
fn what_the_store_forgot_is_left_out_and_counted() {
    let (store, _, msg) = sim_store();
    let gone = TxId(999_999);
    let entries = [
        Rpc::INeed(gone),
        Rpc::IDontWant(gone),
        Rpc::Publish(Message {
            tx: Tx { id: gone, len: 1 },
            ..msg
        }),
    ];
    let mut frames = Vec::new();
    assert_eq!(codec().encode(&entries, &names(), &store, &mut frames), 3);
    assert!(frames.is_empty());
}

#[test]
fn hostile_rpcs_get_typed_errors() {
    let mut s = TxStore::default();
    // Over the size limit: refused before a byte is read.
    let big = vec![0u8; Limits::default().max_rpc_bytes + 1];
    assert!(matches!(
        decode(&big, &mut s),
        Err(WireError::TooLong { field: "rpc", .. })
    ));
    // Too many entries.
    let mut many = Vec::new();
    for _ in 0..=Limits::default().max_entries {
        many.extend([0x1a, 5, 0x1a, 3, 0x0a, 1, b'T']);
    }
    assert!(matches!(
        decode(&many, &mut s),
        Err(WireError::TooLong {
            field: "rpc entries",
            ..
        })
    ));
    // Too many ids across the RPC.
    let mut ids = Vec::new();
    for i in 0..(Limits::default().max_ids + 1) as u32 {
        ids.extend([0x0a, 4]);
        ids.extend(i.to_le_bytes());
    }
    let mut control = vec![0x12];
    put_varint(&mut control, ids.len() as u64);
    control.extend(&ids);
    let mut rpc = vec![0x1a];
    put_varint(&mut rpc, control.len() as u64);
    rpc.extend(&control);
    assert!(matches!(
        decode(&rpc, &mut s),
        Err(WireError::TooLong {
            field: "message ids",
            ..
        })
    ));
    // A message id longer than any store key.
    let mut long = vec![0x1a, 140, 1, 0x12, 137, 1, 0x0a, 134, 1];
    long.extend([1u8; 134]);
    assert!(decode(&long, &mut s).is_err());
    // Truncated, bad wire types, a topic that is not UTF-8, INEED with two ids.
    assert!(decode(&[0x1a, 5, 0x1a], &mut s).is_err());
    assert!(decode(&[0x0b], &mut s).is_err());
    assert!(decode(&[0x0a, 4, 0x12, 2, 0xff, 0xfe], &mut s).is_err());
    assert!(decode(&[0x1a, 8, 0x3a, 6, 0x12, 1, 1, 0x12, 1, 2], &mut s).is_err());
    assert!(
        s.is_empty(),
        "a frame that fails leaves only the ids read before"
    );
}

#[test]
fn unknown_fields_are_skipped_and_counted() {
    let (store, id, msg) = sim_store();
    let mut frames = Vec::new();
    codec().encode(
        &[
            Rpc::Publish(msg),
            Rpc::IHave {
                topic: T0,
                ids: vec![id].into(),
            },
        ],
        &names(),
        &store,
        &mut frames,
    );
    let mut rpc = frames.pop().unwrap().bytes;
    // An unknown varint field 9, and an unknown control item 8 (a future extension).
    rpc.extend([9 << 3, 42]);
    rpc.extend([0x1a, 4, 8 << 3 | 2, 2, 0x0a, 0]);
    let (back, report) = decode(&rpc, &mut TxStore::default()).unwrap();
    assert_eq!(back.len(), 2);
    assert_eq!(report.unknown_fields, 2);
}

#[test]
fn a_full_topic_table_drops_entries_instead_of_growing() {
    let mut n = TopicNames::default();
    for i in 0..crate::gossipsub::MAX_TOPICS {
        n.intern(&i.to_string());
    }
    let mut out = Vec::new();
    let report = codec()
        .decode(
            &[0x0a, 5, 0x12, 3, b'n', b'e', b'w'],
            &mut n,
            &mut TxStore::default(),
            &mut out,
        )
        .unwrap();
    assert!(out.is_empty());
    assert_eq!(report.dropped, 1);
}

fn rpc_strategy() -> impl Strategy<Value = Vec<u8>> {
    let entry = prop_oneof![
        Just(Rpc::Subscribe {
            topic: T0,
            subscribe: true
        }),
        Just(Rpc::Graft { topic: T0 }),
        proptest::option::of(any::<u64>()).prop_map(|backoff_s| Rpc::Prune {
            topic: T0,
            backoff_s
        }),
        Just(Rpc::IDontWant(TxId(0))),
        Just(Rpc::INeed(TxId(0))),
        Just(Rpc::IAnnounce {
            topic: T0,
            id: TxId(0)
        }),
        Just(Rpc::IHave {
            topic: T0,
            ids: vec![TxId(0), TxId(1)].into()
        }),
        Just(Rpc::IWant(vec![TxId(1)])),
        Just(Rpc::Publish(Message {
            tx: Tx {
                id: TxId(1),
                len: 30
            },
            topic: T0,
            envelope: 0,
            check: Check::Valid,
        })),
    ];
    proptest::collection::vec(entry, 1..6).prop_map(|entries| {
        let mut store = TxStore::default();
        store.intern(&[5; 32]);
        store.admit(&[6; 30]);
        let mut frames = Vec::new();
        codec().encode(&entries, &names(), &store, &mut frames);
        frames.into_iter().flat_map(|f| f.bytes).collect()
    })
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = decode(&bytes, &mut TxStore::default());
    }

    #[test]
    fn mutated_rpcs_never_panic(rpc in rpc_strategy(), pos in any::<usize>(), b in any::<u8>()) {
        let mut bytes = rpc;
        if !bytes.is_empty() {
            let i = pos % bytes.len();
            bytes[i] = b;
        }
        let _ = decode(&bytes, &mut TxStore::default());
    }
}
