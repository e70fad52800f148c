import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, effectiveVersion, settingsFromUrl } from './settings';

const parse = (query: string) => settingsFromUrl(new URLSearchParams(query));

describe('GossipSub settings from the URL', () => {
  it('takes router, version and D_announce, and defaults what is not given', () => {
    expect(parse('')).toEqual({ settings: DEFAULT_SETTINGS, errors: [] });
    expect(parse('relay=/ip4/1.2.3.4&autostart=1')).toEqual({ settings: DEFAULT_SETTINGS, errors: [] });
    expect(parse('gossipsub=txcast&version=v2.0&d_announce=6')).toEqual({ settings: { router: 'txcast', version: 'v2.0', dAnnounce: 6 }, errors: [] });
    expect(parse('version=v1.2').settings).toEqual({ router: 'txcast', version: 'v1.2', dAnnounce: 4 });
    expect(parse('gossipsub=js').settings.router).toBe('js');
    expect(parse('gossipsub=js&version=v1.2').errors).toEqual([]);
  });

  it('says what is wrong with a value instead of falling back in silence', () => {
    expect(parse('gossipsub=rust').errors).toEqual(['gossipsub=rust: the router is txcast or js']);
    expect(parse('version=2.0').errors).toEqual(['version=2.0: the version is v1.2 or v2.0']);
    for (const bad of ['7', '-1', '2.5', 'four', '']) {
      expect(parse(`d_announce=${bad}`).errors).toEqual([`d_announce=${bad}: D_announce is a whole number from 0 to 6`]);
    }
    expect(parse('d_announce=0').errors).toEqual([]);
  });

  it('refuses combinations the routers cannot run', () => {
    expect(parse('gossipsub=js&version=v2.0').errors).toEqual(['version=v2.0 needs gossipsub=txcast: @libp2p/gossipsub speaks up to v1.2']);
    expect(parse('version=v1.2&d_announce=3').errors).toEqual(["d_announce applies to txcast's router on v2.0 only (IANNOUNCE/INEED)"]);
    expect(parse('gossipsub=js&d_announce=3').errors).toHaveLength(1);
  });

  it('runs @libp2p/gossipsub on v1.2 whatever version the form shows', () => {
    expect(effectiveVersion({ router: 'js', version: 'v2.0', dAnnounce: 4 })).toBe('v1.2');
    expect(effectiveVersion({ router: 'txcast', version: 'v2.0', dAnnounce: 4 })).toBe('v2.0');
    expect(effectiveVersion({ router: 'txcast', version: 'v1.2', dAnnounce: 4 })).toBe('v1.2');
  });
});
