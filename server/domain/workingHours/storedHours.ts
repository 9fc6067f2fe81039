/**
 * Working hours for chat as stored: the account's in `settings.chat_hours_json`,
 * a department's own in `departments.hours_json` (null = the account's).
 * Stored JSON was checked on the way in (hoursInput.ts); a row that does not
 * read as hours (written by hand, say) counts as no hours: always open, never
 * a crash.
 */
import type { Executor } from '../../db/database.js';
import { parseJson } from '../../lib/json.js';
import type { WorkingHours } from './hours.js';
import { cleanWorkingHours, type HoursInput } from './hoursInput.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const isRanges = (v: unknown): v is string[][] => Array.isArray(v) && v.every((r) => Array.isArray(r) && r.every((x) => typeof x === 'string'));

/** Parsed hours by their JSON: availability reads them on every /status and widget load. */
const parsed = new Map<string, WorkingHours | null>();
const KEPT = 500;

export function parseStoredHours(json: string | null): WorkingHours | null {
  if (json === null) return null;
  if (parsed.has(json)) return parsed.get(json) ?? null;
  const hours = parseHours(json);
  if (parsed.size >= KEPT) parsed.delete(parsed.keys().next().value as string);
  parsed.set(json, hours);
  return hours;
}

function parseHours(json: string): WorkingHours | null {
  const v = parseJson<unknown>(json, null);
  if (!isObject(v) || typeof v.timezone !== 'string' || !isObject(v.weekly)) return null;
  const weekly: Record<string, string[][]> = {};
  for (const [day, ranges] of Object.entries(v.weekly)) if (isRanges(ranges)) weekly[day] = ranges;
  const exceptions: HoursInput['exceptions'] = [];
  for (const e of Array.isArray(v.exceptions) ? (v.exceptions as unknown[]) : []) {
    if (isObject(e) && typeof e.date === 'string' && isRanges(e.ranges)) {
      exceptions.push({ date: e.date, ranges: e.ranges, note: typeof e.note === 'string' ? e.note : null });
    }
  }
  try {
    // The rules of the way in, again: what does not pass them is not hours.
    return cleanWorkingHours({ timezone: v.timezone, weekly, exceptions });
  } catch {
    return null;
  }
}

export async function accountHours(db: Executor, accountId: number): Promise<WorkingHours | null> {
  const row = await db.selectFrom('settings').select('chat_hours_json').where('account_id', '=', accountId).executeTakeFirst();
  return parseStoredHours(row?.chat_hours_json ?? null);
}

/** A department's own hours (null: it follows the account's); undefined when the account has no such department. */
export async function departmentOwnHours(db: Executor, accountId: number, departmentId: number): Promise<WorkingHours | null | undefined> {
  const row = await db.selectFrom('departments').select('hours_json').where('id', '=', departmentId).where('account_id', '=', accountId).executeTakeFirst();
  return row ? parseStoredHours(row.hours_json) : undefined;
}

/** The hours that decide for a department (its own, else the account's); the account's for null. */
export async function hoursInForce(db: Executor, accountId: number, departmentId: number | null): Promise<WorkingHours | null> {
  if (departmentId !== null) {
    const own = await departmentOwnHours(db, accountId, departmentId);
    if (own) return own;
  }
  return accountHours(db, accountId);
}
