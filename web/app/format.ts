// Number formatting without Intl: its first use loads locale data in one long main-thread task.

/** 1234567 → "1,234,567" (integers; others are rounded). */
export function count(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const sign = n < 0 ? '-' : '';
  return sign + String(Math.round(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
