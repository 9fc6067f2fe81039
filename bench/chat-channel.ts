/**
 * Chat-channel inbound benchmark (issue 3): the built Parley runs as its own
 * process, an agent stream is connected, and visitors' messages are POSTed to
 * the channel endpoint. Measured in the same run:
 *   - max msgs/s (closed loop) of Parley vs a bare Fastify + one insert
 *     endpoint on the same store (bench/bare-server.ts), as a ratio; on
 *     PostgreSQL also vs the bare SQLite endpoint, the machine's floor; the
 *     closed loops take turns for a few rounds and the medians are reported;
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
import { wsText } from '../server/lib/wsText.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Closed-loop rounds (Parley, then each baseline) and the length of each run in them. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 4);
const RATE = Number(process.env.BENCH_RATE ?? 1000);

const body = (prefix: string) => (n: number) =>
  JSON.stringify({ sender: { id: `visitor-${n % 200}`, name: `Visitor ${n % 200}` }, message: { type: 'text', text: `${prefix}-${n}` } });

export interface ChatChannelResult {
  row: string;
  /** Closed-loop msgs/s of Parley (median of the rounds). */
  rate: number;
  /** Parley's closed-loop rate over the bare Fastify + one insert baseline's on the same store: the median of the rounds' ratios. */
  ratio: number;
  /** Each round's ratio, ascending. */
  ratios: number[];
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
  try {
    const base = parley.base;
    const { token, endpointUrl: target } = await chatApiSetup(base, { name: 'bench' });

    // The agent's stream: POST-to-frame latency is read from message.created frames.
    const sentAt = new Map<string, number>();
    const frameLatencies: number[] = [];
    const ws = new WebSocket(`${parley.ws}/api/v1/stream?token=${token}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.on('message', (raw) => {
      const frame = JSON.parse(wsText(raw)) as { type: string; data?: { message?: { text?: string } } };
      const text = frame.type === 'message.created' ? frame.data?.message?.text : undefined;
      const t0 = text ? sentAt.get(text) : undefined;
      if (text && t0 !== undefined) {
        frameLatencies.push(performance.now() - t0);
        sentAt.delete(text);
      }
    });
    await closedLoop(target, body('warm'), { concurrency: 16, seconds: 2 });

    // The fixed rate first: the baselines' inserts (and the store's work after them: WAL, vacuum) would land in it.
    await new Promise((r) => setTimeout(r, 1000));
    frameLatencies.length = 0;
    const fixed = await openLoop(target, body('rate'), { rate: RATE, seconds: SECONDS, onSend: (n, at) => sentAt.set(`rate-${n}`, at) });
    await new Promise((r) => setTimeout(r, 2000));
    ws.close();

    // Closed loops: Parley and the baselines take turns for ROUNDS rounds, so a drift of this shared
    // machine hits all of them; the medians are reported, and the ratios' range beside.
    for (const bare of bares) {
      await waitReady(bare.url).catch(() => undefined);
      await closedLoop(bare.url, body('warm'), { concurrency: 16, seconds: 1 });
    }
    const rounds: Round[] = [];
    let cpu = 0;
    let parleyOk = 0;
    let errors = fixed.errors;
    for (let r = 0; r < ROUNDS; r++) {
      const cpuBefore = cpuMs(parley.pid);
      const p = await closedLoop(target, body(`max${r}-`), { concurrency: 32, seconds: ROUND_SECONDS });
      cpu += cpuMs(parley.pid) - cpuBefore;
      parleyOk += p.ok;
      errors += p.errors;
      const same = await closedLoop(bares[0].url, body('bare'), { concurrency: 32, seconds: ROUND_SECONDS });
      const sqlite = bares[1] ? await closedLoop(bares[1].url, body('bare'), { concurrency: 32, seconds: ROUND_SECONDS }) : null;
      rounds.push({ parley: perSecond(p), bare: perSecond(same), bareSqlite: sqlite ? perSecond(sqlite) : null });
    }
    const frames = frameLatencies.sort((a, b) => a - b);
    const cpuUsPerMessage = (cpu * 1000) / Math.max(1, parleyOk);
    const ratios = rounds.map((r) => r.parley / r.bare).sort((a, b) => a - b);
    const sqliteRatios = bares[1] ? rounds.map((r) => r.parley / r.bareSqlite!).sort((a, b) => a - b) : null;
    const result = {
      rate: median(rounds.map((r) => r.parley)),
      bare: median(rounds.map((r) => r.bare)),
      bareSqlite: bares[1] ? median(rounds.map((r) => r.bareSqlite!)) : null,
      ratio: median(ratios),
      ratios,
      ratioToSqlite: sqliteRatios ? median(sqliteRatios) : null,
      cpuUsPerMessage,
      frameP99: percentile(frames, 99),
    };
    return { ...result, row: report(db, result, fixed, frames, sentAt.size, errors) };
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

interface Round {
  parley: number;
  bare: number;
  bareSqlite: number | null;
}

const perSecond = (r: LoadResult): number => r.ok / r.seconds;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function report(
  db: string,
  r: { rate: number; bare: number; bareSqlite: number | null; ratio: number; ratios: number[]; ratioToSqlite: number | null; cpuUsPerMessage: number },
  fixed: LoadResult,
  frames: number[],
  lost: number,
  errors: number,
): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const range = `${r.ratios[0].toFixed(2)}–${r.ratios[r.ratios.length - 1].toFixed(2)}`;
  const toSqlite = r.bareSqlite !== null && r.ratioToSqlite !== null ? `${r.bareSqlite.toFixed(0)} (${r.ratioToSqlite.toFixed(2)})` : '(same)';
  return `| ${db} | ${r.rate.toFixed(0)} | ${r.cpuUsPerMessage.toFixed(0)} µs | ${r.bare.toFixed(0)} | **${r.ratio.toFixed(2)}** (${range}) | ${toSqlite} | ${ms(percentile(fixed.latencies, 50))} / ${ms(percentile(fixed.latencies, 99))} | ${ms(percentile(frames, 50))} / ${ms(percentile(frames, 99))} | ${errors} | ${lost} |`;
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

${today()} — ${machineLine()}. Parley (built, \`node dist/server/main.js\`) and the bare baseline each run as their own process; the load generator is a third. Closed loop: 32 requests in flight, Parley and the baselines taking turns for ${ROUNDS} rounds of ${ROUND_SECONDS} s each (this shared machine drifts, so each round's ratio is taken and the median reported, the rounds' range beside it); the server's CPU time (user + system, from /proc) per message in that loop is the figure least disturbed by other load on the machine. Fixed rate: ${RATE} msg/s for ${SECONDS} s from 200 visitors, one agent stream connected. The baseline is a bare Fastify endpoint doing one insert into the same store (on PostgreSQL: one autocommitted INSERT through a pool of 10, as Parley's); on PostgreSQL the bare SQLite endpoint is measured too, the machine's floor, and Parley's ratio to it shown beside. Goal: ratio ≥ 0.5, frame p99 ≤ 15 ms at 1,000 msg/s.

| store | Parley msgs/s (median) | server CPU / msg | bare Fastify + 1 insert, same store, req/s (median) | ratio (median, range) | bare on SQLite, req/s (ratio) | POST latency p50 / p99 @ ${RATE}/s | POST → agent frame p50 / p99 | errors | frames lost |
|---|---|---|---|---|---|---|---|---|---|
${results.map((r) => r.row).join('\n')}`,
  );
  for (const r of results) {
    recordGoal({
      key: `chat-channel-rate-${r.db}`,
      benchmark: `Chat channel inbound, closed loop (${r.db})`,
      goal: '—',
      measured: `${r.rate.toFixed(0)} msg/s (${r.cpuUsPerMessage.toFixed(0)} µs CPU/msg)`,
      met: null,
    });
    recordGoal({
      key: `chat-channel-ratio-${r.db}`,
      benchmark: `Chat channel msgs/s ÷ bare Fastify + 1 insert, same store (${r.db})`,
      goal: '≥ 0.5',
      measured: `${r.ratio.toFixed(2)} (rounds ${r.ratios[0].toFixed(2)}–${r.ratios[r.ratios.length - 1].toFixed(2)})${r.ratioToSqlite === null ? '' : `; ${r.ratioToSqlite.toFixed(2)} of bare SQLite`}`,
      met: r.ratio >= 0.5,
    });
    recordGoal({
      key: `chat-channel-p99-${r.db}`,
      benchmark: `POST → agent frame p99 at ${RATE} msg/s (${r.db})`,
      goal: '≤ 15 ms',
      measured: `${r.frameP99.toFixed(1)} ms`,
      met: r.frameP99 <= 15,
    });
  }
}
