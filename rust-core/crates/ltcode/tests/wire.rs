//! The codec wire format: round trips, every error, and no panic on arbitrary bytes.

use ltcode::wire::{self, Limits, Message, WireError};
use ltcode::{Codeword, LinkKey};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

fn limits() -> Limits {
    Limits {
        max_degree: 50,
        max_payload_len: 256,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { rng_seed: RngSeed::Fixed(3), ..ProptestConfig::default() })]

    #[test]
    fn codewords_round_trip(ids in prop::collection::vec(any::<u32>(), 1..50), payload in prop::collection::vec(any::<u8>(), 1..256)) {
        let cw = Codeword::new(ids, payload);
        let mut bytes = Vec::new();
        cw.encode(&mut bytes);
        prop_assert_eq!(bytes.len(), cw.wire_len());
        prop_assert_eq!(wire::decode(&bytes, &limits()), Ok(Message::Codeword(cw.clone())));
        let mut reused = Codeword::new(vec![9; 3], vec![1; 7]);
        wire::decode_codeword_into(&bytes, &limits(), &mut reused).unwrap();
        prop_assert_eq!(reused, cw);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        if let Ok(message) = wire::decode(&bytes, &limits()) {
            // Whatever decodes re-encodes to the same bytes: the encoding is canonical.
            let mut again = Vec::new();
            message.encode(&mut again);
            prop_assert_eq!(again, bytes);
        }
    }
}

#[test]
fn keys_round_trip() {
    let key = LinkKey([7; 16]);
    let mut bytes = Vec::new();
    wire::encode_key(&key, &mut bytes);
    assert_eq!(bytes.len(), wire::key_wire_len());
    assert_eq!(Message::Key(key).wire_len(), bytes.len());
    assert_eq!(wire::decode(&bytes, &limits()), Ok(Message::Key(key)));
}

#[test]
fn every_error_is_typed() {
    let cw = Codeword::new(vec![1, 2], vec![5; 10]);
    let mut good = Vec::new();
    cw.encode(&mut good);
    let l = limits();
    const V: u8 = wire::VERSION;
    assert_eq!(wire::decode(&[], &l), Err(WireError::Truncated));
    assert_eq!(wire::decode(&[2, 1], &l), Err(WireError::Version(2)));
    assert_eq!(wire::decode(&[V, 9], &l), Err(WireError::Kind(9)));
    assert_eq!(
        wire::decode(&good[..good.len() - 1], &l),
        Err(WireError::Truncated)
    );
    let mut trailing = good.clone();
    trailing.push(0);
    assert_eq!(
        wire::decode(&trailing, &l),
        Err(WireError::TrailingBytes(1))
    );
    assert_eq!(
        wire::decode(&[V, 1, 0, 1, 0], &l),
        Err(WireError::DegreeZero)
    );
    assert_eq!(
        wire::decode(&[V, 1, 51, 1], &l),
        Err(WireError::DegreeTooLarge {
            degree: 51,
            max: 50
        })
    );
    assert_eq!(
        wire::decode(&[V, 1, 1, 0], &l),
        Err(WireError::PayloadEmpty)
    );
    assert_eq!(
        wire::decode(&[V, 1, 1, 0x81, 0x02], &l),
        Err(WireError::PayloadTooLarge { len: 257, max: 256 })
    );
    assert_eq!(
        wire::decode(&[V, 1, 0x81, 0x00], &l),
        Err(WireError::VarintNotMinimal)
    );
    let mut huge = vec![V, 1];
    huge.extend([0xff; 10]);
    assert_eq!(wire::decode(&huge, &l), Err(WireError::VarintOverflow));
    assert_eq!(wire::decode(&[V, 2, 0, 0], &l), Err(WireError::Truncated));
    let mut wrong_kind = Codeword::default();
    assert_eq!(
        wire::decode_codeword_into(&[V, 2], &l, &mut wrong_kind),
        Err(WireError::Kind(2))
    );
}
