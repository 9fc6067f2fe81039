/** Writes one message row of a chat from a normalized message. */
import type { Tx } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type { Chat, Message, MessagesTable } from '../../db/schema.js';
import type { NormalizedMessage } from './normalizeMessage.js';

export interface InsertMessageInput {
  chat: Pick<Chat, 'id' | 'account_id'>;
  author: MessagesTable['author'];
  agentId?: number | null;
  message: NormalizedMessage;
  deliveryStatus?: MessagesTable['delivery_status'];
  internal?: boolean;
  suppressed?: boolean;
  now: number;
}

/** A new message: its file is not freed yet (file_removed_at, migration 047, is set only by domain/uploads/freeUploads.ts). */
export type MessageRow = Omit<Message, 'id' | 'file_removed_at'>;

export const MESSAGE_COLUMNS = [
  'account_id',
  'chat_id',
  'author',
  'agent_id',
  'type',
  'text',
  'file',
  'file_name',
  'file_size',
  'thumb',
  'latitude',
  'longitude',
  'extra_json',
  'external_id',
  'internal',
  'suppressed',
  'delivery_status',
  'delivery_error',
  'created_at',
] as const satisfies readonly (keyof MessageRow)[];

const insertRow = prepared<MessageRow, Message>(MESSAGE_COLUMNS, (db, row) => db.insertInto('messages').values(row).returningAll());

export async function insertMessage(tx: Tx, input: InsertMessageInput): Promise<Message> {
  return insertRow.only(tx, messageRow(input));
}

/** Writes a row messageRow() built. */
export async function insertMessageRow(tx: Tx, row: MessageRow): Promise<Message> {
  return insertRow.only(tx, row);
}

/** The row insertMessage writes (storeInboundBatch.ts writes several at once). */
export function messageRow(input: InsertMessageInput): MessageRow {
  const m = input.message;
  return {
    account_id: input.chat.account_id,
    chat_id: input.chat.id,
    author: input.author,
    agent_id: input.agentId ?? null,
    type: m.type,
    text: m.text,
    file: m.file,
    file_name: m.file_name,
    file_size: m.file_size,
    thumb: m.thumb,
    latitude: m.latitude,
    longitude: m.longitude,
    extra_json: Object.keys(m.extra).length > 0 ? JSON.stringify(m.extra) : null,
    external_id: m.external_id,
    internal: input.internal ? 1 : 0,
    suppressed: input.suppressed ? 1 : 0,
    delivery_status: input.deliveryStatus ?? null,
    delivery_error: null,
    created_at: input.now,
  };
}
