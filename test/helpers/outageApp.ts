/**
 * For tests of what is logged while the database is unavailable: the real
 * app on a fresh test store with its log lines kept (level info and up), and
 * on PostgreSQL reached through a TCP relay of the test's own that can be cut
 * (every connection dropped, new ones refused: the server is down, as far as
 * the app can tell) and restored, without touching the machine's PostgreSQL.
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config/config.js';
import type { LogLine } from './loggedApp.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, freshStore, signIn, testDialect, type TestApp } from './testApp.js';

export type { LogLine } from './loggedApp.js';

/** A TCP relay to `target` that can be cut: connections dropped and the port closed (connect refused) until restored. */
export interface CuttableRelay {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function cuttableRelay(target: { host: string; port: number }): Promise<CuttableRelay> {
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('error', () => s.destroy());
    s.on('close', () => sockets.delete(s));
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    cut: stop,
    restore: () => (server.listening ? Promise.resolve() : listen(port)),
    close: stop,
  };
}

export interface OutageApp extends TestApp {
  /** Every log line of the app, level info and up, parsed. */
  lines: LogLine[];
  /** The relay in front of PostgreSQL; null on SQLite. */
  relay: CuttableRelay | null;
}

/** The app on a fresh store of the current dialect (PostgreSQL through a cuttable relay), its log kept. */
export async function outageApp(opts: { env?: Record<string, string>; workers?: boolean; routes?: (app: FastifyInstance) => void } = {}): Promise<OutageApp> {
  const store = freshStore();
  const env = { ...store.env };
  let relay: CuttableRelay | null = null;
  if (testDialect() === 'postgres') {
    const url = new URL(env.DATABASE_URL);
    relay = await cuttableRelay({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${relay.port}`;
    env.DATABASE_URL = url.toString();
  }
  const lines: LogLine[] = [];
  const config = loadConfig({
    PUBLIC_URL: 'http://parley.test',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    OUTBOUND_ALLOW_PRIVATE: '1',
    DB_CONNECT_TIMEOUT_MS: '1000',
    TRUST_PROXY: '127.0.0.1',
    ...env,
    ...opts.env,
  });
  const app = await buildApp({
    config,
    workers: opts.workers ?? false,
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) } },
    beforeRoutes: opts.routes,
  });
  const login = signIn(app);
  const adminToken = await login(ADMIN_EMAIL, ADMIN_PASSWORD);
  return {
    app,
    config,
    store,
    adminToken,
    login,
    lines,
    relay,
    close: async () => {
      await relay?.restore();
      await app.close();
      await relay?.close();
      await store.cleanup();
    },
  };
}

/** Waits until check() holds, polling every 25 ms. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Runs fn until it resolves (the first queries after a restore may meet a connection the cut left dead). */
export async function retrying<T>(fn: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * Opens a stream or socket twice while `table.column` is renamed away, so each
 * open fails for a reason that is not an outage (and is closed with
 * `closeCode`), then renames the column back.
 */
export async function failOpensWithout(
  t: TestApp,
  table: string,
  column: string,
  open: () => Promise<{ waitClosed(): Promise<unknown> }>,
  closeCode: number,
): Promise<void> {
  const gone = `${column}_gone`;
  await sql`alter table ${sql.id(table)} rename column ${sql.id(column)} to ${sql.id(gone)}`.execute(t.app.ctx.db);
  try {
    for (let i = 0; i < 2; i++) expect(await (await open()).waitClosed()).toMatchObject({ code: closeCode });
  } finally {
    await sql`alter table ${sql.id(table)} rename column ${sql.id(gone)} to ${sql.id(column)}`.execute(t.app.ctx.db);
  }
}

/** Exactly two lines, each an error (level 50) with `msg`, a request id, and the missing column's error with its stack. */
export function expectTwoOpenErrors(lines: LogLine[], msg: string): void {
  expect(lines).toHaveLength(2);
  for (const l of lines) {
    expect(l).toMatchObject({
      level: 50,
      msg,
      reqId: expect.any(String),
      err: { message: expect.stringMatching(/token_hash/), stack: expect.any(String) },
    });
  }
}
