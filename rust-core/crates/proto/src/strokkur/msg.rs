//! Strokkur's one message and its exact encoding: a codec message from `ltcode::wire` (a
//! codeword, or the key a receiver gives a sender) behind the loss count the sender of the
//! message reports to the receiver (losses travel piggybacked, as in the reference node). A
//! node with nothing to code yet sends the count alone (no codec message).
//!
//! ```text
//! frame   = len:varint body                      (len = bytes of body)
//! body    = losses:varint [codec_message]        (codec_message: see ltcode::wire)
//! ```

use crate::wire::{framed_len, put_varint, varint_len, Reader, WireError};
use crate::{MsgClass, WireMsg};
use ltcode::wire::{Limits, Message};
use ltcode::{Codeword, LinkKey};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrokkurMsg {
    /// Codewords from the receiver that the sender of this message failed to decode within
    /// tau since its previous report.
    pub losses: u32,
    /// None: a loss report alone.
    pub body: Option<Message>,
}

impl StrokkurMsg {
    pub fn key(key: LinkKey) -> StrokkurMsg {
        StrokkurMsg {
            losses: 0,
            body: Some(Message::Key(key)),
        }
    }

    pub fn codeword(losses: u32, codeword: Codeword) -> StrokkurMsg {
        StrokkurMsg {
            losses,
            body: Some(Message::Codeword(codeword)),
        }
    }

    pub fn report(losses: u32) -> StrokkurMsg {
        StrokkurMsg { losses, body: None }
    }

    fn body_len(&self) -> usize {
        varint_len(self.losses as u64) + self.body.as_ref().map_or(0, Message::wire_len)
    }

    /// The framed bytes of this message.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.clear();
        put_varint(out, self.body_len() as u64);
        put_varint(out, self.losses as u64);
        if let Some(body) = &self.body {
            body.encode(out);
        }
    }

    /// Decodes one framed message from untrusted bytes; `limits` bound the codeword.
    pub fn decode(bytes: &[u8], limits: &Limits) -> Result<StrokkurMsg, WireError> {
        let mut r = Reader::new(bytes);
        // Largest body: a loss count, version, kind, two varints, k ids and l payload bytes.
        let max_body = 5 + 2 + 20 + 4 * limits.max_degree + limits.max_payload_len;
        let len = r.bounded("frame length", max_body as u64)? as usize;
        let body = r.take(len, "frame")?;
        r.finish()?;
        let mut body = Reader::new(body);
        let losses = body.bounded("losses", u32::MAX as u64)? as u32;
        let rest = body.take(body.remaining(), "codec message")?;
        let message = match rest.is_empty() {
            true => None,
            false => Some(ltcode::wire::decode(rest, limits).map_err(codec_error)?),
        };
        Ok(StrokkurMsg {
            losses,
            body: message,
        })
    }
}

fn codec_error(e: ltcode::wire::WireError) -> WireError {
    use ltcode::wire::WireError as E;
    let why = match e {
        E::Truncated => "truncated",
        E::Version(_) => "unknown version",
        E::Kind(k) => return WireError::UnknownTag(k),
        E::VarintOverflow | E::VarintNotMinimal => "bad varint",
        E::DegreeZero => "degree zero",
        E::DegreeTooLarge { .. } => "degree above the window size",
        E::PayloadEmpty => "empty payload",
        E::PayloadTooLarge { .. } => "payload above the symbol size",
        E::TrailingBytes(n) => return WireError::Trailing(n),
    };
    WireError::Invalid {
        field: "codec message",
        why,
    }
}

impl WireMsg for StrokkurMsg {
    fn wire_len(&self) -> usize {
        framed_len(self.body_len())
    }
    /// The XOR of transaction bytes a codeword carries; its header (short IDs) is control.
    fn payload_len(&self) -> usize {
        match &self.body {
            Some(Message::Codeword(cw)) => cw.wire_payload_len(),
            _ => 0,
        }
    }
    fn class(&self) -> MsgClass {
        match self.body {
            Some(Message::Codeword(_)) => MsgClass::Payload,
            Some(Message::Key(_)) | None => MsgClass::Control,
        }
    }
    fn kind(&self) -> &'static str {
        match &self.body {
            Some(Message::Codeword(_)) => "codeword",
            Some(Message::Key(_)) => "key",
            None => "loss report",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn limits() -> Limits {
        Limits {
            max_degree: 50,
            max_payload_len: 128,
        }
    }

    fn round_trip(msg: &StrokkurMsg) {
        let mut out = Vec::new();
        msg.encode(&mut out);
        assert_eq!(out.len(), msg.wire_len(), "{msg:?}");
        assert_eq!(&StrokkurMsg::decode(&out, &limits()).unwrap(), msg);
    }

    #[test]
    fn sizes_follow_the_codec_format() {
        // frame 1 + losses 1 + version 1 + kind 1 + key 16
        assert_eq!(StrokkurMsg::key(LinkKey([7; 16])).wire_len(), 20);
        let cw = Codeword::new(vec![1, 2, 3], vec![9; 128]);
        // frame 2 (body 143 > 127) + losses 1 + version, kind, degree, length 1+1+1+2 + 12 + 128
        let msg = StrokkurMsg::codeword(0, cw.clone());
        assert_eq!(msg.wire_len(), 2 + 1 + 5 + 12 + 128);
        assert_eq!(msg.payload_len(), 128);
        assert_eq!(
            StrokkurMsg::codeword(300, cw).wire_len(),
            2 + 2 + 5 + 12 + 128
        );
    }

    #[test]
    fn messages_round_trip() {
        round_trip(&StrokkurMsg::key(LinkKey([3; 16])));
        round_trip(&StrokkurMsg::report(77));
        assert_eq!(StrokkurMsg::report(77).wire_len(), 2);
        round_trip(&StrokkurMsg::codeword(
            u32::MAX,
            Codeword::new((0..50).collect(), vec![1; 128]),
        ));
        round_trip(&StrokkurMsg::codeword(
            0,
            Codeword::new(vec![u32::MAX], vec![0; 16]),
        ));
    }

    #[test]
    fn bad_input_gives_typed_errors() {
        let too_wide = StrokkurMsg::codeword(1, Codeword::new((0..51).collect(), vec![1; 128]));
        let mut out = Vec::new();
        too_wide.encode(&mut out);
        assert!(matches!(
            StrokkurMsg::decode(&out, &limits()),
            Err(WireError::Invalid { .. })
        ));
        StrokkurMsg::key(LinkKey([1; 16])).encode(&mut out);
        assert!(matches!(
            StrokkurMsg::decode(&out[..out.len() - 1], &limits()),
            Err(WireError::Truncated { .. })
        ));
        out.push(0);
        assert!(StrokkurMsg::decode(&out, &limits()).is_err());
    }

    proptest! {
        #[test]
        fn decoder_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = StrokkurMsg::decode(&bytes, &limits());
        }

        #[test]
        fn codewords_round_trip(losses in any::<u32>(), degree in 1usize..50, l in 1usize..128) {
            round_trip(&StrokkurMsg::codeword(losses, Codeword::new((0..degree as u32).map(|i| i.wrapping_mul(2_654_435_761)).collect(), vec![0x5a; l])));
        }
    }
}
