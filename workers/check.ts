// The messages between the editor and the check worker (check.worker.ts).

export interface CheckRequest {
  id: number;
  scenario: string;
}

/** The engine's summary (JSON) of a valid scenario, or its error, with the JSON path of the problem. */
export type CheckReply = { id: number; ok: true; summary: string } | { id: number; ok: false; error: string };
