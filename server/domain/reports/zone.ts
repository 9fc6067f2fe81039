/**
 * Time zones for reports: a report's range is whole local days of an IANA
 * zone, and its buckets are local days or hours. Rollups are kept per UTC
 * hour, so a report needs only the zone's UTC offset over its range, which is
 * constant between transitions (daylight saving): `offsetSegments` lists them,
 * and `localMsSql` turns a UTC time column into local time in SQL with one
 * CASE over those few segments (the same on SQLite and PostgreSQL).
 */
import { sql, type RawBuilder } from 'kysely';

const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

const formatters = new Map<string, Intl.DateTimeFormat>();

export function isValidZone(zone: string): boolean {
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Local time minus UTC at instant t, in ms. */
export function offsetAt(zone: string, t: number): number {
  const parts = Object.fromEntries(
    formatterOf(zone)
      .formatToParts(new Date(t))
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return local - (t - (t % 1000));
}

/** The UTC instant of local midnight starting the day `YYYY-MM-DD` in zone (the first instant of that local date). */
export function localMidnight(zone: string, date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d);
  // Two passes settle the offset; a midnight skipped by DST starts the day at the first existing instant.
  let t = wall - offsetAt(zone, wall);
  t = wall - offsetAt(zone, t);
  return t;
}

export interface OffsetSegment {
  /** First UTC ms of the segment. */
  from: number;
  offset: number;
}

const segmentCache = new Map<string, OffsetSegment[]>();

/**
 * The zone's offsets over [from, to): segments split at each transition (found
 * to the minute). The offset is probed once a day (transitions are months
 * apart in every zone), and the answers of the last few ranges are kept: a
 * year is ~400 Intl calls, and the Reports page asks for the same range five
 * times at once.
 */
export function offsetSegments(zone: string, from: number, to: number): OffsetSegment[] {
  const key = `${zone}|${from}|${to}`;
  const cached = segmentCache.get(key);
  if (cached) return cached;
  const segments = findSegments(zone, from, to);
  if (segmentCache.size >= 256) segmentCache.delete(segmentCache.keys().next().value ?? key);
  segmentCache.set(key, segments);
  return segments;
}

function findSegments(zone: string, from: number, to: number): OffsetSegment[] {
  const segments: OffsetSegment[] = [{ from, offset: offsetAt(zone, from) }];
  const step = 24 * HOUR;
  for (let t = from; t < to; t += step) {
    const current = segments[segments.length - 1].offset;
    let lo = t;
    let hi = Math.min(t + step, to);
    if (offsetAt(zone, hi) === current) continue;
    while (hi - lo > 60_000) {
      const mid = lo + Math.max(1, Math.floor((hi - lo) / 120_000)) * 60_000;
      if (offsetAt(zone, mid) === current) lo = mid;
      else hi = mid;
    }
    if (hi < to) segments.push({ from: hi, offset: offsetAt(zone, hi) });
  }
  return segments;
}

/** The offset at UTC ms t from a range's segments (t inside their span): no Intl call, which costs ~40 µs each. */
export function offsetIn(segments: readonly OffsetSegment[], t: number): number {
  let offset = segments[0].offset;
  for (const s of segments) {
    if (s.from > t) break;
    offset = s.offset;
  }
  return offset;
}

/** SQL: the column (UTC ms) as local ms of the zone (valid inside the segments' span). */
export function localMsSql(column: RawBuilder<unknown>, segments: readonly OffsetSegment[]): RawBuilder<number> {
  if (segments.length === 1) return sql<number>`(${column} + ${sql.lit(segments[0].offset)})`;
  let expr = sql`case`;
  for (let i = segments.length - 1; i >= 1; i--) expr = sql`${expr} when ${column} >= ${sql.lit(segments[i].from)} then ${sql.lit(segments[i].offset)}`;
  return sql<number>`(${column} + ${expr} else ${sql.lit(segments[0].offset)} end)`;
}

/** The local date `YYYY-MM-DD` of a local-ms value (ms since the epoch, as if the zone were UTC). */
export function localDate(localMs: number): string {
  return new Date(localMs).toISOString().slice(0, 10);
}

export { HOUR };
