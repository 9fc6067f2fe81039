/**
 * Keeps every account's daily report rollup (dailyRollup.ts) in the account's
 * time zone: an account without one, or whose zone changed (Admin → Settings
 * → Callbacks), gets it built from the hourly rollups, CHUNK_DAYS local days
 * per transaction, each under the relay's lock (events/relayLock.ts) so the
 * relay's own additions never interleave. A pass runs at start, when this
 * process changes a zone (the 'report-zone' signal), and every
 * PASS_INTERVAL_MS (zones changed on other instances, a pass cut short).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Worker } from '../../context.js';
import { inTransaction, type Store } from '../../db/database.js';
import { withRelayLock } from '../../events/relayLock.js';
import { passesOf, UnavailableLog } from '../../errors/unavailableLog.js';
import { accountZone, buildDailyStep } from './dailyRollup.js';

const CHUNK_DAYS = 7;
const PASS_INTERVAL_MS = 60_000;

/** Brings every account's daily rollup to its zone, step by step; returns the accounts that needed it. */
export async function buildDailyRollups(store: Pick<Store, 'db' | 'dialect'>, options: { chunkDays?: number; stopped?: () => boolean } = {}): Promise<number> {
  const accounts = await store.db
    .selectFrom('accounts as a')
    .leftJoin('settings as s', 's.account_id', 'a.id')
    .leftJoin('report_daily_zones as z', 'z.account_id', 'a.id')
    .select(['a.id', 's.callback_json', 'z.timezone', 'z.built_through'])
    .execute();
  let built = 0;
  for (const account of accounts) {
    const zone = accountZone(account.callback_json === null ? undefined : { callback_json: account.callback_json });
    if (account.timezone === zone && account.built_through === null) continue;
    built += 1;
    for (;;) {
      if (options.stopped?.()) return built;
      const done = await withRelayLock(store.db, store.dialect, (db) =>
        inTransaction(db, (tx) => buildDailyStep(tx, account.id, zone, options.chunkDays ?? CHUNK_DAYS)),
      );
      if (done) break;
      await nextTurn();
    }
  }
  return built;
}

export const dailyRollupWorker: Worker = async (app, ctx) => {
  const unavailable: UnavailableLog = app.unavailableLog;
  const source = passesOf('daily report rollup', PASS_INTERVAL_MS);
  let stopped = false;
  let again = false;
  let running: Promise<void> | null = null;
  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          const built = await buildDailyRollups(ctx.store, { stopped: () => stopped });
          if (built > 0) ctx.log.info({ accounts: built }, 'daily report rollups built');
        } catch (err) {
          // The next pass starts again where the last committed step left off.
          unavailable.report(err, source, { log: ctx.log, msg: 'daily report rollup failed' });
        }
      } while (again && !stopped);
    })().finally(() => (running = null));
  };
  const onSignal = (): void => run();
  ctx.signals.on('report-zone', onSignal);
  const timer = setInterval(run, PASS_INTERVAL_MS);
  timer.unref();
  run();
  return async () => {
    stopped = true;
    ctx.signals.off('report-zone', onSignal);
    clearInterval(timer);
    await running;
  };
};
