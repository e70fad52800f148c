//! Windowed LT codes for transaction broadcast, as in Strokkur (seed `004`, §3-§4).
//! Pure and deterministic: no clock (times are `u64` microseconds passed in), no global RNG
//! (randomness comes through [`CodecRng`]), no I/O; builds for `wasm32-unknown-unknown`.
//!
//! # Model
//! Everything is a *symbol* of exactly `Params::symbol_len` (l) bytes: a fixed-size
//! transaction, or a fragment of a variable-size one ([`fragment`]). Inside the codec a symbol is
//! a *value* of the codec's [`Form`]: its bytes, or (in a simulation that never checks
//! payloads) a stand-in that carries its [`digest`] and a tag. Every link's short ID hashes
//! the symbol's *name*: its bytes on a real network, its digest in a simulation ([`form`]).
//!
//! # Sending side (one node, many links)
//! - [`CodingWindow`]: the node's FIFO of its k most recent symbols (received or created).
//!   One per node; push every new symbol into it.
//! - [`LinkEncoder`]: one per link direction, holding the key the *receiver* sent
//!   ([`LinkKey`]); remembers which window members the link has named, and caches their
//!   short IDs under that key where an ID costs a hash.
//! - [`Encoder`]: degree sampling ([`RobustSoliton`]) and scratch, shared by all links.
//!   `encoder.encode(&window, &mut link, &mut rng, &mut codeword)` writes one [`Codeword`]
//!   (short IDs + XOR payload), reusing the codeword's buffers. Members are drawn uniformly,
//!   except that a link keeping up with its window names each member before it leaves
//!   (see [`encoder`]).
//!
//! # Receiving side (one decoder per node)
//! - [`Decoder::new`]`(&params, rng)`; for each peer, draw a key with [`LinkKey::random`],
//!   send it to the peer ([`wire::encode_key`]) and call `add_sender(&key)` → [`SenderId`].
//!   `remove_sender` when the peer goes.
//! - `receive(sender, now_us, &ids, &payload, &mut events)` takes one codeword. It peels
//!   symbols already known, decodes degree-1 codewords only when the payload's name hashes
//!   to the remaining ID under that sender's key, re-keys every decoded symbol for all senders
//!   and peels their waiting codewords. Malformed codewords are refused with a [`Reject`].
//! - `insert_known(&symbol, &mut events)`: a symbol the node has from elsewhere (its own).
//! - `poll(now_us, &mut events)` / `next_deadline()`: codewords undecoded for tau become
//!   [`Event::Loss`] for their sender (the rate controller's signal; `max_pending` bounds
//!   memory the same way). [`Event::Decoded`]`{ seq, from }` names a new symbol, read it with
//!   `symbol(seq)` while it is among the last m; [`Event::Corrupt`] counts failed checks.
//!   Per-sender counters: `stats(sender)`.
//!
//! # Wire
//! [`wire`]: versioned codeword and key-exchange messages, `wire_len()`, and a decoder for
//! untrusted bytes with typed errors and [`wire::Limits`] on every length.
//!
//! # Variable-size transactions
//! [`fragment::fragment`] splits a transaction into l-byte fragments chained by BLAKE2b-256
//! hashes; [`fragment::Reassembler`] turns decoded fragments back into transactions.
//!
//! # Measurements
//! In the `bench` crate, not here: `bench::codec::headline` (the figures of `txsim bench codec`;
//! the caller supplies the clock) and `bench::codec::block_overhead` (codewords per decoded
//! transaction, Figure 1); Criterion benches of the pieces in `benches/codec.rs`.
//!
//! # Example: one link, one block
//! ```
//! use ltcode::{Codeword, CodingWindow, Decoder, Encoder, Event, LinkEncoder, LinkKey, Params, SplitMix64};
//!
//! let params = Params { window: 4, symbol_len: 16, ..Params::default() };
//! let mut rng = SplitMix64::new(7); // the simulator passes its seeded proto::Rng instead
//! // Receiver: draws a key for the link and registers the sender under it.
//! let key = LinkKey::random(&mut rng);
//! let mut decoder = Decoder::new(&params, &mut rng).unwrap();
//! let from = decoder.add_sender(&key);
//! // Sender: its node window, and a link encoder holding the receiver's key.
//! let mut window = CodingWindow::new(&params).unwrap();
//! for i in 0..4u8 {
//!     window.push(&[i; 16]).unwrap();
//! }
//! let mut encoder = Encoder::new(&params).unwrap();
//! let mut link = LinkEncoder::new(key, params.form);
//! let (mut cw, mut events, mut got) = (Codeword::default(), Vec::new(), Vec::new());
//! let mut now_us = 0;
//! while got.len() < 4 {
//!     encoder.encode(&window, &mut link, &mut rng, &mut cw);
//!     now_us += 1_000;
//!     decoder.receive(from, now_us, &cw.ids, &cw.payload, &mut events).unwrap();
//!     for event in events.drain(..) {
//!         if let Event::Decoded { seq, .. } = event {
//!             got.push(decoder.symbol(seq).unwrap().to_vec());
//!         }
//!     }
//! }
//! got.sort();
//! assert_eq!(got, (0..4u8).map(|i| vec![i; 16]).collect::<Vec<_>>());
//! ```
//!
//! # For the Strokkur protocol (crate proto)
//! - `impl ltcode::CodecRng for proto::Rng` (one line in proto) lets the codec draw from the
//!   node's seeded stream.
//! - Per node: one `CodingWindow` (push every tx it creates or decodes), one `Encoder`, one
//!   `Decoder`; per peer: a `LinkEncoder` (keyed by the key the peer sent) and a `SenderId`
//!   (keyed by the key this node sent). Codeword pacing (the MIMD controller) lives in proto:
//!   each `Event::Loss { sender }` is one loss to report back to that peer.
//! - Wire sizes: `Codeword::wire_len()`, `wire::key_wire_len()`; both round-trip through
//!   `wire::decode` with `wire::Limits::for_params(&params)`.
//! - Times are microseconds (`proto::Time.0`); `poll` at `next_deadline()` (a timer that may
//!   find nothing to do, as proto timers are never cancelled).

pub mod decoder;
pub mod digest;
mod edges;
pub mod encoder;
pub mod form;
pub mod fragment;
mod idmap;
pub mod last_built;
mod named;
pub mod params;
pub mod peeling;
mod pending;
pub mod prefetch;
mod ring;
pub mod rng;
pub mod shortid;
pub mod soliton;
pub mod window;
pub mod wire;
mod xor;

pub use decoder::{Decoder, Event, Reject, SenderId, SenderStats};
pub use digest::{digest, Digest, DIGEST_LEN};
pub use encoder::{Codeword, Encoder, LinkEncoder};
pub use form::{Form, STAND_IN_LEN};
pub use params::{ParamError, Params};
pub use peeling::{PeelStep, Peeling};
pub use rng::{CodecRng, SplitMix64};
pub use shortid::{short_id, LinkKey, ShortId, ShortIdHasher};
pub use soliton::RobustSoliton;
pub use window::{CodingWindow, WrongLength};
