// The values at a few ranks of a large array's sorted order, without sorting all of it: a CDF
// chart draws a few hundred points of a run's million latencies, and a full sort of those held
// the page's main thread for about 100 ms per run.

/**
 * Buckets of the value range the values are first counted into: many, so that a wanted rank's
 * bucket holds few values even where they crowd (4,096 left most of a million log-normal
 * latencies in wanted buckets: 53-75 ms against 105 ms for the full sort; 65,536: 11-33 ms).
 */
const BUCKETS = 1 << 16;

/**
 * `sorted[r]` for each rank `r` of `ranks` (each in 0..values.length-1), where `sorted` is
 * `values` in ascending order; exactly what sorting would give. The values are counted into
 * equal-width buckets of their range, and only the buckets that hold a wanted rank are sorted.
 */
export function orderStatistics(values: Float64Array, ranks: readonly number[]): Float64Array {
  const out = new Float64Array(ranks.length);
  const n = values.length;
  let lo = Infinity;
  let hi = -Infinity;
  let nan = false;
  for (let i = 0; i < n; i += 1) {
    const v = values[i];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    if (v !== v) nan = true;
  }
  const buckets = Math.min(BUCKETS, n);
  const scale = buckets / (hi - lo);
  // Empty, a NaN, or a range with no finite, non-zero width or scale to bucket by (one value
  // only, as 0 and -0 are; infinities; ±1e308; subnormal steps): sort it all.
  if (nan || !Number.isFinite(hi - lo) || !Number.isFinite(scale)) {
    const sorted = values.slice().sort();
    ranks.forEach((r, k) => (out[k] = sorted[r]));
    return out;
  }
  const bucketOf = (v: number) => Math.min(buckets - 1, Math.floor((v - lo) * scale));
  // first[b]: the rank of bucket b's smallest value (first[buckets] = n).
  const first = new Uint32Array(buckets + 1);
  for (let i = 0; i < n; i += 1) first[bucketOf(values[i]) + 1] += 1;
  for (let b = 0; b < buckets; b += 1) first[b + 1] += first[b];
  const bucketOfRank = (r: number) => {
    let [low, high] = [0, buckets - 1];
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (first[mid] <= r) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  // Where each wanted bucket's values go in one scratch array (-1: not wanted).
  const rankBuckets = ranks.map(bucketOfRank);
  const at = new Int32Array(buckets).fill(-1);
  let room = 0;
  for (const b of rankBuckets) {
    if (at[b] < 0) {
      at[b] = room;
      room += first[b + 1] - first[b];
    }
  }
  const scratch = new Float64Array(room);
  const filled = new Int32Array(buckets);
  for (let i = 0; i < n; i += 1) {
    const b = bucketOf(values[i]);
    if (at[b] >= 0) scratch[at[b] + filled[b]++] = values[i];
  }
  for (let b = 0; b < buckets; b += 1) {
    if (at[b] >= 0) scratch.subarray(at[b], at[b] + filled[b]).sort();
  }
  ranks.forEach((r, k) => {
    const b = rankBuckets[k];
    out[k] = scratch[at[b] + r - first[b]];
  });
  return out;
}
