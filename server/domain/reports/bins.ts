/**
 * Histogram bins of first response time and chat duration (report_hist), and
 * how a percentile is read from them. The edges are part of migration 015's
 * schema (the same list is frozen there): a change needs a migration that
 * rebuilds report_hist.
 *
 * A percentile p of n values is the value of rank ceil(p·n) (nearest rank).
 * Inside its bin [lo, hi) the values are taken as spread evenly: the k-th of
 * the bin's c values reads lo + (hi − lo)·k/c. In the open last bin it reads lo.
 */

/** Seconds; bin i is [edge i, edge i+1), the last one open-ended. */
export const BIN_EDGES_S = [
  0, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 300, 420, 600, 900, 1200, 1800, 2700, 3600, 5400, 7200, 10800, 14400, 21600, 28800, 43200, 86400,
] as const;

export function binOf(ms: number): number {
  for (let i = 1; i < BIN_EDGES_S.length; i++) if (ms < BIN_EDGES_S[i] * 1000) return i - 1;
  return BIN_EDGES_S.length - 1;
}

/** The p-th percentile (0 < p ≤ 1) in seconds, from counts per bin; null when there are none. */
export function percentile(counts: ReadonlyMap<number, number>, p: number): number | null {
  let n = 0;
  for (const c of counts.values()) n += c;
  if (n === 0) return null;
  const rank = Math.max(1, Math.ceil(p * n));
  let before = 0;
  for (let bin = 0; bin < BIN_EDGES_S.length; bin++) {
    const c = counts.get(bin) ?? 0;
    if (c === 0) continue;
    if (before + c >= rank) {
      const lo = BIN_EDGES_S[bin];
      const hi = BIN_EDGES_S[bin + 1];
      if (hi === undefined) return lo;
      return Math.round((lo + ((hi - lo) * (rank - before)) / c) * 10) / 10;
    }
    before += c;
  }
  return null;
}
