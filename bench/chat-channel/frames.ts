/**
 * POST → agent stream frame latency (issue 23, goal 3): a fresh Parley with
 * one agent stream connected; messages from a pool of senders whose
 * conversations are open already, matched to their `message.created` frame:
 *   - sequential: one message at a time, the next sent once the last one's
 *     frame and answer came;
 *   - fixed rate: RATE msg/s for SECONDS s (an open loop: sent on time
 *     whatever the answers), with the POSTs' own latency beside.
 * Then the same against the rows baseline (bench/rows-server.ts), whose /ws
 * sockets get each commit's outbox event: the floor of this machine.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { AgentFrames } from '../lib/agentFrames.js';
import { startBaseline } from '../lib/baselines.js';
import { realBodies, refOf } from '../lib/bodies.js';
import { closedLoop, openLoop, post } from '../lib/load.js';
import type { LoadWatch } from '../lib/machine.js';
import { chatApiSetup, cleanup, startParley, type Db } from '../lib/server.js';

export const RATE = Number(process.env.BENCH_RATE ?? 1000);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
export const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 1000);
const POOL = 500;
const FRAME_TIMEOUT_MS = 5000;

export interface FramesResult {
  db: Db;
  /** Parley, or the rows baseline (bench/rows-server.ts: commit, then the frame to its sockets): the floor. */
  server: 'parley' | 'rows';
  /** POST → frame, ms, ascending. */
  sequential: number[];
  sequentialLost: number;
  /** At RATE msg/s: POST → frame and POST → answer, ms, ascending. */
  frames: number[];
  posts: number[];
  lost: number;
  errors: number;
}

const ascending = (xs: number[]) => [...xs].sort((a, b) => a - b);

/** Parley, then the rows baseline on the same store with the same sequence. */
export async function benchFrames(db: Db, load: LoadWatch): Promise<FramesResult[]> {
  const results: FramesResult[] = [];
  const parley = await startParley({ db });
  try {
    const { token, endpointUrl } = await chatApiSetup(parley.base, { name: 'bench' });
    results.push(await measureFrames(db, 'parley', endpointUrl, await AgentFrames.open(parley.ws, token), load));
  } finally {
    await parley.stop();
    await cleanup(parley);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-frames-rows-'));
  const baseline = await startBaseline('rows', db, dir, `frames_${process.pid}`);
  try {
    const socketUrl = `${baseline.url.replace(/^http/, 'ws').replace(/\/rows\/1$/, '')}/ws`;
    results.push(await measureFrames(db, 'rows', baseline.url, await AgentFrames.openUrl(socketUrl), load));
  } finally {
    await baseline.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

async function measureFrames(db: Db, server: FramesResult['server'], endpointUrl: string, stream: AgentFrames, load: LoadWatch): Promise<FramesResult> {
  const pool = { pool: POOL };
  await closedLoop(endpointUrl, realBodies({ tag: 'warm-', senders: pool }), { concurrency: 50, seconds: 60, count: 2 * POOL });
  await new Promise((r) => setTimeout(r, 1000));
  stream.reset();
  load.sample();

  const seqBodies = realBodies({ tag: 'seq-', senders: pool });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(endpointUrl);
  let errors = 0;
  for (let n = 0; n < SEQUENTIAL; n++) {
    const body = seqBodies(n);
    stream.expect(refOf('seq-', n), performance.now());
    const [status] = await Promise.all([post(agent, url, body), stream.arrival(refOf('seq-', n), FRAME_TIMEOUT_MS)]);
    if (status !== 200) errors++;
  }
  agent.destroy();
  const sequential = ascending(stream.latencies);
  const sequentialLost = stream.lost;
  stream.reset();
  await new Promise((r) => setTimeout(r, 1000));
  load.sample();

  const fixed = await openLoop(endpointUrl, realBodies({ tag: 'rate-', senders: pool }), {
    rate: RATE,
    seconds: SECONDS,
    onSend: (n, at) => stream.expect(refOf('rate-', n), at),
  });
  await new Promise((r) => setTimeout(r, 2000));
  load.sample();
  stream.close();
  return {
    db,
    server,
    sequential,
    sequentialLost,
    frames: ascending(stream.latencies),
    posts: fixed.latencies,
    lost: stream.lost,
    errors: errors + fixed.errors,
  };
}
