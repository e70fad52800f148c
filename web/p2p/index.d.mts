// Types of index.mjs: the public API of the peer-to-peer code shared by the light node page and
// the relay (no DOM).
export { BAN_MS, BanList, MAX_BANS, type Ban } from './ban.mjs';
export { monotonic } from './clock.mjs';
export { STREAM_WINDOW_BYTES, txcastMuxer } from './muxer.mjs';
export { LiveNode, loadEngine, type Engine, type Trap, type Delivery, type FrameInfo, type OutFrame, type Validation, type Verdict } from './live-node.mjs';
export {
  DEFAULT_LIMITS,
  FramedProtocol,
  LIVE_CONFIGS,
  MAX_TX_BYTES,
  PROTOCOL_IDS,
  type Arrival,
  type LiveNodeApi,
  type FramedStats,
  type Limits,
  type ProtocolName,
} from './framed.mjs';
export {
  announcementOf,
  gossipServices,
  JsGossip,
  judge,
  liveConfig,
  makeGossip,
  MAX_ANNOUNCE_BYTES,
  MAX_ANNOUNCED_ADDRS,
  ownRelayedAddr,
  ROUTERS,
  TxcastGossip,
  VERSIONS,
  type Gossip,
  type GossipCounters,
  type GossipOptions,
  type GossipVersion,
  type Router,
} from './gossip.mjs';
export { ANNOUNCE_TOPIC, DEFAULT_TX_BYTES, GENERATED_HEADER_BYTES, generatedTx, parseTx, sentAtOf, toHex, TX_TOPIC, wallMs } from './txwire.mjs';
