/**
 * Routing (issue 21): 100 new chats per second across 200 Online agents,
 * least busy (the dearer of the two offering modes: it counts every eligible
 * agent's chats and offers). The agents are written straight into the store
 * as Online (no stream sockets of their own: signing 200 agents in costs 400
 * scrypt hashes); the admin's stream socket, which sees every event, is where
 * the offers are timed: latency = the new chat's first message POSTed to the
 * chat channel → its `chat.offered` frame on that socket (the offered agent's
 * socket would get the same frame from the same relay and hub). Also counted:
 * chats never offered, and chats offered twice at their first step. SQLite
 * runs the in-process hub; PostgreSQL runs with REDIS_URL.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import WebSocket from 'ws';
import { LoadWatch, machineLine, today } from './lib/machine.js';
import { percentile, recordGoal, writeSection } from './lib/report.js';
import { ADMIN, chatApiSetup, cleanup, json, PG_URL, startParley, type Db } from './lib/server.js';
import { wsText } from '../server/lib/wsText.js';

const AGENTS = 200;
const RATE = 100;
const SECONDS = Number(process.env.BENCH_ROUTING_SECONDS ?? 10);
const GOAL_MS = 50;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface RoutingRow {
  db: Db;
  chats: number;
  /** New chats per second the load actually sent. */
  sentRate: number;
  latencies: number[];
  missing: number;
  doubled: number;
  /** POSTs that got no answer (the connection closed). */
  failed: number;
}

/** 200 Online agents of the admin's account, written into the store (as an admin's API calls would leave them). */
async function addOnlineAgents(db: Db, where: { dataDir: string; schema: string | null }): Promise<void> {
  const now = Date.now();
  const rows = Array.from({ length: AGENTS }, (_, i) => [`Agent ${i}`, `agent${i}@bench.example`]);
  if (db === 'postgres') {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(`set search_path = "${where.schema}"`);
      const { rows: admin } = await client.query<{ account_id: number }>('select account_id from agents where email = $1', [ADMIN.email]);
      for (const [name, email] of rows) {
        await client.query(
          `insert into agents (account_id, name, email, password_hash, role, phone, photo_url, status, active, created_at, updated_at)
           values ($1, $2, $3, 'none', 'agent', null, null, 'online', 1, $4, $4)`,
          [admin[0].account_id, name, email, now],
        );
      }
    } finally {
      await client.end();
    }
    return;
  }
  const file = new Database(path.join(where.dataDir, 'parley.db'));
  try {
    file.pragma('busy_timeout = 10000');
    const admin = file.prepare('select account_id from agents where email = ?').get(ADMIN.email) as { account_id: number };
    const insert = file.prepare(
      `insert into agents (account_id, name, email, password_hash, role, phone, photo_url, status, active, created_at, updated_at)
       values (?, ?, ?, 'none', 'agent', null, null, 'online', 1, ?, ?)`,
    );
    file.transaction(() => {
      for (const [name, email] of rows) insert.run(admin.account_id, name, email, now, now);
    })();
  } finally {
    file.close();
  }
}

async function benchRouting(db: Db, load: LoadWatch): Promise<RoutingRow> {
  const server = await startParley({ db, env: db === 'postgres' ? { REDIS_URL } : {} });
  try {
    const { token, endpointUrl } = await chatApiSetup(server.base, { name: 'routing', online: false });
    await addOnlineAgents(db, server);
    await json(`${server.base}/api/v1/routing`, { method: 'PUT', token, body: { mode: 'least_busy', offer_timeout_seconds: 600 } });

    const offeredAt = new Map<number, number>();
    const firstSteps = new Map<number, number>();
    const chatOfRef = new Map<number, number>();
    const ws = await new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(`${server.ws}/api/v1/stream?token=${token}`, { perMessageDeflate: false });
      socket.on('message', (raw) => {
        const at = performance.now();
        const text = wsText(raw);
        if (text.includes('"ready"')) return resolve(socket);
        if (text.includes('"chat.offered"')) {
          const frame = JSON.parse(text) as { data: { chat_id: number; attempt: number } };
          if (!offeredAt.has(frame.data.chat_id)) offeredAt.set(frame.data.chat_id, at);
          if (frame.data.attempt === 1) firstSteps.set(frame.data.chat_id, (firstSteps.get(frame.data.chat_id) ?? 0) + 1);
        } else if (text.includes('"message.created"')) {
          const m = /"text":"route (\d+)"/.exec(text);
          const frame = JSON.parse(text) as { chat_id?: number };
          if (m && frame.chat_id !== undefined) chatOfRef.set(Number(m[1]), frame.chat_id);
        }
      });
      socket.once('error', reject);
    });
    await new Promise((r) => setTimeout(r, 500));
    load.sample();

    const total = RATE * SECONDS;
    const sentAt: number[] = [];
    const answers: Array<Promise<unknown>> = [];
    let failed = 0;
    const started = performance.now();
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sentAt[i] = performance.now();
      const body = JSON.stringify({ sender: { id: `route-visitor-${i}` }, message: { type: 'text', text: `route ${i}` } });
      answers.push(
        fetch(endpointUrl, { method: 'POST', body })
          .then((res) => res.arrayBuffer())
          .catch(() => void failed++),
      );
      if (i % RATE === 0) load.sample();
    }
    const lastSent = performance.now();
    await Promise.all(answers);
    await new Promise((r) => setTimeout(r, 2000));
    ws.close();

    const latencies: number[] = [];
    for (let i = 0; i < total; i++) {
      const chat = chatOfRef.get(i);
      const at = chat === undefined ? undefined : offeredAt.get(chat);
      if (at !== undefined) latencies.push(at - sentAt[i]);
    }
    latencies.sort((a, b) => a - b);
    const doubled = [...firstSteps.values()].filter((n) => n > 1).length;
    return { db, chats: total, sentRate: total / ((lastSent - started) / 1000), latencies, missing: total - latencies.length, doubled, failed };
  } finally {
    await server.stop();
    await cleanup(server);
  }
}

export async function runRoutingBench(dbs: Db[]): Promise<void> {
  const rows: RoutingRow[] = [];
  const load = new LoadWatch();
  for (const db of dbs) {
    process.stderr.write(`routing benchmark on ${db}…\n`);
    rows.push(await benchRouting(db, load));
  }
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const setup = (db: Db) => (db === 'postgres' ? 'PostgreSQL + Redis hub' : 'SQLite, in-process hub');
  writeSection(
    'routing',
    `## Routing: offers to 200 agents (issue 21)

${today()} — ${machineLine()}; ${load.line()}. ${AGENTS} Online agents of one account (written into the store as Online; no sockets of their own), assignment mode least busy, no limits; ${RATE} new chats per second for ${SECONDS} s, each the first message of a new chat-channel visitor, sent open-loop. Latency = the POST sent → the chat's \`chat.offered\` frame on the admin's stream socket (the offered agent's socket gets the same frame from the same relay and hub), so it includes the request, the chat's transaction with the assignment query, the relay and the hub. Goal (issue 21): 100 new chats per second across 200 online agents, p99 ≤ ${GOAL_MS} ms.

| setup | new chats | sent per second | offer latency p50 / p99 | never offered | offered twice at the first step | POSTs unanswered |
|---|---|---|---|---|---|---|
${rows.map((r) => `| ${setup(r.db)} | ${r.chats} | ${r.sentRate.toFixed(0)} | ${ms(percentile(r.latencies, 50))} / ${ms(percentile(r.latencies, 99))} | ${r.missing} | ${r.doubled} | ${r.failed} |`).join('\n')}`,
  );
  for (const r of rows) {
    const p99 = percentile(r.latencies, 99);
    recordGoal({
      key: `routing-${r.db}`,
      benchmark: `#21: Routing, 100 new chats/s across 200 online agents (${setup(r.db)})`,
      goal: `p99 offer latency ≤ ${GOAL_MS} ms`,
      measured: `p99 ${ms(p99)} (p50 ${ms(percentile(r.latencies, 50))})${r.missing ? `, ${r.missing} never offered` : ''}`,
      met: p99 <= GOAL_MS && r.missing === 0 && r.doubled === 0,
    });
  }
}
