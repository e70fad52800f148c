// txcast's live peer-to-peer code: shared by the light node page (web/lightnode/) and the Node
// relay (scripts/relay/), which both import it from here (or from its files). Plain JS that runs
// in a browser and in Node alike: it must not touch the DOM (no document, window or elements),
// and the WASM module it drives (web/wasm) is initialised by the caller.
//   ban.mjs      time-limited bans of misbehaving peers, by peer id
//   clock.mjs    the monotonic clock the live path runs on
//   live-node.mjs   the WASM light-node engine as plain JS objects, each in its own instance, rebuilt after a trap
//   frame-reader.mjs  length-prefixed frames off a stream, with flow control
//   framed.mjs   a txcast protocol (CAT, Strokkur, txcast's GossipSub) on libp2p streams
//   gossip.mjs   GossipSub behind one face: txcast's router or @libp2p/gossipsub
//   muxer.mjs    the stream muxer every node runs (a window backpressure can hold)
//   txwire.mjs   txs on the wire: topics, generated txs with their submit time, parsing a user's tx
// The page imports the files it needs directly where loading the rest would cost (the panel
// loads txwire.mjs up front, framed.mjs and gossip.mjs only when a light node starts).
export { BAN_MS, BanList, MAX_BANS } from './ban.mjs';
export { monotonic } from './clock.mjs';
export { STREAM_WINDOW_BYTES, txcastMuxer } from './muxer.mjs';
export { LiveNode, loadEngine } from './live-node.mjs';
export { DEFAULT_LIMITS, FramedProtocol, LIVE_CONFIGS, MAX_TX_BYTES, PROTOCOL_IDS } from './framed.mjs';
export { announcementOf, gossipServices, JsGossip, judge, liveConfig, makeGossip, MAX_ANNOUNCE_BYTES, MAX_ANNOUNCED_ADDRS, ownRelayedAddr, ROUTERS, TxcastGossip, VERSIONS } from './gossip.mjs';
export { ANNOUNCE_TOPIC, DEFAULT_TX_BYTES, GENERATED_HEADER_BYTES, generatedTx, parseTx, sentAtOf, toHex, TX_TOPIC, wallMs } from './txwire.mjs';
