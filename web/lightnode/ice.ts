// ICE servers for the light node's direct WebRTC connections. None by default: browsers then offer
// only their own addresses (host candidates) and meet on the same LAN. A STUN server tells a
// browser its public address, so browsers behind ordinary NATs reach each other; a TURN server
// relays for those that cannot. Given in the panel's field or the URL (?ice=...), as a list
// separated by commas or spaces:
//   stun:HOST[:PORT]  stuns:HOST[:PORT]
//   turn:USER:PASSWORD@HOST[:PORT][?transport=udp|tcp]  turns:USER:PASSWORD@HOST[:PORT][?transport=tcp]
// (percent-encode a ',' or a space anywhere, and a ':' or '@' in the user).

/** What RTCPeerConnection takes for one server. */
export interface IceServer {
  urls: string;
  username?: string;
  credential?: string;
}

/** More would only slow down gathering: each server is asked on every connection. */
export const MAX_ICE_SERVERS = 8;

const SCHEMES = ['stun', 'stuns', 'turn', 'turns'];
// HOST is a DNS name, an IPv4 address or an IPv6 address in brackets.
const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::(\d{1,5}))?$/;

function decode(part: string, what: string, entry: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new Error(`${entry}: the ${what} is not valid percent-encoding`);
  }
}

/** One entry of the list; throws an Error that quotes it and says what is wrong. */
export function parseIceServer(entry: string): IceServer {
  const colon = entry.indexOf(':');
  const scheme = colon < 0 ? '' : entry.slice(0, colon).toLowerCase();
  if (!SCHEMES.includes(scheme)) throw new Error(`${entry}: an ICE server starts with stun:, stuns:, turn: or turns:`);
  let rest = entry.slice(colon + 1);
  const turn = scheme.startsWith('turn');
  let query = '';
  const mark = rest.indexOf('?');
  if (mark >= 0) {
    query = rest.slice(mark);
    rest = rest.slice(0, mark);
    if (!turn) throw new Error(`${entry}: a STUN server takes no ?options`);
    if (!/^\?transport=(udp|tcp)$/.test(query)) throw new Error(`${entry}: the only option is ?transport=udp or ?transport=tcp`);
    if (scheme === 'turns' && query === '?transport=udp') throw new Error(`${entry}: turns: runs over TLS, so over TCP`);
  }
  let username: string | undefined;
  let credential: string | undefined;
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    if (!turn) throw new Error(`${entry}: a STUN server takes no user or password`);
    const userinfo = rest.slice(0, at);
    rest = rest.slice(at + 1);
    const split = userinfo.indexOf(':');
    if (split <= 0 || split === userinfo.length - 1) throw new Error(`${entry}: give TURN's user and password as USER:PASSWORD@HOST`);
    username = decode(userinfo.slice(0, split), 'user', entry);
    credential = decode(userinfo.slice(split + 1), 'password', entry);
  } else if (turn) {
    throw new Error(`${entry}: a TURN server needs a user and password (${scheme}:USER:PASSWORD@HOST:PORT)`);
  }
  const hostPort = HOST_PORT.exec(rest);
  if (!hostPort) throw new Error(`${entry}: expected HOST or HOST:PORT after ${scheme}:`);
  const port = hostPort[2];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) throw new Error(`${entry}: the port is a number from 1 to 65535`);
  const urls = `${scheme}:${rest}${query}`;
  return username === undefined ? { urls } : { urls, username, credential };
}

/** The list in the field or the URL ('' is none); throws an Error naming the first bad entry. */
export function parseIceServers(text: string): IceServer[] {
  const entries = text.split(/[\s,]+/).filter(Boolean);
  if (entries.length > MAX_ICE_SERVERS) throw new Error(`${entries.length} ICE servers given; at most ${MAX_ICE_SERVERS}`);
  return entries.map(parseIceServer);
}

/** The ICE servers the URL gives (every ?ice=, joined), or the error that refuses them. */
export function iceFromUrl(params: URLSearchParams): { text: string; error: string } {
  const text = params.getAll('ice').join(',');
  try {
    parseIceServers(text);
    return { text, error: '' };
  } catch (error) {
    return { text: '', error: `ice=${text}: ${(error as Error).message}` };
  }
}

/** How the servers are shown once running: their URLs, never a password. */
export function describeIce(servers: IceServer[]): string {
  return servers.length ? servers.map((s) => s.urls).join(', ') : 'none (host candidates: same LAN only)';
}
