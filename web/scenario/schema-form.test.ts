import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { childPath, initialValue, protocolConfigSchema, resolve, variantOf, type Schema } from './schema-form';

const root = JSON.parse(readFileSync(new URL('../../scenarios/schema.json', import.meta.url), 'utf8')) as Schema;

describe('the scenario schema, as the form reads it', () => {
  it('resolves references and finds oneOf variants by kind', () => {
    const topology = resolve(root, root.properties!.topology);
    expect(topology.oneOf!.length).toBeGreaterThan(1);
    expect(variantOf(topology, { kind: 'random_regular', degree: 8 })?.required).toContain('degree');
    expect(variantOf(topology, { kind: 'nonsense' })).toBeUndefined();
  });

  it('starts a variant with its required fields', () => {
    const latency = resolve(root, root.properties!.latency);
    const constant = latency.oneOf!.find((v) => v.properties?.kind?.const === 'constant')!;
    expect(initialValue(root, constant)).toEqual({ kind: 'constant', ms: 0 });
  });

  it('picks each protocol its own config schema', () => {
    const spec = resolve(root, root.properties!.protocols.items!);
    const inv = protocolConfigSchema(root, spec, 'inv');
    const cat = protocolConfigSchema(root, spec, 'cat');
    expect(inv?.properties).toBeDefined();
    expect(Object.keys(inv!.properties!)).not.toEqual(Object.keys(cat!.properties!));
    expect(protocolConfigSchema(root, spec, 'no-such-protocol')).toBeUndefined();
  });

  it('writes paths as the engine does', () => {
    expect(childPath('', 'topology')).toBe('topology');
    expect(childPath('protocols', 1)).toBe('protocols[1]');
    expect(childPath('protocols[1]', 'config')).toBe('protocols[1].config');
  });
});
