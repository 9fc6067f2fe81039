/**
 * Chat-channel inbound benchmark (issue 3): the built Parley runs as its own
 * process, an agent stream is connected, and visitors' messages are POSTed to
 * the channel endpoint. Measured in the same run:
 *   - max msgs/s (closed loop) of Parley vs a bare Fastify + one SQLite insert
 *     endpoint (bench/bare-server.ts), as a ratio;
 *   - at a fixed 1,000 msg/s (open loop): POST latency and POST-to-agent-frame
 *     latency, p50/p99, and frames lost.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { closedLoop, openLoop, type LoadResult } from './lib/load.js';
import { machineLine, today } from './lib/machine.js';
import { percentile, writeSection } from './lib/report.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became ready`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function json(url: string, init: RequestInit & { token?: string } = {}): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
  });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

const body = (prefix: string) => (n: number) =>
  JSON.stringify({ sender: { id: `visitor-${n % 200}`, name: `Visitor ${n % 200}` }, message: { type: 'text', text: `${prefix}-${n}` } });

export async function benchChatChannel(db: 'sqlite' | 'postgres'): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    PUBLIC_URL: base,
    DATA_DIR: dir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
  };
  if (db === 'postgres') {
    env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    env.DATABASE_SCHEMA = `bench_${crypto.randomBytes(4).toString('hex')}`;
  }
  const parley = spawn(process.execPath, [path.join(ROOT, 'dist/server/main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const barePort = await freePort();
  const bare = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/bare-server.ts'), String(barePort), dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitReady(`${base}/healthz`);
    const { token } = (await json(`${base}/api/v1/auth/login`, { method: 'POST', body: JSON.stringify(ADMIN) })) as { token: string };
    await json(`${base}/api/v1/me/status`, { method: 'PUT', token, body: JSON.stringify({ status: 'online' }) });
    const channel = (await json(`${base}/api/v1/channels`, {
      method: 'POST',
      token,
      body: JSON.stringify({ type: 'chat_api', name: 'bench', webhook_url: 'https://customer.example.com/hook', chunked: false, agent_ids: [] }),
    })) as { endpoint_url: string };
    const target = channel.endpoint_url;

    // The agent's stream: POST-to-frame latency is read from message.created frames.
    const sentAt = new Map<string, number>();
    const frameLatencies: number[] = [];
    const ws = new WebSocket(`${base.replace('http', 'ws')}/api/v1/stream?token=${token}`);
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

    await waitReady(`http://127.0.0.1:${barePort}/bare`).catch(() => undefined);
    await closedLoop(target, body('warm'), { concurrency: 16, seconds: 2 });
    const parleyMax = await closedLoop(target, body('max'), { concurrency: 32, seconds: SECONDS });
    await closedLoop(`http://127.0.0.1:${barePort}/bare`, body('warm'), { concurrency: 16, seconds: 1 });
    const bareMax = await closedLoop(`http://127.0.0.1:${barePort}/bare`, body('bare'), { concurrency: 32, seconds: SECONDS });

    await new Promise((r) => setTimeout(r, 1000));
    frameLatencies.length = 0;
    const fixed = await openLoop(target, body('rate'), { rate: RATE, seconds: SECONDS, onSend: (n, at) => sentAt.set(`rate-${n}`, at) });
    await new Promise((r) => setTimeout(r, 2000));
    ws.close();
    return report(db, parleyMax, bareMax, fixed, frameLatencies.sort((a, b) => a - b), sentAt.size);
  } finally {
    await Promise.all([stop(parley), stop(bare)]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function report(db: string, parley: LoadResult, bare: LoadResult, fixed: LoadResult, frames: number[], lost: number): string {
  const rate = (r: LoadResult) => r.ok / r.seconds;
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  return [
    `| ${db} | ${rate(parley).toFixed(0)} | ${rate(bare).toFixed(0)} | **${(rate(parley) / rate(bare)).toFixed(2)}** | ${ms(percentile(fixed.latencies, 50))} / ${ms(percentile(fixed.latencies, 99))} | ${ms(percentile(frames, 50))} / ${ms(percentile(frames, 99))} | ${fixed.errors + parley.errors} | ${lost} |`,
  ].join('\n');
}

export async function runChatChannelBench(dbs: Array<'sqlite' | 'postgres'>): Promise<void> {
  const rows: string[] = [];
  for (const db of dbs) {
    process.stderr.write(`chat-channel benchmark on ${db}…\n`);
    rows.push(await benchChatChannel(db));
  }
  writeSection(
    'chat-channel',
    `## Chat channel inbound (issue 3)

${today()} — ${machineLine()}. Parley (built, \`node dist/server/main.js\`) and the bare baseline each run as their own process; the load generator is a third. Closed loop: 32 requests in flight for ${SECONDS} s. Fixed rate: ${RATE} msg/s for ${SECONDS} s from 200 visitors, one agent stream connected. Goal: ratio ≥ 0.5, frame p99 ≤ 15 ms at 1,000 msg/s.

| store | Parley msgs/s | bare Fastify + 1 insert, req/s | ratio | POST latency p50 / p99 @ ${RATE}/s | POST → agent frame p50 / p99 | errors | frames lost |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}`,
  );
}
