/**
 * The real `npm start` on a DATA_DIR SQLite cannot use — read-only (a
 * read-only bind mount: the suite runs as root, whom chmod does not stop) or
 * full (a 64 KiB tmpfs) — exits 1 with one line naming the directory and what
 * to do, not SQLite's bare error and a stack. SQLite's store only (no
 * DATABASE_URL): on PostgreSQL the database is not in DATA_DIR. Skipped where
 * mounting is not permitted (test/helpers/mounts.ts).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Mounts, mountable } from '../helpers/mounts.js';
import { assertBuilt, freePort, killAll, startServer } from './serverProcess.js';

const mounts = new Mounts();

async function refusedStart(dataDir: string): Promise<{ code: number | null; stderr: string }> {
  const proc = startServer({ DATA_DIR: dataDir, PORT: String(await freePort()), LOG_LEVEL: 'warn' });
  const exit = await proc.exited;
  return { code: exit.code, stderr: proc.stderr() };
}

describe.skipIf(!mountable)('npm start on an unusable DATA_DIR', () => {
  beforeAll(() => assertBuilt());
  afterEach(async () => {
    await killAll();
    mounts.undoAll();
  });

  it('exits 1 with one line naming a read-only DATA_DIR and what to do', { timeout: 30_000 }, async () => {
    const dir = mounts.readOnly(mounts.tempDir());
    const { code, stderr } = await refusedStart(dir);
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((l) => l.startsWith('Parley failed to start'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Parley failed to start: DATA_DIR ${dir} is not writable \\(SQLITE_CANTOPEN: .*\\): .*or set DATA_DIR`));
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('exits 1 with one line naming a full DATA_DIR and what to do', { timeout: 30_000 }, async () => {
    const dir = mounts.full();
    const { code, stderr } = await refusedStart(dir);
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^Parley failed to start: DATA_DIR ${dir} is full \\(SQLITE_FULL: .*\\): .*free space on that disk`, 'm'));
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});
