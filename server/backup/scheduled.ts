/**
 * Scheduled backups (BACKUP_DIR, BACKUP_INTERVAL_HOURS, BACKUP_KEEP;
 * docs/DATA.md). Time is cut into intervals of BACKUP_INTERVAL_HOURS counted
 * from the epoch (so 24 h intervals start at midnight UTC); each interval
 * gets one backup, taken at the first look after it began. Every instance
 * looks; the one whose insert of the interval's backup_runs row wins
 * (scheduled_for is unique, migration 051) takes it: with several instances
 * exactly one backup is made per interval, and the others skip.
 *
 * The backup runs inside the server without stalling it: SQLite through the
 * server's own connection in small steps (sqliteCopy.ts), PostgreSQL through
 * pg_dump in a child process. Its outcome goes into its row (Admin → System,
 * runs.ts); a failure is logged and mailed to the administrators. After a
 * success the oldest scheduled archives beyond BACKUP_KEEP are removed; no
 * other file of BACKUP_DIR is touched. A row left `running` by an instance
 * that stopped during its backup is marked failed after one interval.
 */
import { recordAudit } from '../domain/audit/recordAudit.js';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext, Worker } from '../context.js';
import { inTransaction, type Tx } from '../db/database.js';
import { dueWorker } from '../dueWorker.js';
import { enqueueMail } from '../mail/enqueueMail.js';
import { textLanguage } from '../mail/templates/agentTexts/index.js';
import { backupFailedMail } from '../mail/templates/system.js';
import { createBackup } from './createBackup.js';

const HOUR_MS = 3600_000;
/** How often an instance looks whether the interval's backup is taken. */
const LOOK_MS = 60_000;
const NAME = /^parley-\d{8}T\d{6}Z\.tar\.gz$/;
const PART = /^parley-\d{8}T\d{6}Z\.tar\.gz\.part$/;

export const intervalMs = (ctx: Pick<AppContext, 'config'>): number => ctx.config.backupIntervalHours * HOUR_MS;
/** Start of the interval `at` falls in. */
export const slotOf = (ctx: Pick<AppContext, 'config'>, at: number): number => Math.floor(at / intervalMs(ctx)) * intervalMs(ctx);
export const archiveName = (slot: number): string =>
  `parley-${new Date(slot)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar.gz`;

export type ScheduledOutcome = { taken: false } | { taken: true; status: 'ok' | 'failed'; file: string; error: string | null };

/** One look: takes the current interval's backup if no instance has. */
export async function takeScheduledBackup(ctx: AppContext): Promise<ScheduledOutcome> {
  const dir = ctx.config.backupDir;
  if (dir === null) return { taken: false };
  const now = ctx.clock();
  const slot = slotOf(ctx, now);
  await markAbandoned(ctx, now);
  const claimed = await ctx.db
    .insertInto('backup_runs')
    .values({ scheduled_for: slot, started_at: now, status: 'running' })
    .onConflict((oc) => oc.column('scheduled_for').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!claimed) return { taken: false };
  const file = path.join(dir, archiveName(slot));
  try {
    await fs.mkdir(dir, { recursive: true });
    const done = await createBackup({ ...ctx.config, sqlite: ctx.store.sqlite }, file, now);
    await ctx.db
      .updateTable('backup_runs')
      .set({
        status: 'ok',
        finished_at: ctx.clock(),
        file: done.file,
        size_bytes: done.size,
        chats: done.manifest.counts.chats,
        messages: done.manifest.counts.messages,
      })
      .where('id', '=', claimed.id)
      .execute();
    for (const { id } of await ctx.db.selectFrom('accounts').select('id').execute()) {
      await recordAudit(ctx.db, { accountId: id, agent: null, action: 'backup.taken', address: null, at: ctx.clock() });
    }
    await removeOldest(dir, ctx.config.backupKeep, Date.now() - intervalMs(ctx));
    return { taken: true, status: 'ok', file: done.file, error: null };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    ctx.log.error({ err, file }, 'scheduled backup failed');
    await inTransaction(ctx.db, async (tx) => {
      await tx.updateTable('backup_runs').set({ status: 'failed', finished_at: ctx.clock(), file, error }).where('id', '=', claimed.id).execute();
      await mailAdmins(ctx, tx, now, dir, error);
    });
    ctx.signals.deliveriesDue();
    return { taken: true, status: 'failed', file, error };
  }
}

/** A row still `running` an interval after it started: its instance stopped during the backup. */
async function markAbandoned(ctx: AppContext, now: number): Promise<void> {
  await ctx.db
    .updateTable('backup_runs')
    .set({ status: 'failed', finished_at: now, error: 'The backup did not finish: the instance taking it stopped meanwhile.' })
    .where('status', '=', 'running')
    .where('started_at', '<', now - intervalMs(ctx))
    .execute();
}

async function mailAdmins(ctx: AppContext, tx: Tx, now: number, dir: string, error: string): Promise<void> {
  const account = await tx.selectFrom('accounts').select(['id', 'name']).where('id', '=', ctx.defaultAccountId).executeTakeFirst();
  if (!account) return;
  const admins = await tx
    .selectFrom('agents')
    .select(['email', 'language'])
    .where('account_id', '=', account.id)
    .where('role', '=', 'admin')
    .where('active', '=', 1)
    .orderBy('id')
    .execute();
  // Each admin's mail in that admin's language (docs/I18N.md "Mails and notifications").
  const data = { accountName: account.name, publicUrl: ctx.config.publicUrl, startedAt: new Date(now).toISOString(), dir, error };
  for (const admin of admins) {
    const content = backupFailedMail(data, textLanguage(admin.language));
    await enqueueMail(tx, ctx.config, { accountId: account.id, type: 'backup_failed', to: admin.email, ...content }, now);
  }
}

/**
 * Removes the oldest scheduled archives (by name: their interval) beyond
 * `keep`, and what a backup cut off by a stop left behind (its `.part` file and
 * staging directory) once it is an interval old.
 */
async function removeOldest(dir: string, keep: number, leftBefore: number): Promise<void> {
  const names = await fs.readdir(dir);
  const archives = names.filter((n) => NAME.test(n)).sort();
  for (const name of archives.slice(0, Math.max(0, archives.length - keep))) await fs.rm(path.join(dir, name), { force: true });
  for (const name of names.filter((n) => PART.test(n) || n.startsWith('.parley-backup-'))) {
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (stat && stat.mtimeMs < leftBefore) await fs.rm(path.join(dir, name), { recursive: true, force: true });
  }
}

export const backupWorker: Worker = async (app, ctx) => {
  if (ctx.config.backupDir === null) return async () => undefined;
  return dueWorker({
    name: 'scheduled backup',
    lookMs: LOOK_MS,
    minSleepMs: 1000,
    signal: 'backup',
    advance: takeScheduledBackup,
    nextDue: async (c) => slotOf(c, c.clock()) + intervalMs(c),
  })(app, ctx);
};
