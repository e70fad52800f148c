// One tx's records that its run's worker keeps and the page asks for, the picked tx's only:
// its duplicate copies (`DuplicatesRequest`), where its copies landed first past the sends the
// chunks carried (`FirstCopiesRequest`). Asked from a row on, so each answer adds what is new.
import { Growable } from './growable';

/** An answer about tx `tx`: its records from the worker's row `fromRow` up to `rows`. */
export interface RecordsAnswer {
  tx: number;
  fromRow: number;
  data: Float64Array;
  rows: number;
  /** Records up to this time are all in (Infinity once the run is done). */
  throughUs: number;
  /** Records from this time on were not kept by the worker (Infinity: all were). */
  keptUntilUs: number;
}

const NONE: Float64Array = new Float64Array(0);

export class HeldRecords {
  private tx = -1;
  private data = new Growable(64);
  private rows = 0;
  private throughUs = -Infinity;
  private keptUntilUs = Infinity;
  /** The records held, in the worker's order. */
  private view: Float64Array = NONE;

  /** The records held if they are tx `tx`'s, else none. */
  of(tx: number): Float64Array {
    return this.tx === tx ? this.view : NONE;
  }

  /** When tx `tx`'s records stop being all there (Infinity: they are all there, or another tx's are held). */
  keptUs(tx: number): number {
    return this.tx === tx ? this.keptUntilUs : Infinity;
  }

  /** The worker's row to ask tx `tx`'s records from (0: none held yet), or null when those held are complete up to `computedUs`. */
  from(tx: number, computedUs: number): number | null {
    if (this.tx !== tx) return 0;
    return this.throughUs < computedUs ? this.rows : null;
  }

  /** Takes an answer: kept if it starts a tx's records or goes on from the rows held. */
  add(answer: RecordsAnswer): void {
    if (answer.fromRow === 0 && this.tx !== answer.tx) {
      this.tx = answer.tx;
      this.data = new Growable(64);
      this.view = NONE;
      this.rows = 0;
      this.throughUs = -Infinity;
      this.keptUntilUs = Infinity;
    }
    if (this.tx !== answer.tx || this.rows !== answer.fromRow) return;
    this.data.append(answer.data);
    this.view = this.data.view();
    this.rows = answer.rows;
    this.throughUs = answer.throughUs;
    this.keptUntilUs = answer.keptUntilUs;
  }
}
