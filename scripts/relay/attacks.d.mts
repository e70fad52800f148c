// Types for attacks.mjs.
export interface Attack {
  name: string;
  about: string;
  /** Whether the rules cut the attacker off (a ban). */
  cutOff: boolean;
  /** The most frames the attack takes (it means something else by a frame). */
  maxFrames?: number;
  counted(stats: unknown): Record<string, number>;
}
export const ATTACKS: Attack[];
export const TRAP_PREFIX: Uint8Array;
export const MALFORMED: Uint8Array[];
export function attackNamed(name: string): Attack;
