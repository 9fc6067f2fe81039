/**
 * The offline form (svc_api.sendOfflineMessage): message required, e-mail
 * checked when given. Stored in offline_messages with offline_message.created
 * recorded in the same transaction (channel set, no chat): agents of the
 * channel see it on their stream and the event webhooks send offline_message.
 */
import type { AppContext } from '../../context.js';
import type { Channel, OfflineMessage, Visitor } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';
import { commit, recordEvent } from '../../events/outbox.js';
import { presentOfflineMessage } from '../../presenters/offlineMessage.js';
import { optionalString } from '../messages/normalizeMessage.js';
import { cleanEmail } from './setContactInfo.js';

export const OFFLINE_TEXT_LIMIT = 5000;

export async function sendOfflineMessage(
  ctx: AppContext,
  input: { channel: Channel; visitor: Visitor; body: Record<string, unknown> },
): Promise<OfflineMessage> {
  const { body, channel } = input;
  const message = optionalString(body.message, OFFLINE_TEXT_LIMIT);
  if (message === null) throw invalid('message is required: the text of the offline message.');
  const values = {
    name: optionalString(body.name, 255),
    email: cleanEmail(body.email),
    phone: optionalString(body.phone, 64),
    description: optionalString(body.description, 1000),
    message,
  };
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
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
