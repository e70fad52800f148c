// Time-limited bans of misbehaving peers, by peer id: a peer cut off for garbage stays out for a
// while (its reconnects are refused at the connection gater and on our protocol streams) and
// may come back afterwards (ids are cheap to make, so a ban is a cost, not a wall). Shared by
// the page and the Node relay, so plain JS.
import { monotonic } from './clock.mjs';

/** How long a ban lasts. */
export const BAN_MS = 10 * 60 * 1000;
/** Bans kept at most: the oldest go first (a flood of fresh ids cannot grow this without bound). */
export const MAX_BANS = 1024;

export class BanList {
  /** @param {{banMs?: number, now?: () => number}} options `now`: read through `monotonic`, so no clock step can end or stretch a ban. */
  constructor({ banMs = BAN_MS, now = () => performance.now() } = {}) {
    this.banMs = banMs;
    this.now = monotonic(now);
    /** peer id -> {until, reason} */
    this.bans = new Map();
    /** Bans given, and connections or streams refused because of one. */
    this.banned = 0;
    this.refused = 0;
  }

  /** Bans `peer` for banMs from now (a repeat offender's ban starts again). */
  ban(peer, reason) {
    const key = String(peer);
    this.bans.delete(key);
    this.bans.set(key, { until: this.now() + this.banMs, reason });
    this.banned += 1;
    while (this.bans.size > MAX_BANS) this.bans.delete(this.bans.keys().next().value);
  }

  isBanned(peer) {
    const key = String(peer);
    const ban = this.bans.get(key);
    if (!ban) return false;
    if (ban.until <= this.now()) {
      this.bans.delete(key);
      return false;
    }
    return true;
  }

  /** isBanned, counting a refusal when it is: for the places that turn a peer away. */
  refuse(peer) {
    if (!this.isBanned(peer)) return false;
    this.refused += 1;
    return true;
  }

  /** The bans in force: [{peer, remainingMs, reason}]. */
  list() {
    const out = [];
    for (const [peer, ban] of this.bans) if (this.isBanned(peer)) out.push({ peer, remainingMs: ban.until - this.now(), reason: ban.reason });
    return out;
  }

  /** A libp2p connection gater that turns banned peers away both ways. */
  gater(extra = {}) {
    const deny = (peerId) => this.refuse(peerId.toString());
    return { ...extra, denyDialPeer: deny, denyInboundEncryptedConnection: deny, denyOutboundEncryptedConnection: deny };
  }
}
