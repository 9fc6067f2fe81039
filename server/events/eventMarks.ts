/**
 * The per-account mark of deleted events (table event_retention): the newest
 * event id the retention worker deleted for that account. It is written in
 * the transaction of the delete, so it can never lag behind one. The realtime
 * feed reads it: a socket whose cursor is below the mark missed events that
 * no longer exist, and must reload instead of replaying a silent hole.
 */
import { sql } from 'kysely';
import type { Executor, Tx } from '../db/database.js';

export interface DeletedEvent {
  id: number;
  account_id: number;
}

/** Raises each account's mark to the newest of its deleted ids (never lowers it: instances may race). */
export async function markDeletedEvents(tx: Tx, deleted: readonly DeletedEvent[]): Promise<void> {
  const newest = new Map<number, number>();
  for (const e of deleted) newest.set(e.account_id, Math.max(newest.get(e.account_id) ?? 0, e.id));
  if (newest.size === 0) return;
  // One row per account, in account order: concurrent writers lock rows in the same order.
  const values = [...newest].sort(([a], [b]) => a - b).map(([account_id, deleted_through]) => ({ account_id, deleted_through }));
  await tx
    .insertInto('event_retention')
    .values(values)
    .onConflict((oc) =>
      oc
        .column('account_id')
        .doUpdateSet({ deleted_through: (eb) => eb.ref('excluded.deleted_through') })
        .where('event_retention.deleted_through', '<', sql.ref<number>('excluded.deleted_through')),
    )
    .execute();
}

/** The account's mark: 0 while retention has deleted none of its events. */
export async function deletedThrough(db: Executor, accountId: number): Promise<number> {
  const row = await db.selectFrom('event_retention').select('deleted_through').where('account_id', '=', accountId).executeTakeFirst();
  return row?.deleted_through ?? 0;
}
