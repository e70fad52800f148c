// The run parameters, read from the URL or the form and checked before they reach the worker.

export interface RunParams {
  seed: bigint;
  nodes: number;
  degree: number;
}

export const DEFAULTS: RunParams = { seed: 7n, nodes: 400, degree: 8 };
export const LIMITS = { nodes: { min: 3, max: 3000 }, degree: { min: 1, max: 32 } } as const;

const U64_MAX = (1n << 64n) - 1n;

export type Parsed = { ok: true; params: RunParams } | { ok: false; error: string };

function parseInteger(name: string, text: string, min: number, max: number): number | string {
  if (!/^\d+$/.test(text.trim())) return `${name} must be a whole number`;
  const value = Number(text.trim());
  if (value < min || value > max) return `${name} must be between ${min} and ${max}`;
  return value;
}

/** Checks what the page can check; the engine rejects the rest (e.g. an odd nodes × degree) with its own message. */
export function parseParams(raw: { seed?: string | null; nodes?: string | null; degree?: string | null }): Parsed {
  const seedText = (raw.seed ?? String(DEFAULTS.seed)).trim();
  if (!/^\d{1,20}$/.test(seedText) || BigInt(seedText) > U64_MAX) {
    return { ok: false, error: 'seed must be a whole number from 0 to 2^64 - 1' };
  }
  const nodes = parseInteger('nodes', raw.nodes ?? String(DEFAULTS.nodes), LIMITS.nodes.min, LIMITS.nodes.max);
  if (typeof nodes === 'string') return { ok: false, error: nodes };
  const degree = parseInteger('degree', raw.degree ?? String(DEFAULTS.degree), LIMITS.degree.min, LIMITS.degree.max);
  if (typeof degree === 'string') return { ok: false, error: degree };
  if (degree >= nodes) return { ok: false, error: 'degree must be smaller than nodes' };
  return { ok: true, params: { seed: BigInt(seedText), nodes, degree } };
}

export function paramsFromSearch(search: string): Parsed {
  const query = new URLSearchParams(search);
  return parseParams({ seed: query.get('seed'), nodes: query.get('nodes'), degree: query.get('degree') });
}

export function paramsToSearch(params: RunParams): string {
  return `?seed=${params.seed}&nodes=${params.nodes}&degree=${params.degree}`;
}
