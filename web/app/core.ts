// What the core says about itself, on the page's own thread: the WASM module the workers run
// (compiled once, web/sim/runner.ts) instantiated here to read the registry's protocols and the
// description of every counter. The page never guesses either from a name.
import { compiledEngine } from '../sim/runner';

export interface ProtocolNote {
  name: string;
  about: string;
}

export interface CounterNote {
  name: string;
  /** What one unit is: "txs", "messages", "codewords", ... */
  unit: string;
  about: string;
}

export interface CoreNotes {
  protocols: ProtocolNote[];
  counters: Map<string, CounterNote>;
}

let loading: Promise<CoreNotes> | null = null;
let loaded: CoreNotes | null = null;

/** The core's notes, once its module is instantiated (rejects if it cannot be here). */
export function coreNotes(): Promise<CoreNotes> {
  loading ??= (async () => {
    const module = await compiledEngine();
    if (!module) throw new Error('the WASM core did not load here');
    const wasm = await import('../wasm/txcast_wasm.js');
    wasm.initSync({ module });
    const protocols = wasm.protocols().map((p) => {
      const note = { name: p.name, about: p.about };
      p.free();
      return note;
    });
    const counters = new Map(
      wasm.counters().map((c) => {
        const note = { name: c.name, unit: c.unit, about: c.about };
        c.free();
        return [note.name, note] as const;
      }),
    );
    loaded = { protocols, counters };
    return loaded;
  })();
  return loading;
}

/** A counter's description if the core's notes have arrived (they load as the page starts). */
export function counterNote(name: string): CounterNote | undefined {
  return loaded?.counters.get(name);
}
