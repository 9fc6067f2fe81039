/**
 * The SQLite part of a backup, through SQLite's online backup API
 * (better-sqlite3's db.backup()): a page-by-page copy of one consistent state
 * of the database, taken while the server writes.
 *
 * - From another process (npm run backup) the copy runs in one step: a single
 *   read transaction, so the server's commits meanwhile neither restart it
 *   nor wait for it (WAL: readers never block the writer).
 * - Inside the server (scheduled backups, the backup before migrations) the
 *   copy goes through the server's own connection in small steps with a turn
 *   of the event loop between them: requests interleave, and SQLite applies
 *   the server's own commits to the copy as they happen.
 */
import SqliteDatabase from 'better-sqlite3';
import type { BackupCounts } from './manifest.js';

/** Pages per step on the server's own connection (4 KiB pages: 4 MB, a few ms). */
const STEP_PAGES = 1000;
/** sqlite3_backup_step's largest count: every remaining page in one step. */
const ALL_PAGES = 0x7fffffff;

export async function copySqlite(source: SqliteDatabase.Database | string, dest: string): Promise<void> {
  if (typeof source !== 'string') {
    await source.backup(dest, { progress: () => STEP_PAGES });
    return;
  }
  const db = new SqliteDatabase(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(dest, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
}

export interface SqliteFacts {
  counts: Omit<BackupCounts, 'uploads'>;
  migrations: string[];
}

/** Counts and migration level of a database file (a copy: nothing else writes it). */
export function sqliteFacts(file: string): SqliteFacts {
  const db = new SqliteDatabase(file, { fileMustExist: true });
  try {
    const count = (table: string): number => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      counts: {
        accounts: count('accounts'),
        agents: count('agents'),
        visitors: count('visitors'),
        chats: count('chats'),
        messages: count('messages'),
      },
      migrations: (db.prepare('SELECT name FROM kysely_migration ORDER BY timestamp, name').all() as Array<{ name: string }>).map((r) => r.name),
    };
  } finally {
    db.close();
  }
}

/** PRAGMA integrity_check of a database file: 'ok' or the first problems it names. */
export function sqliteIntegrity(file: string): string {
  const db = new SqliteDatabase(file, { fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check(5)') as Array<{ integrity_check: string }>;
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}
