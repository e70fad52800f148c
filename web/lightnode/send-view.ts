// Sending: the protocols to send on (with each one's largest tx), generated load (txs stamped with
// their submit time) and a user's own tx (text, hex or a file), each refused with a reason when a
// protocol ticked cannot carry it.
import type { ProtocolName } from './arrivals';
import { GENERATED_HEADER_BYTES, parseTx } from '../p2p/txwire.mjs';
import { log, NAMES, plural, PROTOCOLS, type LightStore, type Renders } from './state';

/** Loads the protocols' caps (framed.mjs loads with the panel) into the store. */
export async function loadCaps(store: LightStore): Promise<void> {
  if (store.get().caps) return;
  try {
    store.update({ caps: (await import('../p2p/framed.mjs')).MAX_TX_BYTES });
  } catch (error) {
    store.update({ capsError: `caps unknown: ${(error as Error).message}` });
  }
}

export function mountSend(store: LightStore, root: HTMLElement, renders: Renders): void {
  const $ = <T extends HTMLElement>(id: string) => root.querySelector<T>(`#${id}`)!;
  const submitButton = $<HTMLButtonElement>('ln-submit');
  const ownButton = $<HTMLButtonElement>('ln-own-send');
  const ownText = $<HTMLTextAreaElement>('ln-own-text');
  const ownFile = $<HTMLInputElement>('ln-own-file');

  const checkedProtocols = (): ProtocolName[] => PROTOCOLS.filter((p) => $<HTMLInputElement>(`ln-${p}`).checked);

  /** Why `bytes` cannot go on `protocols` (the first cap it exceeds), or ''. */
  const overCap = (protocols: ProtocolName[], bytes: number): string => {
    const caps = store.get().caps;
    for (const p of protocols) {
      if (caps && bytes > caps[p]) return `${p} carries txs of at most ${caps[p]} bytes; this one has ${bytes}`;
    }
    return '';
  };

  const ownFormat = (): 'text' | 'hex' | 'file' => {
    const checked = root.querySelector<HTMLInputElement>('input[name="ln-format"]:checked');
    return (checked?.value as 'text' | 'hex' | 'file') ?? 'text';
  };

  /** Shows the tx's size as given so far, and the caps it is over. */
  const showOwnSize = () => {
    const caps = store.get().caps;
    const format = ownFormat();
    let text = '';
    let size = -1;
    if (format === 'file') {
      const file = ownFile.files?.[0];
      if (file) size = file.size;
      else text = 'no file picked';
    } else if (ownText.value) {
      try {
        size = parseTx(ownText.value, format).length;
      } catch (error) {
        text = (error as Error).message;
      }
    }
    if (size >= 0) {
      const over = checkedProtocols().filter((p) => caps && size > caps[p]);
      text = `${plural(size, 'byte')}${over.length ? ` — over the cap of ${over.map((p) => NAMES[p]).join(', ')}` : ''}`;
    }
    $<HTMLSpanElement>('ln-own-size').textContent = text;
  };

  const showOwn = (result: string, error: string) => {
    $<HTMLParagraphElement>('ln-own-result').textContent = result;
    $<HTMLParagraphElement>('ln-own-error').textContent = error;
    if (error) root.dataset.ownError = error;
    else delete root.dataset.ownError;
  };

  const submit = async () => {
    const light = store.get().light;
    if (!light) return;
    const bytes = Math.floor(Number($<HTMLInputElement>('ln-bytes').value));
    const count = Number($<HTMLInputElement>('ln-count').value);
    const protocols = checkedProtocols();
    const refuse = (why: string) => {
      root.dataset.submitError = why;
      $<HTMLParagraphElement>('ln-submit-error').textContent = why;
    };
    if (protocols.length === 0) return refuse('tick at least one protocol');
    if (!Number.isInteger(count) || count < 1 || count > 1000) return refuse('count is a whole number from 1 to 1000');
    if (!Number.isFinite(bytes) || bytes < GENERATED_HEADER_BYTES) return refuse(`a generated tx has at least ${GENERATED_HEADER_BYTES} bytes (its header and submit time)`);
    // Checked here for all protocols first: nothing goes out if one of them cannot carry it.
    const over = overCap(protocols, bytes);
    if (over) return refuse(over);
    delete root.dataset.submitError;
    $<HTMLParagraphElement>('ln-submit-error').textContent = '';
    for (let i = 0; i < count; i++) {
      try {
        await light.submitGenerated(protocols, bytes);
      } catch (error) {
        log(store, `submit failed: ${(error as Error).message}`);
      }
    }
    root.dataset.submitted = String(light.counters.published);
  };

  const sendOwn = async () => {
    const light = store.get().light;
    if (!light) return;
    const protocols = checkedProtocols();
    const format = ownFormat();
    ownButton.disabled = true;
    try {
      if (protocols.length === 0) throw new Error('tick at least one protocol to send on');
      let data: Uint8Array;
      if (format === 'file') {
        const file = ownFile.files?.[0];
        if (!file) throw new Error('pick a file first');
        // Refused before reading: a file far over the caps is never loaded.
        const over = overCap(protocols, file.size);
        if (over) throw new Error(over);
        data = new Uint8Array(await file.arrayBuffer());
      } else {
        data = parseTx(ownText.value, format);
      }
      const hash = await light.submitBytes(protocols, data);
      root.dataset.ownTx = hash;
      root.dataset.ownTxBytes = String(data.length);
      showOwn(`sent ${hash} (${plural(data.length, 'byte')}) on ${protocols.map((p) => NAMES[p]).join(', ')}`, '');
      log(store, `own tx ${hash.slice(0, 16)}… (${data.length} bytes) on ${protocols.join(', ')}`);
    } catch (error) {
      showOwn('', (error as Error).message);
    } finally {
      ownButton.disabled = !store.get().light;
      renders.soon();
    }
  };

  // ---- what the store holds -----------------------------------------------------------------

  /** The protocols' caps, shown next to the checkboxes. */
  store.subscribe(
    (s) => s.caps,
    (caps) => {
      if (!caps) return;
      const parts = PROTOCOLS.map((p) => `${NAMES[p]} ${caps[p].toLocaleString('en')} B`);
      $<HTMLSpanElement>('ln-caps').textContent = `largest tx: ${parts.join(' · ')}`;
      for (const p of PROTOCOLS) root.dataset[`${p}Cap`] = String(caps[p]);
      showOwnSize();
    },
  );
  store.subscribe(
    (s) => s.capsError,
    (message) => message && ($<HTMLSpanElement>('ln-caps').textContent = message),
  );
  // Sending is possible once the node runs.
  store.subscribe(
    (s) => s.phase === 'running',
    (running) => {
      if (!running) return;
      submitButton.disabled = false;
      ownButton.disabled = false;
    },
  );

  // ---- what the user does -------------------------------------------------------------------

  $<HTMLFormElement>('ln-submit-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  $<HTMLFormElement>('ln-own-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void sendOwn();
  });
  const syncOwnFormat = () => {
    const file = ownFormat() === 'file';
    ownFile.hidden = !file;
    ownText.hidden = file;
    showOwnSize();
  };
  for (const radio of root.querySelectorAll<HTMLInputElement>('input[name="ln-format"]')) radio.addEventListener('change', syncOwnFormat);
  ownText.addEventListener('input', showOwnSize);
  ownFile.addEventListener('change', showOwnSize);
  for (const p of PROTOCOLS) $<HTMLInputElement>(`ln-${p}`).addEventListener('change', showOwnSize);
}
