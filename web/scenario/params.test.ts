import { describe, expect, it } from 'vitest';
import { DEFAULTS, paramsFromSearch, paramsToSearch, parseParams } from './params';

describe('run parameters', () => {
  it('uses the defaults when the URL gives none', () => {
    expect(paramsFromSearch('')).toEqual({ ok: true, params: DEFAULTS });
  });

  it('round-trips through the URL, including the largest u64 seed', () => {
    const params = { seed: 2n ** 64n - 1n, nodes: 250, degree: 6 };
    expect(paramsFromSearch(paramsToSearch(params))).toEqual({ ok: true, params });
  });

  it.each([
    [{ seed: '-1' }, /seed/],
    [{ seed: '18446744073709551616' }, /seed/],
    [{ seed: '1e3' }, /seed/],
    [{ nodes: '2' }, /nodes/],
    [{ nodes: '3001' }, /nodes/],
    [{ nodes: '10.5' }, /nodes/],
    [{ degree: '0' }, /degree/],
    [{ nodes: '8', degree: '8' }, /smaller than nodes/],
  ])('rejects %o', (raw, message) => {
    const parsed = parseParams(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});
