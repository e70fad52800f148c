// Types for siege.mjs, for the hostile-peer suite (web/p2p/hostile.test.ts).
export interface AttackReport {
  name: string;
  /** Hostile frames written before the relay cut the attacker off (or all of them). */
  frames: number;
  /** Of them, about how many the relay read before the attack was over (frames from others aside). */
  framesRead: number;
  seconds: number;
  /** Share of the honest txs sent during the attack that the other honest peer got, in all and per protocol. */
  delivery: { all: number; cat: number; strokkur: number; gossipsub: number };
  /** The attack's counters at the relay (deltas over the attack). */
  attacker: Record<string, number>;
  attackerBanned: boolean;
  /** Bans of honest peers, at the relay or at the honest peers. */
  honestBanned: number;
  /** Honest peers that joined the relay during the attack. */
  honestJoined: number;
  /** Times an honest peer's connection to the relay was lost during the attack (it dials again). */
  honestDropped: number;
  /** The relay process's peak memory in MiB: resident, at most so far, JS heap, buffers outside it, its engines' WebAssembly. */
  relayMemoryMb: { rss: number; maxRss: number; heap: number; buffers: number; wasm: number };
}
export interface Siege {
  attack(name: string, options: { frames: number; honestTxs?: number; settleMs?: number }): Promise<AttackReport>;
  stop(): Promise<void>;
}
export function startSiege(): Promise<Siege>;
