/**
 * Chat retention in the settings (`retention` in GET/PUT /api/v1/settings,
 * docs/DATA.md "Retention"): `chats_days`, after how many days a finished
 * chat is erased with everything about it (retention/pruneChats.ts), null to
 * keep chats forever; and `chats_due`, how many chats the next pass removes.
 */
import { sql } from 'kysely';
import type { Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { SettingsTable } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';
import type { RetentionSettings } from '../../model/settings.js';
export type { RetentionSettings } from '../../model/settings.js';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** A hundred years: any longer is a typo. */
const MAX_DAYS = 36_500;

export interface RetentionChanges {
  chats_days?: unknown;
}

/** The column after a change; a clear 400 for anything but a whole number of days from 1 to 36500, or null. */
export function retentionColumns(changes: RetentionChanges | null): Updateable<SettingsTable> {
  if (changes === null) return { retention_chats_days: null };
  const days = changes.chats_days;
  if (days === undefined) return {};
  if (days === null) return { retention_chats_days: null };
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_DAYS) {
    throw invalid(`retention.chats_days must be a whole number of days from 1 to ${MAX_DAYS}, or null to keep chats forever.`);
  }
  return { retention_chats_days: days };
}

/** The finished chats of the account that finished before `cutoff` (index chats_finished_at, migration 056). */
export async function countChatsFinishedBefore(db: Executor, accountId: number, cutoff: number): Promise<number> {
  const row = await db
    .selectFrom('chats')
    .select(sql<number>`count(*)`.as('n'))
    .where('account_id', '=', accountId)
    .where('status', '=', 'finished')
    .where('finished_at', '<', cutoff)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function retentionOf(db: Executor, row: Pick<SettingsTable, 'account_id' | 'retention_chats_days'>, now: number): Promise<RetentionSettings> {
  const days = row.retention_chats_days;
  if (days === null) return { chats_days: null, chats_due: 0 };
  return { chats_days: days, chats_due: await countChatsFinishedBefore(db, row.account_id, now - days * DAY_MS) };
}
