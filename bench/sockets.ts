/**
 * Idle widget sockets on one instance (issue 8): BENCH_SOCKETS (20,000) visitor
 * sockets (`/widget/ws/<widget_id>`, 100 visitors, every socket replayed and
 * `ready`) held by client processes of their own; the server's memory per
 * socket is its RSS growth (and V8 heap growth, from /metrics) divided by the
 * sockets. Every process asks for `ulimit -n 65536`; where the hard limit
 * cannot be raised, the server holds as many sockets as its limit leaves
 * room for, and the report says so. Goal: ≤ 16 KiB per socket.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { LoadWatch, machineLine, today } from './lib/machine.js';
import { recordGoal, writeSection } from './lib/report.js';
import { adminToken, cleanup, json, nofileOf, raiseNofile, ROOT, rssOf, startParley, type Db } from './lib/server.js';

const COUNT = Number(process.env.BENCH_SOCKETS ?? 20_000);
const VISITORS = 100;
const NOFILE = 65_536;
const GOAL_KIB = 16;
/** Open files the server needs besides the sockets (database, listener, Redis, logs …). */
const SERVER_FDS = 150;
/** Sockets per client process (each process is under the same limit). */
const PER_CLIENT = 10_000;

interface SocketsResult {
  db: Db;
  wanted: number;
  nofile: number;
  opened: number;
  failed: number;
  openMs: number;
  rssBefore: number;
  rssAfter: number;
  heapBefore: number;
  heapAfter: number;
}

async function heapUsed(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^parley_nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? NaN);
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function benchSockets(db: Db): Promise<SocketsResult> {
  const server = await startParley({ db, nofile: NOFILE });
  const nofile = nofileOf(server.pid);
  const wanted = Math.min(COUNT, nofile - SERVER_FDS);
  const clients = Array.from({ length: Math.ceil(wanted / PER_CLIENT) }, () =>
    spawn('bash', ['-c', `${raiseNofile(NOFILE)} exec "$0" "$@"`, process.execPath, '--import', 'tsx', path.join(ROOT, 'bench/lib/socketClients.ts')], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  try {
    const token = await adminToken(server.base);
    const widget = await json<{ widget_id: string }>(`${server.base}/api/v1/channels`, { method: 'POST', token, body: { type: 'widget', name: 'bench' } });
    const urls: string[] = [];
    for (let v = 0; v < VISITORS; v++) {
      const s = await json<{ visitor_token: string; cursor: number }>(`${server.base}/widget/api/${widget.widget_id}/session`, {
        method: 'POST',
        // One address per visitor, as real visitors have (the session limit is per address).
        headers: { 'x-forwarded-for': `198.18.${Math.floor(v / 250)}.${(v % 250) + 1}` },
        body: { page: { url: 'https://shop.example/', title: 'Shop' } },
      });
      urls.push(`${server.ws}/widget/ws/${widget.widget_id}?token=${encodeURIComponent(s.visitor_token)}&cursor=${s.cursor}`);
    }
    await settle(2000);
    const rssBefore = rssOf(server.pid);
    const heapBefore = await heapUsed(server.base);
    const answers = clients.map((child, i) => {
      const count = Math.min(PER_CLIENT, wanted - i * PER_CLIENT);
      const answer = new Promise<{ opened: number; failed: number; ms: number }>((resolve) =>
        readline.createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as { opened: number; failed: number; ms: number })),
      );
      child.stdin.write(`${JSON.stringify({ urls, count, concurrency: 50 })}\n`);
      return answer;
    });
    const done = await Promise.all(answers);
    await settle(3000);
    return {
      db,
      wanted,
      nofile,
      opened: done.reduce((n, a) => n + a.opened, 0),
      failed: done.reduce((n, a) => n + a.failed, 0),
      openMs: Math.max(...done.map((a) => a.ms)),
      rssBefore,
      rssAfter: rssOf(server.pid),
      heapBefore,
      heapAfter: await heapUsed(server.base),
    };
  } finally {
    for (const child of clients) child.stdin.end();
    await Promise.all(clients.map((c) => new Promise<void>((resolve) => (c.exitCode !== null ? resolve() : c.once('exit', () => resolve())))));
    await server.stop();
    await cleanup(server);
  }
}

function limitNote(results: SocketsResult[]): string {
  const limited = results.filter((r) => r.wanted < COUNT);
  if (limited.length === 0) return `the server ran with a limit of ${results[0]?.nofile ?? NOFILE} open files and held all ${COUNT.toLocaleString('en')}.`;
  const r = limited[0];
  return `here the hard limit is ${r.nofile.toLocaleString('en')} open files and may not be raised (no CAP_SYS_RESOURCE in this sandbox, root or not), so the server held ${r.wanted.toLocaleString('en')} sockets (its limit less ${SERVER_FDS} for its own files) instead of ${COUNT.toLocaleString('en')}; the figure per socket does not depend on the count.`;
}

export async function runSocketsBench(dbs: Db[]): Promise<void> {
  const results: SocketsResult[] = [];
  const load = new LoadWatch();
  for (const db of dbs) {
    process.stderr.write(`sockets benchmark on ${db}…\n`);
    results.push(await benchSockets(db));
  }
  const kib = (bytes: number) => (bytes / 1024).toFixed(1);
  const MiB = (bytes: number) => (bytes / 1024 ** 2).toFixed(0);
  const perSocket = (r: SocketsResult) => (r.rssAfter - r.rssBefore) / Math.max(1, r.opened);
  writeSection(
    'sockets',
    `## Idle widget sockets on one instance (issue 8)

${today()} — ${machineLine()}; ${load.line()}. Visitor sockets (\`/widget/ws/<widget_id>\`, ${VISITORS} visitors, each socket replayed and \`ready\`) opened 50 at a time per client process (${PER_CLIENT.toLocaleString('en')} sockets each), from 4 loopback source addresses. Every process asks for \`ulimit -n ${NOFILE}\`; ${limitNote(results)} Memory per socket = server RSS growth (3 s after the last socket was ready, no forced GC, so an upper bound) / sockets. Goal: ≤ ${GOAL_KIB} KiB per socket.

| store | sockets ready | failed | time to open all | server RSS before → after | RSS per socket | V8 heap per socket |
|---|---|---|---|---|---|---|
${results
  .map(
    (r) =>
      `| ${r.db} | ${r.opened} | ${r.failed} | ${(r.openMs / 1000).toFixed(1)} s | ${MiB(r.rssBefore)} → ${MiB(r.rssAfter)} MiB | **${kib(perSocket(r))} KiB** | ${kib((r.heapAfter - r.heapBefore) / Math.max(1, r.opened))} KiB |`,
  )
  .join('\n')}`,
  );
  for (const r of results) {
    recordGoal({
      key: `sockets-${r.db}`,
      benchmark: `${r.opened.toLocaleString('en')} idle widget sockets, memory per socket (${r.db})`,
      goal: `≤ ${GOAL_KIB} KiB`,
      measured: `${kib(perSocket(r))} KiB`,
      met: r.failed === 0 && perSocket(r) <= GOAL_KIB * 1024,
    });
  }
}
