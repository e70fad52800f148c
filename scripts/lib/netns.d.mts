import type { ChildProcessWithoutNullStreams, SpawnOptions } from 'node:child_process';
export interface Netns {
  name: string;
  addr: string;
  exec(command: string, args: string[], options?: SpawnOptions): ChildProcessWithoutNullStreams;
  chromiumWrapper(chromium?: string): string;
  destroy(): Promise<void>;
}
export function netnsAvailable(): boolean;
export function createNetns(name: string, subnet?: number): Netns;
export function waitForLine(child: ChildProcessWithoutNullStreams, pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
export function startPreview(ns: Netns, options: { root: string; node: string; dist: string; port: number }): Promise<ChildProcessWithoutNullStreams>;
