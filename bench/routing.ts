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
 *
 * BENCH_ROUTING_RUNS runs per store (2), taking turns, each followed by a
 * control run in manual mode (the same load, no routing; BENCH_ROUTING_CONTROL=0
 * leaves it out): beside the offer latency each row gives the message.created
 * frame, the POST's answer and the server's CPU per chat, so routing's share
 * is the difference from the control. BENCH_ROUTING_TRACE=1 prints where the
 * slow offers were; BENCH_ROUTING_PROF=<dir> has the server write a CPU
 * profile; BENCH_PRELOAD=<file.cjs> loads a module into the server first.
 */
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import WebSocket from 'ws';
import { LoadWatch, machineLine, today } from './lib/machine.js';
import { percentile, recordGoal, writeSection } from './lib/report.js';
import { ADMIN, chatApiSetup, cleanup, cpuMs, json, PG_URL, startParley, type Db } from './lib/server.js';
import { wsText } from '../server/lib/wsText.js';

const AGENTS = 200;
const RATE = 100;
const SECONDS = Number(process.env.BENCH_ROUTING_SECONDS ?? 10);
/** Runs per store, taking turns (sqlite, postgres, sqlite, …): one figure at a loaded machine says little. */
const RUNS = Number(process.env.BENCH_ROUTING_RUNS ?? 2);
const GOAL_MS = 50;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

type Mode = 'least_busy' | 'manual';

interface RoutingRow {
  db: Db;
  /** least_busy: the measured run; manual: the control (same load, no routing). */
  mode: Mode;
  run: number;
  /** The 1-minute load average before and after the run. */
  load: [number, number];
  chats: number;
  /** New chats per second the load actually sent. */
  sentRate: number;
  latencies: number[];
  /** POST sent → its answer (the chat's transaction committed), sorted. */
  answers: number[];
  /** POST sent → the chat's message.created frame (written in the same transaction as the offer), sorted. */
  messages: number[];
  /** The server's CPU time (user + system) over the load, per new chat. */
  cpuPerChat: number;
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

/**
 * BENCH_ROUTING_TRACE=1: where the slow offers were, on stderr — latency per
 * second of the run (p50 / p99 / max), and the slowest chats with their POST's
 * answer time beside the frame's (a slow answer is the request or its
 * transaction; a quick answer and a late frame is the relay or the hub).
 */
function trace(db: Db, run: number, chats: Array<{ sent: number; answered?: number; offered?: number }>): void {
  const lines = [`routing trace, ${db} run ${run}:`];
  const bySecond = new Map<number, number[]>();
  for (const c of chats) {
    if (c.offered === undefined) continue;
    const second = Math.floor((c.sent - chats[0].sent) / 1000);
    bySecond.set(second, [...(bySecond.get(second) ?? []), c.offered - c.sent]);
  }
  for (const [second, values] of bySecond) {
    values.sort((a, b) => a - b);
    lines.push(
      `  second ${second}: p50 ${percentile(values, 50).toFixed(1)}  p99 ${percentile(values, 99).toFixed(1)}  max ${values[values.length - 1].toFixed(1)} ms`,
    );
  }
  const slowest = chats
    .map((c, i) => ({ i, c, l: c.offered === undefined ? Infinity : c.offered - c.sent }))
    .sort((a, b) => b.l - a.l)
    .slice(0, 12);
  for (const { i, c, l } of slowest) {
    lines.push(
      `  chat ${i} at ${((c.sent - chats[0].sent) / 1000).toFixed(2)} s: frame ${l.toFixed(1)} ms, answer ${c.answered === undefined ? '—' : (c.answered - c.sent).toFixed(1)} ms`,
    );
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}

async function benchRouting(db: Db, run: number, mode: Mode): Promise<RoutingRow> {
  const loadBefore = os.loadavg()[0];
  // BENCH_ROUTING_PROF=<dir>: the server writes a CPU profile there (summarize it with `npx tsx bench/profile.ts --file=…`).
  const prof = process.env.BENCH_ROUTING_PROF;
  const server = await startParley({
    db,
    env: db === 'postgres' ? { REDIS_URL } : {},
    nodeArgs: [...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []), ...(process.env.BENCH_PRELOAD ? ['--require', process.env.BENCH_PRELOAD] : [])],
  });
  try {
    const { token, endpointUrl } = await chatApiSetup(server.base, { name: 'routing', online: false });
    await addOnlineAgents(db, server);
    await json(`${server.base}/api/v1/routing`, { method: 'PUT', token, body: { mode, offer_timeout_seconds: 600 } });

    const offeredAt = new Map<number, number>();
    const firstSteps = new Map<number, number>();
    const chatOfRef = new Map<number, number>();
    const messageAt = new Map<number, number>();
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
          if (m && frame.chat_id !== undefined) {
            chatOfRef.set(Number(m[1]), frame.chat_id);
            messageAt.set(Number(m[1]), at);
          }
        }
      });
      socket.once('error', reject);
    });
    await new Promise((r) => setTimeout(r, 500));

    const total = RATE * SECONDS;
    const sentAt: number[] = [];
    const answeredAt: number[] = [];
    const answers: Array<Promise<unknown>> = [];
    let failed = 0;
    const cpu0 = cpuMs(server.pid);
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
          .then(() => (answeredAt[i] = performance.now()))
          .catch(() => void failed++),
      );
    }
    const lastSent = performance.now();
    await Promise.all(answers);
    const cpu = cpuMs(server.pid) - cpu0;
    await new Promise((r) => setTimeout(r, 2000));
    ws.close();

    const latencies: number[] = [];
    const answerTimes: number[] = [];
    const messageTimes: number[] = [];
    const chats: Array<{ sent: number; answered?: number; offered?: number }> = [];
    for (let i = 0; i < total; i++) {
      const chat = chatOfRef.get(i);
      const at = chat === undefined ? undefined : offeredAt.get(chat);
      if (at !== undefined) latencies.push(at - sentAt[i]);
      if (answeredAt[i] !== undefined) answerTimes.push(answeredAt[i] - sentAt[i]);
      const shown = messageAt.get(i);
      if (shown !== undefined) messageTimes.push(shown - sentAt[i]);
      chats.push({ sent: sentAt[i], answered: answeredAt[i], offered: at });
    }
    latencies.sort((a, b) => a - b);
    answerTimes.sort((a, b) => a - b);
    messageTimes.sort((a, b) => a - b);
    if (process.env.BENCH_ROUTING_TRACE && mode !== 'manual') trace(db, run, chats);
    const doubled = [...firstSteps.values()].filter((n) => n > 1).length;
    return {
      db,
      mode,
      run,
      load: [loadBefore, os.loadavg()[0]],
      chats: total,
      sentRate: total / ((lastSent - started) / 1000),
      latencies,
      answers: answerTimes,
      messages: messageTimes,
      cpuPerChat: cpu / total,
      missing: mode === 'manual' ? 0 : total - latencies.length,
      doubled,
      failed,
    };
  } finally {
    await server.stop();
    await cleanup(server);
  }
}

/** BENCH_ROUTING_CONTROL=0 leaves out the manual control runs. */
const CONTROL = process.env.BENCH_ROUTING_CONTROL !== '0';

export async function runRoutingBench(dbs: Db[]): Promise<void> {
  const rows: RoutingRow[] = [];
  const load = new LoadWatch();
  const modes: Mode[] = CONTROL ? ['least_busy', 'manual'] : ['least_busy'];
  for (let run = 1; run <= RUNS; run++) {
    for (const db of dbs) {
      for (const mode of modes) {
        process.stderr.write(`routing benchmark on ${db}, ${mode}, run ${run} of ${RUNS}…\n`);
        load.sample();
        rows.push(await benchRouting(db, run, mode));
      }
    }
  }
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const setup = (db: Db) => (db === 'postgres' ? 'PostgreSQL + Redis hub' : 'SQLite, in-process hub');
  const loadOf = (r: RoutingRow) => `${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}`;
  const pair = (values: number[]) => `${ms(percentile(values, 50))} / ${ms(percentile(values, 99))}`;
  writeSection(
    'routing',
    `## Routing: offers to 200 agents (issue 21)

${today()} — ${machineLine()}; ${load.line()}. ${AGENTS} Online agents of one account (written into the store as Online; no sockets of their own), assignment mode least busy, no limits; ${RATE} new chats per second for ${SECONDS} s, each the first message of a new chat-channel visitor, sent open-loop; ${RUNS} run${RUNS === 1 ? '' : 's'} per store, taking turns${CONTROL ? ', each followed by a **control** run in manual mode (the same load, no routing at all)' : ''}. Latency = the POST sent → the chat's \`chat.offered\` frame on the admin's stream socket (the offered agent's socket gets the same frame from the same relay and hub), so it includes the request, the chat's transaction with the assignment query, the relay and the hub. Beside it: the chat's \`message.created\` frame (written in the same transaction, so what the control's figure compares with), the POST's answer (sent → answered, after the commit) and the server's CPU time per new chat. Goal (issue 21): 100 new chats per second across 200 online agents, p99 ≤ ${GOAL_MS} ms.

| setup | mode | run | load (1 min, before → after) | sent per second | offer latency p50 / p99 / max | message frame p50 / p99 | POST answered p50 / p99 | server CPU per chat | never offered | offered twice at the first step | POSTs unanswered |
|---|---|---|---|---|---|---|---|---|---|---|---|
${rows
  .map((r) =>
    [
      setup(r.db),
      r.mode === 'manual' ? 'manual (control)' : 'least busy',
      r.run,
      loadOf(r),
      r.sentRate.toFixed(0),
      r.mode === 'manual' ? '—' : `${pair(r.latencies)} / ${ms(r.latencies[r.latencies.length - 1] ?? NaN)}`,
      pair(r.messages),
      pair(r.answers),
      `${r.cpuPerChat.toFixed(2)} ms`,
      r.mode === 'manual' ? '—' : r.missing,
      r.mode === 'manual' ? '—' : r.doubled,
      r.failed,
    ].join(' | '),
  )
  .map((line) => `| ${line} |`)
  .join('\n')}`,
  );
  for (const db of dbs) {
    const mine = rows.filter((r) => r.db === db && r.mode !== 'manual');
    if (mine.length === 0) continue;
    const p99s = mine.map((r) => percentile(r.latencies, 99));
    const missing = mine.reduce((n, r) => n + r.missing, 0);
    recordGoal({
      key: `routing-${db}`,
      benchmark: `#21: Routing, 100 new chats/s across 200 online agents (${setup(db)})`,
      goal: `p99 offer latency ≤ ${GOAL_MS} ms`,
      measured: `p99 ${mine.map((r) => `${ms(percentile(r.latencies, 99))} (p50 ${ms(percentile(r.latencies, 50))}, load ${loadOf(r)})`).join('; ')}${missing ? `, ${missing} never offered` : ''}`,
      // Met only when every run met it.
      met: p99s.every((p) => p <= GOAL_MS) && mine.every((r) => r.missing === 0 && r.doubled === 0),
    });
  }
}
