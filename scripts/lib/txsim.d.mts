export interface DemoJson {
  digest: string;
  events: number;
  nodes: number;
  origin: number;
  arrival_us: number[];
}
export function ensureTxsim(): Promise<string>;
export function txsimJson(args: string[]): Promise<unknown>;
export function txsimDemo(params: { seed: bigint | number | string; nodes: number; degree: number }): Promise<DemoJson>;
