/**
 * The real `npm start` on a DATA_DIR SQLite cannot use — read-only (a
 * read-only bind mount: the suite runs as root, whom chmod does not stop) or
 * full (a 64 KiB tmpfs) — exits 1 with one line naming the directory and what
 * to do, not SQLite's bare error and a stack. SQLite's store only (no
 * DATABASE_URL): on PostgreSQL the database is not in DATA_DIR. Needs root to
 * mount; skipped otherwise (server/db/startErrors.test.ts covers chmod).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, freePort, killAll, startServer } from './serverProcess.js';

const isRoot = process.getuid?.() === 0;
const cleanups: Array<() => void> = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-process-datadir-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function mount(args: string[]): string {
  const target = tempDir();
  execFileSync('mount', [...args, target]);
  cleanups.push(() => execFileSync('umount', [target]));
  return target;
}

async function refusedStart(dataDir: string): Promise<{ code: number | null; stderr: string }> {
  const proc = startServer({ DATA_DIR: dataDir, PORT: String(await freePort()), LOG_LEVEL: 'warn' });
  const exit = await proc.exited;
  return { code: exit.code, stderr: proc.stderr() };
}

describe.skipIf(!isRoot)('npm start on an unusable DATA_DIR', () => {
  beforeAll(() => assertBuilt());
  afterEach(async () => {
    await killAll();
    for (const undo of cleanups.splice(0).reverse()) undo();
  });

  it('exits 1 with one line naming a read-only DATA_DIR and what to do', { timeout: 30_000 }, async () => {
    const dir = mount(['--bind', '-o', 'ro', tempDir()]);
    const { code, stderr } = await refusedStart(dir);
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((l) => l.startsWith('Parley failed to start'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Parley failed to start: DATA_DIR ${dir} is not writable \\(SQLITE_CANTOPEN: .*\\): .*or set DATA_DIR`));
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('exits 1 with one line naming a full DATA_DIR and what to do', { timeout: 30_000 }, async () => {
    const dir = mount(['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs']);
    const { code, stderr } = await refusedStart(dir);
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^Parley failed to start: DATA_DIR ${dir} is full \\(SQLITE_FULL: .*\\): .*free space on that disk`, 'm'));
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});
