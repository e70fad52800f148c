export const TX_TOPIC: string;
export const ANNOUNCE_TOPIC: string;
export const TX_HEADER_BYTES: number;
export const MAX_TX_BYTES: number;
export const DEFAULT_TX_BYTES: number;
export interface TxHeader {
  id: string;
  sentAtMs: number;
  bytes: number;
}
export function randomTxId(): string;
export function toHex(bytes: Uint8Array): string;
export function encodeTx(tx: { id: string; sentAtMs: number; bytes?: number }): Uint8Array;
export function decodeTx(data: Uint8Array): TxHeader | null;
export function messageId(msg: { topic: string; data?: Uint8Array; from?: unknown; sequenceNumber?: bigint }): Uint8Array;
