/**
 * SQLite's write-ahead log, copied back into the database off the event loop.
 *
 * By default SQLite checkpoints inside whichever commit takes the log past
 * 1000 pages (wal_autocheckpoint), on the connection that commits: on the
 * server's one connection, so the request behind that commit waits for the
 * copy and its fsync. While a long read holds an old snapshot (`npm run backup`
 * in another process, an export) nothing can be copied back, the log grows,
 * and the first commit after the read ends copies all of it: measured 112 ms
 * for a 65 MB log on a quiet machine, seconds on a loaded one (docs/BENCHMARKS.md
 * "Backup under load").
 *
 * Here the server's connection never checkpoints (wal_autocheckpoint = 0).
 * A worker thread with a connection of its own runs a PASSIVE checkpoint every
 * INTERVAL_MS: PASSIVE neither waits for the writer nor makes it wait, and it
 * copies what no reader still needs. The writer reuses the log from its start
 * once all of it has been copied back (SQLite's own wal restart), so the file
 * stays as small as the writes of one interval. Closing the store stops the
 * worker first; the last connection to close checkpoints what is left.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

const INTERVAL_MS = 200;

/**
 * The worker's code, evaluated (CommonJS): the same in the built server and
 * under the test runner, which cannot load a TypeScript file into a worker.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
let timer = null;
const tick = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message ? err.message : err) });
  }
  timer = setTimeout(tick, workerData.intervalMs);
};
parentPort.on('message', (msg) => {
  if (msg !== 'stop') return;
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
timer = setTimeout(tick, workerData.intervalMs);
`;

export interface WalCheckpointer {
  /** Stops the worker and closes its connection (before the server's own closes). */
  stop(): Promise<void>;
}

/**
 * Moves checkpoints of `file` (the server's connection) to a worker thread.
 * If the worker cannot start or fails, the connection checkpoints by itself
 * again, as SQLite does by default: the log never grows without bound.
 */
export function startWalCheckpointer(file: SqliteDatabase.Database, onError: (message: string) => void = () => undefined): WalCheckpointer {
  let fellBack = false;
  // Once: a worker that fails emits 'error' and then 'exit'.
  const fallBack = (message: string): void => {
    if (fellBack) return;
    fellBack = true;
    if (file.open) file.pragma('wal_autocheckpoint = 1000');
    onError(message);
  };
  let worker: Worker;
  try {
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { module: createRequire(import.meta.url).resolve('better-sqlite3'), file: file.name, intervalMs: INTERVAL_MS },
    });
  } catch (err) {
    fallBack(err instanceof Error ? err.message : String(err));
    return { stop: async () => undefined };
  }
  file.pragma('wal_autocheckpoint = 0');
  let stopping = false;
  worker.unref();
  worker.on('message', (msg: { error?: string }) => {
    if (msg.error) onError(msg.error);
  });
  worker.on('error', (err) => fallBack(err.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => {
    if (!stopping) fallBack('the checkpoint worker stopped');
  });
  return {
    async stop() {
      if (stopping) return exited;
      stopping = true;
      worker.postMessage('stop');
      const timeout = setTimeout(() => void worker.terminate(), 2000);
      await exited;
      clearTimeout(timeout);
    },
  };
}

/**
 * Copies the whole log back and empties the file (TRUNCATE), for when no image
 * of what was written may stay in it (an erasure: docs/DATA.md). The worker's
 * PASSIVE checkpoint may hold the checkpoint lock at that moment: SQLite then
 * answers busy at once, and the call is tried again a few times.
 */
export async function truncateWal(db: Kysely<Database>, attempts = 20, pauseMs = 25): Promise<boolean> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    if (!rows[0] || Number(rows[0].busy) === 0) return true;
    if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return false;
}
