/**
 * A SQLite store that cannot start on its DATA_DIR says so in one line naming
 * the directory and what to do (StoreStartError), instead of SQLite's bare
 * "unable to open database file": a DATA_DIR that cannot be created, a
 * read-only one (empty, or holding a database), a full one. The directories
 * are really read-only or full: a read-only bind mount and a 64 KiB tmpfs
 * (test/helpers/mounts.ts: chmod does not stop root; skipped where mounting
 * is not permitted). SQLITE_SYNCHRONOUS sets the pragma.
 * The store under test is SQLite in both projects: on PostgreSQL the
 * database is not in DATA_DIR.
 */
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { Mounts, mountable } from '../../test/helpers/mounts.js';
import { openStore } from './database.js';
import { StoreStartError } from './startErrors.js';

const mounts = new Mounts();
afterEach(() => mounts.undoAll());
const tempDir = (): string => mounts.tempDir();

async function startError(dataDir: string): Promise<StoreStartError> {
  let caught: unknown = null;
  try {
    const store = await openStore({ databaseUrl: null, databaseSchema: null, dataDir });
    await store.close();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(StoreStartError);
  const error = caught as StoreStartError;
  expect(error.message).toContain(`DATA_DIR ${dataDir} `);
  expect(error.message).not.toContain('\n');
  return error;
}

describe.skipIf(!mountable)('SQLite start on a DATA_DIR it cannot use', () => {
  it('names a DATA_DIR that cannot be created and says to create it', async () => {
    const dir = path.join(mounts.readOnly(tempDir()), 'parley');
    const error = await startError(dir);
    expect(error.message).toContain(`cannot be created (${path.dirname(dir)} is not writable: `);
    expect(error.message).toMatch(/(EROFS|EACCES).*\): create it, writable by the user running Parley, or set DATA_DIR/);
  });

  it('names a read-only DATA_DIR, empty or holding a database, and says to make it writable', async () => {
    const empty = mounts.readOnly(tempDir());
    expect((await startError(empty)).message).toMatch(
      /is not writable \(SQLITE_CANTOPEN: .*\): .*make the directory and those files writable .*or set DATA_DIR/,
    );

    const used = tempDir();
    await (await openStore({ databaseUrl: null, databaseSchema: null, dataDir: used })).close();
    const withDatabase = mounts.readOnly(used);
    expect((await startError(withDatabase)).message).toMatch(/is not writable \(SQLITE_\w+: .*\)/);
  });

  it('names a full DATA_DIR and says to free space', async () => {
    const error = await startError(mounts.full());
    expect(error.message).toMatch(/is full \(SQLITE_FULL: .*\): .*free space on that disk, or set DATA_DIR/);
  });
});

describe('SQLITE_SYNCHRONOUS', () => {
  async function synchronousOf(sqliteSynchronous?: 'normal' | 'full'): Promise<number> {
    const store = await openStore({ databaseUrl: null, databaseSchema: null, dataDir: tempDir(), sqliteSynchronous });
    try {
      const { rows } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(store.db);
      return rows[0].synchronous;
    } finally {
      await store.close();
    }
  }

  it('is NORMAL (1) by default and FULL (2) when asked', async () => {
    expect(await synchronousOf()).toBe(1);
    expect(await synchronousOf('normal')).toBe(1);
    expect(await synchronousOf('full')).toBe(2);
  });
});
