/**
 * SQLite's write-ahead log is checkpointed by a worker thread, not inside the
 * server's commits (walCheckpointer.ts): the server's connection never
 * checkpoints, the log is still copied back and reused, a commit after a long
 * read does not pay for the log it left behind, and a worker that cannot run
 * hands checkpoints back to the connection.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './database.js';
import { startWalCheckpointer, truncateWal } from './walCheckpointer.js';

const dirs: string[] = [];
const stores: Store[] = [];

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-wal-'));
  dirs.push(dir);
  return dir;
}

async function sqliteStore(): Promise<{ store: Store; dir: string }> {
  const dir = tempDir();
  const store = await openStore({ databaseUrl: null, databaseSchema: null, dataDir: dir });
  stores.push(store);
  await sql`create table wal_probe (id integer primary key, body text not null)`.execute(store.db);
  return { store, dir };
}

/** ~1 MiB of rows in one commit, through the server's connection. */
function writeMiB(store: Store): void {
  const insert = store.sqlite!.prepare('insert into wal_probe (body) values (?)');
  store.sqlite!.transaction(() => {
    for (let i = 0; i < 256; i++) insert.run('x'.repeat(4000));
  })();
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const size = (file: string): number => fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;

describe.runIf(!process.env.DATABASE_URL)('SQLite checkpoints off the event loop', () => {
  it('the server connection never checkpoints; the worker copies the log back and it is reused', async () => {
    const { store, dir } = await sqliteStore();
    expect(store.sqlite!.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const dbFile = path.join(dir, 'parley.db');
    const before = size(dbFile);
    writeMiB(store);
    // Only a checkpoint moves pages into the database file, and the server's connection runs none.
    await until(() => size(dbFile) > before + 1024 * 1024);
    // Ten more MiB, one at a time: the log is restarted from its start instead of growing to 11 MiB.
    for (let i = 0; i < 10; i++) {
      writeMiB(store);
      await new Promise((r) => setTimeout(r, 250));
    }
    await until(() => size(dbFile) > before + 10 * 1024 * 1024, 15_000);
    expect(size(`${dbFile}-wal`)).toBeLessThan(8 * 1024 * 1024);
  });

  it('the log a long read left behind is copied back after it, without a commit doing it', async () => {
    const { store, dir } = await sqliteStore();
    const dbFile = path.join(dir, 'parley.db');
    const reader = new SqliteDatabase(dbFile);
    try {
      reader.exec('begin');
      reader.prepare('select count(*) from wal_probe').get();
      for (let i = 0; i < 30; i++) writeMiB(store);
      const held = size(dbFile);
      reader.exec('commit');
      // SQLite's default would copy the 30 MiB back inside the next commit, on the server's thread.
      await until(() => size(dbFile) >= held + 30 * 1024 * 1024, 15_000);
    } finally {
      reader.close();
    }
  });

  it('closing the store stops the worker first, and the last connection removes the log', async () => {
    const dir = tempDir();
    const store = await openStore({ databaseUrl: null, databaseSchema: null, dataDir: dir });
    await sql`create table wal_probe (id integer primary key, body text not null)`.execute(store.db);
    writeMiB(store);
    await store.close();
    expect(fs.existsSync(path.join(dir, 'parley.db-wal'))).toBe(false);
    const reopened = new SqliteDatabase(path.join(dir, 'parley.db'));
    expect((reopened.prepare('select count(*) AS n from wal_probe').get() as { n: number }).n).toBe(256);
    reopened.close();
  });

  it('truncateWal empties the log file while the worker runs', async () => {
    const { store, dir } = await sqliteStore();
    for (let i = 0; i < 5; i++) writeMiB(store);
    expect(await truncateWal(store.db)).toBe(true);
    expect(size(path.join(dir, 'parley.db-wal'))).toBe(0);
  });

  it('a worker that cannot open the database hands checkpoints back to the connection', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'gone.db');
    const db = new SqliteDatabase(file);
    db.pragma('journal_mode = WAL');
    fs.rmSync(file);
    const errors: string[] = [];
    const checkpointer = startWalCheckpointer(db, (m) => errors.push(m));
    try {
      await until(() => errors.length > 0);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });
});
