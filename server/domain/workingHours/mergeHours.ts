/**
 * A partial change of working hours (PUT /settings `chat_hours`, PUT
 * /departments/:id/working-hours `hours`): `null` = always open (for a
 * department: follow the account's); an object names the keys it changes —
 * `timezone`, `weekly`, `exceptions` — and keeps the others (from no hours:
 * UTC, every day closed, no exceptions). The result is checked whole
 * (hoursInput.ts), so a refused change stores nothing.
 */
import type { WorkingHours } from './hours.js';
import { cleanWorkingHours, type HoursInput } from './hoursInput.js';

export type HoursChange = Partial<HoursInput> | null;

export function mergeHours(current: WorkingHours | null, change: HoursChange): WorkingHours | null {
  if (change === null) return null;
  const base: HoursInput = current ?? { timezone: 'UTC', weekly: {}, exceptions: [] };
  return cleanWorkingHours({
    timezone: change.timezone ?? base.timezone,
    weekly: change.weekly ?? base.weekly,
    exceptions: change.exceptions ?? base.exceptions,
  });
}
