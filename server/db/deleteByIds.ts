/**
 * Deletes rows of one table by their ids: the bounded batches of erasure,
 * retention and freeing uploads select the ids first (with their limit and,
 * on PostgreSQL, their row locks), then delete exactly those.
 */
import type { Tx } from './database.js';

export async function deleteByIds(tx: Tx, table: 'uploads' | 'deliveries' | 'events', ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await tx.deleteFrom(table).where('id', 'in', ids).execute();
}
