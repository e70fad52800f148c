/** A clock (ms) that follows `read`'s forward steps only: never back, never stalled. */
export function monotonic(read?: () => number): () => number;
