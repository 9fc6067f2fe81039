/**
 * Helpers of the scale-out tests: real Parley processes (`node
 * dist/server/main.js`, each in its own process group so a test can SIGKILL or
 * SIGSTOP one instance), a JSON client for their HTTP API, and a recording
 * receiver on 127.0.0.1 that can answer, fail or hold a request open and tells
 * when the sender's connection dies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { freePort, repoRoot } from '../process/serverProcess.js';

export interface Instance {
  readonly name: string;
  readonly child: ChildProcess;
  readonly base: string;
  readonly ws: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  /** A signal to the instance's process group (SIGKILL, SIGSTOP, SIGCONT, SIGTERM). */
  signal(signal: NodeJS.Signals): void;
  /** SIGKILL if still running, and wait for the exit. */
  kill(): Promise<void>;
}

/**
 * `node <root>/dist/server/main.js` (this checkout's by default; the upgrade tests start an older
 * release's build too), once /healthz answers 200 within `readyMs`.
 */
export async function startInstance(
  name: string,
  env: Record<string, string>,
  { root = repoRoot, readyMs = 30_000 }: { root?: string; readyMs?: number } = {},
): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'dist/server/main.js')], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
  });
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (out = (out + c).slice(-20_000)));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (out = (out + c).slice(-20_000)));
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const instance: Instance = {
    name,
    child,
    base,
    ws: base.replace(/^http/, 'ws'),
    exited,
    output: () => out,
    signal: (signal) => {
      if (done || child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
      }
    },
    kill: async () => {
      if (done) return;
      instance.signal('SIGCONT');
      instance.signal('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (done) throw new Error(`instance ${name} exited before it was ready:\n${out}`);
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.status === 200) return instance;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await instance.kill();
      throw new Error(`instance ${name}: /healthz not 200 within ${readyMs / 1000} s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
  text: string;
}

/** One JSON call to an instance; the body is parsed when it is JSON. */
export async function api<T = Record<string, unknown>>(base: string, method: string, url: string, body?: unknown, token?: string): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // plain text (the chat channel's /status)
  }
  return { status: res.status, body: parsed as T, text };
}

/** Like api(), but fails unless the status is the expected one. */
export async function ok<T = Record<string, unknown>>(expected: number, base: string, method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const res = await api<T>(base, method, url, body, token);
  if (res.status !== expected) throw new Error(`${method} ${base}${url}: expected ${expected}, got ${res.status} ${res.text}`);
  return res.body;
}

export interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  webhookId: string;
  /** When the sender's connection closed before we answered (the sender died), else null. */
  droppedAt: number | null;
  /** The status we answered, or null while held (or never answered). */
  answered: number | null;
}

/** What the receiver does with a request: answer it, or hold it open (no answer until close()). */
export type Reply = { status: number; body?: string } | 'hold';

/** A customer endpoint / event receiver on 127.0.0.1 that records every request. */
export async function startReceiver(decide: (r: Received, sameId: Received[]) => Reply = () => ({ status: 200 })) {
  const requests: Received[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const webhookId = String(req.headers['webhook-id'] ?? '');
      const rec: Received = {
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
        webhookId,
        droppedAt: null,
        answered: null,
      };
      requests.push(rec);
      const reply = decide(
        rec,
        requests.filter((r) => r.webhookId === webhookId),
      );
      if (reply === 'hold') {
        res.on('close', () => {
          if (rec.answered === null) rec.droppedAt = Date.now();
          notify();
        });
      } else {
        rec.answered = reply.status;
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(reply.body ?? (reply.status < 300 ? '{"result":"ok"}' : '{"oops":true}'));
      }
      notify();
    });
  });
  const notify = (): void => {
    for (const w of [...waiters]) w();
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    byId(webhookId: string): Received[] {
      return requests.filter((r) => r.webhookId === webhookId);
    },
    /** Resolves once cond() holds, re-checked on every request and dropped connection. */
    until(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!cond()) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: timed out waiting for ${what}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** The sum of a Prometheus counter's samples whose labels include all of `labels`, from GET /metrics. */
export async function counter(base: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
