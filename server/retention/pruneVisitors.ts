/**
 * Anonymous widget visitors that left nothing behind, not seen for
 * VISITOR_IDLE_DAYS (#31 item 11): every widget session start without a known
 * token makes a visitor row, most never chat, and the table grew without
 * bound (hundreds of MB a day from one address reloading a page).
 *
 * A visitor goes only when all of this holds: a widget visitor (token_hash
 * set: a chat channel's senders are the customer's records and are kept),
 * not seen since the cutoff (updated_at: every session start, message or
 * request of the visitor touches it), no chat (none counted, none in chats),
 * no offline message, no call, no contact details (name, e-mail, phone,
 * description, the contacts form's answer, a user token, a photo) and not
 * blacklisted (the ban must outlive the visitor's silence).
 *
 * Such a visitor coming back is simply a new one: its old token is unknown,
 * so the session start creates a fresh visitor and token (what the widget
 * does with an unknown token anyway); startVisitorSession also copes with a
 * visitor deleted between its lookup and its transaction.
 *
 * The conditions are written into the delete as well as into the batch's
 * choice: on PostgreSQL a visitor a request touches meanwhile (its row locked
 * and updated_at moved on) is then re-checked and kept. Oldest first,
 * through visitors_anonymous_created (migration 049), `limit` at a time.
 */
import type { ExpressionBuilder } from 'kysely';
import type { AppContext } from '../context.js';
import type { Executor } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { exclusively } from './exclusive.js';

type VisitorsEb = ExpressionBuilder<Database, 'visitors'>;

/** Everything that makes a visitor of no value once idle past the cutoff. */
function idleAnonymous(eb: VisitorsEb, cutoff: number) {
  return eb.and([
    eb('visitors.token_hash', 'is not', null),
    eb('visitors.chats_count', '=', 0),
    eb('visitors.created_at', '<', cutoff),
    eb('visitors.updated_at', '<', cutoff),
    eb('visitors.blacklisted', '=', 0),
    eb('visitors.name', 'is', null),
    eb('visitors.email', 'is', null),
    eb('visitors.phone', 'is', null),
    eb('visitors.description', 'is', null),
    eb('visitors.widget_contact_json', 'is', null),
    eb('visitors.user_token', 'is', null),
    eb('visitors.photo', 'is', null),
    eb.not(eb.exists(eb.selectFrom('chats').select('chats.id').whereRef('chats.visitor_id', '=', 'visitors.id'))),
    eb.not(eb.exists(eb.selectFrom('offline_messages').select('offline_messages.id').whereRef('offline_messages.visitor_id', '=', 'visitors.id'))),
    eb.not(eb.exists(eb.selectFrom('calls').select('calls.id').whereRef('calls.visitor_id', '=', 'visitors.id'))),
  ]);
}

export function deleteIdleVisitors(db: Executor, p: { cutoff: number; limit: number }) {
  return db
    .deleteFrom('visitors')
    .where(
      'id',
      'in',
      db
        .selectFrom('visitors')
        .select('visitors.id')
        .where((eb) => idleAnonymous(eb, p.cutoff))
        .orderBy('visitors.created_at')
        .limit(p.limit),
    )
    .where((eb) => idleAnonymous(eb, p.cutoff));
}

/** One batch; null when another instance is pruning. */
export async function pruneVisitors(ctx: AppContext, p: { cutoff: number; limit: number }): Promise<{ deleted: number; more: boolean } | null> {
  const deleted = await exclusively(ctx, async (tx) => Number((await deleteIdleVisitors(tx, p).executeTakeFirst()).numDeletedRows));
  if (deleted === null) return null;
  return { deleted, more: deleted >= p.limit };
}
