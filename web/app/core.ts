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

/** A kind of message, as the registry describes it. */
export interface MessageNote {
  kind: string;
  /** As the protocol's spec writes it ("IHAVE"). */
  label: string;
  about: string;
}

export interface CoreNotes {
  protocols: ProtocolNote[];
  counters: Map<string, CounterNote>;
  /** Each protocol's kinds of message. */
  messages: Map<string, MessageNote[]>;
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
    const messages = new Map(
      protocols.map((p) => [
        p.name,
        wasm.messages(p.name).map((m) => {
          const note = { kind: m.kind, label: m.label, about: m.about };
          m.free();
          return note;
        }),
      ]),
    );
    loaded = { protocols, counters, messages };
    return loaded;
  })();
  return loading;
}

/** A message kind's description in `protocol` if the core's notes have arrived. */
export function messageNote(protocol: string, kind: string): MessageNote | undefined {
  return loaded?.messages.get(protocol)?.find((m) => m.kind === kind);
}

/** A counter's description if the core's notes have arrived (they load as the page starts). */
export function counterNote(name: string): CounterNote | undefined {
  return loaded?.counters.get(name);
}
