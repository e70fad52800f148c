// The attacks of the hostile-peer suite, one per way a remote peer can try to hurt a txcast node
// and its honest peers. Each is run by an Attacker (attacker.mjs) against a target node (a relay,
// or a browser's light node), with `n` hostile frames, while honest peers keep sending; the suite
// (web/p2p/hostile.test.ts, e2e/lightnode-hostile.spec.ts) and the measurement
// (scripts/relay/siege.mjs) check what the rules say: honest delivery, no honest peer banned,
// memory bounded, and the attacker counted (`counted`, read from the target's stats) and cut off
// where the rules say so (`cutOff`).
//
// An attack's `run({attacker, target, n, known, fresh})`: `target` = {addr, id}; `known` = what the
// attacker learnt of honest traffic ({txKeys, msgIds}: SHA-256 of honest txs); `fresh()` starts
// another attacker (a fresh peer id). Resolves with the frames it sent.
import { publicKeyToProtobuf } from '@libp2p/crypto/keys';
import { Attacker, LIVE_PROTOCOLS } from './attacker.mjs';
import { ANNOUNCE_TOPIC, TX_TOPIC } from '../../web/p2p/index.mjs';
import { cat, concat, graft, iannounce, ihave, ineed, randomBytes, rpc, signedMessage, strokkur, subscription, utf8 } from './frames.mjs';

const MIB = 1 << 20;
const stat = (s, protocol, name) => s?.[protocol]?.counters?.[name] ?? 0;
const gossipCount = (s, name) => s?.gossipsub?.live?.[name] ?? 0;

/** Frames no decoder takes, of every kind the three protocols could be sent. */
export const MALFORMED = [
  Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f), // a length above any cap
  Uint8Array.of(0x09, 0x01), // a length longer than the frame
  Uint8Array.of(0x03, 0xee, 0x01, 0x00), // an unknown CAT tag
  new Uint8Array(0), // nothing
  Uint8Array.of(0x04, 0x00, 0x09, 0x01, 0x00), // a Strokkur message of codec version 9
  concat(Uint8Array.of(0x0a, 0xff, 0xff, 0x03), new Uint8Array(8)), // a protobuf field longer than the RPC
];

/** Opens a stream of `protocol` ('cat' | 'strokkur' | 'gossipsub') from the attacker to the target. */
const open = (attacker, target, protocol) => attacker.stream(target.addr, LIVE_PROTOCOLS[protocol]);

/** Joins the tx topic's mesh: subscribe and GRAFT (IANNOUNCE counts only from mesh peers). */
async function joinMesh(lp) {
  await lp.write(rpc({ subs: [subscription(TX_TOPIC)] }));
  await lp.write(rpc({ control: graft(TX_TOPIC) }));
}

let seqno = 0;

/** A message signed by the attacker (`badSignature`: one bit of the signature flipped). */
const signed = (attacker, topic, data, badSignature = false) =>
  signedMessage({ key: attacker.privateKey, from: attacker.from, publicKey: publicKeyToProtobuf(attacker.publicKey), topic, data, seqno: ++seqno, badSignature });

export const ATTACKS = [
  {
    name: 'stale-streams',
    about: 'resets every stream the target opens to it, so the target lets it go, and keeps writing on its own streams (opening new ones) while honest peers join and take its freed index: what it writes after it was let go reaches no engine',
    cutOff: false,
    counted: (s) => ({ streamFailures: s.cat?.streamFailures ?? 0, notUp: stat(s, 'cat', 'lightnode.from_peer_not_up') }),
    async run({ attacker, target, n, known }) {
      attacker.mode = 'refuse';
      let sent = 0;
      for (let round = 0; sent < n; round++) {
        const { lp } = await open(attacker, target, 'cat').catch(() => ({ lp: null }));
        if (!lp) break;
        // Honest peers arrive now and then (four in all): one may be given the attacker's index.
        if (round % 4 === 0 && round < 16) await known.honestJoin?.();
        sent += await Attacker.flood(lp, Math.min(500, n - sent), () => cat.seenTx(randomBytes(32)));
      }
      return sent;
    },
  },
  {
    name: 'reconnect-loop',
    about: 'connects again and again under a fresh peer id each time, announces txs that never come on CAT and leaves: every connection starts and ends empty',
    cutOff: false,
    counted: (s) => ({ connections: s.cat?.peersUp ?? 0, peersLeft: s.cat?.peers ?? 0 }),
    async run({ target, n, fresh }) {
      const perPeer = 50;
      let sent = 0;
      while (sent < n) {
        const one = await fresh();
        try {
          const { lp } = await open(one, target, 'cat');
          sent += await Attacker.flood(lp, Math.min(perPeer, n - sent), () => cat.seenTx(randomBytes(32)));
        } catch {
          break;
        } finally {
          await one.stop();
        }
      }
      return sent;
    },
  },
  {
    name: 'seen-flood',
    about: 'announces (SeenTx) txs that never come, as fast as it may',
    cutOff: false,
    counted: (s) => ({ seenOverBudget: stat(s, 'cat', 'cat.seen_tx_over_budget'), pendingFull: stat(s, 'cat', 'cat.pending_full') }),
    async run({ attacker, target, n }) {
      const { lp } = await open(attacker, target, 'cat');
      return Attacker.flood(lp, n, () => cat.seenTx(randomBytes(32)));
    },
  },
  {
    name: 'ihave-flood',
    about: 'gossips IHAVE of messages that never come, 50 ids at a time',
    cutOff: false,
    counted: (s) => ({ ihaveFlood: gossipCount(s, 'gossipsub.ihave_flood') }),
    async run({ attacker, target, n }) {
      const { lp } = await open(attacker, target, 'gossipsub');
      await lp.write(rpc({ subs: [subscription(TX_TOPIC)] }));
      const ids = 50;
      const rpcs = Math.ceil(n / ids);
      const sent = await Attacker.flood(lp, rpcs, () => rpc({ control: ihave(TX_TOPIC, Array.from({ length: ids }, () => randomBytes(32))) }), 16);
      return sent * ids;
    },
  },
  {
    name: 'iannounce-flood',
    about: 'joins the mesh and announces (IANNOUNCE) messages that never come',
    cutOff: false,
    counted: (s) => ({
      ineedTimeouts: gossipCount(s, 'gossipsub.ineed_timeout'),
      ignoredForScore: gossipCount(s, 'gossipsub.iannounce_ignored_score'),
      overBudget: gossipCount(s, 'gossipsub.iannounce_over_budget'),
      flood: gossipCount(s, 'gossipsub.iannounce_flood'),
    }),
    async run({ attacker, target, n }) {
      const { lp } = await open(attacker, target, 'gossipsub');
      await joinMesh(lp);
      return Attacker.flood(lp, n, () => rpc({ control: iannounce(TX_TOPIC, randomBytes(32)) }));
    },
  },
  {
    name: 'want-amplification',
    about: "asks (WantTx, 37 bytes) again and again for honest txs the target has, to draw their bytes out of it",
    cutOff: false,
    counted: (s) => ({ wantRepeated: stat(s, 'cat', 'cat.want_repeated') }),
    async run({ attacker, target, n, known }) {
      const { lp } = await open(attacker, target, 'cat');
      const keys = known.txKeys?.() ?? [];
      if (!keys.length) return 0;
      return Attacker.flood(lp, n, (i) => cat.wantTx(keys[i % keys.length]));
    },
  },
  {
    name: 'ineed-amplification',
    about: 'asks (INEED) again and again for honest messages the target has',
    cutOff: false,
    counted: (s) => ({ overRetransmission: gossipCount(s, 'gossipsub.ineed_over_retransmission') }),
    async run({ attacker, target, n, known }) {
      const { lp } = await open(attacker, target, 'gossipsub');
      await joinMesh(lp);
      const ids = known.msgIds?.() ?? [];
      if (!ids.length) return 0;
      return Attacker.flood(lp, n, (i) => rpc({ control: ineed(ids[i % ids.length]) }));
    },
  },
  {
    name: 'forged-txs',
    about: 'announces txs it never sends and sends bytes under no announced key (one in 50 frames: valid txs unasked, rate-bounded like any peer), and publishes messages with bad signatures',
    cutOff: false,
    counted: (s) => ({
      unrequested: stat(s, 'cat', 'cat.unrequested_txs'),
      badSignatures: s.gossipsub?.badSignatures ?? 0,
      invalid: gossipCount(s, 'gossipsub.invalid_message'),
      graylisted: gossipCount(s, 'gossipsub.graylisted_rpc'),
    }),
    async run({ attacker, target, n }) {
      const c = await open(attacker, target, 'cat');
      const g = await open(attacker, target, 'gossipsub');
      await g.lp.write(rpc({ subs: [subscription(TX_TOPIC)] }));
      const half = Math.floor(n / 2);
      // CAT: SeenTx for keys and, now and then, bytes that hash to none of them (a tx of its
      // own, named by its hash: never delivered under a key it did not earn).
      const sentCat = await Attacker.flood(c.lp, half, (i) => (i % 50 ? cat.seenTx(randomBytes(32)) : cat.txs(randomBytes(200))));
      let sentGossip = 0;
      for (; sentGossip < n - half; sentGossip++) {
        const message = await signed(attacker, TX_TOPIC, randomBytes(200), true);
        try {
          await g.lp.write(rpc({ messages: [message] }));
        } catch {
          break;
        }
      }
      return sentCat + sentGossip;
    },
  },
  {
    name: 'strokkur-rekey',
    about: 'sends a new Strokkur key again and again',
    cutOff: false,
    counted: (s) => ({ rekeys: stat(s, 'strokkur', 'strokkur.rekeys') }),
    async run({ attacker, target, n }) {
      const { lp } = await open(attacker, target, 'strokkur');
      return Attacker.flood(lp, n, () => strokkur.key(randomBytes(16)));
    },
  },
  {
    name: 'garbage-codewords',
    about: 'sends Strokkur codewords of random short ids and payloads, which never decode',
    cutOff: false,
    counted: (s) => ({ losses: stat(s, 'strokkur', 'strokkur.losses'), rejected: stat(s, 'strokkur', 'strokkur.rejected_codewords'), corrupt: stat(s, 'strokkur', 'strokkur.corrupt_codewords') }),
    async run({ attacker, target, n }) {
      const { lp } = await open(attacker, target, 'strokkur');
      await lp.write(strokkur.key(randomBytes(16)));
      const ids = () => Array.from({ length: 3 }, () => (Math.random() * 2 ** 32) >>> 0);
      return Attacker.flood(lp, n, () => strokkur.codeword(ids(), randomBytes(128)));
    },
  },
  {
    name: 'malformed',
    about: 'sends frames no decoder takes, of every kind, on CAT, Strokkur and GossipSub',
    cutOff: true,
    counted: (s) => ({ malformed: (s.cat?.malformed ?? 0) + (s.strokkur?.malformed ?? 0) + (s.gossipsub?.malformed ?? 0), disconnected: (s.cat?.disconnected ?? 0) + (s.strokkur?.disconnected ?? 0) + (s.gossipsub?.disconnected ?? 0) }),
    async run({ attacker, target, n }) {
      let sent = 0;
      for (const protocol of ['cat', 'strokkur', 'gossipsub']) {
        const stream = await open(attacker, target, protocol).catch(() => null);
        if (!stream) break;
        sent += await Attacker.flood(stream.lp, Math.ceil(n / 3), (i) => MALFORMED[i % MALFORMED.length], 8);
      }
      return sent;
    },
  },
  {
    name: 'oversized',
    about: 'sends frames above the 1 MiB cap, each on a stream of its own, on every protocol',
    cutOff: true,
    counted: (s) => ({ oversized: (s.cat?.oversized ?? 0) + (s.strokkur?.oversized ?? 0) + (s.gossipsub?.oversized ?? 0) }),
    async run({ attacker, target, n }) {
      const big = new Uint8Array(MIB + 1);
      let sent = 0;
      for (; sent < n; sent++) {
        const protocol = ['cat', 'strokkur', 'gossipsub'][sent % 3];
        const stream = await open(attacker, target, protocol).catch(() => null);
        if (!stream) break;
        await stream.lp.write(big).catch(() => undefined);
      }
      return sent;
    },
  },
  {
    name: 'announce-elsewhere',
    about: "announces WebRTC addresses at private addresses of its choosing, and in another peer's name",
    cutOff: false,
    counted: (s) => ({ rejected: s.gossipsub?.rejected ?? 0, graylisted: gossipCount(s, 'gossipsub.graylisted_rpc') }),
    async run({ attacker, target, n, known }) {
      const { lp } = await open(attacker, target, 'gossipsub');
      await lp.write(rpc({ subs: [subscription(ANNOUNCE_TOPIC)] }));
      const victim = known.honestId?.() ?? attacker.id;
      let sent = 0;
      for (; sent < n; sent++) {
        const fake = (host) => `/ip4/${host}/tcp/22/ws/p2p/${attacker.id}/p2p-circuit/webrtc/p2p/${attacker.id}`;
        const body =
          sent % 2
            ? { peer: victim, addrs: [`/ip4/192.168.1.1/tcp/80/ws/p2p/${attacker.id}/p2p-circuit/webrtc/p2p/${victim}`], at: sent }
            : { peer: attacker.id, addrs: [fake('192.168.1.1'), fake('10.0.0.1'), '/ip4/127.0.0.1/tcp/22'], at: sent };
        const message = await signed(attacker, ANNOUNCE_TOPIC, utf8(JSON.stringify(body)));
        try {
          await lp.write(rpc({ messages: [message] }));
        } catch {
          break;
        }
      }
      return sent;
    },
  },
  {
    name: 'half-frames',
    about: 'starts frames of 1 MiB on every stream it may open (four of each protocol, from three peer ids), sends all but their last byte and holds them open',
    cutOff: false,
    counted: (s) => ({ slowFrames: (s.cat?.slowFrames ?? 0) + (s.strokkur?.slowFrames ?? 0) + (s.gossipsub?.slowFrames ?? 0) }),
    async run({ attacker, target, n, fresh }) {
      // A 1 MiB frame's length (a varint), then one byte short of its bytes.
      const head = Uint8Array.of(0x80, 0x80, 0x40);
      const body = new Uint8Array(MIB - 1);
      const peers = [attacker, await fresh(), await fresh()];
      const held = [];
      for (let sent = 0; sent < n; sent++) {
        const opened = await open(peers[sent % 3], target, ['cat', 'strokkur', 'gossipsub'][Math.floor(sent / 3) % 3]).catch(() => null);
        if (!opened) break;
        held.push(opened.stream);
        void (async () => {
          for (const part of [head, body]) if (!opened.stream.send(part)) await opened.stream.onDrain();
        })().catch(() => undefined);
      }
      // Held until the target ends them (a target that never does is not waited on past 30 s).
      const ended = held.map((stream) => new Promise((resolve) => (stream.status === 'open' ? stream.addEventListener('close', resolve, { once: true }) : resolve())));
      await Promise.race([Promise.all(ended), new Promise((resolve) => setTimeout(resolve, 30_000))]);
      return held.length;
    },
  },
  {
    name: 'stop-reading',
    about: 'takes the streams the target opens to it and never reads them, while the target has much to send',
    cutOff: false,
    // n/20 txs of 64 KiB for the target to push (to every peer): at most 200 (13 MiB).
    maxFrames: 4000,
    counted: (s) => ({ dropped: (s.cat?.dropped ?? 0) + (s.strokkur?.dropped ?? 0) + (s.gossipsub?.dropped ?? 0), stalled: (s.cat?.stalled ?? 0) + (s.strokkur?.stalled ?? 0) + (s.gossipsub?.stalled ?? 0) }),
    async run({ attacker, target, n, known }) {
      attacker.mode = 'stall';
      await attacker.dial(target.addr);
      // The target has txs to push to every peer; this one takes none of them, and is let go
      // at the next one after the target's stall time.
      await known.fill?.(n);
      await new Promise((resolve) => setTimeout(resolve, (known.stallMs ?? 0) + 500));
      await known.fill?.(50);
      return n;
    },
  },
  {
    name: 'clock-back',
    about: "a garbage frame, then the target's clock is set back an hour, then another: two strikes stay two strikes (no ban), and its timers go on",
    cutOff: false,
    counted: (s) => ({ malformed: s.cat?.malformed ?? 0 }),
    async run({ attacker, target, n, known }) {
      const { lp } = await open(attacker, target, 'cat');
      const half = Math.min(5, Math.ceil(n / 2));
      let sent = await Attacker.flood(lp, half, (i) => MALFORMED[i % MALFORMED.length]);
      await known.clockBack?.(3_600_000);
      sent += await Attacker.flood(lp, half, (i) => MALFORMED[i % MALFORMED.length]);
      return sent;
    },
  },
  {
    name: 'trap',
    about: "sends the frame the target's CAT engine was set to panic on (a stand-in for any bug a frame could hit): the engine traps",
    cutOff: true,
    counted: (s) => ({ traps: s.cat?.traps ?? 0, rebuilt: stat(s, 'cat', 'lightnode.engine_rebuilt') }),
    async run({ attacker, target, n, known }) {
      await known.armTrap?.('cat', TRAP_PREFIX);
      const { lp } = await open(attacker, target, 'cat');
      return Attacker.flood(lp, n, (i) => (i === 0 ? concat(TRAP_PREFIX, [1]) : cat.seenTx(randomBytes(32))));
    },
  },
];

/** The frame prefix the `trap` attack arms the target's engine with. */
export const TRAP_PREFIX = Uint8Array.of(0xde, 0xad, 0xbe, 0xef);

export function attackNamed(name) {
  const attack = ATTACKS.find((a) => a.name === name);
  if (!attack) throw new Error(`no attack ${name}; the attacks are ${ATTACKS.map((a) => a.name).join(', ')}`);
  return attack;
}
