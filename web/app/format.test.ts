import { describe, expect, it } from 'vitest';
import { count } from './format';

describe('count', () => {
  it('groups thousands like en-US', () => {
    for (const n of [0, 7, 999, 1000, 12345, 1234567, -4321, 161088]) expect(count(n)).toBe(n.toLocaleString('en-US'));
    expect(count(NaN)).toBe('NaN');
  });
});
