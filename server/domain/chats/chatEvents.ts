/**
 * Outbox helpers for chat events: every event of a chat carries its account,
 * chat and channel, so the relay, the streams and the subscribers can route it.
 */
import type { Tx } from '../../db/database.js';
import type { Chat, Message, Visitor } from '../../db/schema.js';
import type { ChatChange, EventPayloads, EventType } from '../../events/catalogue.js';
import { recordEvent, type RecordedEvent } from '../../events/outbox.js';
import { presentChat, type ChatDto } from '../../presenters/chat.js';
import { presentMessage } from '../../presenters/message.js';

export async function loadChatDto(tx: Tx, chat: Chat): Promise<ChatDto> {
  const visitor = await tx.selectFrom('visitors').selectAll().where('id', '=', chat.visitor_id).executeTakeFirstOrThrow();
  return presentChat(chat, visitor);
}

export async function recordChatEvent<T extends EventType>(tx: Tx, chat: Chat, type: T, data: EventPayloads[T], now: number): Promise<RecordedEvent> {
  return recordEvent(tx, { accountId: chat.account_id, type, chatId: chat.id, channelId: chat.channel_id, data }, now);
}

/** chat.created / chat.updated with the chat as agents see it (`visitor`: the chat's visitor as it is now, when the caller has just read it). */
export async function recordChatState(
  tx: Tx,
  chat: Chat,
  type: 'chat.created' | 'chat.updated',
  now: number,
  extra: { change?: ChatChange; agent_id?: number } = {},
  visitor?: Visitor,
): Promise<RecordedEvent> {
  const dto = visitor?.id === chat.visitor_id ? presentChat(chat, visitor) : await loadChatDto(tx, chat);
  return recordChatEvent(tx, chat, type, { chat: dto, ...extra }, now);
}

/** message.created's payload (storeInboundBatch writes such events without recordMessageCreated). */
export function messageCreatedPayload(message: Message): EventPayloads['message.created'] {
  return { message: presentMessage(message) };
}

export async function recordMessageCreated(tx: Tx, chat: Chat, message: Message, now: number): Promise<RecordedEvent> {
  return recordChatEvent(tx, chat, 'message.created', messageCreatedPayload(message), now);
}
