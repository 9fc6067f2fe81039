/**
 * Fan-out latency (issue 8): one event to N agent stream sockets (N = 100,
 * 1,000), all of one account. Each event is a visitor message POSTed to the
 * chat channel; its latency at a socket is POST sent → `message.created`
 * frame received. Reported per N: p50 / p99 over every (socket, event) pair,
 * and p50 / p99 of the time until the last socket had the event; beside
 * Parley, the rows baseline (bench/rows-server.ts) with the same sockets and
 * bodies: the floor of this machine. SQLite runs
 * the in-process hub; PostgreSQL runs with REDIS_URL (the scale-out hub).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { MIX, realBodies, REF_PATTERN, refOf } from './lib/bodies.js';
import { LoadWatch, machineLine, today } from './lib/machine.js';
import { percentile, recordGoal, writeSection } from './lib/report.js';
import { startBaseline } from './lib/baselines.js';
import { chatApiSetup, cleanup, startParley, type Db } from './lib/server.js';
import { wsText } from '../server/lib/wsText.js';

const SIZES = [100, 1000];
const EVENTS = Number(process.env.BENCH_FANOUT_EVENTS ?? 40);
const GAP_MS = 150;
/** Issue 23, goal 4: one event to 1,000 agent sockets, p99 ≤ 50 ms. */
const GOAL_SOCKETS = 1000;
const GOAL_MS = 50;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface FanoutRow {
  db: Db;
  /** parley, or the rows baseline (bench/rows-server.ts: commit, then one frame to every socket): the floor. */
  server: 'parley' | 'rows';
  n: number;
  all: number[];
  last: number[];
  missing: number;
}

/** Where sockets connect and events are POSTed. */
interface Target {
  server: FanoutRow['server'];
  socketUrl: string;
  postUrl: string;
}

function openSocket(url: string, onFrame: (text: string, at: number) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on('message', (raw) => {
      const text = wsText(raw);
      if (text.includes('"ready"')) resolve(ws);
      else onFrame(text, performance.now());
    });
    ws.once('error', reject);
  });
}

/** N sockets on the target, EVENTS messages POSTed GAP_MS apart: every socket's latency of every event. */
async function measure(db: Db, target: Target, n: number, load: LoadWatch): Promise<FanoutRow> {
  const sentAt = new Map<string, number>();
  const seen = new Map<string, number[]>();
  const onFrame = (text: string, at: number): void => {
    const ref = REF_PATTERN.exec(text)?.[1];
    if (ref === undefined || !text.includes('"message.created"')) return;
    const t0 = sentAt.get(ref);
    if (t0 === undefined) return;
    const list = seen.get(ref) ?? [];
    list.push(at - t0);
    seen.set(ref, list);
  };
  const sockets: WebSocket[] = [];
  for (let i = 0; i < n; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => openSocket(target.socketUrl, onFrame)));
    sockets.push(...batch);
  }
  await new Promise((r) => setTimeout(r, 500));
  load.sample();
  const tag = `fan${target.server}${n}-`;
  const bodies = realBodies({ tag, senders: { pool: 5 } });
  for (let e = 0; e < EVENTS; e++) {
    const body = bodies(e);
    sentAt.set(refOf(tag, e), performance.now());
    await fetch(target.postUrl, { method: 'POST', body });
    await new Promise((r) => setTimeout(r, GAP_MS));
  }
  await new Promise((r) => setTimeout(r, 1000));
  const all = [...seen.values()].flat().sort((a, b) => a - b);
  const last = [...seen.values()].map((l) => Math.max(...l)).sort((a, b) => a - b);
  const missing = EVENTS * n - all.length;
  await Promise.all(
    sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          ws.once('close', () => resolve());
          ws.close();
        }),
    ),
  );
  return { db, server: target.server, n, all, last, missing };
}

async function benchFanout(db: Db, load: LoadWatch): Promise<FanoutRow[]> {
  const rows: FanoutRow[] = [];
  const server = await startParley({ db, env: db === 'postgres' ? { REDIS_URL } : {} });
  try {
    const { token, endpointUrl } = await chatApiSetup(server.base, { name: 'fanout', online: false });
    const target: Target = { server: 'parley', socketUrl: `${server.ws}/api/v1/stream?token=${token}`, postUrl: endpointUrl };
    for (const n of SIZES) rows.push(await measure(db, target, n, load));
  } finally {
    await server.stop();
    await cleanup(server);
  }
  // The floor on this machine: the rows baseline telling its sockets straight after the commit.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-fanout-rows-'));
  const baseline = await startBaseline('rows', db, dir, `fanout_${process.pid}`);
  try {
    const target: Target = { server: 'rows', socketUrl: `${baseline.url.replace(/^http/, 'ws').replace(/\/rows\/1$/, '')}/ws`, postUrl: baseline.url };
    for (const n of SIZES) rows.push(await measure(db, target, n, load));
  } finally {
    await baseline.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

export async function runFanoutBench(dbs: Db[]): Promise<void> {
  const rows: FanoutRow[] = [];
  const load = new LoadWatch();
  for (const db of dbs) {
    process.stderr.write(`fan-out benchmark on ${db}…\n`);
    rows.push(...(await benchFanout(db, load)));
  }
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const hub = (db: Db) => (db === 'postgres' ? 'PostgreSQL + Redis hub' : 'SQLite, in-process hub');
  writeSection(
    'fanout',
    `## Fan-out latency (issue 8)

${today()} — ${machineLine()}; ${load.line()}. N agent stream sockets of one account, held by the load process; ${EVENTS} visitor messages POSTed to the chat channel ${GAP_MS} ms apart, from 5 senders; latency = POST sent → \`message.created\` frame at a socket (so it includes the request, the commit, the relay and the hub). ${MIX}. Goal (issue 23, goal 4): one event to 1,000 sockets, p99 ≤ ${GOAL_MS} ms.

| setup | server | sockets | every socket: p50 / p99 | last socket of an event: p50 / p99 | frames missing |
|---|---|---|---|---|---|
${rows.map((r) => `| ${hub(r.db)} | ${r.server === 'parley' ? 'Parley' : 'rows baseline (floor)'} | ${r.n} | ${ms(percentile(r.all, 50))} / ${ms(percentile(r.all, 99))} | ${ms(percentile(r.last, 50))} / ${ms(percentile(r.last, 99))} | ${r.missing} |`).join('\n')}

The rows baseline (\`bench/rows-server.ts\`, the chat-channel benchmark's) writes the message's rows in one transaction, then sends its outbox event as one frame, serialized once, to every socket: the same client, machine and bodies, without a relay, a replay cursor or a per-socket filter. Its figures are what this machine gives a server that does nothing else: the floor under Parley's.`,
  );
  const floor = (r: FanoutRow) => rows.find((b) => b.server === 'rows' && b.db === r.db && b.n === r.n);
  for (const r of rows) {
    if (r.server !== 'parley') continue;
    const base = floor(r);
    const floorText = base ? `; the rows baseline's (floor) p99 ${ms(percentile(base.all, 99))}` : '';
    const goal = r.n === GOAL_SOCKETS;
    const p99 = percentile(r.all, 99);
    recordGoal({
      key: `fanout-${r.db}-${r.n}`,
      benchmark: `${goal ? '#23 goal 4: ' : ''}Fan-out, one event to ${r.n} agent sockets (${hub(r.db)})`,
      goal: goal ? `p99 ≤ ${GOAL_MS} ms` : 'p50 / p99',
      measured: `${goal ? `p99 ${ms(p99)} (p50 ${ms(percentile(r.all, 50))})` : `${ms(percentile(r.all, 50))} / ${ms(p99)}`}${r.missing ? `, ${r.missing} frames missing` : ''}${floorText}`,
      met: goal ? p99 <= GOAL_MS && r.missing === 0 : null,
    });
  }
}
