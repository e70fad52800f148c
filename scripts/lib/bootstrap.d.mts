// Types for the parts of bootstrap.mjs that the TypeScript tests use.
export const ROOT: string;
export const TXSIM: string;
export const WASM_BINARY: string;
export function buildTxsim(): Promise<string>;
export function buildWasm(): Promise<void>;
