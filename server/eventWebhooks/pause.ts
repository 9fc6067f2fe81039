/**
 * An event-webhook endpoint that fails every attempt of a delivery (more than
 * a day of backoff) while answering no other delivery either (giveUp.ts) is
 * paused with a visible reason: new events are still recorded as deliveries,
 * held as `paused`, and nothing more is sent until an admin resumes
 * (POST /api/v1/settings/webhooks/resume) or changes the URL. Resuming
 * releases the held deliveries in order (and the domain operation sends every
 * given-up event type again: domain/settings/resumeWebhooks.ts).
 */
import type { Tx } from '../db/database.js';

export async function pauseEventWebhooks(tx: Tx, accountId: number, reason: string, now: number): Promise<void> {
  await tx
    .updateTable('settings')
    .set({ webhooks_paused_reason: reason, updated_at: now })
    .where('account_id', '=', accountId)
    .where('webhooks_paused_reason', 'is', null)
    .execute();
}

export function pauseReason(url: string, lastError: string | null, now: number): string {
  const when = new Date(now).toISOString().replace(/\.\d+Z$/, 'Z');
  return `Paused ${when}: ${url} failed every attempt of a delivery for more than a day, and answered no other delivery${lastError ? ` (last error: ${lastError})` : ''}. Fix the receiver, then resume.`;
}

/** Clears the pause and makes the held deliveries due now; returns how many were released. */
export async function resumeEventWebhooks(tx: Tx, accountId: number, now: number): Promise<number> {
  await tx.updateTable('settings').set({ webhooks_paused_reason: null, updated_at: now }).where('account_id', '=', accountId).execute();
  const released = await tx
    .updateTable('deliveries')
    .set({ status: 'pending', next_attempt_at: now, attempts: 0, locked_until: null, updated_at: now })
    .where('account_id', '=', accountId)
    .where('kind', '=', 'event_webhook')
    .where('status', '=', 'paused')
    .executeTakeFirst();
  return Number(released.numUpdatedRows);
}
