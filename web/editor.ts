// The scenario editor: the schema-generated form and the raw JSON side by side, kept in step,
// checked by the engine (WASM on this thread, loaded on first use) as you type.
import schemaJson from '../scenarios/schema.json';
import { renderForm, showFieldError, type Json, type Schema } from './schema-form';

const SCHEMA = schemaJson as unknown as Schema;
const CHECK_DELAY_MS = 250;

type Checker = (json: string) => string;
let checker: Promise<Checker> | null = null;

/** The engine's own scenario check; throws with the JSON path of the first problem. */
function loadChecker(): Promise<Checker> {
  checker ??= import('./wasm/txcast_wasm.js').then(async (wasm) => {
    await wasm.default();
    return wasm.check_scenario;
  });
  return checker;
}

export class ScenarioEditor {
  private timer = 0;

  constructor(
    private readonly form: HTMLElement,
    private readonly raw: HTMLTextAreaElement,
    private readonly status: HTMLElement,
  ) {
    raw.addEventListener('input', () => this.scheduleCheck());
    // Rebuild the form when the raw text settles into valid JSON.
    raw.addEventListener('change', () => this.buildForm());
  }

  load(text: string): void {
    this.raw.value = text;
    this.buildForm();
    this.scheduleCheck();
  }

  text(): string {
    return this.raw.value;
  }

  private buildForm(): void {
    let value: Json;
    try {
      value = JSON.parse(this.raw.value) as Json;
    } catch {
      return; // the check reports the syntax error
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    renderForm(this.form, SCHEMA, value, (next) => {
      this.raw.value = JSON.stringify(next, null, 2);
      this.scheduleCheck();
    });
  }

  /** Checks run only while the editor is open: the first screen loads no WASM on this thread. */
  private get open(): boolean {
    return this.form.closest('[hidden]') === null;
  }

  /** Call when the editor is opened. */
  opened(): void {
    this.scheduleCheck();
  }

  /** Shows an error the engine gave when running, beside its field. */
  markError(message: string): void {
    showFieldError(this.form, message);
    this.report(message, false);
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
      const summary = JSON.parse((await loadChecker())(text)) as { nodes: number; links: number; txs: number; runs: unknown[] };
      if (text !== this.raw.value) return false; // edited meanwhile: a newer check follows
      showFieldError(this.form, '');
      return this.report(`valid: ${summary.nodes} nodes, ${summary.links} links, ${summary.txs} txs, ${summary.runs.length} runs`, true);
    } catch (error) {
      if (text !== this.raw.value) return false;
      const message = error instanceof Error ? error.message : String(error);
      showFieldError(this.form, message);
      return this.report(message, false);
    }
  }

  private report(message: string, ok: boolean): boolean {
    this.status.textContent = message;
    this.status.dataset.valid = String(ok);
    return ok;
  }
}
