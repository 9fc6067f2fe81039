/**
 * Who is calling the widget API: the widget channel named in the path, and
 * the visitor whose secret token comes with the call (only its sha256 is
 * stored). A token is valid for the widget that issued it and no other. A
 * disabled widget is not found.
 */
import type { Executor, Tx } from '../../db/database.js';
import type { Channel, Visitor } from '../../db/schema.js';
import { AppError, notFound } from '../../errors/AppError.js';
import { sha256 } from '../../lib/ids.js';
import { widgetOptions } from '../channels/channelInput.js';

export async function findWidgetChannel(db: Executor, widgetId: string): Promise<Channel> {
  const channel =
    widgetId.length <= 64
      ? await db.selectFrom('channels').selectAll().where('public_id', '=', widgetId).where('type', '=', 'widget').executeTakeFirst()
      : undefined;
  if (!channel) throw notFound('The widget');
  // A widget an admin turned off is answered as an unknown one everywhere (loader, frame, API, socket).
  if (widgetOptions(channel).enabled === false)
    throw new AppError('not_found', 'The widget is disabled; an admin can turn it on again in the channel settings.');
  return channel;
}

/** The visitor of this widget holding `token`, or null. */
export async function findVisitorByToken(db: Executor, channel: Pick<Channel, 'id'>, token: string | null | undefined): Promise<Visitor | null> {
  if (!token || token.length > 200) return null;
  const visitor = await db.selectFrom('visitors').selectAll().where('token_hash', '=', sha256(token)).where('channel_id', '=', channel.id).executeTakeFirst();
  return visitor ?? null;
}

export async function requireVisitor(db: Executor, channel: Pick<Channel, 'id'>, token: string | null | undefined): Promise<Visitor> {
  const visitor = await findVisitorByToken(db, channel, token);
  if (!visitor) throw new AppError('unauthorized', 'The visitor token is missing or unknown; start a widget session first.');
  return visitor;
}

/**
 * Re-reads the visitor inside a transaction, locking its row (an update):
 * one visitor's concurrent calls then run one after the other, so no two
 * chats open and no session change is lost.
 */
export async function lockVisitor(tx: Tx, visitorId: number, now: number): Promise<Visitor> {
  const visitor = await tryLockVisitor(tx, visitorId, now);
  // Deleted since it was found (an idle anonymous visitor, retention/pruneVisitors.ts): as an unknown token.
  if (!visitor) throw new AppError('unauthorized', 'The visitor token is missing or unknown; start a widget session first.');
  return visitor;
}

/** lockVisitor for a visitor that may have been deleted since it was found (an idle anonymous one: retention/pruneVisitors.ts). */
export async function tryLockVisitor(tx: Tx, visitorId: number, now: number): Promise<Visitor | undefined> {
  return tx.updateTable('visitors').set({ updated_at: now }).where('id', '=', visitorId).returningAll().executeTakeFirst();
}
