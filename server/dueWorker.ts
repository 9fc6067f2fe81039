/**
 * A worker that sleeps until the next thing falls due, acts, and looks again:
 * the shape of the hours worker and the routing worker. Each turn runs
 * `advance` then asks `nextDue` (a time in ms, or null for nothing known);
 * it sleeps until then, but never longer than lookMs (another instance may
 * have changed things) nor shorter than minSleepMs (timers fire a little late,
 * never early), and wakes at once on `signal` from this process. Turns never
 * overlap (a wake during a turn runs one more after it). A failed turn is
 * logged as a warning and retried after lookMs.
 */
import type { AppContext, Worker } from './context.js';

export interface DueWorkerSpec {
  /** Named in the warning of a failed turn ("<name> turn failed"). */
  name: string;
  lookMs: number;
  minSleepMs: number;
  /** The ctx.signals event that wakes the worker at once. */
  signal: string;
  advance(ctx: AppContext): Promise<unknown>;
  nextDue(ctx: AppContext): Promise<number | null>;
}

export function dueWorker(spec: DueWorkerSpec): Worker {
  return async (app, ctx) => {
    let stopped = false;
    let timer: NodeJS.Timeout | null = null;
    let running: Promise<void> | null = null;
    let again = false;

    const schedule = (ms: number): void => {
      if (stopped) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(turn, Math.max(spec.minSleepMs, Math.min(ms, spec.lookMs)));
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
          await spec.advance(ctx);
          const next = await spec.nextDue(ctx);
          schedule(next === null ? spec.lookMs : next - ctx.clock());
        } catch (err) {
          app.log.warn({ err }, `${spec.name} turn failed; retried at the next`);
          schedule(spec.lookMs);
        }
      })().finally(() => {
        running = null;
        if (again) {
          again = false;
          turn();
        }
      });
    }

    const onSignal = (): void => turn();
    ctx.signals.on(spec.signal, onSignal);
    turn();
    return async () => {
      stopped = true;
      ctx.signals.off(spec.signal, onSignal);
      if (timer) clearTimeout(timer);
      await running;
    };
  };
}
