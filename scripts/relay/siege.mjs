#!/usr/bin/env node
// A relay under siege on 127.0.0.1: the relay (siege-relay.mjs, a process of its own, so its
// memory is its own) between two honest peers that only reach each other through it, and, one
// at a time, the attacks of attacks.mjs, while the first honest peer keeps sending txs on CAT,
// Strokkur and GossipSub. Each attack is reported as one object: frames sent, the share of honest
// txs the second honest peer got, the attacker's counters at the relay (deltas), whether the
// attacker was banned and whether any honest peer was, and the relay's peak memory (sampled
// after a garbage collection: what it holds).
//
// Run: node scripts/relay/siege.mjs [--frames 100000] [--only NAME,NAME] [--honest 10]
// (prints one JSON object; the hostile-peer suite, web/p2p/hostile.test.ts, uses startSiege).
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { multiaddr } from '@multiformats/multiaddr';
import { generatedTx, TX_TOPIC, wallMs } from '../../web/p2p/index.mjs';
import { Attacker } from './attacker.mjs';
import { ATTACKS, attackNamed } from './attacks.mjs';
import { loopbackOptions, waitFor } from './localnet.mjs';
import { startPeer } from './node.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/**
 * Honest txs are one Strokkur symbol each (its symbol size): 10 a second are well within what
 * the light node's codeword rates carry on a loaded machine (scripts/relay/load.mjs).
 */
const HONEST_TX_BYTES = 128;
/** The relay lets a peer that reads nothing go after this long (siege-relay.mjs --stall-ms). */
const STALL_MS = 3000;
const PROTOCOLS = ['cat', 'strokkur', 'gossipsub'];
const hex = (bytes) => Buffer.from(bytes).toString('hex');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The relay process, driven one command at a time (siege-relay.mjs). */
async function startRelay() {
  const child = spawn(process.execPath, ['--expose-gc', path.join(HERE, 'siege-relay.mjs'), '--stall-ms', String(STALL_MS)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout });
  const waiting = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise((resolve) => waiting.push(resolve));
  // The relay goes with this process, however it ends.
  process.on('exit', () => child.kill());
  const ready = await next();
  if (!ready.startsWith('ready ')) throw new Error(`the relay did not start: ${ready}`);
  const { id, addr } = JSON.parse(ready.slice(6));
  let queue = Promise.resolve();
  /** Sends a command, resolves with the line that answers it. */
  const ask = (command) => {
    const answer = queue.then(async () => {
      const line = next();
      child.stdin.write(`${command}\n`);
      const got = await line;
      if (got.startsWith('error')) throw new Error(`relay: ${got}`);
      return got;
    });
    queue = answer.catch(() => undefined);
    return answer;
  };
  return {
    id,
    addr,
    stats: async () => JSON.parse((await ask('stats')).slice(6)),
    publish: (count, bytes, gapMs = 0) => ask(`publish ${count} ${bytes} ${gapMs}`),
    armTrap: (protocol, prefix) => ask(`trap ${protocol} ${hex(prefix)}`),
    clockBack: (ms) => ask(`clock-back ${ms}`),
    /** Frames the relay read from these peers (by id), on every protocol. */
    read: async (ids) => Number((await ask(`read ${ids.join(',')}`)).slice(5)),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/** An honest peer on loopback that records what it receives, per protocol. */
async function honestPeer() {
  const inbox = Object.fromEntries(PROTOCOLS.map((p) => [p, new Set()]));
  const peer = await startPeer({ libp2pOptions: loopbackOptions(), onDeliver: (d) => d.topic !== 'txcast/announce/1' && inbox[d.protocol].add(d.hash) });
  return Object.assign(peer, { inbox, id: peer.node.peerId.toString() });
}

/**
 * Starts the relay and two honest peers connected to it (not to each other), and waits until
 * both run every protocol with it. Returns the siege ({relay, honest, attack(), stop()}).
 */
export async function startSiege() {
  const relay = await startRelay();
  const honest = [await honestPeer(), await honestPeer()];
  /** Times an honest peer lost its connection to the relay (it dials again, as it would to keep its relay). */
  let dropped = 0;
  for (const h of honest) {
    await h.node.dial(multiaddr(relay.addr), { signal: AbortSignal.timeout(10_000) });
    h.node.addEventListener('peer:disconnect', (event) => {
      if (event.detail.toString() !== relay.id) return;
      dropped += 1;
      void h.node.dial(multiaddr(relay.addr), { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
    });
  }
  await waitFor(
    async () => {
      const s = await relay.stats();
      const meshed = honest.every((h) => h.gossip.meshPeers(TX_TOPIC) === 1);
      return PROTOCOLS.every((p) => (p === 'gossipsub' ? s.gossipsub.peers === 2 : s[p].peers === 2)) && meshed;
    },
    { timeoutMs: 15_000, intervalMs: 100, what: 'the honest peers on every protocol with the relay' },
  );
  /** Hashes of the honest txs sent so far, per protocol (what an attacker may learn). */
  const sent = Object.fromEntries(PROTOCOLS.map((p) => [p, []]));
  const [from, to] = honest;

  /** One honest tx on each protocol from the first honest peer. */
  async function sendHonest() {
    for (const p of PROTOCOLS) {
      const data = generatedTx({ sentAtMs: wallMs(), bytes: HONEST_TX_BYTES });
      const hash = p === 'gossipsub' ? await from.gossip.publish(TX_TOPIC, data) : from.framed.find((f) => f.name === p).submit(data);
      sent[p].push(hash);
    }
  }

  const delivered = (p, hashes) => hashes.filter((h) => to.inbox[p].has(h)).length;
  /**
   * Waits until the relay has read what the attackers wrote (it reads no faster than a peer's
   * rate) and returns how many frames it read from them.
   */
  async function drained(attackers, timeoutMs = 300_000) {
    const ids = attackers.map((x) => x.id);
    const until = performance.now() + timeoutMs;
    let last = await relay.read(ids);
    while (performance.now() < until) {
      await sleep(1000);
      const now = await relay.read(ids);
      if (now === last) break;
      last = now;
    }
    return last;
  }

  /**
   * Runs one attack with `frames` hostile frames while honest txs go out on every protocol, 10 a
   * second, at least `honestTxs` of them and until the attack is over; returns its report.
   */
  async function attack(name, { frames, honestTxs = 10, settleMs = 20_000 } = {}) {
    const a = attackNamed(name);
    // Honest txs the relay has before the attack (what amplification attacks ask for).
    for (let i = 0; i < 3; i++) await sendHonest();
    const attackers = [await Attacker.start()];
    const before = await relay.stats();
    let peak = { ...before.memory };
    const sample = async () => {
      const m = (await relay.stats()).memory;
      peak = Object.fromEntries(Object.keys(m).map((k) => [k, Math.max(peak[k] ?? 0, m[k])]));
    };
    const sampler = setInterval(() => void sample().catch(() => undefined), 250);
    const firstHonest = Object.fromEntries(PROTOCOLS.map((p) => [p, sent[p].length]));
    const droppedBefore = dropped;
    const started = performance.now();
    let attacking = true;
    const honestDone = (async () => {
      for (let i = 0; i < honestTxs || attacking; i++) {
        await sendHonest();
        await sleep(100);
      }
    })();
    const known = {
      txKeys: () => sent.cat.map((h) => Buffer.from(h, 'hex')),
      msgIds: () => sent.gossipsub.map((h) => Buffer.from(h, 'hex')),
      honestId: () => to.id,
      // 64 KiB txs, 20 a second: honest peers take them as they come.
      fill: (n) => relay.publish(Math.ceil(n / 20), 64 * 1024, 50),
      armTrap: (protocol, prefix) => relay.armTrap(protocol, prefix),
      clockBack: (ms) => relay.clockBack(ms),
    };
    const fresh = async () => {
      const one = await Attacker.start();
      attackers.push(one);
      return one;
    };
    /** Honest peers that joined during the attack (stopped after it). */
    const visitors = [];
    known.honestJoin = async () => {
      const visitor = await honestPeer();
      visitors.push(visitor);
      await visitor.node.dial(multiaddr(relay.addr), { signal: AbortSignal.timeout(10_000) });
    };
    known.stallMs = STALL_MS;
    const n = Math.min(frames, a.maxFrames ?? Infinity);
    const framesSent = await a.run({ attacker: attackers[0], target: { addr: relay.addr, id: relay.id }, n, known, fresh });
    const framesRead = await drained(attackers);
    const attackSeconds = (performance.now() - started) / 1000;
    attacking = false;
    await honestDone;
    const honestHashes = Object.fromEntries(PROTOCOLS.map((p) => [p, sent[p].slice(firstHonest[p])]));
    const all = () => PROTOCOLS.every((p) => delivered(p, honestHashes[p]) === honestHashes[p].length);
    await waitFor(all, { timeoutMs: settleMs, intervalMs: 100, what: 'honest txs' }).catch(() => undefined);
    clearInterval(sampler);
    await sample();
    const after = await relay.stats();
    const counted = a.counted(after);
    const was = a.counted(before);
    const attackerIds = new Set(attackers.map((x) => x.id));
    const honestIds = new Set([...honest, ...visitors].map((h) => h.id));
    for (const x of attackers) await x.stop().catch(() => undefined);
    const visitorsBanned = visitors.reduce((n, v) => n + v.bans.list().length, 0);
    for (const v of visitors) await v.stop().catch(() => undefined);
    const share = (p) => delivered(p, honestHashes[p]) / honestHashes[p].length;
    const got = PROTOCOLS.reduce((n, p) => n + delivered(p, honestHashes[p]), 0);
    const total = PROTOCOLS.reduce((n, p) => n + honestHashes[p].length, 0);
    return {
      name,
      frames: framesSent,
      framesRead,
      seconds: Math.round(attackSeconds * 10) / 10,
      delivery: { all: got / total, ...Object.fromEntries(PROTOCOLS.map((p) => [p, share(p)])) },
      attacker: Object.fromEntries(Object.keys(counted).map((k) => [k, counted[k] - (was[k] ?? 0)])),
      attackerBanned: after.bannedPeers.some((p) => attackerIds.has(p)),
      honestBanned: after.bannedPeers.filter((p) => honestIds.has(p)).length + honest.reduce((n, h) => n + h.bans.list().length, 0) + visitorsBanned,
      honestJoined: visitors.length,
      honestDropped: dropped - droppedBefore,
      relayMemoryMb: peak,
    };
  }

  return {
    relay,
    honest,
    attack,
    async stop() {
      for (const h of honest) await h.stop().catch(() => undefined);
      await relay.stop();
    },
  };
}

// As a script: every attack (or --only), --frames each, one JSON object.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const usage = `usage: node scripts/relay/siege.mjs [--frames 100000] [--only NAME,NAME] [--honest 10]
  --frames N   hostile frames per attack (some attacks are cut off sooner, by the rules)
  --only LIST  these attacks only, comma-separated (default: all)
  --honest N   honest txs sent at least, 10 a second, per attack
attacks: ${ATTACKS.map((a) => a.name).join(', ')}`;
  const fail = (message) => {
    process.stderr.write(`${message}\n${usage}\n`);
    process.exit(2);
  };
  let values;
  try {
    ({ values } = parseArgs({ options: { frames: { type: 'string', default: '100000' }, only: { type: 'string', default: '' }, honest: { type: 'string', default: '10' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    fail(error.message);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  for (const flag of ['frames', 'honest']) if (!/^[1-9][0-9]*$/.test(values[flag])) fail(`--${flag} takes a whole number above 0, not '${values[flag]}'`);
  const names = values.only ? values.only.split(',') : ATTACKS.map((a) => a.name);
  const unknown = names.filter((name) => !ATTACKS.some((a) => a.name === name));
  if (unknown.length > 0) fail(`no attack named ${unknown.join(', ')}`);
  const siege = await startSiege();
  const reports = [];
  for (const name of names) {
    process.stderr.write(`${name}: ${values.frames} frames…\n`);
    const report = await siege.attack(name, { frames: Number(values.frames), honestTxs: Number(values.honest), settleMs: 60_000 });
    process.stderr.write(`${JSON.stringify(report)}\n`);
    reports.push(report);
  }
  await siege.stop();
  const framesTotal = reports.reduce((n, r) => n + r.frames, 0);
  console.log(JSON.stringify({ frames: Number(values.frames), framesTotal, attacks: reports }, null, 1));
  process.exit(0);
}
