import { describe, expect, it } from 'vitest';
import { describeIce, iceFromUrl, MAX_ICE_SERVERS, parseIceServers } from './ice';

describe('ICE servers', () => {
  it('is none by default', () => {
    expect(parseIceServers('')).toEqual([]);
    expect(parseIceServers(' , ')).toEqual([]);
    expect(describeIce([])).toBe('none (host candidates: same LAN only)');
    expect(iceFromUrl(new URLSearchParams('relay=/ip4/1.2.3.4'))).toEqual({ text: '', error: '' });
  });

  it('reads STUN and TURN servers, TURN with its user and password', () => {
    expect(parseIceServers('stun:10.213.2.1:3478')).toEqual([{ urls: 'stun:10.213.2.1:3478' }]);
    expect(parseIceServers('stun:stun.example.org, stuns:[2001:db8::1]:5349')).toEqual([{ urls: 'stun:stun.example.org' }, { urls: 'stuns:[2001:db8::1]:5349' }]);
    expect(parseIceServers('turn:ann:s%40cret%3A1@turn.example.org:3478?transport=tcp')).toEqual([
      { urls: 'turn:turn.example.org:3478?transport=tcp', username: 'ann', credential: 's@cret:1' },
    ]);
    // A password may hold ':' as it is; the last '@' ends it.
    expect(parseIceServers('turns:bob:a:b@c@turn.example.org')).toEqual([{ urls: 'turns:turn.example.org', username: 'bob', credential: 'a:b@c' }]);
    expect(describeIce(parseIceServers('stun:a.example:3478 turn:u:p@b.example'))).toBe('stun:a.example:3478, turn:b.example');
  });

  it('says what is wrong with an entry', () => {
    const error = (text: string) => {
      try {
        parseIceServers(text);
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(error('stun.example.org:3478')).toBe('stun.example.org:3478: an ICE server starts with stun:, stuns:, turn: or turns:');
    expect(error('http://x')).toBe('http://x: an ICE server starts with stun:, stuns:, turn: or turns:');
    expect(error('stun:')).toBe('stun:: expected HOST or HOST:PORT after stun:');
    expect(error('stun:host:99999')).toBe('stun:host:99999: the port is a number from 1 to 65535');
    expect(error('stun:host:0')).toBe('stun:host:0: the port is a number from 1 to 65535');
    expect(error('stun:bad_host')).toBe('stun:bad_host: expected HOST or HOST:PORT after stun:');
    expect(error('stun:u:p@host')).toBe('stun:u:p@host: a STUN server takes no user or password');
    expect(error('stun:host?transport=udp')).toBe('stun:host?transport=udp: a STUN server takes no ?options');
    expect(error('turn:host:3478')).toBe('turn:host:3478: a TURN server needs a user and password (turn:USER:PASSWORD@HOST:PORT)');
    expect(error('turn:user@host')).toBe('turn:user@host: give TURN\'s user and password as USER:PASSWORD@HOST');
    expect(error('turn:u:%zz@host')).toBe('turn:u:%zz@host: the password is not valid percent-encoding');
    expect(error('turn:u:p@host?transport=sctp')).toBe('turn:u:p@host?transport=sctp: the only option is ?transport=udp or ?transport=tcp');
    expect(error('turns:u:p@host?transport=udp')).toBe('turns:u:p@host?transport=udp: turns: runs over TLS, so over TCP');
    expect(error(Array(MAX_ICE_SERVERS + 1).fill('stun:h').join(','))).toBe(`${MAX_ICE_SERVERS + 1} ICE servers given; at most ${MAX_ICE_SERVERS}`);
  });

  it('takes every ?ice= of the URL, and refuses the list if one is wrong', () => {
    expect(iceFromUrl(new URLSearchParams('ice=stun:a:1&ice=stun:b:2'))).toEqual({ text: 'stun:a:1,stun:b:2', error: '' });
    expect(iceFromUrl(new URLSearchParams('ice=stun:a:1&ice=turn:b'))).toEqual({
      text: '',
      error: 'ice=stun:a:1,turn:b: turn:b: a TURN server needs a user and password (turn:USER:PASSWORD@HOST:PORT)',
    });
  });
});
