/**
 * Failures are judged per event type (#17 item 2). When a delivery has failed
 * every attempt of its schedule, what the receiver did meanwhile decides:
 * - it answered (2xx) another delivery of the same event type: only this
 *   delivery failed; nothing else changes;
 * - it answered deliveries of other types only: this event type is given up
 *   on, recorded with the receiver's answer (event_webhook_given_up); its new
 *   events are not sent (counted as skipped) and every other type keeps flowing;
 * - it answered nothing at all: the whole URL is paused (pause.ts).
 * A given-up type is sent again after an admin resumes it (or resumes event
 * webhooks, or sets another URL), or when one of its deliveries is redelivered.
 */
import type { Executor, Tx } from '../db/database.js';
import type { Delivery } from '../db/schema.js';
import type { Decision } from '../webhooks/kind.js';
import { pauseEventWebhooks, pauseReason } from './pause.js';

/** Whether the receiver at `row.url` answered 2xx to another delivery since `since`, of this event type or of another. */
async function answeredSince(tx: Tx, row: Delivery, since: number, sameType: boolean): Promise<boolean> {
  const found = await tx
    .selectFrom('deliveries')
    .select('id')
    .where('account_id', '=', row.account_id)
    .where('kind', '=', 'event_webhook')
    .where('id', '!=', row.id)
    .where('url', '=', row.url)
    .where('event_type', sameType ? '=' : '!=', row.event_type)
    .where((w) =>
      w.or([w('delivered_at', '>=', since), w.and([w('last_status_code', '>=', 200), w('last_status_code', '<', 300), w('updated_at', '>=', since)])]),
    )
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

/** Settles a delivery that failed its whole schedule; `since` is when that schedule began at the earliest. */
export async function settleExhausted(tx: Tx, row: Delivery, d: Decision, since: number, now: number): Promise<void> {
  if (await answeredSince(tx, row, since, true)) return;
  if (!(await answeredSince(tx, row, since, false))) {
    await pauseEventWebhooks(tx, row.account_id, pauseReason(row.url, d.lastError, now), now);
    return;
  }
  await tx
    .insertInto('event_webhook_given_up')
    .values({
      account_id: row.account_id,
      event_type: row.event_type,
      url: row.url,
      delivery_id: row.id,
      status_code: row.last_status_code,
      response: row.last_response,
      error: row.last_error,
      skipped: 0,
      given_up_at: now,
    })
    .onConflict((oc) => oc.columns(['account_id', 'event_type']).doNothing())
    .execute();
  await tx
    .updateTable('deliveries')
    .set({ last_error: `${row.last_error ?? 'failed'}; ${row.event_type} given up: the receiver answers other event types` })
    .where('id', '=', row.id)
    .execute();
}

/**
 * Whether events of this type are given up on for the account; counts the
 * event as skipped when they are. One statement on the relay's path.
 */
export async function skipGivenUp(tx: Tx, accountId: number, eventType: string): Promise<boolean> {
  const hit = await tx
    .updateTable('event_webhook_given_up')
    .set((eb) => ({ skipped: eb('skipped', '+', 1) }))
    .where('account_id', '=', accountId)
    .where('event_type', '=', eventType)
    .returning('event_type')
    .executeTakeFirst();
  return hit !== undefined;
}

/** Sends a given-up event type again (all of them without `eventType`); returns how many were cleared. */
export async function clearGivenUp(tx: Executor, accountId: number, eventType?: string): Promise<number> {
  const res = await tx
    .deleteFrom('event_webhook_given_up')
    .where('account_id', '=', accountId)
    .$if(eventType !== undefined, (q) => q.where('event_type', '=', eventType ?? ''))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function listGivenUp(db: Executor, accountId: number) {
  return db.selectFrom('event_webhook_given_up').selectAll().where('account_id', '=', accountId).orderBy('given_up_at', 'asc').execute();
}
