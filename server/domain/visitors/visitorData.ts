/**
 * Everything Parley holds about one visitor, for the right of access (GET
 * /api/v1/visitors/:id/export, administrators; docs/DATA.md "Export"): the
 * visitor row, their chats with every message, their uploaded files, calls,
 * offline messages, and the events and deliveries (webhooks, chat channel,
 * mails) about their chats. Rows, in id order; presenters/visitorExport.ts
 * shapes them.
 */
import type { AppContext } from '../../context.js';
import type { Delivery, Message, StoredEvent } from '../../db/schema.js';
import type { VisitorData } from '../../db/exportRows.js';
import { notFound } from '../../errors/AppError.js';

/** Chats per `IN (…)` list: well under either store's limit on bound parameters. */
const IDS_PER_QUERY = 500;

function slices(ids: number[]): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) out.push(ids.slice(i, i + IDS_PER_QUERY));
  return out;
}

export async function visitorData(ctx: AppContext, accountId: number, visitorId: number): Promise<VisitorData> {
  const { db } = ctx;
  const visitor = await db.selectFrom('visitors').selectAll().where('id', '=', visitorId).where('account_id', '=', accountId).executeTakeFirst();
  if (!visitor) throw notFound('The visitor');
  const chats = await db.selectFrom('chats').selectAll().where('account_id', '=', accountId).where('visitor_id', '=', visitor.id).orderBy('id').execute();
  const messages: Message[] = [];
  const events: StoredEvent[] = [];
  const deliveries: Delivery[] = [];
  for (const ids of slices(chats.map((c) => c.id))) {
    messages.push(...(await db.selectFrom('messages').selectAll().where('account_id', '=', accountId).where('chat_id', 'in', ids).orderBy('id').execute()));
    events.push(...(await db.selectFrom('events').selectAll().where('account_id', '=', accountId).where('chat_id', 'in', ids).orderBy('id').execute()));
    deliveries.push(...(await db.selectFrom('deliveries').selectAll().where('account_id', '=', accountId).where('chat_id', 'in', ids).orderBy('id').execute()));
  }
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
  const [uploads, calls, offlineMessages] = await Promise.all([
    db.selectFrom('uploads').selectAll().where('account_id', '=', accountId).where('visitor_id', '=', visitor.id).orderBy('id').execute(),
    db.selectFrom('calls').selectAll().where('account_id', '=', accountId).where('visitor_id', '=', visitor.id).orderBy('id').execute(),
    db.selectFrom('offline_messages').selectAll().where('account_id', '=', accountId).where('visitor_id', '=', visitor.id).orderBy('id').execute(),
  ]);
  return { visitor, chats, messages: messages.sort(byId), uploads, calls, offlineMessages, events: events.sort(byId), deliveries: deliveries.sort(byId) };
}
