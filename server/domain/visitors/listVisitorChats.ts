/**
 * A visitor's chats, newest first (#20: "a visitor's earlier chats are one
 * click away"), as list rows. The visitor must be of the agent's account and
 * of a channel it works (administrators: any channel); anything else is 404,
 * like a chat the agent cannot see.
 */
import type { AppContext } from '../../context.js';
import type { Page } from '../../db/page.js';
import { applyPage } from '../../db/page.js';
import type { Agent } from '../../db/schema.js';
import { notFound } from '../../errors/AppError.js';
import { chatRows, type ChatRowData } from '../chats/chatSummaries.js';
import { readableChannelIds } from '../chats/loadChat.js';

export async function listVisitorChats(ctx: AppContext, input: { actor: Agent; visitorId: number; page: Page }): Promise<ChatRowData[]> {
  const { db } = ctx;
  const visitor = await db
    .selectFrom('visitors')
    .select(['id', 'channel_id'])
    .where('id', '=', input.visitorId)
    .where('account_id', '=', input.actor.account_id)
    .executeTakeFirst();
  if (!visitor) throw notFound('The visitor');
  const channels = await readableChannelIds(db, input.actor);
  if (channels && !channels.includes(visitor.channel_id)) throw notFound('The visitor');
  const chats = await applyPage(db.selectFrom('chats').selectAll().where('visitor_id', '=', visitor.id), input.page, 'id').execute();
  return chatRows(db, input.actor.id, chats);
}
