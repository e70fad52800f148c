// The scenario editor: the schema-generated form and the raw JSON side by side, kept in step,
// checked by the engine (WASM in a worker of its own, started on first use) as you type.
import type { CheckReply, CheckRequest } from '../../workers/check';
import type { Json, Schema } from './schema-form';

const CHECK_DELAY_MS = 250;

/**
 * The form's code and the schema it is generated from, loaded with the first form built: they
 * are not needed to show the page, and setting them up lengthened the page's first task.
 */
let formCode: Promise<typeof import('./schema-form') & { schema: Schema }> | null = null;
function loadForm() {
  formCode ??= Promise.all([import('./schema-form'), import('../../scenarios/schema.json')]).then(([form, schema]) => ({
    ...form,
    schema: schema.default as unknown as Schema,
  }));
  return formCode;
}

/** The engine's scenario check, in a worker started on first use; throws with the JSON path of the first problem. */
class Checker {
  private worker: Worker | null = null;
  private next = 0;
  private readonly pending = new Map<number, { resolve: (summary: string) => void; reject: (error: Error) => void }>();

  check(scenario: string): Promise<string> {
    const worker = this.start();
    const id = (this.next += 1);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, scenario } satisfies CheckRequest);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('../../workers/check.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<CheckReply>) => {
      const reply = event.data;
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.ok) waiter?.resolve(reply.summary);
      else waiter?.reject(new Error(reply.error));
    };
    // A crashed checker fails what it held; the next check starts a fresh one.
    worker.onerror = (event) => {
      event.preventDefault();
      for (const waiter of this.pending.values()) waiter.reject(new Error(`the scenario checker stopped: ${event.message || 'unknown error'}`));
      this.pending.clear();
      worker.terminate();
      this.worker = null;
    };
    this.worker = worker;
    return worker;
  }
}

const checker = new Checker();

/** The engine's check of a scenario (off the page's thread): its summary JSON, or an error with the JSON path of the first problem. */
export function checkScenario(scenario: string): Promise<string> {
  return checker.check(scenario);
}

export class ScenarioEditor {
  private timer = 0;
  /** The form shows an older text than the raw JSON. */
  private formStale = false;
  private formTimer = 0;

  /** `edited` hears of every change the user makes to the text, in the raw JSON or the form. */
  constructor(
    private readonly form: HTMLElement,
    private readonly raw: HTMLTextAreaElement,
    private readonly status: HTMLElement,
    private readonly edited: () => void,
  ) {
    raw.addEventListener('input', () => {
      this.edited();
      this.scheduleCheck();
    });
    // Rebuild the form when the raw text settles into valid JSON.
    raw.addEventListener('change', () => this.rawChanged());
  }

  load(text: string): void {
    this.raw.value = text;
    this.rawChanged();
    this.scheduleCheck();
  }

  /**
   * The form follows the raw text once it can be seen, in a task of its own: building and laying
   * out its hundreds of fields took tens of ms, not to be added to the task that opens the editor
   * or starts the runs.
   */
  private rawChanged(): void {
    this.formStale = true;
    if (this.open) this.scheduleForm();
  }

  private scheduleForm(): void {
    clearTimeout(this.formTimer);
    this.formTimer = window.setTimeout(() => void this.refreshForm(), 0);
  }

  text(): string {
    return this.raw.value;
  }

  private async refreshForm(): Promise<void> {
    if (!this.formStale) return;
    this.formStale = false;
    const { renderForm, schema } = await loadForm();
    let value: Json;
    try {
      value = JSON.parse(this.raw.value) as Json;
    } catch {
      return; // the check reports the syntax error
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    renderForm(this.form, schema, value, (next) => {
      this.raw.value = JSON.stringify(next, null, 2);
      this.edited();
      this.scheduleCheck();
    });
  }

  /** Checks run only while the editor is open: the first screen starts no checker. */
  private get open(): boolean {
    return this.form.closest('[hidden]') === null;
  }

  /** Call when the editor is opened. */
  opened(): void {
    this.scheduleForm();
    this.scheduleCheck();
  }

  /** Shows an error the engine gave when running, beside its field. */
  markError(message: string): void {
    this.report(message, false);
    void this.refreshForm().then(async () => (await loadForm()).showFieldError(this.form, message));
  }

  private scheduleCheck(): void {
    if (!this.open) return;
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.check(), CHECK_DELAY_MS);
  }

  /** Shows the first problem (with its JSON path, beside its field) or a summary of the scenario. */
  async check(): Promise<boolean> {
    const text = this.raw.value;
    try {
      JSON.parse(text);
    } catch (error) {
      return this.report(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`, false);
    }
    try {
      const summary = JSON.parse(await checker.check(text)) as { nodes: number; links: number; txs: number; runs: unknown[]; notes?: string[] };
      if (text !== this.raw.value) return false; // edited meanwhile: a newer check follows
      (await loadForm()).showFieldError(this.form, '');
      const notes = summary.notes?.length ? ` · note: ${summary.notes.join(' · ')}` : '';
      return this.report(`valid: ${summary.nodes} nodes, ${summary.links} links, ${summary.txs} txs, ${summary.runs.length} runs${notes}`, true);
    } catch (error) {
      if (text !== this.raw.value) return false;
      const message = error instanceof Error ? error.message : String(error);
      (await loadForm()).showFieldError(this.form, message);
      return this.report(message, false);
    }
  }

  private report(message: string, ok: boolean): boolean {
    this.status.textContent = message;
    this.status.dataset.valid = String(ok);
    return ok;
  }
}
