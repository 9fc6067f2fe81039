/**
 * The upload quotas (#15 item 8, #31 item 3, docs/SECURITY.md §8): a new file
 * may not take its account's stored uploads past UPLOAD_QUOTA_MB, its
 * channel's past UPLOAD_QUOTA_CHANNEL_MB, nor its visitor's past
 * UPLOAD_QUOTA_VISITOR_MB, so one visitor (or one site) cannot fill the
 * account's storage for everyone else. Every stored upload counts, sent in a
 * message or not, until it is swept or an administrator frees it.
 *
 * Callers check once before writing anything (cheap refusal), and again in
 * the transaction that inserts the row, with the account row locked on
 * PostgreSQL (SQLite has one writer): all three sums are then read under the
 * one lock, so racing uploads cannot overshoot any of them.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../errors/AppError.js';

type Db = Tx | AppContext['db'];

/** Bytes of the uploads kept now whose `column` is `id` (attached or not). */
async function sumBy(db: Db, column: 'account_id' | 'channel_id' | 'visitor_id', id: number): Promise<number> {
  const row = await db
    .selectFrom('uploads')
    .select(sql<string | number>`coalesce(sum(size), 0)`.as('bytes'))
    .where(column, '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

/** Bytes of uploads the account keeps now (attached or not). */
export const storedBytes = (db: Db, accountId: number): Promise<number> => sumBy(db, 'account_id', accountId);

export interface UploadOwner {
  accountId: number;
  /** The widget's or chat's channel; null for an agent's photo. */
  channelId: number | null;
  /** The visitor who sent it; null for an agent's file or photo. */
  visitorId: number | null;
}

/** Which quota a file of `size` bytes would break, the narrowest first, or null when it fits all. */
export async function quotaBroken(ctx: AppContext, db: Db, owner: UploadOwner, size: number): Promise<'visitor' | 'channel' | 'account' | null> {
  const c = ctx.config;
  if (owner.visitorId !== null && (await sumBy(db, 'visitor_id', owner.visitorId)) + size > c.uploadQuotaVisitorBytes) return 'visitor';
  if (owner.channelId !== null && (await sumBy(db, 'channel_id', owner.channelId)) + size > c.uploadQuotaChannelBytes) return 'channel';
  if ((await storedBytes(db, owner.accountId)) + size > c.uploadQuotaBytes) return 'account';
  return null;
}

const SENTENCES = {
  visitor: 'Files cannot be sent right now: you have sent as many files as this site keeps for one visitor. Write your message as text instead.',
  channel: 'Files cannot be sent right now: the storage for files of this site is full. Write your message as text instead.',
  account: 'Files cannot be sent right now: the storage for files of this site is full. Write your message as text instead.',
} as const;

export const quotaExceeded = (which: keyof typeof SENTENCES = 'account', sentence?: string): AppError =>
  new AppError('upload_quota_exceeded', sentence ?? SENTENCES[which]);

/** Throws upload_quota_exceeded when a file of `size` bytes does not fit (inside the insert's transaction: lock the account first). */
export async function assertQuota(ctx: AppContext, db: Db, owner: UploadOwner, size: number, sentence?: string): Promise<void> {
  const broken = await quotaBroken(ctx, db, owner, size);
  if (broken !== null) throw quotaExceeded(broken, sentence);
}

/** Serializes quota checks of one account on PostgreSQL (SQLite has one writer): call first in the insert's transaction. */
export async function lockAccountForQuota(ctx: AppContext, tx: Tx, accountId: number): Promise<void> {
  if (ctx.store.dialect === 'postgres') await tx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst();
}
