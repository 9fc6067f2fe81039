/**
 * The one writer of message rows (test/lint/writers.test.ts keeps it so): a
 * new message's row is built by messageRow() from MESSAGE_COLUMNS' columns,
 * and written by insertMessage (one) or insertMessages (a chat-channel batch).
 */
import { sql } from 'kysely';
import { isPostgres, type Tx } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import { unnestRows, type PgType } from '../../db/rowArrays.js';
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

/** Every column a new message's row sets, with its PostgreSQL type (for the batch's arrays). */
const PG_TYPES = {
  account_id: 'integer',
  chat_id: 'integer',
  author: 'text',
  agent_id: 'integer',
  type: 'text',
  text: 'text',
  file: 'text',
  file_name: 'text',
  file_size: 'bigint',
  thumb: 'text',
  latitude: 'double precision',
  longitude: 'double precision',
  extra_json: 'text',
  external_id: 'text',
  internal: 'integer',
  suppressed: 'integer',
  delivery_status: 'text',
  delivery_error: 'text',
  created_at: 'bigint',
} as const satisfies Record<keyof MessageRow, PgType>;

/** The columns of a new message's row, in one order for every statement. */
export const MESSAGE_COLUMNS = Object.keys(PG_TYPES) as (keyof MessageRow)[];
const COLUMN_LIST = sql.raw(MESSAGE_COLUMNS.join(', '));

const insertRow = prepared<MessageRow, Message>(MESSAGE_COLUMNS, (db, row) => db.insertInto('messages').values(row).returningAll());

export async function insertMessage(tx: Tx, input: InsertMessageInput): Promise<Message> {
  return insertRow.only(tx, messageRow(input));
}

/**
 * Writes rows messageRow() built, in the order given (the chat-channel batch,
 * chatChannel/batchMessages.ts). PostgreSQL: one statement, taking the ids as
 * it inserts the rows. SQLite, one writer: the rows one by one, as alone (most
 * of a SQLite statement's cost is the row it writes).
 */
export async function insertMessages(tx: Tx, rows: MessageRow[]): Promise<Message[]> {
  if (!isPostgres(tx)) {
    const messages: Message[] = [];
    for (const row of rows) messages.push(await insertRow.only(tx, row));
    return messages;
  }
  if (rows.length === 0) return [];
  const ids = await sql<{ id: number }>`with input as (
      select nextval(pg_get_serial_sequence('messages', 'id')) as id, u.*
      from ${unnestRows(rows, MESSAGE_COLUMNS, PG_TYPES, 'u')}
    ), inserted as (
      insert into messages (id, ${COLUMN_LIST})
      select id, ${COLUMN_LIST}
      from input
    )
    select id from input order by position`.execute(tx);
  if (ids.rows.length !== rows.length) throw new Error('insertMessages: message ids missing');
  return rows.map((row, i) => ({ id: Number(ids.rows[i].id), ...row, file_removed_at: null }));
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
