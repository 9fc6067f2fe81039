/**
 * A Redis server that stops answering (both stores): the test runs a
 * redis-server of its own as a child process and freezes it with SIGSTOP, as
 * a hung server or a silent network does (the TCP connection stays open, so
 * every command waits out its timeout). A visitor call counts two rate limits
 * in Redis; once one call has failed, Redis is marked down and the calls after
 * it count in memory at once: they answer well under the command timeout
 * (the bound is generous, it tests the circuit, not speed). After SIGCONT the
 * limiter uses Redis again by itself: a new visitor's counter appears there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/testApp.js';
import { createWidget, freshIp, startSession, visitorCall, type TestWidget } from '../helpers/widget.js';

/** Well under the 2 s command timeout of one call, let alone the two of a visitor call. */
const FAST_MS = 1500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A redis-server of this test's own, nothing saved; resolves once it answers PING. */
async function privateRedis(): Promise<{ url: string; process: ChildProcess; client: Redis }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  // Reconnects until the server listens; the PING waits in the offline queue until then.
  const client = new Redis(url, { retryStrategy: () => 100, maxRetriesPerRequest: null });
  client.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('redis-server did not start')), 10_000)));
  try {
    await Promise.race([client.ping(), timeout]);
  } finally {
    clearTimeout(timer);
  }
  return { url, process: child, client };
}

describe('Redis frozen: the widget rate limits', () => {
  let redis: Awaited<ReturnType<typeof privateRedis>>;
  let t: TestApp;
  let widget: TestWidget;

  beforeAll(async () => {
    redis = await privateRedis();
    t = await createTestApp({ env: { REDIS_URL: redis.url } });
    widget = await createWidget(t);
  });
  afterAll(async () => {
    redis?.process.kill('SIGCONT');
    await t?.close();
    redis?.client.disconnect();
    redis?.process.kill('SIGTERM');
  });

  /** A visitor call (a message) with its duration. */
  const timedMessage = async (token: string, text: string, ip = freshIp()) => {
    const started = Date.now();
    const res = await visitorCall(t, widget.widget_id, token, 'messages', { type: 'text', text }, { ip });
    return { status: res.statusCode, ms: Date.now() - started };
  };
  /** Whether the per-address message counter of `ip` is in Redis (a key of the limiter ends with `:<key>`). */
  const countedInRedis = async (ip: string) => (await redis.client.keys(`*rl:message-ip:*:${ip}`)).length > 0;

  it('answers at once once Redis failed, counting in memory, and uses Redis again by itself after it thaws', { timeout: 60_000 }, async () => {
    const s = await startSession(t, widget.widget_id);
    const ip = freshIp();
    expect((await timedMessage(s.visitor_token, 'before', ip)).status).toBe(201);
    expect(await countedInRedis(ip)).toBe(true);

    redis.process.kill('SIGSTOP');
    try {
      // The first call meets the freeze and waits out a command timeout (without the circuit: every call, twice).
      expect((await timedMessage(s.visitor_token, 'first while frozen')).status).toBe(201);
      for (let n = 0; n < 3; n++) {
        const call = await timedMessage(s.visitor_token, `frozen ${n}`);
        expect(call.status).toBe(201);
        if (process.env.SHOW_MS) console.log('frozen call ms', call.ms);
        expect(call.ms).toBeLessThan(FAST_MS);
      }
    } finally {
      redis.process.kill('SIGCONT');
    }

    // Recovery by itself: a call from a new address is counted in Redis again within a few probes.
    const deadline = Date.now() + 15_000;
    let recovered = false;
    while (!recovered && Date.now() < deadline) {
      const from = freshIp();
      expect((await timedMessage(s.visitor_token, 'after', from)).status).toBe(201);
      recovered = await countedInRedis(from);
      if (!recovered) await sleep(250);
    }
    expect(recovered).toBe(true);
  });
});
