/**
 * The routing worker: sleeps until the soonest offer runs out, then moves the
 * due offers on (advanceOffers.ts). It looks again at least every LOOK_MS
 * (another instance may have made an offer, or died holding one) and at once
 * when this process asks (OFFERS_DUE on ctx.signals: an offer was declined).
 * A failed turn is logged and retried at the next.
 */
import type { Worker } from '../../context.js';
import { advanceOffers, nextOfferDue } from './advanceOffers.js';

export const LOOK_MS = 1000;
export const OFFERS_DUE = 'routing.offers_due';
const MIN_SLEEP_MS = 10;

export const routingWorker: Worker = async (app, ctx) => {
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
        await advanceOffers(ctx);
        const next = await nextOfferDue(ctx);
        schedule(next === null ? LOOK_MS : next - ctx.clock());
      } catch (err) {
        app.log.warn({ err }, 'routing turn failed; retried at the next');
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

  const onDue = (): void => turn();
  ctx.signals.on(OFFERS_DUE, onDue);
  turn();
  return async () => {
    stopped = true;
    ctx.signals.off(OFFERS_DUE, onDue);
    if (timer) clearTimeout(timer);
    await running;
  };
};
