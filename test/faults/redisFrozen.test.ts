/**
 * A Redis server that stops answering (both stores): the test runs a
 * redis-server of its own as a child process and freezes it with SIGSTOP, as
 * a hung server or a silent network does (the TCP connection stays open, so
 * every command waits out its timeout). A visitor call counts two rate limits
 * in Redis; once one call has failed, Redis is marked down and the calls after
 * it count in memory at once: they answer well under the command timeout
 * (the bound is generous, it tests the circuit, not speed). After SIGCONT the
 * limiter uses Redis again by itself: a new address's counter appears there.
 * Likewise the hub: once a publish has failed, a visitor socket opened during
 * the freeze is ready without waiting for its SUBSCRIBE (5 s before), and
 * after SIGCONT it gets live frames again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, StreamClient } from '../helpers/realtime.js';
import { createTestApp, type TestApp } from '../helpers/testApp.js';
import { agentReply, createWidget, freshIp, sendText, startSession, visitorCall, visitorSocketUrl, type TestWidget } from '../helpers/widget.js';

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
  let base: string;

  beforeAll(async () => {
    redis = await privateRedis();
    t = await createTestApp({ env: { REDIS_URL: redis.url } });
    widget = await createWidget(t);
    base = await listen(t.app);
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
  /** Runs `fn` with the server stopped (SIGSTOP), continuing it (SIGCONT) whatever happens. */
  const whileFrozen = async <T>(fn: () => Promise<T>): Promise<T> => {
    redis.process.kill('SIGSTOP');
    try {
      return await fn();
    } finally {
      redis.process.kill('SIGCONT');
    }
  };
  /** Whether the per-address message counter of `ip` is in Redis (a key of the limiter ends with `:<key>`). */
  const countedInRedis = async (ip: string) => (await redis.client.keys(`*rl:message-ip:*:${ip}`)).length > 0;

  it('answers at once once Redis failed, counting in memory, and uses Redis again by itself after it thaws', { timeout: 60_000 }, async () => {
    const s = await startSession(t, widget.widget_id);
    const ip = freshIp();
    expect((await timedMessage(s.visitor_token, 'before', ip)).status).toBe(201);
    expect(await countedInRedis(ip)).toBe(true);

    await whileFrozen(async () => {
      // The first call meets the freeze and waits out a command timeout (without the circuit: every call, twice).
      expect((await timedMessage(s.visitor_token, 'first while frozen')).status).toBe(201);
      for (let n = 0; n < 3; n++) {
        const call = await timedMessage(s.visitor_token, `frozen ${n}`);
        expect(call.status).toBe(201);
        if (process.env.SHOW_MS) console.log('frozen call ms', call.ms);
        expect(call.ms).toBeLessThan(FAST_MS);
      }
    });

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

  it('opens a visitor socket at once once a publish failed, and delivers live frames again after the thaw', { timeout: 60_000 }, async () => {
    const s = await startSession(t, widget.widget_id);
    const { chat_id } = await sendText(t, widget.widget_id, s.visitor_token, 'Hello');
    const socket = await whileFrozen(async () => {
      // This message's publish meets the freeze and waits out its command timeout (2 s), marking the publisher down.
      expect((await timedMessage(s.visitor_token, 'while frozen')).status).toBe(201);
      await sleep(3000);
      const again = await startSession(t, widget.widget_id, { token: s.visitor_token });
      const started = Date.now();
      const opened = await StreamClient.ready(visitorSocketUrl(base, widget.widget_id, s.visitor_token, again.cursor));
      if (process.env.SHOW_MS) console.log('socket ready ms', Date.now() - started);
      expect(Date.now() - started).toBeLessThan(FAST_MS);
      return opened;
    });
    try {
      await agentReply(t, chat_id, 'Back again');
      await socket.until((c) => c.events().some((f) => f.type === 'message.created' && (f.data.message as { text?: string }).text === 'Back again'), 15_000);
    } finally {
      await socket.close();
    }
  });
});
