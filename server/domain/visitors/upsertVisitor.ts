/**
 * Finds or creates the visitor of a channel by its external id (sender.id or
 * the widget's visitor id), applying the details that came with this request.
 * The visitor row is updated (and so locked on PostgreSQL) in every case, which
 * serializes concurrent requests of one visitor: no two open chats, no lost field.
 */
import { sql } from 'kysely';
import type { Tx } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type { Visitor } from '../../db/schema.js';
import { insertVisitor, newVisitorRow, type NewVisitorInput, type VisitorDetails } from './insertVisitors.js';

export type { VisitorDetails };

/** As a new visitor's input; on an existing visitor only the details with a non-null value change the record. */
export type UpsertVisitorInput = Omit<NewVisitorInput, 'chatsCount'>;

export interface UpsertVisitorResult {
  visitor: Visitor;
  created: boolean;
  /** name, email or phone changed on an existing visitor (→ chat_updated). */
  contactChanged: boolean;
}

/** Touches a visitor (locking its row on PostgreSQL) and reads it back as it is now. */
const touchVisitor = prepared(['channelId', 'externalId', 'now'], (db, p: { channelId: number; externalId: string; now: number }) =>
  db.updateTable('visitors').set({ updated_at: p.now }).where('channel_id', '=', p.channelId).where('external_id', '=', p.externalId).returningAll(),
);

const CONTACT_FIELDS = ['name', 'email', 'phone'] as const;

/** Next sequential visitor number of the account (1, 2, 3 …); locks the account row. */
export async function allocateVisitorNumber(tx: Tx, accountId: number): Promise<number> {
  const row = await tx
    .updateTable('accounts')
    .set({ next_visitor_number: sql<number>`next_visitor_number + 1` })
    .where('id', '=', accountId)
    .returning('next_visitor_number')
    .executeTakeFirstOrThrow();
  return row.next_visitor_number - 1;
}

/** The details that would change the visitor's row (none: a request that only touches it). */
export function changes(details: VisitorDetails, current: Pick<Visitor, keyof VisitorDetails> | null): Partial<Visitor> {
  const out: Partial<Visitor> = {};
  for (const [key, value] of Object.entries(details) as [keyof VisitorDetails, string | null | undefined][]) {
    if (value !== null && value !== undefined && (!current || current[key] !== value)) out[key] = value;
  }
  return out;
}

export async function upsertVisitor(tx: Tx, input: UpsertVisitorInput): Promise<UpsertVisitorResult> {
  // The common case in one statement: the visitor exists and is touched (locked, on
  // PostgreSQL) and read back as it is now; details are compared with that row.
  const touched = await touchVisitor.first(tx, { channelId: input.channelId, externalId: input.externalId, now: input.now });
  return touched ? applyDetails(tx, touched, input) : createVisitor(tx, input);
}

/**
 * A visitor this transaction looked for and found none of (storeInboundBatch's
 * touch, or upsertVisitor's): its number (locking the account row), then the
 * row, unless a concurrent request created it meanwhile (it held the account
 * lock first): then that row is touched and updated.
 */
export async function createVisitor(tx: Tx, input: UpsertVisitorInput): Promise<UpsertVisitorResult> {
  const number = await allocateVisitorNumber(tx, input.accountId);
  const visitor = await insertVisitor(tx, { ...newVisitorRow(input), number });
  if (visitor) return { visitor, created: true, contactChanged: false };
  const existing = await touchVisitor.first(tx, { channelId: input.channelId, externalId: input.externalId, now: input.now });
  if (!existing) throw new Error('upsertVisitor: the visitor that conflicted is gone');
  return applyDetails(tx, existing, input);
}

/** A visitor's row as far as applyDetails reads it; a part of one is always written (and read back whole). */
export type VisitorDetailsRow = Pick<Visitor, 'id' | keyof VisitorDetails> | Visitor;

/**
 * Writes the details that differ from the visitor's row, already touched in
 * this transaction (storeInboundBatch's touch, or upsertVisitor's), with the
 * request's time; nothing when there is nothing to write.
 */
export async function applyDetails(tx: Tx, current: VisitorDetailsRow, input: UpsertVisitorInput): Promise<UpsertVisitorResult> {
  const diff = changes(input.details, current);
  if (Object.keys(diff).length === 0 && isWhole(current) && current.updated_at === input.now)
    return { visitor: current, created: false, contactChanged: false };
  const visitor = await tx
    .updateTable('visitors')
    .set({ ...diff, updated_at: input.now })
    .where('id', '=', current.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const contactChanged = CONTACT_FIELDS.some((f) => f in diff);
  return { visitor, created: false, contactChanged };
}

/** A whole visitor row (a row with its updated_at read back by returningAll or selectAll). */
function isWhole(row: VisitorDetailsRow): row is Visitor {
  return 'updated_at' in row && 'number' in row;
}
