// The light node's GossipSub settings, chosen before Start: which router runs it (txcast's own
// or @libp2p/gossipsub), the version txcast's router offers and its D_announce. They come from
// the form or from the URL (?gossipsub=txcast|js&version=v1.2|v2.0&d_announce=N); a value the
// URL gets wrong is reported, never replaced by a default in silence.
import type { GossipVersion, Router } from '../p2p/gossip.mjs';

export interface GossipSettings {
  router: Router;
  version: GossipVersion;
  /** v2.0 only: mesh peers sent an IANNOUNCE instead of the message, on average (0..D). */
  dAnnounce: number;
}

/** GossipSub's mesh degree D on the live network (the router's default): D_announce's ceiling. */
export const D = 6;
export const DEFAULT_SETTINGS: GossipSettings = { router: 'txcast', version: 'v2.0', dAnnounce: 4 };
export const ROUTER_NAMES: Record<Router, string> = { txcast: "txcast's router", js: '@libp2p/gossipsub' };

/** The settings a URL asks for, and what is wrong with it (the defaults stand where it is). */
export function settingsFromUrl(params: URLSearchParams): { settings: GossipSettings; errors: string[] } {
  const settings = { ...DEFAULT_SETTINGS };
  const errors: string[] = [];
  const router = params.get('gossipsub');
  if (router !== null) {
    if (router === 'txcast' || router === 'js') settings.router = router;
    else errors.push(`gossipsub=${router}: the router is txcast or js`);
  }
  const version = params.get('version');
  if (version !== null) {
    if (version === 'v1.2' || version === 'v2.0') settings.version = version;
    else errors.push(`version=${version}: the version is v1.2 or v2.0`);
  }
  const dAnnounce = params.get('d_announce');
  if (dAnnounce !== null) {
    const n = Number(dAnnounce);
    if (dAnnounce.trim() === '' || !Number.isInteger(n) || n < 0 || n > D) errors.push(`d_announce=${dAnnounce}: D_announce is a whole number from 0 to ${D}`);
    else settings.dAnnounce = n;
  }
  errors.push(...conflicts(settings, { version: version !== null, dAnnounce: dAnnounce !== null }));
  return { settings, errors };
}

/** Settings that contradict each other (only those the user actually gave). */
export function conflicts(s: GossipSettings, given: { version: boolean; dAnnounce: boolean }): string[] {
  const out: string[] = [];
  if (s.router === 'js' && given.version && s.version !== 'v1.2') out.push(`version=${s.version} needs gossipsub=txcast: @libp2p/gossipsub speaks up to v1.2`);
  if (given.dAnnounce && (s.router === 'js' || s.version !== 'v2.0')) out.push('d_announce applies to txcast\'s router on v2.0 only (IANNOUNCE/INEED)');
  return out;
}

/** The version a router actually runs (@libp2p/gossipsub: v1.2 whatever was picked). */
export function effectiveVersion(s: GossipSettings): GossipVersion {
  return s.router === 'js' ? 'v1.2' : s.version;
}
