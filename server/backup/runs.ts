/** What Admin → System says about scheduled backups (GET /api/v1/system): the last one and when the next falls due. */
import type { AppContext } from '../context.js';
import type { Selectable } from 'kysely';
import type { BackupRunsTable } from '../db/schema.js';
import { intervalMs, slotOf } from './scheduled.js';

export type BackupRun = Selectable<BackupRunsTable>;

export interface BackupSchedule {
  dir: string | null;
  intervalHours: number;
  keep: number;
  last: BackupRun | null;
  /** The last one that failed, when it is not the last one (what went wrong before). */
  lastFailed: BackupRun | null;
  /** When the next one falls due; null without BACKUP_DIR. */
  nextAt: number | null;
}

export async function backupSchedule(ctx: AppContext): Promise<BackupSchedule> {
  const last = (await ctx.db.selectFrom('backup_runs').selectAll().orderBy('scheduled_for', 'desc').limit(1).executeTakeFirst()) ?? null;
  const lastFailed =
    (await ctx.db.selectFrom('backup_runs').selectAll().where('status', '=', 'failed').orderBy('scheduled_for', 'desc').limit(1).executeTakeFirst()) ?? null;
  let nextAt: number | null = null;
  if (ctx.config.backupDir !== null) {
    const now = ctx.clock();
    const slot = slotOf(ctx, now);
    nextAt = last && last.scheduled_for >= slot ? slot + intervalMs(ctx) : now;
  }
  return {
    dir: ctx.config.backupDir,
    intervalHours: ctx.config.backupIntervalHours,
    keep: ctx.config.backupKeep,
    last,
    lastFailed: lastFailed && last && lastFailed.id === last.id ? null : lastFailed,
    nextAt,
  };
}
