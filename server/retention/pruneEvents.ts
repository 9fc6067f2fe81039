/**
 * events: the outbox rows are also the replay log of the sockets, so a row
 * goes only once it is relayed (subscribers ran, sockets had it live) and
 * older than the retention period, and never while a pending or paused
 * delivery names it (the delivery log links each delivery to its event).
 *
 * Ids grow with time, so the oldest rows come first on the primary key: a
 * pass walks it from the start, `limit` ids at a time, and stops at the first
 * row young enough to keep. A row kept inside that prefix (unrelayed,
 * protected) is stepped over, and looked at again by the next pass. Each
 * batch raises the accounts' deletion marks in its transaction
 * (events/eventMarks.ts), for the sockets.
 */
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import type { Executor } from '../db/database.js';
import { RELAYED_THROUGH } from '../events/relayClaim.js';
import { markDeletedEvents } from '../events/eventMarks.js';
import { exclusively } from './exclusive.js';

export interface EventsBatch {
  deleted: number;
  /** Where the next batch of this pass starts (after this id), or null: the pass is done. */
  next: number | null;
}

/** The ids (after, hi] were all old when read: delete those that may go, and return them. */
export function deleteOldEvents(db: Executor, p: { after: number; hi: number; cutoff: number }) {
  return db
    .deleteFrom('events')
    .where('id', '>', p.after)
    .where('id', '<=', p.hi)
    .where('id', '<=', RELAYED_THROUGH)
    .where('created_at', '<', p.cutoff)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('deliveries')
            .select('deliveries.id')
            .whereRef('deliveries.event_id', '=', 'events.id')
            // Spelled as the partial index deliveries_open_event spells it (literals).
            .where(sql<boolean>`status in ('pending', 'paused')`),
        ),
      ),
    )
    .returning(['id', 'account_id']);
}

/** One batch of a pass that has handled every id up to `after`; null when another instance is pruning. */
export async function pruneEvents(ctx: AppContext, p: { after: number; cutoff: number; limit: number }): Promise<EventsBatch | null> {
  const oldest = () => ctx.db.selectFrom('events').select(['id', 'created_at']).where('id', '>', p.after).orderBy('id');
  // One row first: when nothing is old enough (the usual case), that is all a pass reads.
  const first = await oldest().limit(1).executeTakeFirst();
  if (!first || first.created_at >= p.cutoff) return { deleted: 0, next: null };
  const page = await oldest().limit(p.limit).execute();
  let hi = p.after;
  let old = 0;
  for (const row of page) {
    if (row.created_at >= p.cutoff) break; // a later row may be older (clocks differ): the next pass gets it
    hi = row.id;
    old += 1;
  }
  if (old === 0) return { deleted: 0, next: null };
  const deleted = await exclusively(ctx, async (tx) => {
    const rows = await deleteOldEvents(tx, { after: p.after, hi, cutoff: p.cutoff }).execute();
    await markDeletedEvents(tx, rows);
    return rows.length;
  });
  if (deleted === null) return null;
  return { deleted, next: old === page.length && page.length === p.limit ? hi : null };
}
