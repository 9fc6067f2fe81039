/**
 * Charges an ended call's seconds against the account's callback balance
 * (settings callback.balance_seconds), never below 0. Runs inside the call's
 * transaction; on PostgreSQL the settings row is locked first, so a settings
 * change or another call ending at the same moment cannot lose the charge.
 */
import type { Tx } from '../../db/database.js';
import { toJson } from '../../lib/json.js';
import { callbackOf, settingsOf } from '../settings/getSettings.js';

/** Returns the balance left after the charge. */
export async function chargeCallBalance(tx: Tx, input: { accountId: number; seconds: number; now: number; lock: boolean }): Promise<number> {
  const settings = await settingsOf(tx, input.accountId, input.now, input.lock);
  const callback = callbackOf(settings);
  if (input.seconds <= 0) return callback.balance_seconds;
  const current = Number.isFinite(callback.balance_seconds) ? callback.balance_seconds : 0;
  const balance = Math.max(0, current - input.seconds);
  await tx
    .updateTable('settings')
    .set({ callback_json: toJson({ ...callback, balance_seconds: balance }), updated_at: input.now })
    .where('account_id', '=', input.accountId)
    .execute();
  return balance;
}

/** Whole seconds from the first connection to the end, rounded up; 0 if the call never connected. */
export function callSeconds(connectedAt: number | null, endedAt: number): number {
  if (connectedAt === null) return 0;
  return Math.max(0, Math.ceil((endedAt - connectedAt) / 1000));
}
