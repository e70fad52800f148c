// The light node's protocol engines each run in a WebAssembly instance of their own (a copy of
// the core's glue module, live-node.mjs `loadEngine`), so that one that traps is rebuilt alone.
// The module is compiled once; each engine instantiates it.
import glueUrl from '../wasm/txcast_wasm.js?url';
import wasmUrl from '../wasm/txcast_wasm_bg.wasm?url';
import { loadEngine } from '../p2p/live-node.mjs';

let compiled: Promise<WebAssembly.Module> | null = null;

/** A fresh instance of the core for one engine: its glue module, initialised. */
export async function freshEngine(): Promise<unknown> {
  compiled ??= WebAssembly.compileStreaming(fetch(wasmUrl));
  return loadEngine(new URL(glueUrl, location.href).href, await compiled);
}
