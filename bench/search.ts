/**
 * Search over the whole history (issue 20): GET /api/v1/chats/search on a
 * SQLite store holding BENCH_SEARCH_MESSAGES (1,000,000) messages in 100,000
 * chats of 100,000 visitors, spread over two years. The store is seeded once
 * with bulk inserts in big transactions (the FTS5 triggers of migration 028
 * index every row as it goes in) and cached under the temp directory
 * (parley-bench-search-<version>), so a rerun starts in seconds; delete that
 * directory to seed again.
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
import { LoadWatch, machineLine, today } from './lib/machine.js';
import { recordGoal, writeSection } from './lib/report.js';
import { percentile } from './lib/stats.js';
import { adminToken, json, startParley } from './lib/server.js';

const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 1_000_000);
const PER_CHAT = 10;
const CHATS = Math.ceil(MESSAGES / PER_CHAT);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 20);
const GOAL_MS = 200;
const DAY = 86_400_000;
const VERSION = `v1-${MESSAGES}`;
const CACHE = path.join(os.tmpdir(), `parley-bench-search-${VERSION}`);
const RARE = 'zanzibarite';

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

async function seed(): Promise<Seeded> {
  const marker = path.join(CACHE, 'seeded.json');
  if (fs.existsSync(marker)) return JSON.parse(fs.readFileSync(marker, 'utf8')) as Seeded;
  fs.rmSync(CACHE, { recursive: true, force: true });
  fs.mkdirSync(CACHE, { recursive: true });
  const server = await startParley({ db: 'sqlite', dataDir: CACHE });
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
  }
  const started = performance.now();
  process.stderr.write(`search benchmark: seeding ${MESSAGES.toLocaleString('en')} messages into ${CACHE}…\n`);
  const db = new Database(path.join(CACHE, 'parley.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const account = (db.prepare('select id from accounts limit 1').get() as { id: number }).id;
  const next = rng(20);
  const vocab = vocabulary(next);
  const insertVisitor = db.prepare(
    `insert into visitors (account_id, channel_id, external_id, number, name, email, phone, session_json, chats_count, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, '{}', 1, ?, ?)`,
  );
  const insertChat = db.prepare(
    `insert into chats (account_id, channel_id, visitor_id, department_id, status, accepted_by, agent_ids_json, custom_data_json, rate, created_at, accepted_at, finished_at, updated_at)
     values (?, ?, ?, null, ?, ?, ?, '[]', ?, ?, ?, ?, ?)`,
  );
  const insertMessage = db.prepare(`insert into messages (account_id, chat_id, author, agent_id, type, text, created_at) values (?, ?, ?, ?, 'text', ?, ?)`);
  const end = Date.now();
  const span = 730 * DAY;
  const BATCH = 5000;
  const rareEvery = Math.max(1, Math.floor(MESSAGES / 20));
  let messageNo = 0;
  for (let from = 0; from < CHATS; from += BATCH) {
    db.transaction(() => {
      for (let c = from; c < Math.min(CHATS, from + BATCH); c++) {
        const at = end - span + Math.floor((c / CHATS) * span);
        const channel = channels[c % channels.length];
        const first = FIRST[Math.floor(next() * FIRST.length)];
        const last = LAST[Math.floor(next() * LAST.length)];
        const visitor = Number(
          insertVisitor.run(
            account,
            channel,
            `bench-${c}`,
            c + 1,
            `${first} ${last}`,
            `${first}.${last}${c}@example.com`.toLowerCase(),
            `+49 30 ${String(1000000 + c)}`,
            at,
            at,
          ).lastInsertRowid,
        );
        const agent = agents[c % agents.length];
        const finished = c < CHATS - 200;
        const rate = c % 7 === 0 ? 'positive' : c % 23 === 0 ? 'negative' : null;
        const chat = Number(
          insertChat.run(
            account,
            channel,
            visitor,
            finished ? 'finished' : 'active',
            agent,
            `[${agent}]`,
            rate,
            at,
            at + 30_000,
            finished ? at + 600_000 : null,
            at + 600_000,
          ).lastInsertRowid,
        );
        for (let m = 0; m < PER_CHAT; m++) {
          const words: string[] = [];
          const count = 6 + Math.floor(next() * 11);
          for (let w = 0; w < count; w++) words.push(vocab.pick());
          if (++messageNo % rareEvery === 0) words.splice(2, 0, RARE);
          const fromVisitor = m % 2 === 0;
          insertMessage.run(account, chat, fromVisitor ? 'visitor' : 'agent', fromVisitor ? null : agent, words.join(' '), at + m * 20_000);
        }
      }
    })();
    if (from % 50_000 === 0) process.stderr.write(`  ${(from * PER_CHAT).toLocaleString('en')} messages…\n`);
  }
  db.exec('analyze');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const seeded: Seeded = { channels, agents, seedSeconds: (performance.now() - started) / 1000 };
  fs.writeFileSync(marker, JSON.stringify(seeded));
  return seeded;
}

interface Timing {
  name: string;
  query: string;
  results: number;
  p50: number;
  p99: number;
  max: number;
}

export async function runSearchBench(): Promise<void> {
  const load = new LoadWatch();
  const seeded = await seed();
  load.sample();
  const server = await startParley({ db: 'sqlite', dataDir: CACHE });
  const timings: Timing[] = [];
  try {
    const token = await adminToken(server.base);
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
      for (let run = 0; run <= RUNS; run++) {
        const t0 = performance.now();
        const rows = await json<unknown[]>(`${server.base}/api/v1/chats/search?${query}&limit=50`, { token });
        const elapsed = performance.now() - t0;
        results = rows.length;
        if (run > 0) times.push(elapsed); // the first run warms the caches
      }
      times.sort((a, b) => a - b);
      timings.push({ name, query, results, p50: percentile(times, 50), p99: percentile(times, 99), max: times[times.length - 1] });
      load.sample();
    }
  } finally {
    await server.stop();
  }
  const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
  const worst = Math.max(...timings.map((t) => t.p99));
  writeSection(
    'search',
    `## Search over the whole history (issue 20)

${today()} — ${machineLine()}; ${load.line()}. SQLite, ${MESSAGES.toLocaleString('en')} messages in ${CHATS.toLocaleString('en')} chats of as many visitors over two years (seeded in ${seeded.seedSeconds.toFixed(0)} s, cached for reruns). \`GET /api/v1/chats/search\` over HTTP with an admin token, \`limit=50\`, ${RUNS} runs each after one warm-up. Goal: ≤ ${GOAL_MS} ms.

| search | query | chats returned | p50 | p99 | max |
|---|---|---|---|---|---|
${timings.map((t) => `| ${t.name} | \`${t.query}\` | ${t.results} | ${fmt(t.p50)} ms | ${fmt(t.p99)} ms | ${fmt(t.max)} ms |`).join('\n')}

Reproduce: \`npm run bench -- --only=search\` (\`BENCH_SEARCH_MESSAGES\`, \`BENCH_SEARCH_RUNS\` change the size and the runs). Message text is matched by the FTS5 index of migration 028 (\`messages_fts\`), visitors by its trigram index (\`visitors_fts\`); filters alone by the chats indexes of migrations 028 and 034. Words are whole words, only a short last word (4 letters or fewer, still being typed) is a prefix. A search reads a word's matches newest first, at most 5,000: when there are fewer, they are the candidates; when there are more (\`order\` is in about 40 % of the messages here), the filtered chats are walked newest first in growing windows and each window's matches read from the index within its message id range, until a page is full. Known limit: a short prefix that many words start with (\`or\`) still makes FTS5 read all of that prefix's matches, once per window.`,
  );
  recordGoal({
    key: 'search-sqlite',
    benchmark: '#20 goal: search over 1,000,000 messages (SQLite)',
    goal: `p99 ≤ ${GOAL_MS} ms for each typical search`,
    measured: `worst p99 ${fmt(worst)} ms`,
    met: worst <= GOAL_MS,
  });
}
