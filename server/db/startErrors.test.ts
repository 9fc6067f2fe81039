/**
 * A SQLite store that cannot start on its DATA_DIR says so in one line naming
 * the directory and what to do (StoreStartError), instead of SQLite's bare
 * "unable to open database file": a DATA_DIR that cannot be created, a
 * read-only one (empty, or holding a database), a full one. The directories
 * are really read-only or full: a read-only bind mount and a 64 KiB tmpfs
 * (the suite runs as root, whom chmod does not stop; elsewhere, chmod does,
 * and the full disk needs root to mount). SQLITE_SYNCHRONOUS sets the pragma.
 * The store under test is SQLite in both projects: on PostgreSQL the
 * database is not in DATA_DIR.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from './database.js';
import { StoreStartError } from './startErrors.js';

const isRoot = process.getuid?.() === 0;
const cleanups: Array<() => void> = [];

afterEach(() => {
  for (const undo of cleanups.splice(0).reverse()) undo();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-datadir-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A read-only view of `source`: a read-only bind mount as root, chmod 555 otherwise. */
function readOnly(source: string): string {
  if (!isRoot) {
    fs.chmodSync(source, 0o555);
    cleanups.push(() => fs.chmodSync(source, 0o755));
    return source;
  }
  const target = tempDir();
  execFileSync('mount', ['--bind', '-o', 'ro', source, target]);
  cleanups.push(() => execFileSync('umount', [target]));
  return target;
}

/** A 64 KiB file system: too small for the database's first migrations. */
function full(): string {
  const target = tempDir();
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', target]);
  cleanups.push(() => execFileSync('umount', [target]));
  return target;
}

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

describe('SQLite start on a DATA_DIR it cannot use', () => {
  it('names a DATA_DIR that cannot be created and says to create it', async () => {
    const dir = path.join(readOnly(tempDir()), 'parley');
    const error = await startError(dir);
    expect(error.message).toContain(`cannot be created (${path.dirname(dir)} is not writable: `);
    expect(error.message).toMatch(/(EROFS|EACCES).*\): create it, writable by the user running Parley, or set DATA_DIR/);
  });

  it('names a read-only DATA_DIR, empty or holding a database, and says to make it writable', async () => {
    const empty = readOnly(tempDir());
    expect((await startError(empty)).message).toMatch(
      /is not writable \(SQLITE_CANTOPEN: .*\): .*make the directory and those files writable .*or set DATA_DIR/,
    );

    const used = tempDir();
    await (await openStore({ databaseUrl: null, databaseSchema: null, dataDir: used })).close();
    const withDatabase = readOnly(used);
    expect((await startError(withDatabase)).message).toMatch(/is not writable \(SQLITE_\w+: .*\)/);
  });

  it.skipIf(!isRoot)('names a full DATA_DIR and says to free space', async () => {
    const error = await startError(full());
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
