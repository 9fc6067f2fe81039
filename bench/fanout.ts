/**
 * Fan-out latency (issue 8): one event to N agent stream sockets (N = 100,
 * 1,000), all of one account. Each event is a visitor message POSTed to the
 * chat channel; its latency at a socket is POST sent → `message.created`
 * frame received. Reported per N: p50 / p99 over every (socket, event) pair,
 * and p50 / p99 of the time until the last socket had the event. SQLite runs
 * the in-process hub; PostgreSQL runs with REDIS_URL (the scale-out hub).
 */
import WebSocket from 'ws';
import { MIX, realBodies, REF_PATTERN, refOf } from './lib/bodies.js';
import { LoadWatch, machineLine, today } from './lib/machine.js';
import { percentile, recordGoal, writeSection } from './lib/report.js';
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
  n: number;
  all: number[];
  last: number[];
  missing: number;
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

async function benchFanout(db: Db, load: LoadWatch): Promise<FanoutRow[]> {
  const server = await startParley({ db, env: db === 'postgres' ? { REDIS_URL } : {} });
  const rows: FanoutRow[] = [];
  try {
    const { token, endpointUrl } = await chatApiSetup(server.base, { name: 'fanout', online: false });
    for (const n of SIZES) {
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
        const batch = await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => openSocket(`${server.ws}/api/v1/stream?token=${token}`, onFrame)));
        sockets.push(...batch);
      }
      await new Promise((r) => setTimeout(r, 500));
      load.sample();
      const tag = `fan${n}-`;
      const bodies = realBodies({ tag, senders: { pool: 5 } });
      for (let e = 0; e < EVENTS; e++) {
        const body = bodies(e);
        sentAt.set(refOf(tag, e), performance.now());
        await fetch(endpointUrl, { method: 'POST', body });
        await new Promise((r) => setTimeout(r, GAP_MS));
      }
      await new Promise((r) => setTimeout(r, 1000));
      const all = [...seen.values()].flat().sort((a, b) => a - b);
      const last = [...seen.values()].map((l) => Math.max(...l)).sort((a, b) => a - b);
      const missing = EVENTS * n - all.length;
      rows.push({ db, n, all, last, missing });
      await Promise.all(
        sockets.map(
          (ws) =>
            new Promise<void>((resolve) => {
              ws.once('close', () => resolve());
              ws.close();
            }),
        ),
      );
    }
  } finally {
    await server.stop();
    await cleanup(server);
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

| setup | sockets | every socket: p50 / p99 | last socket of an event: p50 / p99 | frames missing |
|---|---|---|---|---|
${rows.map((r) => `| ${hub(r.db)} | ${r.n} | ${ms(percentile(r.all, 50))} / ${ms(percentile(r.all, 99))} | ${ms(percentile(r.last, 50))} / ${ms(percentile(r.last, 99))} | ${r.missing} |`).join('\n')}`,
  );
  for (const r of rows) {
    const goal = r.n === GOAL_SOCKETS;
    const p99 = percentile(r.all, 99);
    recordGoal({
      key: `fanout-${r.db}-${r.n}`,
      benchmark: `${goal ? '#23 goal 4: ' : ''}Fan-out, one event to ${r.n} agent sockets (${hub(r.db)})`,
      goal: goal ? `p99 ≤ ${GOAL_MS} ms` : 'p50 / p99',
      measured: `${goal ? `p99 ${ms(p99)} (p50 ${ms(percentile(r.all, 50))})` : `${ms(percentile(r.all, 50))} / ${ms(p99)}`}${r.missing ? `, ${r.missing} frames missing` : ''}`,
      met: goal ? p99 <= GOAL_MS && r.missing === 0 : null,
    });
  }
}
