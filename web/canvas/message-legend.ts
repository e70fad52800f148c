// The legend of message types: every kind of message the runs' protocols send, one line each,
// as the core's registry describes it.
import { coreNotes } from '../app/core';
import type { Subscribable } from '../app/store';
import type { Panel } from './panel';

export function mountMessageLegend(store: Subscribable<{ panels: readonly Panel[]; started: number }>, list: HTMLElement): void {
  store.subscribe(
    (s) => s.started,
    () => {
      const protocols = [...new Set(store.get().panels.flatMap((p) => (p.trace ? [p.trace.protocol] : [])))];
      void coreNotes()
        .then((notes) => {
          list.replaceChildren(
            ...protocols.flatMap((protocol) =>
              (notes.messages.get(protocol) ?? []).map((m) => {
                const li = document.createElement('li');
                li.dataset.kind = m.kind;
                const b = document.createElement('strong');
                b.textContent = m.label;
                li.append(protocols.length > 1 ? `${protocol} ` : '', b, ` ${m.about}`);
                return li;
              }),
            ),
          );
        })
        .catch(() => undefined);
    },
  );
}
