/**
 * The account's export (GET /api/v1/export, docs/DATA.md) of the search
 * benchmark's store: BENCH_SEARCH_MESSAGES (1,000,000) messages in 100,000
 * chats of as many visitors, seeded once and cached (bench/search.ts). The
 * whole file is read over HTTP with an admin token, counting lines and bytes,
 * while the server's resident memory is sampled every 20 ms: lines/s and the
 * peak RSS growth over the RSS before the request. Baseline, in the same run:
 * the same rows read plainly from the same store by this process (keyset
 * pages of 1,000, each row JSON.stringify'd), without the server.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { LoadWatch, machineLine, today } from './lib/machine.js';
import { writeSection } from './lib/report.js';
import { adminToken, PG_URL, rssOf, startParley, type Db } from './lib/server.js';
import { CACHE, MESSAGES, PG_SCHEMA, seedPostgres, seedSqlite } from './search.js';

interface Figures {
  lines: number;
  bytes: number;
  seconds: number;
  peakRssGrowth: number;
  /** The peak RSS growth by the time each quarter of `expected` lines had arrived. */
  quarters: number[];
}

const TABLES = ['agents', 'departments', 'channels', 'canned_responses', 'visitors', 'chats', 'messages', 'calls', 'offline_messages'];

async function viaParley(base: string, pid: number, expected = 0): Promise<Figures> {
  const token = await adminToken(base);
  const before = rssOf(pid);
  let peak = before;
  const quarters: number[] = [];
  let lines = 0;
  let bytes = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
    while (expected > 0 && quarters.length < 4 && lines >= (expected * (quarters.length + 1)) / 4) quarters.push(peak - before);
  }, 20);
  const started = performance.now();
  try {
    const res = await fetch(`${base}/api/v1/export`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok || !res.body) throw new Error(`export answered ${res.status}`);
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, rssOf(pid));
  while (expected > 0 && quarters.length < 4) quarters.push(peak - before);
  return { lines, bytes, seconds: (performance.now() - started) / 1000, peakRssGrowth: peak - before, quarters };
}

/** The same rows read plainly: keyset pages of 1,000 per table, each row stringified. */
async function plainly(db: Db): Promise<Figures> {
  const started = performance.now();
  let lines = 0;
  let bytes = 0;
  const count = (row: unknown) => {
    bytes += JSON.stringify(row).length + 1;
    lines++;
  };
  if (db === 'sqlite') {
    const sqlite = new Database(path.join(CACHE, 'parley.db'), { readonly: true });
    for (const table of TABLES) {
      const page = sqlite.prepare(`SELECT * FROM ${table} WHERE account_id = 1 AND id > ? ORDER BY id LIMIT 1000`);
      for (let after = 0; ;) {
        const rows = page.all(after) as { id: number }[];
        rows.forEach(count);
        if (rows.length < 1000) break;
        after = rows[rows.length - 1].id;
      }
    }
    sqlite.close();
  } else {
    const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${PG_SCHEMA}` });
    await client.connect();
    for (const table of TABLES) {
      for (let after = 0; ;) {
        const { rows } = await client.query<{ id: number }>(`SELECT * FROM ${table} WHERE account_id = 1 AND id > $1 ORDER BY id LIMIT 1000`, [after]);
        rows.forEach(count);
        if (rows.length < 1000) break;
        after = rows[rows.length - 1].id;
      }
    }
    await client.end();
  }
  return { lines, bytes, seconds: (performance.now() - started) / 1000, peakRssGrowth: NaN, quarters: [] };
}

/** Whether the memory grew with the lines streamed, in words, from each store's quarters. */
function growthLine(rows: Array<{ store: string; quarters: number[] }>): string {
  const by = ['the first quarter', 'half', 'three quarters'];
  return rows
    .map(({ store, quarters }) => {
      const all = quarters[3];
      const tolerance = Math.max(0.05 * all, 4e6);
      const reached = quarters.findIndex((q) => all - q <= tolerance);
      return reached < 3
        ? `${store}: the peak is reached by ${by[reached]} of the lines and stays there while the rest streams, so it does not grow with the size of the account.`
        : `${store}: the peak still grew by ${mb(all - quarters[2])} over the last quarter of the lines.`;
    })
    .join(' ');
}

const fmt = (n: number) => Math.round(n).toLocaleString('en');
const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`;

export async function runExportBench(dbs: Db[] = ['sqlite']): Promise<void> {
  const rows: string[] = [];
  const quarterRows: Array<{ store: string; quarters: number[] }> = [];
  const load = new LoadWatch();
  for (const db of dbs) {
    if (db === 'sqlite') await seedSqlite();
    else await seedPostgres();
    const server = await startParley(db === 'sqlite' ? { db, dataDir: CACHE } : { db, schema: PG_SCHEMA });
    let parley: Figures;
    try {
      // Warm-up: caches and JIT, as the plain reader gets below; its line count tells where the quarters fall.
      const warm = await viaParley(server.base, server.pid);
      parley = await viaParley(server.base, server.pid, warm.lines);
    } finally {
      await server.stop();
    }
    load.sample();
    quarterRows.push({ store: db === 'sqlite' ? 'SQLite' : 'PostgreSQL', quarters: parley.quarters });
    const bare = await plainly(db);
    rows.push(
      `| ${db === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${fmt(parley.lines / parley.seconds)} lines/s (${parley.seconds.toFixed(1)} s, ${mb(parley.bytes)}) | ${parley.quarters.map(mb).join(' · ')} | ${fmt(bare.lines / bare.seconds)} rows/s (${bare.seconds.toFixed(1)} s) | ${(parley.lines / parley.seconds / (bare.lines / bare.seconds)).toFixed(2)} |`,
    );
  }
  writeSection(
    'export',
    `## Export of the whole account (issue 33)

${today()} — ${machineLine()}; ${load.line()}. The search benchmark's store: ${MESSAGES.toLocaleString('en')} messages in ${(MESSAGES / 10).toLocaleString('en')} chats of as many visitors (about 1.2 million lines). \`GET /api/v1/export\` over HTTP, read to the end after one warm-up run; the server's RSS sampled every 20 ms. Baseline: the same rows read plainly by the benchmark process from the same store (keyset pages of 1,000, each row \`JSON.stringify\`'d), no server, no presenting.

| store | Parley | peak RSS growth after ¼ · ½ · ¾ · all of the lines | plain reading | Parley ÷ plain |
|---|---|---|---|---|
${rows.join('\n')}

Reproduce: \`npm run bench -- --only=export\`. The export reads the same pages of 1,000 rows and shapes each row as the API does. The response is written as it is read (a \`Readable\` over an async generator: a page is read when the socket has taken the last one, so at most one 64 KB chunk waits), so what the server keeps does not grow with the account; the RSS growth measured is the garbage collector's slack over about 1.2 million short-lived JSON strings. ${growthLine(quarterRows)}`,
  );
}
