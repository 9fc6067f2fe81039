/**
 * Cold start and idle memory (issue 8): time from spawning `node
 * dist/server/main.js` to the first `/healthz` 200 (polled every 5 ms), for a
 * first start on an empty store (migrations, the first account and its
 * password hash) and for a restart on the same store; the RSS of the idle
 * process 5 s after it became ready. Median of RUNS starts each.
 */
import { LoadWatch, machineLine, today } from './lib/machine.js';
import { recordGoal, writeSection } from './lib/report.js';
import { cleanup, rssOf, startParley, type Db } from './lib/server.js';

const RUNS = Number(process.env.BENCH_STARTS ?? 3);
const IDLE_MS = 5000;

interface StartupResult {
  db: Db;
  firstMs: number;
  restartMs: number;
  idleRss: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function benchStartup(db: Db): Promise<StartupResult> {
  const first: number[] = [];
  const restart: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const fresh = await startParley({ db });
    first.push(fresh.readyMs);
    await fresh.stop();
    const again = await startParley({ db, dataDir: fresh.dataDir, schema: fresh.schema ?? undefined });
    restart.push(again.readyMs);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    rss.push(rssOf(again.pid));
    await again.stop();
    await cleanup(fresh);
  }
  return { db, firstMs: median(first), restartMs: median(restart), idleRss: median(rss) };
}

export async function runStartupBench(dbs: Db[]): Promise<void> {
  const results: StartupResult[] = [];
  const load = new LoadWatch();
  for (const db of dbs) {
    process.stderr.write(`startup benchmark on ${db}…\n`);
    results.push(await benchStartup(db));
  }
  const MiB = (b: number) => `${(b / 1024 ** 2).toFixed(0)} MiB`;
  writeSection(
    'startup',
    `## Cold start and idle memory (issue 8)

${today()} — ${machineLine()}; ${load.line()}. Spawn of \`node dist/server/main.js\` → first \`/healthz\` 200, polled every 5 ms; median of ${RUNS}. "First start": an empty store (migrations, the first account, its password hash). "Restart": the same store again. Idle RSS: ${IDLE_MS / 1000} s after the restart was ready, no traffic.

| store | first start → ready | restart → ready | idle RSS |
|---|---|---|---|
${results.map((r) => `| ${r.db} | ${r.firstMs.toFixed(0)} ms | ${r.restartMs.toFixed(0)} ms | ${MiB(r.idleRss)} |`).join('\n')}`,
  );
  for (const r of results) {
    recordGoal({
      key: `startup-${r.db}`,
      benchmark: `Cold start → /healthz 200 (${r.db}, restart / first start)`,
      goal: '—',
      measured: `${r.restartMs.toFixed(0)} ms / ${r.firstMs.toFixed(0)} ms`,
      met: null,
    });
    recordGoal({ key: `idle-rss-${r.db}`, benchmark: `Idle memory, RSS (${r.db})`, goal: '—', measured: MiB(r.idleRss), met: null });
  }
}
