/**
 * deliveries: the delivery log admins read (and redeliver from) keeps a
 * finished row (`delivered`, or `failed` for good, or a `kept` mail: composed
 * while no SMTP server was configured, or a `cancelled` event webhook whose
 * type an admin switched off) for the retention period after it finished. A `pending` or `paused` row is never touched, whatever
 * its age: it is still to be sent.
 *
 * Finishing sets next_attempt_at to the time it finished (webhooks/outcomes.ts;
 * cancelling too: domain/settings/updateSettings.ts),
 * so the rows due for deletion are a range of the index deliveries_due
 * (status, next_attempt_at): nothing to do is one index probe per status.
 */
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import type { DialectName } from '../db/columns.js';
import type { Executor } from '../db/database.js';
import type { Delivery } from '../db/schema.js';
import { exclusively } from './exclusive.js';

const FINISHED: Array<Delivery['status']> = ['delivered', 'failed', 'kept', 'cancelled'];

export function deleteFinishedDeliveries(db: Executor, dialect: DialectName, p: { cutoff: number; limit: number }) {
  const due = db
    .selectFrom('deliveries')
    .select('id')
    .where('status', 'in', FINISHED)
    .where('next_attempt_at', '<', p.cutoff)
    .where('updated_at', '<', p.cutoff)
    .limit(p.limit);
  // SQLite has one writer: nothing changes between the statement's read and its delete.
  if (dialect === 'sqlite') return db.deleteFrom('deliveries').where('id', 'in', due);
  // PostgreSQL: the rows are locked as they are read, and read again if changed meanwhile, so a
  // redelivery made in between (pending, updated now) is not taken; one being made is skipped.
  // As an array, the ids can only be looked up by primary key, never joined against all finished rows.
  return db.deleteFrom('deliveries').where(sql<boolean>`id = any(array(${due.forUpdate().skipLocked()}))`);
}

/** One batch; null when another instance is pruning. */
export async function pruneDeliveries(ctx: AppContext, p: { cutoff: number; limit: number }): Promise<{ deleted: number; more: boolean } | null> {
  const result = await exclusively(ctx, (tx) => deleteFinishedDeliveries(tx, ctx.store.dialect, p).executeTakeFirst());
  if (result === null) return null;
  const deleted = Number(result.numDeletedRows);
  return { deleted, more: deleted >= p.limit };
}
