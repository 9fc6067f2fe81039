/**
 * The one writer of visitor rows (test/lint/writers.test.ts keeps it so). A new
 * visitor's row, defaults and all, is built here only (newVisitorRow), and
 * written here only: one visitor by insertVisitor (upsertVisitor.ts), the
 * visitors of a chat-channel batch's new senders by insertVisitorsSqlite, or
 * on PostgreSQL by insertVisitorsStep, a step of chatChannel/newSenders.ts' one
 * statement that takes their numbers from the accounts that statement updates.
 * A visitor that exists already (its channel and external id) is skipped.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Tx } from '../../db/database.js';
import { jsonColumns, jsonRows, unnestRows, type PgType } from '../../db/rowArrays.js';
import type { Visitor } from '../../db/schema.js';
import { bool } from '../../lib/json.js';

/** A visitor's row before its insert, its number aside (taken from the account when it is inserted). */
export type NewVisitor = Omit<Visitor, 'id' | 'number'>;

/** A sender's details as they come with a request; null or absent means "not given". */
export interface VisitorDetails {
  name?: string | null;
  phone?: string | null;
  email?: string | null;
  photo?: string | null;
  url?: string | null;
  invite?: string | null;
  description?: string | null;
}

/** The fields of a visitor that hold what it told or was given: all empty on a new visitor, emptied again by an erasure. */
export const BLANK_VISITOR_FIELDS = {
  name: null,
  email: null,
  phone: null,
  photo: null,
  url: null,
  invite: null,
  description: null,
  user_token: null,
  token_hash: null,
  session_json: '{}',
  widget_contact_json: null,
  transcript_email: null,
} as const;

export interface NewVisitorInput {
  accountId: number;
  channelId: number;
  externalId: string;
  externalIdIsNumber?: boolean;
  /** Only fields with a non-null value are set. */
  details: VisitorDetails;
  now: number;
  /** Its chats, when the caller opens them in the same statement (the chat-channel batch); else 0. */
  chatsCount?: number;
}

/** A new visitor's row as first inserted (no number yet), with the sender's details. */
export function newVisitorRow(input: NewVisitorInput): NewVisitor {
  const details = Object.fromEntries(Object.entries(input.details).filter(([, value]) => value !== null && value !== undefined));
  return {
    account_id: input.accountId,
    channel_id: input.channelId,
    external_id: input.externalId,
    external_id_is_number: bool(input.externalIdIsNumber ?? false),
    ...BLANK_VISITOR_FIELDS,
    blacklisted: 0,
    inbound_ids_reused: 0,
    chats_count: input.chatsCount ?? 0,
    created_at: input.now,
    updated_at: input.now,
    ...details,
  };
}

/** Every column a new visitor's row sets, with its PostgreSQL type (for the batch's arrays). */
const PG_TYPES = {
  account_id: 'integer',
  channel_id: 'integer',
  external_id: 'text',
  external_id_is_number: 'integer',
  name: 'text',
  email: 'text',
  phone: 'text',
  photo: 'text',
  url: 'text',
  invite: 'text',
  description: 'text',
  user_token: 'text',
  blacklisted: 'integer',
  token_hash: 'text',
  session_json: 'text',
  widget_contact_json: 'text',
  transcript_email: 'text',
  inbound_ids_reused: 'integer',
  chats_count: 'integer',
  created_at: 'bigint',
  updated_at: 'bigint',
} as const satisfies Record<keyof NewVisitor, PgType>;
const COLUMNS = Object.keys(PG_TYPES) as (keyof NewVisitor)[];
const WITH_NUMBER = [...COLUMNS, 'number'] as const;

/** What a batch's insert returns of each visitor it inserted. */
export interface InsertedVisitor {
  id: number;
  channel_id: number;
  external_id: string;
  number: number;
}

/** One visitor; undefined when it exists already (another transaction created it). */
export function insertVisitor(tx: Tx, row: NewVisitor & Pick<Visitor, 'number'>): Promise<Visitor | undefined> {
  return tx
    .insertInto('visitors')
    .values(row)
    .onConflict((oc) => oc.columns(['channel_id', 'external_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** SQLite: the visitors in one insert from a JSON array, in the order given. */
export async function insertVisitorsSqlite(tx: Tx, rows: (NewVisitor & Pick<Visitor, 'number'>)[]): Promise<InsertedVisitor[]> {
  if (rows.length === 0) return [];
  // `where true`: an upsert's select needs a WHERE, else SQLite reads its ON as a join's.
  const result = await sql<InsertedVisitor>`insert into visitors (${sql.raw(WITH_NUMBER.join(', '))})
    select ${jsonColumns(WITH_NUMBER, 'v')}
    from json_each(${jsonRows(rows, WITH_NUMBER)}) v
    where true
    order by v.key
    on conflict (channel_id, external_id) do nothing
    returning id, channel_id, external_id, number`.execute(tx);
  return result.rows;
}

/**
 * PostgreSQL: the insert of the visitors, as a step (a CTE's body) of a larger
 * statement; `numbers` is a query of that statement giving each visitor's
 * `number` by its `position` in `rows` (1, 2, …). Inserted by account, then
 * number; returns InsertedVisitor of each visitor inserted.
 */
export function insertVisitorsStep(rows: NewVisitor[], numbers: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`insert into visitors (${sql.raw(WITH_NUMBER.join(', '))})
      select ${sql.raw(COLUMNS.map((c) => `r.${c}`).join(', '))}, n.number
      from ${unnestRows(rows, COLUMNS, PG_TYPES, 'r')}
      join (${numbers}) n on n.position = r.position
      order by r.account_id, n.number
      on conflict (channel_id, external_id) do nothing
      returning id, channel_id, external_id, number`;
}
