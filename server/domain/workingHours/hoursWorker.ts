/**
 * The hours worker: sleeps until the next open/close of any account's or
 * department's working hours for chat, then moves the clock on
 * (advanceHoursClock.ts: one instance records each change). It looks again at
 * least every LOOK_MS (another instance may have saved new hours) and at once
 * when this process saves hours (HOURS_SAVED on ctx.signals). A failed turn is
 * logged and retried at the next.
 */
import type { Worker } from '../../context.js';
import { advanceHoursClock, nextHoursChange } from './advanceHoursClock.js';
import { HOURS_SAVED } from './announceHours.js';

export const LOOK_MS = 10_000;
/** A change is acted on this long after its minute at most (timers fire a little late, never early). */
const MIN_SLEEP_MS = 20;

export const hoursWorker: Worker = async (app, ctx) => {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;

  const schedule = (ms: number): void => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(turn, Math.max(MIN_SLEEP_MS, Math.min(ms, LOOK_MS)));
    timer.unref();
  };

  function turn(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        await advanceHoursClock(ctx);
        const next = await nextHoursChange(ctx);
        schedule(next === null ? LOOK_MS : next - ctx.clock());
      } catch (err) {
        app.log.warn({ err }, 'working-hours turn failed; retried at the next');
        schedule(LOOK_MS);
      }
    })().finally(() => {
      running = null;
      if (again) {
        again = false;
        turn();
      }
    });
  }

  const onSaved = (): void => turn();
  ctx.signals.on(HOURS_SAVED, onSaved);
  turn();
  return async () => {
    stopped = true;
    ctx.signals.off(HOURS_SAVED, onSaved);
    if (timer) clearTimeout(timer);
    await running;
  };
};
