/**
 * A PostgreSQL server that stops answering altogether (postgres project only):
 * the app reaches the machine's PostgreSQL through a TCP relay of the test's
 * own, which can freeze (forward nothing, answer nothing, close nothing), as a
 * hung server or a silent network does. The server cannot cancel anything
 * then, so the client-side limits must: a query on a pooled connection gives
 * up DB_STATEMENT_TIMEOUT_MS + 1 s after it was sent, a new connection after
 * DB_CONNECT_TIMEOUT_MS. Every request answers 503 in bounded time (never a
 * hang, never a 500, never a crash), and once the relay thaws the same app
 * serves again without a restart.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedApp, type LoggedApp } from '../helpers/loggedApp.js';
import { freshStore, testDialect, type TestStore } from '../helpers/testApp.js';

const STATEMENT_MS = 300;
const CONNECT_MS = 500;
/** The longest a request may take while frozen: a few round trips through the limits above. */
const ANSWER_BOUND_MS = 4000;

/** A TCP relay to `target` that can be frozen: what is sent either way is held until it thaws. */
async function freezableRelay(target: { host: string; port: number }) {
  let frozen = false;
  const held: Array<[net.Socket, Buffer]> = [];
  const sockets = new Set<net.Socket>();
  const forward = (from: net.Socket, to: net.Socket) => {
    sockets.add(from);
    from.on('data', (chunk: Buffer) => (frozen ? held.push([to, chunk]) : to.write(chunk)));
    from.on('error', () => from.destroy());
    from.on('close', () => {
      sockets.delete(from);
      to.destroy();
    });
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const [to, chunk] of held.splice(0)) if (!to.destroyed) to.write(chunk);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.runIf(testDialect() === 'postgres')('PostgreSQL frozen', () => {
  let store: TestStore;
  let relay: Awaited<ReturnType<typeof freezableRelay>>;
  let t: LoggedApp;

  beforeAll(async () => {
    store = freshStore();
    const url = new URL(store.env.DATABASE_URL);
    relay = await freezableRelay({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${relay.port}`;
    t = await loggedApp(store, {
      env: { DATABASE_URL: url.toString(), DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS), DB_CONNECT_TIMEOUT_MS: String(CONNECT_MS) },
    });
  });
  afterAll(async () => {
    await t?.app.close();
    await relay?.close();
    await store?.cleanup();
  });

  it('answers 503 within a bound while the server is silent, and serves again once it answers', { timeout: 60_000 }, async () => {
    expect(await t.me()).toBe(200);
    relay.freeze();
    try {
      // More requests at once than the pool has connections: some wait for one, some open new ones.
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 15 }, (_, i) =>
          t.app.inject({ method: 'GET', url: i % 3 === 0 ? '/healthz' : '/api/v1/me', headers: { authorization: `Bearer ${t.adminToken}` } }).then((res) => ({
            status: res.statusCode,
            code: res.json().error?.code as string | undefined,
            ms: Date.now() - started,
          })),
        ),
      );
      for (const a of answers) expect(a).toMatchObject({ status: 503, code: 'service_unavailable' });
      expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(ANSWER_BOUND_MS);
      // Again, on what the pool holds after the first round.
      const again = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(again.statusCode).toBe(503);
    } finally {
      relay.thaw();
    }
    expect(t.lines.filter((l) => l.level >= 50)).toEqual([]);
    // Thawed: the same app serves without a restart (a connection left over from the freeze may fail once).
    const deadline = Date.now() + 10_000;
    let healthy = 0;
    while (healthy < 3 && Date.now() < deadline) {
      healthy = (await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode === 200 && (await t.me()) === 200 ? healthy + 1 : 0;
    }
    expect(healthy).toBe(3);
  });
});
