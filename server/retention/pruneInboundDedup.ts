/**
 * inbound_dedup: the chat channel's idempotency keys matter for
 * DEDUP_WINDOW_MS, minutes (domain/chatChannel/dedupInbound.ts: an older row
 * is renewed, not a duplicate), so a row past that window, plus a margin for clocks that
 * differ between instances, only takes room. Oldest first, `limit` at a time,
 * through the index inbound_dedup_created_at.
 */
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import type { DialectName } from '../db/columns.js';
import type { Executor } from '../db/database.js';
import { DEDUP_WINDOW_MS } from '../domain/chatChannel/dedupInbound.js';
import { exclusively } from './exclusive.js';

/** Kept past the window: an instance whose clock runs up to this much behind still finds every key it counts as a duplicate. */
export const DEDUP_MARGIN_MS = 60 * 60 * 1000;

export const dedupCutoff = (now: number): number => now - DEDUP_WINDOW_MS - DEDUP_MARGIN_MS;

export function deleteOldDedup(db: Executor, dialect: DialectName, p: { cutoff: number; limit: number }) {
  if (dialect === 'postgres') {
    // The rows are locked as they are read, and read again if changed meanwhile, so a key renewed in
    // between (created_at = now) is not taken. As an array, their addresses (ctid) can only be
    // fetched directly, never joined against every old row.
    return db
      .deleteFrom('inbound_dedup')
      .where(
        sql<boolean>`ctid = any(array(select ctid from inbound_dedup where created_at < ${p.cutoff} order by created_at limit ${p.limit} for update skip locked))`,
      );
  }
  // SQLite has one writer: nothing changes between the statement's read and its delete.
  return db
    .deleteFrom('inbound_dedup')
    .where((eb) =>
      eb(
        eb.refTuple('channel_id', 'sender_id', 'message_external_id', 'content_hash'),
        'in',
        eb
          .selectFrom('inbound_dedup as old')
          .select(['old.channel_id', 'old.sender_id', 'old.message_external_id', 'old.content_hash'])
          .where('old.created_at', '<', p.cutoff)
          .orderBy('old.created_at')
          .limit(p.limit)
          .$asTuple('channel_id', 'sender_id', 'message_external_id', 'content_hash'),
      ),
    );
}

/** One batch; null when another instance is pruning. */
export async function pruneInboundDedup(ctx: AppContext, p: { now: number; limit: number }): Promise<{ deleted: number; more: boolean } | null> {
  const result = await exclusively(ctx, (tx) => deleteOldDedup(tx, ctx.store.dialect, { cutoff: dedupCutoff(p.now), limit: p.limit }).executeTakeFirst());
  if (result === null) return null;
  const deleted = Number(result.numDeletedRows);
  return { deleted, more: deleted >= p.limit };
}
