/**
 * The benchmarks' Parley: the built server (`node dist/server/main.js`) as its
 * own process on a free loopback port, on a fresh SQLite directory or a fresh
 * PostgreSQL schema (dropped afterwards), plus the few API calls every
 * benchmark needs to set itself up.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };
export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export type Db = 'sqlite' | 'postgres';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** BENCH_READY_MS: how long a server may take to answer /healthz (30 s; more on a loaded machine). */
export async function waitReady(url: string, timeoutMs = Number(process.env.BENCH_READY_MS ?? 30_000)): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      if ((await fetch(url)).ok) return performance.now() - started;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`${url} never became ready`);
}

export interface BenchServer {
  child: ChildProcess;
  base: string;
  ws: string;
  pid: number;
  /** ms from spawn to the first /healthz 200. */
  readyMs: number;
  stop(): Promise<void>;
}

export interface StartOptions {
  db: Db;
  /** Extra node flags (--cpu-prof …). */
  nodeArgs?: string[];
  env?: Record<string, string>;
  /** Raise the open-files limit of the server process (sockets benchmark). */
  nofile?: number;
  /** Reuse this data dir / schema instead of a fresh one (restarts). */
  dataDir?: string;
  schema?: string;
  /** Another build's entry point instead of dist/server/main.js (comparing two builds back to back); BENCH_PARLEY_MAIN sets it for a whole run. */
  main?: string;
}

export async function startParley(o: StartOptions): Promise<BenchServer & { dataDir: string; schema: string | null }> {
  const dataDir = o.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
  const schema = o.db === 'postgres' ? (o.schema ?? `bench_${crypto.randomBytes(4).toString('hex')}`) : null;
  // A free port can be taken by someone else before the server binds it (after the sockets
  // benchmark, by the clients' ephemeral ports): a server that exits before it is ready is
  // started again on another port.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      OUTBOUND_ALLOW_PRIVATE: '1',
      // The benchmark clients give each visitor its own address with X-Forwarded-For, from 127.0.0.1.
      TRUST_PROXY: '127.0.0.1',
      // Thousands of sockets from one address, many on one agent token: lift the per-party bounds.
      WS_MAX_PER_ADDRESS: '1000000',
      WS_MAX_PER_AGENT_TOKEN: '10000',
      WS_MAX_PER_VISITOR: '10000',
      ...o.env,
    };
    if (schema) {
      env.DATABASE_URL = PG_URL;
      env.DATABASE_SCHEMA = schema;
    }
    const node = [...(o.nodeArgs ?? []), o.main ?? process.env.BENCH_PARLEY_MAIN ?? path.join(ROOT, 'dist/server/main.js')];
    const started = performance.now();
    const child = o.nofile
      ? spawn('bash', ['-c', `${raiseNofile(o.nofile)} exec "$0" "$@"`, process.execPath, ...node], { env, stdio: ['ignore', 'ignore', 'inherit'] })
      : spawn(process.execPath, node, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const ready = await Promise.race([waitReady(`${base}/healthz`).then(() => true), exited.then(() => false)]);
    if (!ready) {
      if (attempt < 3) continue;
      throw new Error(`Parley exited before it was ready (${attempt} attempts)`);
    }
    const readyMs = performance.now() - started;
    return {
      child,
      base,
      ws: base.replace(/^http/, 'ws'),
      pid: child.pid ?? 0,
      readyMs,
      dataDir,
      schema,
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    };
  }
}

/**
 * Shell words that raise the open-files limit as far as allowed: to `n` when
 * the hard limit lets us (or we may raise it), else to the hard limit. Only
 * the shell that then execs node can do it; where even root may not raise the
 * hard limit (a sandbox without CAP_SYS_RESOURCE), the hard limit is it.
 */
export function raiseNofile(n: number): string {
  return `ulimit -n ${n} 2>/dev/null || ulimit -n "$(ulimit -Hn)";`;
}

/** The open-files limit a running process has (Linux /proc). */
export function nofileOf(pid: number): number {
  const limits = fs.readFileSync(`/proc/${pid}/limits`, 'utf8');
  const soft = /^Max open files\s+(\S+)/m.exec(limits)?.[1] ?? '1024';
  return soft === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(soft);
}

/** Removes what startParley created (the data dir, the PostgreSQL schema). */
export async function cleanup(s: { dataDir: string; schema: string | null }): Promise<void> {
  fs.rmSync(s.dataDir, { recursive: true, force: true });
  if (!s.schema) return;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${s.schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

export async function json<T = Record<string, unknown>>(
  url: string,
  init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<T> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return (text ? JSON.parse(text) : {}) as T;
}

export async function adminToken(base: string): Promise<string> {
  return (await json<{ token: string }>(`${base}/api/v1/auth/login`, { method: 'POST', body: ADMIN })).token;
}

/** Signs the admin in, optionally sets it online, and creates a chat-API channel: what the chat-channel benchmarks start from. */
export async function chatApiSetup(base: string, o: { name: string; webhookUrl?: string; online?: boolean }): Promise<{ token: string; endpointUrl: string }> {
  const token = await adminToken(base);
  if (o.online !== false) await json(`${base}/api/v1/me/status`, { method: 'PUT', token, body: { status: 'online' } });
  const channel = await json<{ endpoint_url: string }>(`${base}/api/v1/channels`, {
    method: 'POST',
    token,
    body: { type: 'chat_api', name: o.name, webhook_url: o.webhookUrl ?? 'https://customer.example.com/hook', chunked: false, agent_ids: [] },
  });
  return { token, endpointUrl: channel.endpoint_url };
}

/** Resident set size of a process, in bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

export const pgReachable = async (): Promise<boolean> => {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
};

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat(5); fields[0] here is field 3.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time (ms) of every PostgreSQL server process on the machine (backends of
 * all clients included, so other work on the same server counts too), plus
 * what its exited children left to them (cutime/cstime).
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).startsWith('postgres')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}
