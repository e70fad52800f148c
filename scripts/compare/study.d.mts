// Types for study.mjs (the tests import it).
export const STUDY_ID: string;
/** Adds compare-real's cases to `outDir`'s results page; true if every direction held. */
export function appendStudy(outDir: string, results: unknown[], mode: 'quick' | 'full'): boolean;
