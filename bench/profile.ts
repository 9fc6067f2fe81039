/**
 * CPU profile of the built server under the chat-channel closed-loop load
 * (50 connections, one agent stream connected), with the bodies real clients
 * send (bench/lib/bodies.ts):
 *   npx tsx bench/profile.ts [--db=sqlite|postgres] [--scenario=new|existing] [--seconds=8]
 *   npx tsx bench/profile.ts --file=<profile.cpuprofile>   (summary only)
 * --scenario=new (the default): a new sender on every request, so every
 * message opens a visitor and a chat (issue 23's new-conversation path);
 * existing: senders from a pool of 500 whose chats are opened first.
 * --statements also counts the SQL statements per message, by kind
 * (bench/lib/countStatements.mjs): on PostgreSQL each is a round trip.
 * Runs `node --cpu-prof dist/server/main.js`, stops it with SIGTERM (the
 * profile is written at exit) and prints self and inclusive time per function
 * and per area (our code, kysely, the driver, fastify, …). The .cpuprofile is
 * kept for Chrome DevTools / speedscope. BENCH_PRELOAD=<file.cjs> loads a
 * module into the server first (`node --require`), e.g. one that times or
 * counts statements. --main=<path to main.js> profiles another build (an
 * A/B of two builds, run alternately). Not part of `npm run bench`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { realBodies } from './lib/bodies.js';
import { closedLoop } from './lib/load.js';
import { chatApiSetup, cleanup, cpuMs, postgresCpuMs, startParley, type Db } from './lib/server.js';
import { countStatements } from './lib/statements.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const db = (args.get('db') ?? 'sqlite') as Db;
const seconds = Number(args.get('seconds') ?? 8);
const scenario = args.get('scenario') ?? 'new';
if (scenario !== 'new' && scenario !== 'existing') throw new Error('--scenario is new or existing');
const POOL = 500;
const CONNECTIONS = 50;

function area(url: string, name: string): string {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)' || name === '(program)' || name === '(root)') return name;
  if (url.includes('/dist/server/')) return 'parley';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:') || url === '') return 'node internals';
  return url;
}

function label(f: CallFrame): string {
  const file = f.url.replace(/^.*\/(dist\/server\/|node_modules\/)/, '$1').replace(/^file:\/\//, '');
  return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
}

export function summarize(profile: CpuProfile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const areas = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    total += dt;
    self.set(label(node.callFrame), (self.get(label(node.callFrame)) ?? 0) + dt);
    areas.set(area(node.callFrame.url, node.callFrame.functionName), (areas.get(area(node.callFrame.url, node.callFrame.functionName)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (!n || !n.callFrame.url.includes('/dist/server/')) continue;
      const key = label(n.callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
  });
  const pct = (v: number) => `${((100 * v) / total).toFixed(1)}%`;
  const rows = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${pct(v).padStart(6)}  ${k}`)
      .join('\n');
  return [
    `total sampled: ${(total / 1e6).toFixed(1)} s`,
    'by area (self time):',
    rows(areas, 15),
    'top functions, self time:',
    rows(self, top),
    'our functions, inclusive time (callees included):',
    rows(inclusive, top),
  ].join('\n');
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-prof-'));
  const statements = args.has('statements') ? countStatements(dir) : null;
  const server = await startParley({
    db,
    main: args.get('main'),
    nodeArgs: [
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      ...(process.env.BENCH_PRELOAD ? ['--require', process.env.BENCH_PRELOAD] : []),
      ...(statements?.nodeArgs ?? []),
    ],
    env: statements?.env,
  });
  let messages: number;
  try {
    const { token, endpointUrl } = await chatApiSetup(server.base, { name: 'bench' });
    const ws = new WebSocket(`${server.ws}/api/v1/stream?token=${token}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    let frames = 0;
    ws.on('message', () => frames++);
    const senders = scenario === 'new' ? 'new' : { pool: POOL };
    if (scenario === 'existing')
      await closedLoop(endpointUrl, realBodies({ tag: 'warm-', senders }), { concurrency: CONNECTIONS, seconds: 60, count: 2 * POOL });
    const body = realBodies({ tag: 'prof-', senders });
    statements?.start(server.pid);
    const cpu0 = cpuMs(server.pid);
    const pg0 = db === 'postgres' ? postgresCpuMs() : 0;
    const result = await closedLoop(endpointUrl, body, { concurrency: CONNECTIONS, seconds });
    messages = result.ok;
    const perMsg = (ms: number) => `${((ms * 1000) / Math.max(1, result.ok)).toFixed(0)} µs`;
    const cpu = `server CPU ${perMsg(cpuMs(server.pid) - cpu0)}/msg${db === 'postgres' ? `, PostgreSQL CPU ${perMsg(postgresCpuMs() - pg0)}/msg` : ''}`;
    await new Promise((r) => setTimeout(r, 500));
    ws.close();
    process.stdout.write(
      `${db}, ${scenario === 'new' ? 'a new sender on every request' : `existing conversations (${POOL} senders)`}: ${(result.ok / result.seconds).toFixed(0)} msg/s, ${cpu}, ${result.errors} errors, ${frames} frames\n`,
    );
  } finally {
    await server.stop();
    await cleanup(server);
  }
  if (statements) process.stdout.write(`${statements.report(messages)}\n`);
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no .cpuprofile written');
  const keep = path.join(os.tmpdir(), `parley-${db}-${scenario}.cpuprofile`);
  fs.copyFileSync(path.join(dir, file), keep);
  fs.rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`${summarize(JSON.parse(fs.readFileSync(keep, 'utf8')) as CpuProfile)}\nprofile: ${keep}\n`);
}

// --file=<.cpuprofile>: only summarize a profile written elsewhere (BENCH_PROFILE of deliveries.ts, say).
const file = args.get('file');
if (file) process.stdout.write(`${summarize(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile)}\n`);
else await main();
