// txcast's GossipSub router (the Rust state machine through WASM, gossip.mjs) on real libp2p
// nodes over 127.0.0.1 TCP, against @libp2p/gossipsub and against a peer that speaks
// /meshsub/1.1.0 by hand: versions negotiated per peer, messages intact both ways, IDONTWANT
// from 1 KiB, IANNOUNCE/INEED between txcast nodes, a mixed network of 10 nodes, and hostile
// RPCs counted without a crash. libp2p 3 needs Node 22: `npm test` runs vitest on the project's
// Node (node_modules/.bin first on PATH).
import { generateKeyPair, publicKeyToProtobuf } from '@libp2p/crypto/keys';
import { identify } from '@libp2p/identify';
import { noise } from '@libp2p/noise';
import { tcp } from '@libp2p/tcp';
import { lpStream } from '@libp2p/utils';
import { yamux } from '@libp2p/yamux';
import { createLibp2p, type Libp2p } from 'libp2p';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  connectedRandomGraph,
  isConnected,
  loadWasm,
  localPeer,
  meshesFormed,
  meshReport,
  outboundProtocol,
  seededRandom,
  stopAll,
  waitFor,
  type LocalDelivery,
  type LocalPeer,
  type Wasm,
} from '../../scripts/relay/localnet.mjs';
import { concat, ihave, intField, lenField, rpc, signedMessage, subscription, utf8 } from '../../scripts/relay/frames.mjs';
import { MAX_TX_BYTES } from './framed.mjs';
import { JsGossip, type GossipVersion, type Router } from './gossip.mjs';
import { TX_TOPIC } from './txwire.mjs';

const MESHSUB = { v10: '/meshsub/1.0.0', v11: '/meshsub/1.1.0', v12: '/meshsub/1.2.0', v20: '/meshsub/2.0.0' };
const MIB = 1 << 20;

/** A node of the test and every message it accepted for the first time, by hash. */
type Node = LocalPeer & { inbox: Map<string, Uint8Array>; froms: Map<string, string> };

let wasm: Wasm;
const nodes: Node[] = [];
const rawNodes: Libp2p[] = [];

beforeAll(async () => {
  expect(Number(process.versions.node.split('.')[0]), 'libp2p 3 needs Node 22 (run vitest from npm test)').toBeGreaterThanOrEqual(22);
  wasm = await loadWasm();
});

afterAll(async () => {
  await stopAll(nodes);
  await Promise.all(rawNodes.map((n) => n.stop()));
});

async function node(router: Router, { version = 'v2.0', dAnnounce = 4 }: { version?: GossipVersion; dAnnounce?: number } = {}): Promise<Node> {
  const inbox = new Map<string, Uint8Array>();
  /** Who each tx came from (the peer whose RPC carried it). */
  const froms = new Map<string, string>();
  const onDeliver = (d: LocalDelivery) => void (d.topic === TX_TOPIC && inbox.set(d.hash, d.data) && froms.set(d.hash, d.from));
  const peer = await localPeer({ router, version, dAnnounce, onDeliver });
  const out = Object.assign(peer, { inbox, froms });
  nodes.push(out);
  return out;
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const bytes = (n: number) => new Uint8Array(randomBytes(n));
const sent = (n: Node, kind: string) => n.gossip.counters().sent[kind] ?? 0;
const received = (n: Node, kind: string) => n.gossip.counters().received[kind] ?? 0;
const live = (n: Node, name: string) => n.gossip.counters().live[name] ?? 0;

function sameBytes(a: Uint8Array | undefined, b: Uint8Array) {
  return a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Every node sees all its connected peers subscribed, and all of them in its mesh. */
function fullMeshes(peers: Node[]) {
  return peers.every((p) => {
    const connected = p.node.getPeers().length;
    return connected > 0 && p.gossip.topicPeers(TX_TOPIC) === connected && p.gossip.meshPeers(TX_TOPIC) === connected;
  });
}

/** Publishes `data` from `from` (checking the hash it names) and waits until every node in `to` has it intact. */
async function publishAndAwait(from: Node, data: Uint8Array, to: Node[], timeoutMs = 10_000) {
  const hash = await from.gossip.publish(TX_TOPIC, data);
  expect(hash).toBe(sha256(data));
  await waitFor(() => to.every((n) => n.inbox.has(hash)), {
    timeoutMs,
    what: () => `${data.length} bytes from ${from.router} to reach ${to.filter((n) => !n.inbox.has(hash)).map((n) => n.router).join(', ')}`,
  });
  for (const n of to) {
    const got = n.inbox.get(hash);
    expect(sameBytes(got, data), `${data.length} bytes intact at a ${n.router} node`).toBe(true);
    expect(sha256(got!)).toBe(hash);
  }
  return hash;
}

describe('txcast and @libp2p/gossipsub on the same topic', () => {
  it('settle on /meshsub/1.2.0 (txcast offers 2.0.0 first) and exchange messages both ways, intact', async () => {
    expect(wasm.gossipsub_protocol_ids('v2.0')).toEqual([MESHSUB.v20, MESHSUB.v12, MESHSUB.v11, MESHSUB.v10]);
    const t = await node('txcast');
    const j = await node('js');
    await connect(t, j);
    await waitFor(() => fullMeshes([t, j]), { what: () => meshReport([t, j]) });
    // Each router takes the other's version from its own outbound stream.
    expect(outboundProtocol(t, j.id)).toBe(MESHSUB.v12);
    expect(outboundProtocol(j, t.id)).toBe(MESHSUB.v12);
    // From 1 byte up to the largest tx the topic accepts (its RPC just under 1 MiB).
    expect(MAX_TX_BYTES.gossipsub).toBe(MIB - 1024);
    for (const size of [1, 100, 1024, 70_000, MAX_TX_BYTES.gossipsub]) {
      await publishAndAwait(t, bytes(size), [j]);
      await publishAndAwait(j, bytes(size), [t]);
    }
    expect(t.gossip.stats.delivered).toBe(5);
    expect(j.gossip.stats.delivered).toBe(5);
    expect(t.gossip.counters().badSignatures).toBe(0);
    expect(t.gossip.stats.malformed).toBe(0);
  }, 30_000);
});

describe('IDONTWANT (txcast: from 1 KiB; js: from 512 B)', () => {
  it('a txcast node between two js nodes sends it for 1 KiB and more, never below, and receives it', async () => {
    const j1 = await node('js');
    const t = await node('txcast');
    const j2 = await node('js');
    await connect(j1, t);
    await connect(t, j2);
    await connect(j1, j2);
    await waitFor(() => fullMeshes([j1, t, j2]), { what: () => meshReport([j1, t, j2]) });
    expect(outboundProtocol(t, j2.id)).toBe(MESHSUB.v12);

    // j1 publishes to both; the txcast node tells its other mesh peer (j2) not to send its copy,
    // and j2, which usually has j1's copy first, tells the txcast node the same.
    const start = { sent: sent(t, 'idontwant'), live: live(t, 'gossipsub.idontwant_sent') };
    for (let i = 0; i < 3; i++) await publishAndAwait(j1, bytes(2048), [t, j2]);
    await waitFor(() => sent(t, 'idontwant') === start.sent + 3, { what: () => `3 IDONTWANT sent, saw ${sent(t, 'idontwant') - start.sent}` });
    expect(live(t, 'gossipsub.idontwant_sent')).toBe(start.live + 3);
    await waitFor(() => received(t, 'idontwant') >= 1, { what: 'an IDONTWANT from j2' });

    // Below the threshold: none. A 1024-byte message afterwards is the barrier (anything sent
    // for the small ones left before it) and the boundary.
    const before = sent(t, 'idontwant');
    for (const size of [100, 1023]) await publishAndAwait(j1, bytes(size), [t, j2]);
    await publishAndAwait(j1, bytes(1024), [t, j2]);
    await waitFor(() => sent(t, 'idontwant') > before, { what: 'the IDONTWANT for 1024 bytes' });
    expect(sent(t, 'idontwant')).toBe(before + 1);
    expect(live(t, 'gossipsub.idontwant_sent')).toBe(start.live + 4);
  }, 20_000);
});

describe('txcast nodes speak v2.0 to each other', () => {
  it('negotiate /meshsub/2.0.0 and, with D_announce = D, forward by IANNOUNCE and INEED', async () => {
    const [a, b, c] = [await node('txcast', { dAnnounce: 6 }), await node('txcast', { dAnnounce: 6 }), await node('txcast', { dAnnounce: 6 })];
    await connect(a, b);
    await connect(b, c);
    await waitFor(() => fullMeshes([a, b, c]), { what: () => meshReport([a, b, c]) });
    for (const [x, y] of [[a, b], [b, a], [b, c], [c, b]]) expect(outboundProtocol(x, y.id)).toBe(MESHSUB.v20);

    const n = 3;
    for (let i = 0; i < n; i++) await publishAndAwait(a, bytes(300), [b, c]);
    // Every hop is lazy: a announces to b, b asks, a sends; then the same from b to c.
    await waitFor(() => received(a, 'ineed') === n && received(b, 'ineed') === n, { what: 'INEEDs answered' });
    expect([sent(a, 'iannounce'), received(b, 'iannounce'), sent(b, 'ineed')]).toEqual([n, n, n]);
    expect([sent(b, 'iannounce'), received(c, 'iannounce'), sent(c, 'ineed')]).toEqual([n, n, n]);
    expect([live(b, 'gossipsub.iannounce_sent'), live(b, 'gossipsub.ineed_sent'), live(b, 'gossipsub.ineed_served')]).toEqual([n, n, n]);
    expect(live(c, 'gossipsub.ineed_served')).toBe(0);
    // Full copies only on request: none twice.
    expect([received(b, 'publish'), received(c, 'publish')]).toEqual([n, n]);
    expect(b.gossip.stats.duplicates + c.gossip.stats.duplicates).toBe(0);
    // Each delivery names the peer that sent it (released by validation, it had none once).
    expect([...b.froms.values()]).toEqual(Array(n).fill(a.id));
    expect([...c.froms.values()]).toEqual(Array(n).fill(b.id));
  }, 20_000);
});

describe('duplicates, counted alike for both routers', () => {
  it('@libp2p/gossipsub: every copy after the first, also one that comes while the first is being validated', () => {
    const arrivals: boolean[] = [];
    const js = new JsGossip({ libp2p: { services: { pubsub: {} } }, onArrival: (a) => void arrivals.push(a.duplicate ?? false) });
    const hash = 'ab'.repeat(32);
    // The router names each copy (its msgIdFn) before the first is delivered (after validation).
    js.copy(TX_TOPIC, hash);
    js.copy(TX_TOPIC, hash);
    expect(js.stats.duplicates).toBe(1);
    js.copy('txcast/announce/1', hash);
    expect(js.stats.duplicates).toBe(1);
    expect(arrivals).toEqual([]);
  });
});

describe('a mixed network', () => {
  it('of 5 txcast and 5 js nodes on a connected random graph delivers every message to every node', async () => {
    const edges = connectedRandomGraph(10, { extra: 2, random: seededRandom(19) });
    expect(isConnected(10, edges)).toBe(true);
    const peers: Node[] = [];
    for (let i = 0; i < 10; i++) peers.push(await node(i < 5 ? 'txcast' : 'js'));
    await Promise.all(edges.map(([i, j]) => connect(peers[i], peers[j])));
    await waitFor(() => meshesFormed(peers), { timeoutMs: 15_000, what: () => meshReport(peers) });
    // Each link at the best version both ends speak: 2.0.0 between txcast nodes, else 1.2.0.
    const kinds = new Set<string>();
    for (const [i, k] of edges) {
      const want = peers[i].router === 'txcast' && peers[k].router === 'txcast' ? MESHSUB.v20 : MESHSUB.v12;
      expect([outboundProtocol(peers[i], peers[k].id), outboundProtocol(peers[k], peers[i].id)]).toEqual([want, want]);
      kinds.add([peers[i].router, peers[k].router].sort().join('-'));
    }
    expect([...kinds].sort()).toEqual(['js-js', 'js-txcast', 'txcast-txcast']);

    // Two publishers on each side, three sizes each, all in flight together.
    const sizes = [250, 2048, 16_384];
    const published: { hash: string; data: Uint8Array; from: number }[] = [];
    for (const from of [0, 1, 5, 6]) {
      for (const size of sizes) {
        const data = bytes(size);
        published.push({ hash: await peers[from].gossip.publish(TX_TOPIC, data), data, from });
      }
    }
    const missing = () => published.flatMap(({ hash, from }) => peers.map((p, i) => (i === from || p.inbox.has(hash) ? '' : `${hash.slice(0, 6)}@${i}`)).filter(Boolean));
    await waitFor(() => missing().length === 0, { timeoutMs: 15_000, what: () => `every message everywhere; missing ${missing().join(' ')}` });
    for (const { hash, data, from } of published) {
      expect(hash).toBe(sha256(data));
      for (const [i, p] of peers.entries()) {
        expect(p.gossip.arrivals.has(hash)).toBe(true);
        if (i !== from) expect(sameBytes(p.inbox.get(hash), data)).toBe(true);
      }
    }
    for (const p of peers) expect(p.gossip.stats.delivered).toBe(published.filter((m) => peers[m.from] !== p).length);
  }, 30_000);
});

// ---- a peer speaking /meshsub/1.1.0 by hand: RPCs from scripts/relay/frames.mjs, frames with lpStream ----

class RawPeer {
  frames: Uint8Array[] = [];
  out: ReturnType<typeof lpStream> | null = null;
  seqno = 0n;
  constructor(
    readonly node: Libp2p,
    readonly key: { publicKey: Parameters<typeof publicKeyToProtobuf>[0]; sign(data: Uint8Array): Uint8Array | Promise<Uint8Array> },
  ) {}

  static async start() {
    const key = await generateKeyPair('Ed25519');
    const node = await createLibp2p({
      privateKey: key,
      addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
      transports: [tcp()],
      connectionEncrypters: [noise()],
      streamMuxers: [yamux()],
      services: { identify: identify() },
    });
    rawNodes.push(node);
    const raw = new RawPeer(node, key);
    // Only 1.1.0: whoever dials us settles on it. What we are sent is kept, frame by frame.
    await node.handle(MESHSUB.v11, (stream) => {
      const lp = lpStream(stream, { maxDataLength: 4 * MIB });
      void (async () => {
        for (;;) raw.frames.push((await lp.read()).subarray());
      })().catch(() => undefined);
    });
    return raw;
  }

  get id() {
    return this.node.peerId.toString();
  }

  /** A stream of ours to `target` (a second one for the oversized frame). */
  async stream(target: LocalPeer) {
    const stream = await this.node.dialProtocol(target.node.getMultiaddrs()[0], MESHSUB.v11, { signal: AbortSignal.timeout(10_000) });
    expect(stream.protocol).toBe(MESHSUB.v11);
    return lpStream(stream, { maxDataLength: 4 * MIB });
  }

  /** A signed message on the tx topic. */
  async message(data: Uint8Array, { badSignature = false, extra = new Uint8Array() }: { badSignature?: boolean; extra?: Uint8Array } = {}) {
    this.seqno += 1n;
    const from = this.node.peerId.toMultihash().bytes;
    return signedMessage({ key: this.key, from, publicKey: publicKeyToProtobuf(this.key.publicKey), topic: TX_TOPIC, data, seqno: this.seqno, badSignature, extra });
  }

  async send(frame: Uint8Array) {
    await this.out!.write(frame);
  }

  /** Whether a frame we were sent carries these bytes. */
  saw(needle: Uint8Array) {
    return this.frames.some((f) => {
      for (let i = 0; i + needle.length <= f.length; i++) if (needle.every((b, k) => f[i + k] === b)) return true;
      return false;
    });
  }
}

describe('hostile input against a txcast node: counted, never a crash', () => {
  let t: Node;
  let j: Node;
  let raw: RawPeer;
  const stats = () => t.gossip.stats as { malformed: number; oversized: number; delivered: number; disconnected: number };

  beforeAll(async () => {
    t = await node('txcast');
    j = await node('js');
    raw = await RawPeer.start();
    await connect(t, j);
    raw.out = await raw.stream(t);
    await raw.send(rpc({ subs: [subscription(TX_TOPIC)] }));
    await waitFor(() => fullMeshes([t, j]) && outboundProtocol(t, raw.id) !== undefined, { what: () => meshReport([t, j]) });
    // A peer that speaks only 1.1.0 gets 1.1.0 from txcast's ladder.
    expect(outboundProtocol(t, raw.id)).toBe(MESHSUB.v11);
  }, 20_000);

  it('an RPC with unknown fields: the fields are skipped, the rest processed', async () => {
    const data = bytes(500);
    const unknownInMessage = lenField(9, utf8('not a message field'));
    const message = await raw.message(data, { extra: unknownInMessage });
    // Unknown fields in the RPC, in a subscription, in the control message and in an IHAVE.
    const control = concat(intField(42, 7), lenField(1, concat(lenField(1, utf8(TX_TOPIC)), intField(3, 1))));
    const sub = concat(subscription(TX_TOPIC), intField(5, 1));
    const unknownBefore = live(t, 'gossipsub.unknown_fields');
    await raw.send(rpc({ subs: [sub], messages: [message], control, extra: concat(intField(15, 3), lenField(16, utf8('x'))) }));
    const hash = sha256(data);
    await waitFor(() => t.inbox.has(hash) && j.inbox.has(hash), { what: 'the message with unknown fields at the txcast node and forwarded to js' });
    expect(sameBytes(t.inbox.get(hash), data)).toBe(true);
    expect(sameBytes(j.inbox.get(hash), data)).toBe(true);
    expect(live(t, 'gossipsub.unknown_fields') - unknownBefore).toBe(6);
    expect(stats().malformed).toBe(0);
  });

  it('a message whose signature is wrong: counted, not delivered, and the sender loses score', async () => {
    // Before: an IHAVE of an id the node lacks is answered with IWANT for it.
    const known = bytes(32);
    await raw.send(rpc({ control: ihave(TX_TOPIC, [known]) }));
    await waitFor(() => raw.saw(known), { what: 'an IWANT for the id we offered' });
    expect(live(t, 'gossipsub.iwant_ids_sent')).toBe(1);

    const data = bytes(300);
    const delivered = stats().delivered;
    await raw.send(rpc({ messages: [await raw.message(data, { badSignature: true })] }));
    await waitFor(() => t.gossip.counters().badSignatures === 1, { what: 'the bad signature counted' });
    expect(live(t, 'gossipsub.invalid_message')).toBe(1);
    expect(t.inbox.has(sha256(data))).toBe(false);
    expect(stats().delivered).toBe(delivered);

    // After (P4, weight -100, below the gossip threshold of -40): its IHAVE is ignored.
    const later = bytes(32);
    await raw.send(rpc({ control: ihave(TX_TOPIC, [later]) }));
    await waitFor(() => live(t, 'gossipsub.ihave_ignored_score') === 1, { what: 'the IHAVE ignored for the score' });
    expect(live(t, 'gossipsub.iwant_ids_sent')).toBe(1);
    expect(j.inbox.has(sha256(data))).toBe(false);
  });

  it('an RPC over the 1 MiB frame limit is rejected before decoding; one of exactly 1 MiB is read', async () => {
    // Exactly 1 MiB: a message of 512 KiB of data padded with an unknown field.
    const data = bytes(512 * 1024);
    const bare = await raw.message(data);
    const padded = (pad: number) => rpc({ messages: [concat(bare, lenField(20, new Uint8Array(pad)))] });
    // Field tags and lengths take the same bytes for every pad near the answer: one correction.
    const guess = MIB - bare.length - 16;
    const full = padded(guess + MIB - padded(guess).length);
    expect(full.length).toBe(MIB);
    await raw.send(full);
    // Forwarded to the js node in an RPC of the same size, which its 1 MiB limit still takes.
    await waitFor(() => t.inbox.has(sha256(data)) && j.inbox.has(sha256(data)), { what: 'the message in a frame of exactly 1 MiB' });
    expect(stats().oversized).toBe(0);

    // One byte more, on a stream of its own (the node ends that stream, not the connection).
    const before = { malformed: stats().malformed, undecodable: live(t, 'lightnode.undecodable_frames') };
    const big = await raw.stream(t);
    const over = concat(full, [0]);
    expect(over.length).toBe(MIB + 1);
    await big.write(over).catch(() => undefined);
    await waitFor(() => stats().oversized === 1, { what: 'the oversized frame counted' });
    // Never handed to the decoder.
    expect(stats().malformed).toBe(before.malformed);
    expect(live(t, 'lightnode.undecodable_frames')).toBe(before.undecodable);
    expect(live(t, 'lightnode.oversized_frames')).toBe(0);
  });

  it('an RPC with too many entries or ids is malformed; 1024 entries are not', async () => {
    const subs = (n: number) => Array.from({ length: n }, () => subscription(TX_TOPIC));
    const subscribes = received(t, 'subscribe');
    await raw.send(rpc({ subs: subs(1024) }));
    await waitFor(() => received(t, 'subscribe') === subscribes + 1024, { what: '1024 subscriptions read' });
    expect(stats().malformed).toBe(0);

    await raw.send(rpc({ subs: subs(1025) }));
    await waitFor(() => stats().malformed === 1, { what: '1025 entries counted as malformed' });
    // 5001 ids in one IHAVE (the limit is 5000 ids per RPC).
    await raw.send(rpc({ control: ihave(TX_TOPIC, Array.from({ length: 5001 }, () => bytes(32))) }));
    await waitFor(() => stats().malformed === 2, { what: '5001 ids counted as malformed' });
    expect(live(t, 'lightnode.undecodable_frames')).toBe(2);
    expect(received(t, 'subscribe')).toBe(subscribes + 1024);
  });

  it('afterwards the node still takes a good message from the same peer and passes it on', async () => {
    const data = bytes(700);
    await raw.send(rpc({ messages: [await raw.message(data)] }));
    await waitFor(() => t.inbox.has(sha256(data)) && j.inbox.has(sha256(data)), { what: 'a good message after the hostile ones' });
    expect(stats().disconnected).toBe(0);
    expect(raw.node.getPeers().map(String)).toContain(t.id);
    expect(t.gossip.counters().badSignatures).toBe(1);
  });
});
