/**
 * Search over the whole history (issue 20): GET /api/v1/chats/search on a
 * store holding BENCH_SEARCH_MESSAGES (1,000,000) messages in 100,000
 * chats of 100,000 visitors, spread over two years, on SQLite (the goal's
 * store) and, with --db=postgres (run.ts's default includes it), on
 * PostgreSQL with the same rows. Each store is seeded once with bulk inserts
 * in big transactions (SQLite: the FTS5 triggers of migration 028 index every
 * row as it goes in; PostgreSQL: its GIN index) and kept for reruns: SQLite
 * under the temp directory (parley-bench-search-<version>; delete it to seed
 * again), PostgreSQL in the schema bench_search_<version> (drop it to seed
 * again).
 *
 * Messages are 6–16 words drawn from a vocabulary with a Zipf-like
 * distribution (the commonest words are in a large share of the messages);
 * 20 messages carry a rare word; visitors have names, e-mails and phones.
 * Then typical searches are asked over HTTP with an admin token, RUNS times
 * each: a rare word, a common word, a two-word prefix search, a phrase with
 * filters (status, channel, date range), a visitor's last name, an e-mail,
 * and a filter-only list. Goal: p99 ≤ 200 ms on SQLite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { LoadWatch, machineLine, today } from './lib/machine.js';
import { recordGoal, writeSection } from './lib/report.js';
import { percentile } from './lib/stats.js';
import { adminToken, json, PG_URL, startParley, type Db } from './lib/server.js';

export const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 1_000_000);
const PER_CHAT = 10;
const CHATS = Math.ceil(MESSAGES / PER_CHAT);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 20);
const GOAL_MS = 200;
const DAY = 86_400_000;
const VERSION = `v1-${MESSAGES}`;
export const CACHE = path.join(os.tmpdir(), `parley-bench-search-${VERSION}`);
const RARE = 'zanzibarite';
/** The PostgreSQL run's schema, kept between runs like the SQLite directory. */
const PG_SCHEMA = `bench_search_${VERSION.replace(/-/g, '_')}`;

/** A deterministic generator, so every seeding writes the same store. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMMON = ['the', 'my', 'order', 'please', 'hello', 'thanks', 'help', 'is', 'it', 'can', 'you', 'a', 'to', 'for', 'not', 'delivery', 'payment', 'account'];
const TOPICS = [
  'tracking',
  'number',
  'refund',
  'invoice',
  'password',
  'shipping',
  'address',
  'size',
  'colour',
  'discount',
  'coupon',
  'warranty',
  'return',
  'login',
];
const FIRST = ['Anna', 'Ben', 'Clara', 'David', 'Eva', 'Felix', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Karla', 'Leo', 'Mia', 'Noah', 'Olga', 'Paul'];
const LAST = ['Smith', 'Müller', 'Garcia', 'Rossi', 'Dubois', 'Novak', 'Jensen', 'Silva', 'Kowalski', 'Tanaka', 'Okafor', 'Larsen', 'Ivanova', 'Haddad'];

/** The vocabulary: common words, topic words, then 5,000 made-up words, drawn with a Zipf-like weight. */
function vocabulary(next: () => number): { pick: () => string } {
  const made = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}x`);
  const words = [...COMMON, ...TOPICS, ...made];
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i < words.length; i++) cumulative.push((total += 1 / (i + 1)));
  return {
    pick: () => {
      const x = next() * total;
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return words[lo];
    },
  };
}

interface Seeded {
  channels: number[];
  agents: number[];
  seedSeconds: number;
}

interface Batch {
  visitors: Array<[id: number, channel: number, externalId: string, number: number, name: string, email: string, phone: string, at: number]>;
  chats: Array<
    [id: number, channel: number, visitor: number, status: string, agent: number, agentIds: string, rate: string | null, at: number, finishedAt: number | null]
  >;
  messages: Array<[id: number, chat: number, author: string, agent: number | null, text: string, at: number]>;
}

const BATCH = 5000;

/** The rows to seed, BATCH chats at a time, with their ids (visitor n and chat n for the n-th chat); the same on both stores. */
function* batches(s: Omit<Seeded, 'seedSeconds'>, end: number): Generator<Batch> {
  const next = rng(20);
  const vocab = vocabulary(next);
  const span = 730 * DAY;
  const rareEvery = Math.max(1, Math.floor(MESSAGES / 20));
  let messageNo = 0;
  for (let from = 0; from < CHATS; from += BATCH) {
    const batch: Batch = { visitors: [], chats: [], messages: [] };
    for (let c = from; c < Math.min(CHATS, from + BATCH); c++) {
      const at = end - span + Math.floor((c / CHATS) * span);
      const channel = s.channels[c % s.channels.length];
      const first = FIRST[Math.floor(next() * FIRST.length)];
      const last = LAST[Math.floor(next() * LAST.length)];
      const id = c + 1;
      batch.visitors.push([
        id,
        channel,
        `bench-${c}`,
        c + 1,
        `${first} ${last}`,
        `${first}.${last}${c}@example.com`.toLowerCase(),
        `+49 30 ${String(1000000 + c)}`,
        at,
      ]);
      const agent = s.agents[c % s.agents.length];
      const finished = c < CHATS - 200;
      const rate = c % 7 === 0 ? 'positive' : c % 23 === 0 ? 'negative' : null;
      batch.chats.push([id, channel, id, finished ? 'finished' : 'active', agent, `[${agent}]`, rate, at, finished ? at + 600_000 : null]);
      for (let m = 0; m < PER_CHAT; m++) {
        const words: string[] = [];
        const count = 6 + Math.floor(next() * 11);
        for (let w = 0; w < count; w++) words.push(vocab.pick());
        if (++messageNo % rareEvery === 0) words.splice(2, 0, RARE);
        const fromVisitor = m % 2 === 0;
        batch.messages.push([messageNo, id, fromVisitor ? 'visitor' : 'agent', fromVisitor ? null : agent, words.join(' '), at + m * 20_000]);
      }
    }
    yield batch;
  }
}

/** Channels and agents through the API, on a fresh store (a server started on it, then stopped). */
async function setUp(o: { db: Db; dataDir?: string; schema?: string }): Promise<Omit<Seeded, 'seedSeconds'>> {
  const server = await startParley(o);
  const channels: number[] = [];
  const agents: number[] = [];
  try {
    const token = await adminToken(server.base);
    const post = <T>(p: string, body: unknown) => json<T>(`${server.base}/api/v1${p}`, { method: 'POST', token, body });
    for (const name of ['Website', 'Shop', 'Help center', 'Mobile app']) channels.push((await post<{ id: number }>('/channels', { type: 'widget', name })).id);
    for (let n = 1; n <= 10; n++)
      agents.push(
        (await post<{ id: number }>('/agents', { name: `Agent ${n}`, email: `agent${n}@example.com`, password: 'bench-password-1', role: 'agent' })).id,
      );
  } finally {
    await server.stop();
    if (o.db === 'postgres') fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
  return { channels, agents };
}

const progress = (from: number) => {
  if (from % 50_000 === 0) process.stderr.write(`  ${(from * PER_CHAT).toLocaleString('en')} messages…\n`);
};

export async function seedSqlite(): Promise<Seeded> {
  const marker = path.join(CACHE, 'seeded.json');
  if (fs.existsSync(marker)) return JSON.parse(fs.readFileSync(marker, 'utf8')) as Seeded;
  fs.rmSync(CACHE, { recursive: true, force: true });
  fs.mkdirSync(CACHE, { recursive: true });
  const set = await setUp({ db: 'sqlite', dataDir: CACHE });
  const started = performance.now();
  process.stderr.write(`search benchmark: seeding ${MESSAGES.toLocaleString('en')} messages into ${CACHE}…\n`);
  const db = new Database(path.join(CACHE, 'parley.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const account = (db.prepare('select id from accounts limit 1').get() as { id: number }).id;
  const insertVisitor = db.prepare(
    `insert into visitors (id, account_id, channel_id, external_id, number, name, email, phone, session_json, chats_count, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, '{}', 1, ?, ?)`,
  );
  const insertChat = db.prepare(
    `insert into chats (id, account_id, channel_id, visitor_id, department_id, status, accepted_by, agent_ids_json, custom_data_json, rate, created_at, accepted_at, finished_at, updated_at)
     values (?, ?, ?, ?, null, ?, ?, ?, '[]', ?, ?, ?, ?, ?)`,
  );
  const insertMessage = db.prepare(
    `insert into messages (id, account_id, chat_id, author, agent_id, type, text, created_at) values (?, ?, ?, ?, ?, 'text', ?, ?)`,
  );
  let from = 0;
  for (const batch of batches(set, Date.now())) {
    db.transaction(() => {
      for (const [id, channel, ext, number, name, email, phone, at] of batch.visitors)
        insertVisitor.run(id, account, channel, ext, number, name, email, phone, at, at);
      for (const [id, channel, visitor, status, agent, agentIds, rate, at, finishedAt] of batch.chats)
        insertChat.run(id, account, channel, visitor, status, agent, agentIds, rate, at, at + 30_000, finishedAt, at + 600_000);
      for (const [id, chat, author, agent, text, at] of batch.messages) insertMessage.run(id, account, chat, author, agent, text, at);
    })();
    progress(from);
    from += BATCH;
  }
  db.exec('analyze');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const seeded: Seeded = { ...set, seedSeconds: (performance.now() - started) / 1000 };
  fs.writeFileSync(marker, JSON.stringify(seeded));
  return seeded;
}

/**
 * The same rows in a PostgreSQL schema of their own (PG_SCHEMA), kept for
 * reruns: a table bench_seeded in it says the seeding finished.
 */
async function seedPostgres(): Promise<Seeded> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const done = await client.query<{ row: string }>(`select to_regclass('"${PG_SCHEMA}".bench_seeded')::text as row`);
    if (done.rows[0].row !== null) {
      const row = await client.query<{ seeded: string }>(`select seeded from "${PG_SCHEMA}".bench_seeded`);
      return JSON.parse(row.rows[0].seeded) as Seeded;
    }
    await client.query(`drop schema if exists "${PG_SCHEMA}" cascade`);
    const set = await setUp({ db: 'postgres', schema: PG_SCHEMA });
    const started = performance.now();
    process.stderr.write(`search benchmark: seeding ${MESSAGES.toLocaleString('en')} messages into PostgreSQL schema ${PG_SCHEMA}…\n`);
    await client.query(`set search_path = "${PG_SCHEMA}"`);
    const account = (await client.query<{ id: number }>('select id from accounts limit 1')).rows[0].id;
    const column = <T>(rows: unknown[][], i: number) => rows.map((r) => r[i] as T);
    let from = 0;
    for (const b of batches(set, Date.now())) {
      await client.query('begin');
      const v = b.visitors;
      await client.query(
        `insert into visitors (id, account_id, channel_id, external_id, number, name, email, phone, session_json, chats_count, created_at, updated_at)
         select id, $1, channel, ext, number, name, email, phone, '{}', 1, at, at
         from unnest($2::int[], $3::int[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::bigint[]) as u(id, channel, ext, number, name, email, phone, at)`,
        [account, ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => column(v, i))],
      );
      const c = b.chats;
      await client.query(
        `insert into chats (id, account_id, channel_id, visitor_id, department_id, status, accepted_by, agent_ids_json, custom_data_json, rate, created_at, accepted_at, finished_at, updated_at)
         select id, $1, channel, visitor, null, status, agent, agent_ids, '[]', rate, at, at + 30000, finished_at, at + 600000
         from unnest($2::int[], $3::int[], $4::int[], $5::text[], $6::int[], $7::text[], $8::text[], $9::bigint[], $10::bigint[]) as u(id, channel, visitor, status, agent, agent_ids, rate, at, finished_at)`,
        [account, ...[0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => column(c, i))],
      );
      const m = b.messages;
      await client.query(
        `insert into messages (id, account_id, chat_id, author, agent_id, type, text, created_at)
         select id, $1, chat, author, agent, 'text', text, at
         from unnest($2::int[], $3::int[], $4::text[], $5::int[], $6::text[], $7::bigint[]) as u(id, chat, author, agent, text, at)`,
        [account, ...[0, 1, 2, 3, 4, 5].map((i) => column(m, i))],
      );
      await client.query('commit');
      progress(from);
      from += BATCH;
    }
    for (const table of ['visitors', 'chats', 'messages'])
      await client.query(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
    await client.query('vacuum analyze visitors');
    await client.query('vacuum analyze chats');
    await client.query('vacuum analyze messages');
    const seeded: Seeded = { ...set, seedSeconds: (performance.now() - started) / 1000 };
    await client.query('create table bench_seeded (seeded text not null)');
    await client.query('insert into bench_seeded (seeded) values ($1)', [JSON.stringify(seeded)]);
    return seeded;
  } finally {
    await client.end();
  }
}

interface Timing {
  name: string;
  query: string;
  results: number;
  /** Runs timed (fewer than RUNS when a search used up BUDGET_MS). */
  runs: number;
  p50: number;
  p99: number;
  max: number;
  /** Why the search failed (a 503 when a PostgreSQL statement ran past its timeout), else null. */
  error: string | null;
}

/** Time given to one search's runs: a search slower than that is timed fewer times (said in the table). */
const BUDGET_MS = 60_000;

/** The typical searches, RUNS times each after one warm-up, on a server holding the seeded store. */
async function measure(base: string, seeded: Seeded, load: LoadWatch): Promise<Timing[]> {
  const timings: Timing[] = [];
  const token = await adminToken(base);
  const yearAgo = new Date(Date.now() - 365 * DAY).toISOString().slice(0, 10);
  const halfYearAgo = new Date(Date.now() - 180 * DAY).toISOString().slice(0, 10);
  const searches: Array<[string, string]> = [
    ['rare word', `q=${RARE}`],
    ['common word', 'q=order'],
    ['two words (the last a prefix)', 'q=refund%20invo'],
    ['phrase with filters', `q=%22tracking%20number%22&status=finished&channel_id=${seeded.channels[1]}&from=${yearAgo}&to=${halfYearAgo}`],
    ['visitor last name', 'q=kowalski'],
    ['visitor e-mail', 'q=anna.garcia12'],
    ['filters only (rating, agent)', `rating=negative&agent_id=${seeded.agents[2]}`],
  ];
  for (const [name, query] of searches) {
    const times: number[] = [];
    let results = 0;
    let error: string | null = null;
    const started = performance.now();
    for (let run = 0; run <= RUNS && performance.now() - started < BUDGET_MS; run++) {
      const t0 = performance.now();
      try {
        const rows = await json<unknown[]>(`${base}/api/v1/chats/search?${query}&limit=50`, { token });
        results = rows.length;
      } catch (e) {
        error = `${/: (\d{3}) /.exec(String(e))?.[1] ?? 'failed'} after ${fmt(performance.now() - t0)} ms`;
        break;
      }
      if (run > 0) times.push(performance.now() - t0); // the first run warms the caches
    }
    times.sort((a, b) => a - b);
    timings.push({
      name,
      query,
      results,
      runs: times.length,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      max: times[times.length - 1] ?? NaN,
      error,
    });
    load.sample();
  }
  return timings;
}

const fmt = (v: number) => (Number.isNaN(v) ? '—' : v >= 100 ? v.toFixed(0) : v.toFixed(1));

function table(timings: Timing[]): string {
  const row = (t: Timing) =>
    t.error
      ? `| ${t.name} | \`${t.query}\` | failed: ${t.error} | — | — | — |`
      : `| ${t.name} | \`${t.query}\` | ${t.results}${t.runs < RUNS ? ` (${t.runs} runs)` : ''} | ${fmt(t.p50)} ms | ${fmt(t.p99)} ms | ${fmt(t.max)} ms |`;
  return `| search | query | chats returned | p50 | p99 | max |
|---|---|---|---|---|---|
${timings.map(row).join('\n')}`;
}

export async function runSearchBench(dbs: Db[] = ['sqlite']): Promise<void> {
  if (dbs.includes('sqlite')) await runOn('sqlite');
  if (dbs.includes('postgres')) await runOn('postgres');
}

async function runOn(db: Db): Promise<void> {
  const load = new LoadWatch();
  const seeded = db === 'sqlite' ? await seedSqlite() : await seedPostgres();
  load.sample();
  const server = await startParley(db === 'sqlite' ? { db, dataDir: CACHE } : { db, schema: PG_SCHEMA });
  let timings: Timing[];
  try {
    timings = await measure(server.base, seeded, load);
  } finally {
    await server.stop();
    if (db === 'postgres') fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
  const worst = timings.some((t) => t.error) ? NaN : Math.max(...timings.map((t) => t.p99));
  const shape = `${MESSAGES.toLocaleString('en')} messages in ${CHATS.toLocaleString('en')} chats of as many visitors over two years (seeded in ${seeded.seedSeconds.toFixed(0)} s, cached for reruns)`;
  const run = `\`GET /api/v1/chats/search\` over HTTP with an admin token, \`limit=50\`, ${RUNS} runs each after one warm-up`;
  if (db === 'postgres') {
    writeSection(
      'search-postgres',
      `### The same searches on PostgreSQL

${today()} — ${machineLine()}; ${load.line()}. PostgreSQL (127.0.0.1, its own schema \`${PG_SCHEMA}\`), the same rows as the SQLite run: ${shape}. ${run}. No goal (issue 20's is on SQLite); a figure to compare.

${table(timings)}

Reproduce: \`npm run bench -- --only=search --db=postgres\`. Message text is matched by the GIN index on \`to_tsvector('simple', text)\` of migration 028, visitors by a scan of the account's visitors.`,
    );
    recordGoal({
      key: 'search-postgres',
      benchmark: '#20 search over 1,000,000 messages (PostgreSQL)',
      goal: 'p99 of each typical search (no goal: SQLite’s is 200 ms)',
      measured: Number.isNaN(worst) ? 'a search failed (see the section)' : `worst p99 ${fmt(worst)} ms`,
      met: null,
    });
    return;
  }
  writeSection(
    'search',
    `## Search over the whole history (issue 20)

${today()} — ${machineLine()}; ${load.line()}. SQLite, ${shape}. ${run}. Goal: ≤ ${GOAL_MS} ms.

${table(timings)}

Reproduce: \`npm run bench -- --only=search --db=sqlite\` (\`BENCH_SEARCH_MESSAGES\`, \`BENCH_SEARCH_RUNS\` change the size and the runs). Message text is matched by the FTS5 index of migration 028 (\`messages_fts\`), visitors by its trigram index (\`visitors_fts\`); filters alone by the chats indexes of migrations 028 and 034. Words are whole words, only a short last word (4 letters or fewer, still being typed) is a prefix. A search walks the filtered chats newest first in windows (ids and visitor ids only, on the \`(account_id, id)\` index of migration 043), each window's matches read from the indexes within its message and visitor id ranges (near the newest messages, from the newest index entries down); a page among the newest 500 chats costs one window. When the matches seen are sparse, a word's (or a visitor's) matches are listed newest first, at most 5,000, and when fewer they decide the rest of the page; when more (\`order\` is in about 40 % of the messages here), the walk goes on, each window sized from the matches seen. Known limit: a short prefix that many words start with (\`or\`) still makes FTS5 read all of that prefix's matches, once per window.`,
  );
  recordGoal({
    key: 'search-sqlite',
    benchmark: '#20 goal: search over 1,000,000 messages (SQLite)',
    goal: `p99 ≤ ${GOAL_MS} ms for each typical search`,
    measured: Number.isNaN(worst) ? 'a search failed (see the section)' : `worst p99 ${fmt(worst)} ms`,
    met: worst <= GOAL_MS,
  });
}
