export const TX_TOPIC: string;
export const ANNOUNCE_TOPIC: string;
export const GENERATED_HEADER_BYTES: number;
export const DEFAULT_TX_BYTES: number;
export function generatedTx(tx: { sentAtMs: number; bytes?: number }): Uint8Array;
export function sentAtOf(data: Uint8Array): number | null;
export function toHex(bytes: Uint8Array): string;
export function parseTx(input: string, format: 'text' | 'hex'): Uint8Array;
export function wallMs(): number;
