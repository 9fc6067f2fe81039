/**
 * The one writer of chat rows (test/lint/writers.test.ts keeps it so). A new
 * chat's row, defaults and all, is built here only (newChatRow), and written
 * here only: one chat by insertChat (openChat.ts), the chats of a chat-channel
 * batch's new senders by insertChatsSqlite, or on PostgreSQL by
 * insertChatsStep, a step of newSenders.ts' one statement that takes the chats'
 * visitor ids from the visitors that statement inserts.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Tx } from '../../db/database.js';
import { jsonColumns, jsonRows, unnestRows, type PgType } from '../../db/rowArrays.js';
import type { Chat } from '../../db/schema.js';

/** A chat's row before its insert, its visitor aside (a batch knows it only in the statement that inserts both). */
export type NewChat = Omit<Chat, 'id' | 'visitor_id'>;

export interface NewChatInput {
  accountId: number;
  channelId: number;
  departmentId?: number | null;
  page?: Record<string, unknown> | null;
  customData?: unknown[] | null;
  now: number;
}

/** A new pending chat: no agent, nothing rated or finished, no event yet (last_seq 0: the events recorded for it move it on). */
export function newChatRow(input: NewChatInput): NewChat {
  return {
    account_id: input.accountId,
    channel_id: input.channelId,
    department_id: input.departmentId ?? null,
    status: 'pending',
    accepted_by: null,
    agent_ids_json: '[]',
    custom_data_json: input.customData ? JSON.stringify(input.customData) : '[]',
    contact_info_json: null,
    crm_link: null,
    enable_assign: 0,
    page_json: input.page ? JSON.stringify(input.page) : null,
    rate: null,
    blacklisted: 0,
    last_seq: 0,
    created_at: input.now,
    accepted_at: null,
    missed_at: null,
    finished_at: null,
    updated_at: input.now,
    first_response_at: null,
    crm_custom_data_json: null,
    crm_page_json: null,
  };
}

/** Every column a new chat's row sets, with its PostgreSQL type (for the batch's arrays). */
const PG_TYPES = {
  account_id: 'integer',
  channel_id: 'integer',
  department_id: 'integer',
  status: 'text',
  accepted_by: 'integer',
  agent_ids_json: 'text',
  custom_data_json: 'text',
  contact_info_json: 'text',
  crm_link: 'text',
  enable_assign: 'integer',
  page_json: 'text',
  rate: 'text',
  blacklisted: 'integer',
  last_seq: 'integer',
  created_at: 'bigint',
  accepted_at: 'bigint',
  missed_at: 'bigint',
  finished_at: 'bigint',
  updated_at: 'bigint',
  first_response_at: 'bigint',
  crm_custom_data_json: 'text',
  crm_page_json: 'text',
} as const satisfies Record<keyof NewChat, PgType>;
const COLUMNS = Object.keys(PG_TYPES) as (keyof NewChat)[];
const WITH_VISITOR = [...COLUMNS, 'visitor_id'] as const;

/** One chat (openChat). */
export function insertChat(tx: Tx, row: NewChat & Pick<Chat, 'visitor_id'>): Promise<Chat> {
  return tx.insertInto('chats').values(row).returningAll().executeTakeFirstOrThrow();
}

/** SQLite: the chats in one insert from a JSON array, in the order given; their ids and visitors. */
export async function insertChatsSqlite(tx: Tx, rows: (NewChat & Pick<Chat, 'visitor_id'>)[]): Promise<{ id: number; visitor_id: number }[]> {
  if (rows.length === 0) return [];
  const result = await sql<{ id: number; visitor_id: number }>`insert into chats (${sql.raw(WITH_VISITOR.join(', '))})
    select ${jsonColumns(WITH_VISITOR, 'c')}
    from json_each(${jsonRows(rows, WITH_VISITOR)}) c
    order by c.key
    returning id, visitor_id`.execute(tx);
  return result.rows;
}

/**
 * PostgreSQL: the insert of the chats, as a step (a CTE's body) of a larger
 * statement; `visitors` is a query of that statement giving each chat's
 * `visitor_id` by its `position` in `rows` (1, 2, …); a row without one is not
 * inserted. Returns `id, visitor_id` of each chat inserted.
 */
export function insertChatsStep(rows: NewChat[], visitors: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`insert into chats (${sql.raw(WITH_VISITOR.join(', '))})
      select ${sql.raw(COLUMNS.map((c) => `r.${c}`).join(', '))}, s.visitor_id
      from ${unnestRows(rows, COLUMNS, PG_TYPES, 'r')}
      join (${visitors}) s on s.position = r.position
      returning id, visitor_id`;
}
