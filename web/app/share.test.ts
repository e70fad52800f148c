import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { LIBRARY } from '../scenario/scenarios';
import { MAX_SCENARIO_BYTES, MAX_SHARE_CHARS, readFragment, shareFragment } from './share';

describe('share links', () => {
  it('round-trip every library scenario (minified) and a seed, or say it is too big', async () => {
    for (const entry of LIBRARY) {
      const text = await entry.load();
      const made = await shareFragment(text, '42');
      if (!made.ok) {
        expect(text.length).toBeGreaterThan(MAX_SHARE_CHARS); // only big explicit networks
        expect(made.error).toMatch(/share links hold at most/);
        continue;
      }
      expect(made.fragment.length).toBeLessThan(MAX_SHARE_CHARS + 20);
      const back = await readFragment(`#${made.fragment}`);
      expect(back).toEqual({ ok: true, scenario: JSON.stringify(JSON.parse(text)), seed: '42' });
    }
  });

  it('refuse a scenario that does not fit, saying so', async () => {
    // Incompressible: an explicit list of pseudo-random edges.
    let x = 12345;
    const edges = Array.from({ length: 12000 }, () => {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      return { a: x % 5000, b: (x >> 8) % 5000 };
    });
    const made = await shareFragment(JSON.stringify({ name: 'big', topology: { kind: 'explicit', edges } }));
    expect(made.ok).toBe(false);
    if (!made.ok) expect(made.error).toMatch(/share links hold at most/);
  });

  it('reject damaged links and decompression bombs, and ignore fragments without a scenario', async () => {
    expect(await readFragment('#t=5')).toBeNull();
    expect(await readFragment('#s=%%%')).toMatchObject({ ok: false });
    expect(await readFragment('#s=AAAA')).toMatchObject({ ok: false });
    const bomb = deflateSync(new Uint8Array(MAX_SCENARIO_BYTES + 10).fill(32), { level: 9 });
    const b64 = btoa(String.fromCharCode(...bomb)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const result = await readFragment(`s=${b64}`);
    expect(result).toMatchObject({ ok: false });
    if (result && !result.ok) expect(result.error).toMatch(/expands past/);
  });

  it('refuse invalid JSON', async () => {
    expect(await shareFragment('{nope')).toMatchObject({ ok: false });
  });
});
