/**
 * The rows of a group-commit batch's messages (storeInboundBatch.ts): the
 * messages as insertMessage writes them, and the events recordEvent would
 * write for them, each with its chat's next sequence number: the chat.created
 * of every chat the batch opened (newSenders.ts), and its first offer's
 * chat.offered when it was offered to an agent, before its messages, then one
 * message.created per message, in job order.
 *
 * A chat the batch opened was inserted with its last sequence number already
 * moved past its events (they are numbered from 1); every other chat's
 * sequence is moved on once by its number of messages. Event ids are not taken
 * ahead: the relay relies on an event's id being taken by the insert that
 * writes its row (events/relayClaim.ts); the events are inserted in the order
 * above, so their ids ascend as their sequence numbers do within a chat.
 * The inserts are the owners' (messages/insertMessage.ts insertMessages,
 * events/outbox.ts recordChatEvents).
 */
import type { Tx } from '../../db/database.js';
import type { Chat } from '../../db/schema.js';
import { payloadJson, recordChatEvents, type ChatEventRow } from '../../events/outbox.js';
import { messageCreatedPayload } from '../chats/chatEvents.js';
import { insertMessages, type MessageRow } from '../messages/insertMessage.js';
import { chatCreatedPayload, type OpenedChat } from './newSenders.js';

export type BatchChat = Pick<Chat, 'id' | 'account_id' | 'channel_id'>;

export interface BatchMessage {
  chat: BatchChat;
  row: MessageRow;
}

/** The messages' ids, in the order given. */
export async function storeMessages(tx: Tx, items: BatchMessage[], opened: OpenedChat[]): Promise<number[]> {
  const created: ChatEventRow[] = opened.flatMap((o): ChatEventRow[] => [
    { chat: o.chat, type: 'chat.created', data_json: payloadJson('chat.created', chatCreatedPayload(o)), created_at: o.chat.created_at },
    ...(o.offered ? [{ chat: o.chat, type: 'chat.offered' as const, data_json: payloadJson('chat.offered', o.offered), created_at: o.chat.created_at }] : []),
  ]);
  const fresh = new Set(opened.map((o) => o.chat.id));
  const messages = await insertMessages(
    tx,
    items.map(({ row }) => row),
  );
  const events = [
    ...created,
    ...items.map(({ chat }, i): ChatEventRow => ({
      chat,
      type: 'message.created',
      data_json: payloadJson('message.created', messageCreatedPayload(messages[i])),
      created_at: messages[i].created_at,
    })),
  ];
  await recordChatEvents(tx, events, fresh);
  return messages.map((m) => m.id);
}
