/**
 * The delivery log of the admin API (shaped by presenters/delivery.ts): list an account's outgoing requests
 * (newest first, paged by id) and redeliver one — the same webhook-id and
 * body, attempts counted anew, a fresh deadline for chat-channel rows; a
 * redelivered message shows `pending` again until the new cycle ends, and a
 * redelivered event webhook's event type is sent again if it was given up on.
 */
import type { AppContext } from '../context.js';
import type { Delivery } from '../db/schema.js';
import { notFound } from '../errors/AppError.js';
import { commit } from '../events/outbox.js';
import { newCycle } from './enqueue.js';
import { kindOf } from './kinds.js';

export interface ListDeliveries {
  accountId: number;
  limit: number;
  before?: number;
  status?: Delivery['status'];
  kind?: Delivery['kind'];
}

export async function listDeliveries(ctx: AppContext, q: ListDeliveries): Promise<Delivery[]> {
  let query = ctx.db.selectFrom('deliveries').selectAll().where('account_id', '=', q.accountId);
  if (q.before !== undefined) query = query.where('id', '<', q.before);
  if (q.status !== undefined) query = query.where('status', '=', q.status);
  if (q.kind !== undefined) query = query.where('kind', '=', q.kind);
  return query.orderBy('id', 'desc').limit(q.limit).execute();
}

/** Resets a delivery to pending now and wakes the deliverer; 404 outside the account. */
export async function redeliver(ctx: AppContext, input: { accountId: number; deliveryId: number }): Promise<Delivery> {
  const now = ctx.clock();
  const row = await commit(ctx.db, ctx.signals, async (tx) => {
    const current = await tx
      .selectFrom('deliveries')
      .select(['id', 'kind'])
      .where('id', '=', input.deliveryId)
      .where('account_id', '=', input.accountId)
      .executeTakeFirst();
    if (!current) throw notFound('Delivery');
    const kind = kindOf(current.kind);
    const updated = await tx
      .updateTable('deliveries')
      .set({
        // A mail composed while no SMTP server is set stays kept: there is nowhere to send it.
        status: kind.redeliverAs?.(ctx) ?? 'pending',
        ...newCycle(kind.policy, now),
        updated_at: now,
      })
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    // The kind's part: a chat-channel message shows pending again, a given-up event type is sent again.
    await kind.redelivered?.(tx, updated, now);
    return updated;
  });
  ctx.signals.deliveriesDue();
  return row;
}
