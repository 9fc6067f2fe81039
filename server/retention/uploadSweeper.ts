/**
 * The upload sweeper (#15 item 8): a visitor's upload that no message carries
 * is deleted, file and row, an hour after it was made (UNATTACHED_MS). That
 * covers the files a visitor uploads and never sends, and the files of deleted
 * messages: deleting a message (with its channel, the only way messages go
 * today) sets its uploads' message_id back to null (migration 016), and
 * their hour is long over. Attached uploads live as long as their message.
 * An agent's photo (agents/setAgentPhoto.ts) lives while it is the agent's
 * photo: one the agent replaced is swept like an unsent file.
 *
 * A pass runs every RETENTION_INTERVAL_SECONDS (the first a minute after
 * start), in batches of BATCH_SIZE, each its own transaction: the rows are
 * picked (on PostgreSQL FOR UPDATE SKIP LOCKED, so instances share the work
 * and a message attaching one of them right now is either waited for by the
 * sweep or skips it: a message never keeps a link to a swept file once it
 * commits), the rows deleted, then their files removed, then the commit. A
 * crash before the commit leaves rows whose files are gone, deleted at the
 * next pass. A batch PostgreSQL aborts for a deadlock (raised by a statement,
 * so before any file is removed) runs again (db/transient.ts); removing a
 * file that is already gone is no error (force), so a second run is harmless.
 * Time comes from ctx.clock, so tests move it instead of waiting.
 *
 * Each pass also removes stray temporary files (`.<name>.<random>.tmp`, #31
 * item 8) older than STRAY_TEMP_MS: an upload removes its own on every
 * failure (domain/uploads/uploadFiles.ts), so these are what a killed process
 * left, which nothing counts and nothing serves.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppContext } from '../context.js';
import { inTransaction } from '../db/database.js';
import { deleteByIds } from '../db/deleteByIds.js';
import { isTempName, STRAY_TEMP_MS } from '../domain/uploads/uploadFiles.js';
import { uploadsDir } from '../domain/uploads/storeUpload.js';
import { passesOf, UnavailableLog } from '../errors/unavailableLog.js';
import type { Worker } from '../context.js';

/** How long an upload may wait for a message to carry it. */
export const UNATTACHED_MS = 60 * 60 * 1000;
const BATCH_SIZE = 500;
const FIRST_PASS_DELAY_MS = 60_000;

/** Deletes, batch by batch, every upload no message carries that is older than an hour; returns how many. */
export async function sweepUploads(ctx: AppContext, options: { batchSize?: number } = {}): Promise<number> {
  const limit = options.batchSize ?? BATCH_SIZE;
  const cutoff = ctx.clock() - UNATTACHED_MS;
  const dir = uploadsDir(ctx.config.dataDir);
  let deleted = 0;
  for (;;) {
    const batch = await inTransaction(ctx.db, async (tx) => {
      const rows = await tx
        .selectFrom('uploads')
        .select(['id', 'name'])
        .where('message_id', 'is', null)
        .where('agent_id', 'is', null)
        .where('created_at', '<=', cutoff)
        .orderBy('created_at')
        .limit(limit)
        .$if(ctx.store.dialect === 'postgres', (q) => q.forUpdate().skipLocked())
        .execute();
      if (rows.length === 0) return 0;
      await deleteByIds(
        tx,
        'uploads',
        rows.map((r) => r.id),
      );
      // After the last statement: the files go only once the batch's statements all went through.
      // The names are ones storeUpload made (one path segment); checked again all the same.
      for (const row of rows) if (!row.name.includes('/') && !row.name.startsWith('.')) await fs.rm(path.join(dir, row.name), { force: true });
      return rows.length;
    });
    deleted += batch;
    if (batch < limit) return deleted;
    await nextTurn();
  }
}

/** Removes the temporary files in the uploads directory last written more than STRAY_TEMP_MS ago; returns how many. */
export async function sweepStrayTemps(ctx: AppContext): Promise<number> {
  const dir = uploadsDir(ctx.config.dataDir);
  const cutoff = ctx.clock() - STRAY_TEMP_MS;
  const names = await fs.readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  let removed = 0;
  for (const name of names) {
    if (!isTempName(name)) continue;
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile() || stat.mtimeMs > cutoff) continue;
    await fs.rm(file, { force: true });
    removed++;
  }
  return removed;
}

export const uploadSweepWorker: Worker = async (app, ctx) => {
  const unavailable: UnavailableLog = app.unavailableLog;
  const intervalMs = ctx.config.retentionIntervalSeconds * 1000;
  const source = passesOf('upload sweep', intervalMs);
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  const run = async (): Promise<void> => {
    try {
      const deleted = await sweepUploads(ctx);
      if (deleted > 0) {
        ctx.metrics.retentionDeleted.labels('uploads').inc(deleted);
        ctx.log.info({ deleted }, 'upload sweep deleted uploads no message carries');
      }
      const temps = await sweepStrayTemps(ctx);
      if (temps > 0) ctx.log.info({ removed: temps }, 'upload sweep removed stray temporary files');
    } catch (err) {
      // The next pass tries again; nothing is lost by waiting.
      unavailable.report(err, source, { log: ctx.log, msg: 'upload sweep failed' });
    }
  };
  const schedule = (delayMs: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = run().finally(() => {
        running = null;
        schedule(intervalMs);
      });
    }, delayMs);
    timer.unref();
  };
  schedule(Math.min(FIRST_PASS_DELAY_MS, intervalMs));
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  };
};
