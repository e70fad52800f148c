export const BAN_MS: number;
export const MAX_BANS: number;
export interface Ban {
  peer: string;
  remainingMs: number;
  reason: string;
}
export class BanList {
  constructor(options?: { banMs?: number; now?: () => number });
  readonly banMs: number;
  banned: number;
  refused: number;
  ban(peer: unknown, reason: string): void;
  isBanned(peer: unknown): boolean;
  refuse(peer: unknown): boolean;
  list(): Ban[];
  gater<T extends object>(extra?: T): T & {
    denyDialPeer(peerId: { toString(): string }): boolean;
    denyInboundEncryptedConnection(peerId: { toString(): string }): boolean;
    denyOutboundEncryptedConnection(peerId: { toString(): string }): boolean;
  };
}
