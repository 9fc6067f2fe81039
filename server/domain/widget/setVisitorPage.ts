/**
 * The visitor is on another page, or the page sent its title (sendPageTitle):
 * session.page is updated, so agents and event webhooks see where the visitor
 * is, and the page joins the visit's pages (session.ts). A title alone renames
 * the current page. With a chat open, chat.updated
 * (change page_changed) carries the new page to the agents' panels at once.
 */
import type { AppContext } from '../../context.js';
import type { Visitor } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { recordChatState } from '../chats/chatEvents.js';
import { findOpenChat } from '../chats/openChat.js';
import { optionalLine } from '../messages/normalizeMessage.js';
import { cleanPage, readSession, visitPage, writeSession } from './session.js';
import { lockVisitor } from './visitorAccess.js';

export async function setVisitorPage(ctx: AppContext, input: { visitor: Visitor; body: Record<string, unknown> }): Promise<void> {
  const page = cleanPage(input.body);
  const title = optionalLine(input.body.title, 255);
  if (!page && !title) throw invalid('Send the page as {url, title?}: url an http(s) URL, or a title alone.');
  const now = ctx.clock();
  await commit(ctx.db, ctx.signals, async (tx) => {
    const visitor = await lockVisitor(tx, input.visitor.id, now);
    const session = readSession(visitor);
    if (page) {
      session.page = page.title ? { url: page.url, title: page.title } : { url: page.url };
      if (page.referrer) session.referrer = page.referrer;
    } else if (session.page && title) {
      session.page = { ...session.page, title };
    } else {
      return; // a title for no known page
    }
    visitPage(session, session.page, now);
    session.last_seen_at = now;
    await writeSession(tx, visitor.id, session, now);
    if (page) await tx.updateTable('visitors').set({ url: page.url }).where('id', '=', visitor.id).execute();
    const chat = await findOpenChat(tx, visitor.id);
    if (chat) await recordChatState(tx, chat, 'chat.updated', now, { change: 'page_changed' });
  });
}
