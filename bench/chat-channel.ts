/**
 * Chat-channel inbound benchmark (issue 3): the built Parley runs as its own
 * process, an agent stream is connected, and visitors' messages are POSTed to
 * the channel endpoint. Measured in the same run:
 *   - max msgs/s (closed loop) of Parley vs a bare Fastify + one insert
 *     endpoint on the same store (bench/bare-server.ts), as a ratio; on
 *     PostgreSQL also vs the bare SQLite endpoint, the machine's floor;
 *   - at a fixed 1,000 msg/s (open loop): POST latency and POST-to-agent-frame
 *     latency, p50/p99, and frames lost.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import WebSocket from 'ws';
import { closedLoop, openLoop, type LoadResult } from './lib/load.js';
import { machineLine, today } from './lib/machine.js';
import { percentile, recordGoal, writeSection } from './lib/report.js';
import { dropPostgresSchema } from '../server/db/database.js';
import { chatApiSetup, cleanup, cpuMs, freePort, PG_URL, ROOT, startParley, waitReady, type Db } from './lib/server.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const RATE = Number(process.env.BENCH_RATE ?? 1000);

const body = (prefix: string) => (n: number) =>
  JSON.stringify({ sender: { id: `visitor-${n % 200}`, name: `Visitor ${n % 200}` }, message: { type: 'text', text: `${prefix}-${n}` } });

export interface ChatChannelResult {
  row: string;
  /** Closed-loop msgs/s of Parley. */
  rate: number;
  /** Parley's closed-loop rate over the bare Fastify + one insert baseline's on the same store, same run. */
  ratio: number;
  /** On PostgreSQL: Parley's rate over the bare endpoint on SQLite, same run. */
  ratioToSqlite: number | null;
  /** Server CPU time (user + system) per message in the closed loop, in µs. */
  cpuUsPerMessage: number;
  frameP99: number;
}

export async function benchChatChannel(db: Db): Promise<ChatChannelResult> {
  const parley = await startParley({ db });
  const startBare = async (onPostgres: boolean) => {
    const port = await freePort();
    const args = [String(port), parley.dataDir, ...(onPostgres ? [PG_URL, `${parley.schema}_bare`] : [])];
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/bare-server.ts'), ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    return { url: `http://127.0.0.1:${port}/bare`, child };
  };
  const bares = [await startBare(db === 'postgres')];
  if (db === 'postgres') bares.push(await startBare(false));
  const bareMax = async (url: string) => {
    await waitReady(url).catch(() => undefined);
    await closedLoop(url, body('warm'), { concurrency: 16, seconds: 1 });
    return closedLoop(url, body('bare'), { concurrency: 32, seconds: SECONDS });
  };
  try {
    const base = parley.base;
    const { token, endpointUrl: target } = await chatApiSetup(base, { name: 'bench' });

    // The agent's stream: POST-to-frame latency is read from message.created frames.
    const sentAt = new Map<string, number>();
    const frameLatencies: number[] = [];
    const ws = new WebSocket(`${parley.ws}/api/v1/stream?token=${token}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.on('message', (raw) => {
      const frame = JSON.parse(raw.toString()) as { type: string; data?: { message?: { text?: string } } };
      const text = frame.type === 'message.created' ? frame.data?.message?.text : undefined;
      const t0 = text ? sentAt.get(text) : undefined;
      if (text && t0 !== undefined) {
        frameLatencies.push(performance.now() - t0);
        sentAt.delete(text);
      }
    });

    await closedLoop(target, body('warm'), { concurrency: 16, seconds: 2 });
    const cpuBefore = cpuMs(parley.pid);
    const parleyMax = await closedLoop(target, body('max'), { concurrency: 32, seconds: SECONDS });
    const cpuUsPerMessage = ((cpuMs(parley.pid) - cpuBefore) * 1000) / Math.max(1, parleyMax.ok);

    // The fixed rate before the baselines: their inserts (and the store's work after them: WAL, vacuum) would land in it.
    await new Promise((r) => setTimeout(r, 1000));
    frameLatencies.length = 0;
    const fixed = await openLoop(target, body('rate'), { rate: RATE, seconds: SECONDS, onSend: (n, at) => sentAt.set(`rate-${n}`, at) });
    await new Promise((r) => setTimeout(r, 2000));
    ws.close();

    const [bareSame, bareSqlite] = [await bareMax(bares[0]!.url), bares[1] ? await bareMax(bares[1].url) : null];
    const frames = frameLatencies.sort((a, b) => a - b);
    return {
      row: report(db, parleyMax, bareSame, bareSqlite, fixed, frames, sentAt.size, cpuUsPerMessage),
      rate: parleyMax.ok / parleyMax.seconds,
      ratio: parleyMax.ok / parleyMax.seconds / (bareSame.ok / bareSame.seconds),
      ratioToSqlite: bareSqlite ? parleyMax.ok / parleyMax.seconds / (bareSqlite.ok / bareSqlite.seconds) : null,
      cpuUsPerMessage,
      frameP99: percentile(frames, 99),
    };
  } finally {
    for (const { child } of bares) {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    if (parley.schema) await dropPostgresSchema(PG_URL, `${parley.schema}_bare`).catch(() => undefined);
    await parley.stop();
    await cleanup(parley);
  }
}

function report(db: string, parley: LoadResult, bare: LoadResult, bareSqlite: LoadResult | null, fixed: LoadResult, frames: number[], lost: number, cpuUs: number): string {
  const rate = (r: LoadResult) => r.ok / r.seconds;
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const toSqlite = bareSqlite ? `${rate(bareSqlite).toFixed(0)} (${(rate(parley) / rate(bareSqlite)).toFixed(2)})` : '(same)';
  return `| ${db} | ${rate(parley).toFixed(0)} | ${cpuUs.toFixed(0)} µs | ${rate(bare).toFixed(0)} | **${(rate(parley) / rate(bare)).toFixed(2)}** | ${toSqlite} | ${ms(percentile(fixed.latencies, 50))} / ${ms(percentile(fixed.latencies, 99))} | ${ms(percentile(frames, 50))} / ${ms(percentile(frames, 99))} | ${fixed.errors + parley.errors} | ${lost} |`;
}

export async function runChatChannelBench(dbs: Db[]): Promise<void> {
  const results: Array<ChatChannelResult & { db: Db }> = [];
  for (const db of dbs) {
    process.stderr.write(`chat-channel benchmark on ${db}…\n`);
    results.push({ db, ...(await benchChatChannel(db)) });
  }
  writeSection(
    'chat-channel',
    `## Chat channel inbound (issue 3)

${today()} — ${machineLine()}. Parley (built, \`node dist/server/main.js\`) and the bare baseline each run as their own process; the load generator is a third. Closed loop: 32 requests in flight for ${SECONDS} s; the server's CPU time (user + system, from /proc) per message in that loop is the figure least disturbed by other load on the machine. Fixed rate: ${RATE} msg/s for ${SECONDS} s from 200 visitors, one agent stream connected. The baseline is a bare Fastify endpoint doing one insert into the same store (on PostgreSQL: one autocommitted INSERT through a pool of 10, as Parley's); on PostgreSQL the bare SQLite endpoint is measured too, the machine's floor, and Parley's ratio to it shown beside. Goal: ratio ≥ 0.5, frame p99 ≤ 15 ms at 1,000 msg/s.

| store | Parley msgs/s | server CPU / msg | bare Fastify + 1 insert, same store, req/s | ratio | bare on SQLite, req/s (ratio) | POST latency p50 / p99 @ ${RATE}/s | POST → agent frame p50 / p99 | errors | frames lost |
|---|---|---|---|---|---|---|---|---|---|
${results.map((r) => r.row).join('\n')}`,
  );
  for (const r of results) {
    recordGoal({ key: `chat-channel-rate-${r.db}`, benchmark: `Chat channel inbound, closed loop (${r.db})`, goal: '—', measured: `${r.rate.toFixed(0)} msg/s (${r.cpuUsPerMessage.toFixed(0)} µs CPU/msg)`, met: null });
    recordGoal({ key: `chat-channel-ratio-${r.db}`, benchmark: `Chat channel msgs/s ÷ bare Fastify + 1 insert, same store (${r.db})`, goal: '≥ 0.5', measured: r.ratio.toFixed(2) + (r.ratioToSqlite === null ? '' : ` (${r.ratioToSqlite.toFixed(2)} of bare SQLite)`), met: r.ratio >= 0.5 });
    recordGoal({ key: `chat-channel-p99-${r.db}`, benchmark: `POST → agent frame p99 at ${RATE} msg/s (${r.db})`, goal: '≤ 15 ms', measured: `${r.frameP99.toFixed(1)} ms`, met: r.frameP99 <= 15 });
  }
}
