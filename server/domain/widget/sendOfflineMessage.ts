/**
 * The offline form (svc_api.sendOfflineMessage): message required, e-mail
 * checked when given. Stored in offline_messages with offline_message.created
 * recorded in the same transaction (channel set, no chat): agents of the
 * channel see it on their stream and the event webhooks send offline_message.
 * The name, e-mail, phone and description the visitor typed update the
 * visitor record and its own contact (ownContact.ts), as the contacts form does (an open chat records
 * chat.updated, change visitor_updated, when they changed something).
 */
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { Channel, OfflineMessage, Visitor, VisitorsTable } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';
import { commit, recordEvent } from '../../events/outbox.js';
import { presentOfflineMessage } from '../../presenters/offlineMessage.js';
import { recordChatState } from '../chats/chatEvents.js';
import { findOpenChat } from '../chats/openChat.js';
import { optionalLine, optionalString } from '../messages/normalizeMessage.js';
import { cleanEmail } from './setContactInfo.js';
import { lockVisitor } from './visitorAccess.js';
import { readOwnContact } from '../../model/ownContact.js';

type ContactFields = Partial<Pick<VisitorsTable, 'name' | 'email' | 'phone' | 'description'>>;

/** The visitor record takes what the form says; unchanged fields and empty ones are left as they are. */
async function updateVisitor(tx: Tx, visitorId: number, form: Record<keyof ContactFields, string | null>, now: number): Promise<void> {
  const current = await lockVisitor(tx, visitorId, now);
  const set: ContactFields = {};
  // What the visitor typed is its own contact too (ownContact.ts): the widget shows it back after a reload
  // and its chat does not ask for contact details again.
  const own = readOwnContact(current);
  const ownSet: ContactFields = {};
  for (const key of ['name', 'email', 'phone', 'description'] as const) {
    const value = form[key];
    if (value !== null && value !== current[key]) set[key] = value;
    if (value !== null && value !== own[key]) ownSet[key] = value;
  }
  const ownChanged = Object.keys(ownSet).length > 0;
  if (Object.keys(set).length === 0 && !ownChanged) return;
  await tx
    .updateTable('visitors')
    .set({ ...set, ...(ownChanged ? { widget_contact_json: JSON.stringify({ ...own, ...ownSet }) } : {}), updated_at: now })
    .where('id', '=', visitorId)
    .execute();
  if (Object.keys(set).length === 0) return;
  const chat = await findOpenChat(tx, visitorId);
  if (chat) await recordChatState(tx, chat, 'chat.updated', now, { change: 'visitor_updated' });
}

export const OFFLINE_TEXT_LIMIT = 5000;

export async function sendOfflineMessage(
  ctx: AppContext,
  input: { channel: Channel; visitor: Visitor; body: Record<string, unknown> },
): Promise<OfflineMessage> {
  const { body, channel } = input;
  const message = optionalString(body.message, OFFLINE_TEXT_LIMIT);
  if (message === null) throw invalid('message is required: the text of the offline message.');
  const values = {
    name: optionalLine(body.name, 255),
    email: cleanEmail(body.email),
    phone: optionalLine(body.phone, 64),
    description: optionalString(body.description, 1000),
    message,
  };
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    await updateVisitor(tx, input.visitor.id, values, now);
    const row = await tx
      .insertInto('offline_messages')
      .values({ account_id: channel.account_id, channel_id: channel.id, visitor_id: input.visitor.id, ...values, created_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvent(
      tx,
      { accountId: channel.account_id, type: 'offline_message.created', channelId: channel.id, data: { offline_message: presentOfflineMessage(row) } },
      now,
    );
    return row;
  });
}
