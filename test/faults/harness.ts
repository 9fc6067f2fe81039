/**
 * Helpers of the fault tests: a real Parley process (`node dist/server/main.js`
 * in its own process group, so a test can SIGKILL it and start it again on the
 * same data), a JSON client with a time bound on every call, the set-up of a
 * chat-channel conversation through the public API, a recording receiver on
 * 127.0.0.1 (customer endpoint and event-webhook URL), and a reader of the
 * store the process writes (SQLite file or PostgreSQL schema).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { DeliveryDto } from '../../protocol/agent.js';
import { freePort, repoRoot } from '../process/serverProcess.js';

export const ADMIN_EMAIL = 'faults@example.com';
export const ADMIN_PASSWORD = 'faults-password-1';

export interface Parley {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly base: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Whether the process is still running. */
  alive(): boolean;
  /** The last 50 kB the process printed (stdout and stderr). */
  output(): string;
  /** SIGKILL to the process group, then wait for the exit. */
  kill(): Promise<void>;
}

/** Starts `node [nodeArgs] dist/server/main.js` with the given environment and waits for /healthz 200. */
export async function startParley(env: Record<string, string>, opts: { nodeArgs?: string[]; port?: number } = {}): Promise<Parley> {
  const port = opts.port ?? (await freePort());
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), path.join(repoRoot, 'dist/server/main.js')], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      OUTBOUND_ALLOW_PRIVATE: '1',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      ...env,
      PORT: String(port),
    },
  });
  if (child.pid === undefined) throw new Error('could not start node');
  let out = '';
  const keep = (c: string): void => {
    out = (out + c).slice(-50_000);
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    }),
  );
  const pid = child.pid;
  const proc: Parley = {
    child,
    pid,
    base: `http://127.0.0.1:${port}`,
    exited,
    alive: () => !done,
    output: () => out,
    kill: async () => {
      if (done) return;
      try {
        process.kill(-pid, 'SIGKILL');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
      }
      await exited;
    },
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (done) throw new Error(`Parley exited before it was ready:\n${out}`);
    const res = await call(proc.base, 'GET', '/healthz', undefined, undefined, 2000).catch(() => null);
    if (res?.status === 200) return proc;
    if (Date.now() > deadline) {
      await proc.kill();
      throw new Error(`Parley: /healthz not 200 within 30 s:\n${out}`);
    }
    await sleep(50);
  }
}

export interface Answer {
  status: number;
  body: unknown;
  ms: number;
}

/** One JSON request, aborted after timeoutMs (rejects on a network error or the time bound). */
export async function call(base: string, method: string, url: string, body?: unknown, token?: string, timeoutMs = 15_000): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const started = Date.now();
  const res = await fetch(`${base}${url}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed, ms: Date.now() - started };
}

/** Like call(), but throws unless the status is the expected one. */
export async function expectCall<T>(status: number, base: string, method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const res = await call(base, method, url, body, token);
  if (res.status !== status) throw new Error(`${method} ${url}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

export async function login(base: string): Promise<string> {
  return (await expectCall<{ token: string }>(200, base, 'POST', '/api/v1/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).token;
}

export interface Channel {
  id: number;
  public_id: string;
  endpoint_url: string;
  /** endpoint_url's path, to POST to on any base URL. */
  path: string;
}

export async function createChannel(base: string, token: string, webhookUrl: string, name = 'Faults'): Promise<Channel> {
  const channel = await expectCall<Omit<Channel, 'path'>>(
    201,
    base,
    'POST',
    '/api/v1/channels',
    { type: 'chat_api', name, webhook_url: webhookUrl, chunked: false, agent_ids: [] },
    token,
  );
  return { ...channel, path: new URL(channel.endpoint_url).pathname };
}

export const inbound = (senderId: string, text: string, name?: string): unknown => ({
  sender: name ? { id: senderId, name } : { id: senderId },
  message: { type: 'text', text },
});

/** A visitor writes on the channel: the id of the chat that holds the message. */
export async function openChat(base: string, token: string, channel: Channel, senderId: string): Promise<number> {
  const text = `hello from ${senderId}`;
  await expectCall(200, base, 'POST', channel.path, inbound(senderId, text, senderId));
  const chats = await expectCall<Array<{ id: number; channel_id: number; visitor: { name: string | null } }>>(
    200,
    base,
    'GET',
    '/api/v1/chats?limit=1000',
    undefined,
    token,
  );
  const chat = chats.find((c) => c.channel_id === channel.id && c.visitor.name === senderId);
  if (!chat) throw new Error(`no chat for ${senderId}`);
  return chat.id;
}

/** The delivery log's rows, as the agent API defines them. */
export type { DeliveryDto };

export async function deliveries(base: string, token: string): Promise<DeliveryDto[]> {
  return expectCall<DeliveryDto[]>(200, base, 'GET', '/api/v1/deliveries?limit=1000', undefined, token);
}

export interface Received {
  path: string;
  webhookId: string;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  requests: Received[];
  close(): Promise<void>;
}

/** A well-behaved receiver: records every request and answers {"result":"ok"} after 0–maxDelayMs. */
export async function startReceiver(maxDelayMs = 0): Promise<Receiver> {
  const requests: Received[] = [];
  const server = http.createServer((req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', webhookId: String(req.headers['webhook-id'] ?? ''), body: Buffer.concat(chunks).toString('utf8'), at });
      setTimeout(
        () => {
          if (res.destroyed) return;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"result":"ok"}');
        },
        Math.floor(Math.random() * (maxDelayMs + 1)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads the store a Parley process writes, described by its environment (DATA_DIR or DATABASE_URL + DATABASE_SCHEMA). */
export interface StoreReader {
  all<T>(query: string): Promise<T[]>;
  close(): Promise<void>;
}

export async function openReader(env: Record<string, string>): Promise<StoreReader> {
  if (env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL, options: env.DATABASE_SCHEMA ? `-c search_path=${env.DATABASE_SCHEMA}` : undefined });
    await client.connect();
    return {
      all: async <T>(query: string) => (await client.query(query)).rows as T[],
      close: () => client.end(),
    };
  }
  const file = new SqliteDatabase(path.join(env.DATA_DIR, 'parley.db'), { readonly: true, fileMustExist: true });
  return {
    all: async <T>(query: string) => file.prepare(query).all() as T[],
    close: async () => {
      file.close();
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls check() every stepMs until it returns a truthy value; throws after timeoutMs. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs: number,
  stepMs = 100,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(stepMs);
  }
}
