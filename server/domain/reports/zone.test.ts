/** Time zones of reports: local midnights, offsets over a range split at daylight-saving changes, half-hour zones. */
import { describe, expect, it } from 'vitest';
import { BIN_EDGES_S, binOf, percentile } from './bins.js';
import { localMidnight, offsetAt, offsetSegments } from './zone.js';

const at = (iso: string) => Date.parse(iso);
const H = 3_600_000;

describe('report time zones', () => {
  it('finds local midnight, on both sides of a daylight-saving change', () => {
    expect(localMidnight('America/New_York', '2026-11-01')).toBe(at('2026-11-01T04:00:00Z'));
    expect(localMidnight('America/New_York', '2026-11-02')).toBe(at('2026-11-02T05:00:00Z'));
    expect(localMidnight('Europe/Berlin', '2026-03-29')).toBe(at('2026-03-28T23:00:00Z'));
    expect(localMidnight('Asia/Kolkata', '2026-01-01')).toBe(at('2025-12-31T18:30:00Z'));
    expect(localMidnight('UTC', '2026-01-01')).toBe(at('2026-01-01T00:00:00Z'));
  });

  it('splits a range at each change of offset, to the minute', () => {
    expect(offsetSegments('America/New_York', at('2026-10-31T04:00:00Z'), at('2026-11-02T05:00:00Z'))).toEqual([
      { from: at('2026-10-31T04:00:00Z'), offset: -4 * H },
      { from: at('2026-11-01T06:00:00Z'), offset: -5 * H },
    ]);
    const year = offsetSegments('Europe/Berlin', at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z'));
    expect(year.map((s) => [new Date(s.from).toISOString(), s.offset / H])).toEqual([
      ['2026-01-01T00:00:00.000Z', 1],
      ['2026-03-29T01:00:00.000Z', 2],
      ['2026-10-25T01:00:00.000Z', 1],
    ]);
    expect(offsetSegments('Asia/Kolkata', at('2026-01-01T00:00:00Z'), at('2026-12-31T00:00:00Z'))).toEqual([
      { from: at('2026-01-01T00:00:00Z'), offset: 5.5 * H },
    ]);
    expect(offsetAt('Australia/Eucla', at('2026-06-01T00:00:00Z'))).toBe(8.75 * H);
  });

  it('reads percentiles from the bins by nearest rank, spread evenly inside a bin', () => {
    expect(binOf(0)).toBe(0);
    expect(binOf(4_999)).toBe(0);
    expect(binOf(5_000)).toBe(1);
    expect(binOf(10 * 86_400_000)).toBe(BIN_EDGES_S.length - 1);
    expect(percentile(new Map(), 0.5)).toBeNull();
    // Four values in bin [60, 90): ranks 1…4 read 67.5, 75, 82.5, 90.
    const four = new Map([[binOf(70_000), 4]]);
    expect(percentile(four, 0.5)).toBe(75);
    expect(percentile(four, 0.9)).toBe(90);
    // The open last bin reads its lower edge.
    expect(percentile(new Map([[BIN_EDGES_S.length - 1, 3]]), 0.9)).toBe(86_400);
    // 9 fast (0–5 s), 1 slow (300–420 s): median in the first bin, p90 rank 9 still there, p99 the slow one.
    const mixed = new Map([
      [0, 9],
      [binOf(400_000), 1],
    ]);
    expect(percentile(mixed, 0.5)).toBe(2.8);
    expect(percentile(mixed, 0.9)).toBe(5);
    expect(percentile(mixed, 0.99)).toBe(420);
  });
});
