/**
 * The process contract (README "First start") on the real `npm start`: ready on
 * /healthz; SIGTERM to the process group (twice) drains in-flight requests,
 * closes open agent streams and exits 0 within 10 s; data survives a restart;
 * the generated administrator password is printed once; a bad configuration
 * stops the start with exit code 2; a start on a busy port creates no account
 * and prints no password (#15 item 11), the next one does. Runs on SQLite and
 * on PostgreSQL.
 */
import http from 'node:http';
import net from 'node:net';
import WebSocket from 'ws';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshStore, type TestStore } from '../helpers/testApp.js';
import { assertBuilt, freePort, killAll, processGroupCommands, startServer, type ServerProcess } from './serverProcess.js';

const EMAIL = 'owner@example.com';
const PASSWORD = 'process-test-password';
const STOP_LIMIT_MS = 10_000;

interface JsonAnswer {
  status: number;
  body: unknown;
}

async function call(base: string, method: string, path: string, body?: unknown, token?: string): Promise<JsonAnswer> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

async function login(base: string, email: string, password: string): Promise<string> {
  const res = await call(base, 'POST', '/api/v1/auth/login', { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const token = (res.body as { token?: unknown }).token;
  expect(typeof token).toBe('string');
  return token as string;
}

/**
 * SIGTERM to the whole group twice in a row, as a supervisor that repeats
 * itself would; resolves with the exit and the time it took. Both signals land
 * while node runs: npm forwards them and drops its own handler once node has
 * exited, so a signal arriving in the few ms between node's exit and npm's
 * would kill npm itself (see the first test for a second signal mid-drain).
 */
async function stopTwice(proc: ServerProcess): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  proc.signalGroup('SIGTERM');
  proc.signalGroup('SIGTERM');
  return waitExit(proc, started);
}

async function waitExit(proc: ServerProcess, started: number): Promise<{ code: number | null; ms: number }> {
  const exit = await Promise.race([proc.exited, new Promise<null>((r) => setTimeout(() => r(null), STOP_LIMIT_MS + 2000))]);
  const ms = Date.now() - started;
  if (exit === null) throw new Error(`still running ${ms} ms after SIGTERM\nstdout:\n${proc.stdout()}\nstderr:\n${proc.stderr()}`);
  return { code: exit.code, ms };
}

/** Sends the headers and half the body of a login, so the request is in flight until finish() is called. */
function slowLogin(base: string, requestId: string): { finish(): void; answer: Promise<JsonAnswer> } {
  const payload = JSON.stringify({ email: EMAIL, password: PASSWORD });
  const url = new URL('/api/v1/auth/login', base);
  const req = http.request({
    host: url.hostname,
    port: url.port,
    method: 'POST',
    path: url.pathname,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'x-request-id': requestId },
  });
  const answer = new Promise<JsonAnswer>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
  });
  req.write(payload.slice(0, 10));
  return { finish: () => req.end(payload.slice(10)), answer };
}

describe('process lifecycle (npm start)', () => {
  const stores: TestStore[] = [];

  beforeAll(() => {
    assertBuilt();
  });

  afterEach(async () => {
    await killAll();
    for (const store of stores.splice(0)) await store.cleanup();
  });

  it('serves, drains on SIGTERM twice with a request in flight, exits 0 and keeps its data across a restart', { timeout: 90_000 }, async () => {
    const store = freshStore();
    stores.push(store);
    const port = await freePort();
    const env = { ...store.env, PORT: String(port), ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD };

    // First run logs at debug so the test can see a request arrive (and check request ids).
    const first = startServer({ ...env, LOG_LEVEL: 'debug' });
    await first.waitReady();
    // `exec` in the start script: node replaces the shell, so the group is npm + node only.
    expect(processGroupCommands(first.child.pid!)).not.toContain('sh');

    const token = await login(first.baseUrl, EMAIL, PASSWORD);
    // Without TRUST_PROXY (docs/SECURITY.md), X-Forwarded-For is not believed: the client address is the connection's.
    const forwarded = await fetch(`${first.baseUrl}/healthz`, { headers: { 'x-request-id': 'xff-1', 'x-forwarded-for': '198.51.100.77' } });
    expect(forwarded.status).toBe(200);
    await first.waitForOutput(/"reqId":"xff-1"[^\n]*"msg":"request completed"/);
    expect(first.stdout()).toMatch(/"reqId":"xff-1"[^\n]*"remoteAddress":"127\.0\.0\.1"[^\n]*"msg":"request completed"/);
    expect(first.stdout()).not.toContain('198.51.100.77');
    const created = await call(
      first.baseUrl,
      'POST',
      '/api/v1/channels',
      {
        type: 'chat_api',
        name: 'Process test channel',
        webhook_url: 'https://example.com/hook',
        chunked: false,
        agent_ids: [],
      },
      token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const channel = created.body as { id: number; public_id: string; endpoint_url: string };
    expect(channel.endpoint_url).toMatch(new RegExp(`^http://localhost:${port}/wh/[^/]+/${channel.public_id}$`));

    // An open agent stream must not hold the process up: it is closed by the drain.
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/v1/stream?token=${encodeURIComponent(token)}`);
    const socketClosed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });

    // A request in flight when the signal comes still gets its answer.
    const inflight = slowLogin(first.baseUrl, 'inflight-1');
    await first.waitForOutput(/"reqId":"inflight-1"[^\n]*"msg":"incoming request"/);
    const started = Date.now();
    first.signalGroup('SIGTERM');
    await first.waitForOutput(/"msg":"shutting down"/);
    // The second signal comes mid-drain (the unfinished request holds the drain open).
    first.signalGroup('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    inflight.finish();
    const answer = await inflight.answer;
    expect(answer.status).toBe(200);
    expect(typeof (answer.body as { token?: unknown }).token).toBe('string');
    const stopped = await waitExit(first, started);
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(STOP_LIMIT_MS);
    await socketClosed;
    // Request logs carry the request id.
    expect(first.stdout()).toMatch(/"reqId":"inflight-1"[^\n]*"msg":"request completed"/);

    const second = startServer({ ...env, LOG_LEVEL: 'warn' });
    await second.waitReady();
    // The token issued before the restart still works, and so does the login.
    const me = await call(second.baseUrl, 'GET', '/api/v1/me', undefined, token);
    expect(me.status).toBe(200);
    const token2 = await login(second.baseUrl, EMAIL, PASSWORD);
    const list = await call(second.baseUrl, 'GET', '/api/v1/channels', undefined, token2);
    expect(list.status).toBe(200);
    expect((list.body as Array<{ id: number }>).map((c) => c.id)).toContain(channel.id);
    const stoppedAgain = await stopTwice(second);
    expect(stoppedAgain.code).toBe(0);
    expect(stoppedAgain.ms).toBeLessThan(STOP_LIMIT_MS);
  });

  it('refuses to start on a bad configuration, listing every problem, with exit code 2', { timeout: 30_000 }, async () => {
    const store = freshStore();
    stores.push(store);
    const proc = startServer({ ...store.env, PORT: 'eighty', LOG_LEVEL: 'loud', ADMIN_EMAIL: 'nope' });
    const exit = await proc.exited;
    expect(exit.code).toBe(2);
    expect(proc.stderr()).toContain('Invalid configuration:');
    expect(proc.stderr()).toContain('PORT must be an integer from 0 to 65535 (got "eighty"), e.g. PORT=8080');
    expect(proc.stderr()).toMatch(/LOG_LEVEL must be .*e\.g\. LOG_LEVEL=info/);
    expect(proc.stderr()).toMatch(/ADMIN_EMAIL must be .*e\.g\. ADMIN_EMAIL=/);
  });

  it('prints a generated administrator password at the first start only, and it signs in', { timeout: 90_000 }, async () => {
    const store = freshStore();
    stores.push(store);
    const env = { ...store.env, PORT: String(await freePort()), LOG_LEVEL: 'warn' };

    const first = startServer(env);
    await first.waitReady();
    const email = (await first.waitForOutput(/e-mail:\s+(\S+)/))[1];
    const password = (await first.waitForOutput(/password:\s+(\S+)/))[1];
    expect(first.stdout().split(password).length - 1).toBe(1);
    await login(first.baseUrl, email, password);
    // SIGTERM to the npm process alone (not the group): npm passes it on to node.
    const started = Date.now();
    first.child.kill('SIGTERM');
    const stopped = await waitExit(first, started);
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(STOP_LIMIT_MS);

    const second = startServer(env);
    await second.waitReady();
    await login(second.baseUrl, email, password);
    expect(second.stdout()).not.toContain(password);
    expect(second.stdout()).not.toMatch(/password:/);
    expect((await stopTwice(second)).code).toBe(0);
  });

  it(
    'creates the first administrator only once the port is bound: a start on a busy port leaves nothing, the next one creates it',
    { timeout: 90_000 },
    async () => {
      const store = freshStore();
      stores.push(store);
      const port = await freePort();
      const env = { ...store.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
      const blocker = net.createServer();
      await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));

      const refused = startServer(env);
      const exit = await refused.exited;
      expect(exit.code).toBe(1);
      expect(refused.stderr()).toMatch(/EADDRINUSE/);
      expect(refused.stdout()).not.toMatch(/password:|Administrator account created/);
      await new Promise<void>((resolve) => blocker.close(() => resolve()));

      // Had the refused start created the account, this one would find it and print nothing.
      const next = startServer(env);
      await next.waitReady();
      const email = (await next.waitForOutput(/e-mail:\s+(\S+)/))[1];
      const password = (await next.waitForOutput(/password:\s+(\S+)/))[1];
      await login(next.baseUrl, email, password);
      expect((await stopTwice(next)).code).toBe(0);
    },
  );
});
