/**
 * One retention batch at a time per database schema. Several instances may
 * run the worker: on PostgreSQL each batch is a short transaction that first
 * tries a transaction-level advisory lock and gives up at once when another
 * instance holds it (that one is already pruning; two deleting the same rows
 * would only wait on each other's row locks). The lock ends with the
 * transaction, so no long lock is ever held. SQLite has one writer anyway.
 * A batch PostgreSQL aborts for a deadlock runs again (db/transient.ts), lock
 * first: the batches are deletes, harmless to run again.
 */
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { inTransaction, type Tx } from '../db/database.js';

/** pg_try_advisory_xact_lock(class, hashtext(schema)); the relay uses another class. */
const LOCK_CLASS = 0x50_52_54; // "PRT"

/** Runs one batch in its own transaction; null when another instance is pruning right now. */
export async function exclusively<T>(ctx: AppContext, batch: (tx: Tx) => Promise<T>): Promise<T | null> {
  return inTransaction(ctx.db, async (tx) => {
    if (ctx.store.dialect === 'postgres') {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${LOCK_CLASS}, hashtext(current_schema())) as locked`.execute(tx);
      if (!rows[0]?.locked) return null;
      // A row locked by a request (a redelivery, say) is waited for briefly, never for long.
      await sql`set local lock_timeout = '5s'`.execute(tx);
    }
    return batch(tx);
  });
}
