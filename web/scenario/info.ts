// What the page reads from a scenario before the engine sees it: the seed text and the run labels;
// and the seed the user typed over it.

export interface ScenarioInfo {
  seed: string;
  labels: string[];
}

/** The seed text and the run labels of a scenario's JSON text (throws if it is not JSON). */
export function scenarioInfo(text: string): ScenarioInfo {
  const parsed = JSON.parse(text) as { seed?: unknown; protocols?: { label?: unknown; protocol?: unknown }[] };
  const seedMatch = /"seed"\s*:\s*(\d+)/.exec(text); // the exact digits: JSON.parse rounds past 2^53
  const labels = Array.isArray(parsed.protocols) ? parsed.protocols.map((p, i) => String(p?.label ?? p?.protocol ?? `run ${i}`)) : [];
  return { seed: seedMatch?.[1] ?? String(parsed.seed ?? 0), labels };
}

/** The seed typed over the scenario's: undefined when it is the scenario's own, a message when it is not a seed. */
export function seedOverride(seedText: string, info: ScenarioInfo): bigint | undefined | string {
  const text = seedText.trim();
  if (text === info.seed) return undefined;
  if (!/^\d{1,20}$/.test(text) || BigInt(text) >= 1n << 64n) return 'seed must be a whole number from 0 to 2^64 - 1';
  return BigInt(text);
}
