/**
 * Backup of a large store (issue 33): `npm run backup` of a SQLite store
 * holding 1,000,000 messages (the search benchmark's store, seeded once and
 * cached: search.ts; BENCH_SEARCH_MESSAGES changes the size), copied to a
 * directory of its own first so the cache stays as seeded, while the
 * server takes a steady inbound chat-channel load (BENCH_BACKUP_RATE, 200
 * messages/s, open loop). Measured: the backup's time and size, and the
 * inbound p50/p99 while it runs against the same load without it (the
 * same number of seconds just before). SQLite only: the PostgreSQL path is
 * pg_dump's own (not measured here).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openLoop } from './lib/load.js';
import { LoadWatch, machineLine, today } from './lib/machine.js';
import { recordGoal, writeSection } from './lib/report.js';
import { percentile } from './lib/stats.js';
import { chatApiSetup, ROOT, startParley } from './lib/server.js';
import { CACHE, MESSAGES, seedSqlite } from './search.js';

const RATE = Number(process.env.BENCH_BACKUP_RATE ?? 200);
const WINDOW_S = 2;

const body = (n: number): string =>
  JSON.stringify({ sender: { id: `backup-bench-${n % 50}` }, message: { type: 'text', text: `message ${n} during the backup benchmark` } });

function runBackup(dataDir: string, file: string): Promise<{ code: number | null; stdout: string; stderr: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/server/cli/backup.js'), file], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 }));
  });
}

/** The open-loop load in windows of WINDOW_S seconds until `until` says stop; every latency. */
async function loadUntil(target: string, until: () => boolean, offset: { n: number }): Promise<{ latencies: number[]; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  do {
    const start = offset.n;
    const r = await openLoop(target, (n) => body(start + n), { rate: RATE, seconds: WINDOW_S });
    offset.n += r.sent;
    latencies.push(...r.latencies);
    errors += r.errors;
  } while (!until());
  return { latencies: latencies.sort((a, b) => a - b), errors };
}

const fmt = (ms: number): string => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0));

export async function runBackupBench(): Promise<void> {
  const load = new LoadWatch();
  await seedSqlite();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-backup-'));
  try {
    const dataDir = path.join(work, 'data');
    fs.mkdirSync(dataDir);
    fs.copyFileSync(path.join(CACHE, 'parley.db'), path.join(dataDir, 'parley.db'));
    const server = await startParley({ db: 'sqlite', dataDir });
    let result;
    let without;
    let during;
    let size = 0;
    try {
      const { endpointUrl } = await chatApiSetup(server.base, { name: 'Backup bench', online: false });
      const offset = { n: 0 };
      // Warm-up, then the load alone for as long as the backup will take (measured after: the same count of windows).
      await openLoop(endpointUrl, body, { rate: RATE, seconds: 2 });
      offset.n = RATE * 2;
      load.sample();
      let done = false;
      const file = path.join(work, 'parley.tar.gz');
      const backup = runBackup(dataDir, file).finally(() => (done = true));
      during = await loadUntil(endpointUrl, () => done, offset);
      result = await backup;
      load.sample();
      const windows = Math.max(1, Math.ceil(result.seconds / WINDOW_S));
      let left = windows;
      without = await loadUntil(endpointUrl, () => --left <= 0, offset);
      load.sample();
      if (result.code !== 0) throw new Error(`npm run backup failed: ${result.stderr}`);
      size = fs.statSync(file).size;
    } finally {
      await server.stop();
    }
    const dbSize = fs.statSync(path.join(CACHE, 'parley.db')).size;
    const p = (l: number[], q: number) => fmt(percentile(l, q));
    const line = `${result.seconds.toFixed(1)} s for ${MESSAGES.toLocaleString('en')} messages (database ${(dbSize / 2 ** 20).toFixed(0)} MiB, archive ${(size / 2 ** 20).toFixed(0)} MiB); inbound p99 ${p(during.latencies, 99)} ms during it against ${p(without.latencies, 99)} ms without`;
    writeSection(
      'backup',
      `## Backup under load (issue 33)

${today()} — ${machineLine()}; ${load.line()}. SQLite: \`npm run backup\` (a separate process, the online backup API in one read transaction, then gzip and tar) of a store holding ${MESSAGES.toLocaleString('en')} messages (the search benchmark's store), while the server takes an open-loop inbound chat-channel load of ${RATE} messages/s; then the same load as long again without a backup.

| | backup | inbound p50 | inbound p99 | inbound max | requests (errors) |
| --- | --- | --- | --- | --- | --- |
| during the backup | ${result.seconds.toFixed(1)} s, archive ${(size / 2 ** 20).toFixed(0)} MiB of a ${(dbSize / 2 ** 20).toFixed(0)} MiB database | ${p(during.latencies, 50)} ms | ${p(during.latencies, 99)} ms | ${p(during.latencies, 100)} ms | ${during.latencies.length} (${during.errors}) |
| without | — | ${p(without.latencies, 50)} ms | ${p(without.latencies, 99)} ms | ${p(without.latencies, 100)} ms | ${without.latencies.length} (${without.errors}) |

Reproduce: \`npm run bench -- --only=backup\` (\`BENCH_BACKUP_RATE\`, \`BENCH_SEARCH_MESSAGES\`). The backup competes with the server for the machine's two cores (gzip above all, at nice 10); it takes no lock the server waits for, and the write-ahead log its long read leaves behind is copied back by the checkpoint worker (server/db/walCheckpointer.ts), not inside a request's commit.`,
    );
    recordGoal({
      key: 'backup-sqlite',
      benchmark: '#33 backup of 1,000,000 messages under load (SQLite)',
      goal: 'time; inbound p99 during it against without (no goal)',
      measured: line,
      met: null,
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
