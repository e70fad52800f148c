// The one clock the live path reads for protocol time, rate buckets, strikes and bans: it never
// goes back and never stands still. It advances by what the source clock advanced, and a step
// back of the source (a wall clock set back, a host that hands in Date.now) counts as no time
// at all, instead of stalling timers until the source catches up or turning the gap into
// strikes. Shared by the page and the Node relay, so plain JS.

/** A clock (ms) that follows `read`'s forward steps only. */
export function monotonic(read = () => performance.now()) {
  let last = read();
  let now = last;
  return () => {
    const raw = read();
    if (raw > last) now += raw - last;
    last = raw;
    return now;
  };
}
