/**
 * The hours worker: sleeps until the next open/close of any account's or
 * department's working hours for chat, then moves the clock on
 * (advanceHoursClock.ts: one instance records each change). It looks again at
 * least every LOOK_MS (another instance may have saved new hours) and at once
 * when this process saves hours (HOURS_SAVED on ctx.signals). A failed turn is
 * logged and retried at the next (dueWorker.ts).
 */
import { dueWorker } from '../../dueWorker.js';
import { advanceHoursClock, nextHoursChange } from './advanceHoursClock.js';
import { HOURS_SAVED } from './announceHours.js';

export const LOOK_MS = 10_000;

export const hoursWorker = dueWorker({
  name: 'working-hours',
  lookMs: LOOK_MS,
  // A change is acted on this long after its minute at most.
  minSleepMs: 20,
  signal: HOURS_SAVED,
  advance: advanceHoursClock,
  nextDue: nextHoursChange,
});
