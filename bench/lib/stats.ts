/** Small statistics for the benchmarks' reports: percentiles, medians, ranges. */

/** The p-th percentile of an ascending list (nearest rank); NaN for an empty one. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** "median (min–max)" of values, each written by `format`. */
export function medianRange(values: number[], format: (v: number) => string): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${format(median(sorted))} (${format(sorted[0])}–${format(sorted[sorted.length - 1])})`;
}

export const ms = (v: number): string => `${v.toFixed(1)} ms`;
