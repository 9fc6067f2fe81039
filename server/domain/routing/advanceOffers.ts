/**
 * One turn of the routing worker: every offer whose time ran out is moved on
 * (offerChat.ts moveOffer), each in its own transaction. On PostgreSQL the row
 * is re-read `FOR UPDATE SKIP LOCKED`, so an instance skips the rows another
 * is moving right now; the move itself is a compare-and-set on `attempt` and
 * `expires_at`, so a row read twice (by two instances, or by one whose reading
 * went stale) is moved once. An instance that dies mid-move rolls back: the row is still due
 * and the next turn of any instance moves it.
 */
import type { AppContext } from '../../context.js';
import { isPostgres } from '../../db/database.js';
import { commit } from '../../events/outbox.js';
import { moveOffer } from './offerChat.js';

const BATCH = 100;

/** Offers moved on in this turn. */
export async function advanceOffers(ctx: AppContext): Promise<number> {
  const now = ctx.clock();
  const due = await ctx.db.selectFrom('chat_offers').select('chat_id').where('expires_at', '<=', now).orderBy('expires_at').limit(BATCH).execute();
  let moved = 0;
  for (const { chat_id } of due) {
    const done = await commit(ctx.db, ctx.signals, async (tx) => {
      const offer = await tx
        .selectFrom('chat_offers')
        .selectAll()
        .where('chat_id', '=', chat_id)
        .where('expires_at', '<=', now)
        .$if(isPostgres(tx), (q) => q.forUpdate().skipLocked())
        .executeTakeFirst();
      return offer ? moveOffer(tx, offer, now) : false;
    });
    if (done) moved++;
  }
  return moved;
}

/** When the next offer runs out (epoch ms), or null when none is outstanding. */
export async function nextOfferDue(ctx: AppContext): Promise<number | null> {
  const row = await ctx.db.selectFrom('chat_offers').select('expires_at').orderBy('expires_at').limit(1).executeTakeFirst();
  return row?.expires_at ?? null;
}
