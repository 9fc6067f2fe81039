/**
 * The routing worker: sleeps until the soonest offer runs out, then moves the
 * due offers on (advanceOffers.ts). It looks again at least every LOOK_MS
 * (another instance may have made an offer, or died holding one) and at once
 * when this process asks (OFFERS_DUE on ctx.signals: an offer was declined).
 * A failed turn is logged and retried at the next (dueWorker.ts).
 */
import { dueWorker } from '../../dueWorker.js';
import { advanceOffers, nextOfferDue } from './advanceOffers.js';

export const LOOK_MS = 1000;
export const OFFERS_DUE = 'routing.offers_due';

export const routingWorker = dueWorker({
  name: 'routing',
  lookMs: LOOK_MS,
  minSleepMs: 10,
  signal: OFFERS_DUE,
  advance: advanceOffers,
  nextDue: nextOfferDue,
});
