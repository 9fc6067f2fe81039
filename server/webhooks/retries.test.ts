/** The chat channel's retry cycle on real sockets: 3 attempts 3 s apart, failed by 9 s, across restarts. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, freshStore, testDialect, type TestApp } from '../../test/helpers/testApp.js';
import type { AppContext } from '../context.js';
import { enqueueDelivery } from './enqueue.js';
import { closedPort, enqueue, seedChat, startEndpoint, waitUntil, type Answer } from '../../test/helpers/webhooks.js';

const row = (ctx: AppContext, id: number) => ctx.db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const message = (ctx: AppContext, id: number) => ctx.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const gaps = (times: number[]): number[] => times.slice(1).map((t, i) => t - times[i]);

/** When each attempt was recorded (updated_at), for failures that leave no request to time, like a refused connection. */
function watchAttempts(ctx: AppContext, id: number): { times: number[]; stop: () => Promise<void> } {
  const times: number[] = [];
  const look = async (): Promise<void> => {
    const r = await row(ctx, id).catch(() => null);
    if (r && r.attempts > times.length) times.push(r.updated_at);
  };
  const timer = setInterval(() => void look(), 20);
  return { times, stop: async () => (clearInterval(timer), await look()) };
}

describe('chat channel retries', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const failingCycle = (name: string, answer: Answer) =>
    it.concurrent(`${name}: exactly 3 attempts 3 s apart, same webhook-id, message failed within 9 s`, async () => {
      const ctx = t.app.ctx;
      const ep = await startEndpoint(() => answer);
      try {
        const seed = await seedChat(ctx, ep.url);
        const sentAt = Date.now();
        const id = await enqueue(ctx, { url: `${ep.url}/${seed.publicId}`, chatId: seed.chatId, messageId: seed.messageId });
        await waitUntil(async () => (await row(ctx, id)).status === 'failed', 12_000, 'failed');
        const failedIn = Date.now() - sentAt;
        const d = await row(ctx, id);
        expect(d.attempts).toBe(3);
        expect(d.updated_at - d.created_at).toBeLessThanOrEqual(9000);
        expect(failedIn).toBeLessThanOrEqual(9000);
        expect(ep.requests).toHaveLength(3);
        const times = ep.requests.map((r) => r.at);
        expect(times[0] - sentAt).toBeLessThan(500);
        for (const gap of gaps(times)) expect(Math.abs(gap - 3000)).toBeLessThanOrEqual(500);
        expect(new Set(ep.requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
        const m = await message(ctx, seed.messageId);
        expect(m.delivery_status).toBe('failed');
        expect(m.delivery_error).toMatch(/^Not delivered: the customer endpoint /);
        console.log(`${name}: first request +${times[0] - sentAt} ms, gaps ${gaps(times).join(' / ')} ms, failed at +${failedIn} ms: ${m.delivery_error}`);
        await new Promise((r) => setTimeout(r, 500));
        expect(ep.requests).toHaveLength(3);
      } finally {
        await ep.close();
      }
    });

  failingCycle('HTTP 500', { status: 500, body: 'oops' });
  failingCycle('timeout', { hang: true });

  it.concurrent('connection refused: 3 attempts 3 s apart, failed within 9 s', async () => {
    const ctx = t.app.ctx;
    const seed = await seedChat(ctx, 'http://127.0.0.1:1');
    const sentAt = Date.now();
    const id = await enqueue(ctx, { url: `http://127.0.0.1:${await closedPort()}/${seed.publicId}`, chatId: seed.chatId, messageId: seed.messageId });
    const watch = watchAttempts(ctx, id);
    try {
      await waitUntil(async () => (await row(ctx, id)).status === 'failed', 12_000, 'failed');
    } finally {
      await watch.stop();
    }
    const d = await row(ctx, id);
    expect(d.attempts).toBe(3);
    expect(watch.times).toHaveLength(3);
    expect(d.updated_at - sentAt).toBeLessThanOrEqual(9000);
    expect(d.last_error).toMatch(/^connection refused/);
    for (const gap of gaps(watch.times)) expect(Math.abs(gap - 3000)).toBeLessThanOrEqual(500);
    expect((await message(ctx, seed.messageId)).delivery_error).toBe(
      'Not delivered: the customer endpoint could not be reached (connection refused, after 3 attempts).',
    );
    console.log(`connection refused: attempts recorded at gaps ${gaps(watch.times).join(' / ')} ms, failed at +${d.updated_at - sentAt} ms`);
  });

  it.concurrent('skips a row locked by another instance, takes it over when the lock expires, and fails a row found past its deadline at once', async () => {
    const ctx = t.app.ctx;
    const ep = await startEndpoint();
    try {
      const locked = await ctx.db.transaction().execute(async (tx) => {
        const r = await enqueueDelivery(
          tx,
          { accountId: ctx.defaultAccountId, kind: 'chat_channel', eventType: 'message', url: `${ep.url}/locked`, body: { a: 1 } },
          Date.now(),
        );
        await tx
          .updateTable('deliveries')
          .set({ locked_until: Date.now() + 60_000 })
          .where('id', '=', r.id)
          .execute();
        return r.id;
      });
      const seed = await seedChat(ctx, ep.url);
      const late = await ctx.db.transaction().execute(
        async (tx) =>
          (
            await enqueueDelivery(
              tx,
              {
                accountId: ctx.defaultAccountId,
                kind: 'chat_channel',
                eventType: 'message',
                url: `${ep.url}/late`,
                body: { a: 2 },
                chatId: seed.chatId,
                messageId: seed.messageId,
              },
              Date.now() - 20_000,
            )
          ).id,
      );
      // The poller (1 s) finds the late row without any wake-up.
      await waitUntil(async () => (await row(ctx, late)).status === 'failed', 3000, 'the late row to fail');
      expect(await message(ctx, seed.messageId)).toMatchObject({
        delivery_status: 'failed',
        delivery_error: expect.stringContaining('did not answer in time'),
      });
      expect((await row(ctx, locked)).status).toBe('pending');
      expect(ep.requests).toHaveLength(0);
      await ctx.db
        .updateTable('deliveries')
        .set({ locked_until: Date.now() - 1 })
        .where('id', '=', locked)
        .execute();
      await waitUntil(async () => (await row(ctx, locked)).status === 'delivered', 3000, 'the takeover');
      expect(ep.requests.map((r) => r.url)).toEqual(['/locked']);
    } finally {
      await ep.close();
    }
  });
});

describe('restart and SSRF', () => {
  it('a process closed after the first failed attempt: the next one finishes the cycle on the same store', async () => {
    const store = freshStore();
    const ep = await startEndpoint(() => ({ status: 503 }));
    let second: TestApp | null = null;
    try {
      const first = await createTestApp({ store });
      const seed = await seedChat(first.app.ctx, ep.url);
      const sentAt = Date.now();
      const id = await enqueue(first.app.ctx, { url: `${ep.url}/${seed.publicId}`, chatId: seed.chatId, messageId: seed.messageId });
      await ep.waitForRequests(1);
      await waitUntil(async () => (await row(first.app.ctx, id)).attempts === 1, 3000, 'the first attempt recorded');
      await first.close();
      second = await createTestApp({ store });
      const ctx = second.app.ctx;
      await waitUntil(async () => (await row(ctx, id)).status === 'failed', 12_000, 'failed after restart');
      const d = await row(ctx, id);
      expect(d.attempts).toBe(3);
      expect(d.updated_at - sentAt).toBeLessThanOrEqual(9000);
      expect(ep.requests).toHaveLength(3);
      for (const gap of gaps(ep.requests.map((r) => r.at))) expect(Math.abs(gap - 3000)).toBeLessThanOrEqual(500);
      expect(new Set(ep.requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect((await message(ctx, seed.messageId)).delivery_error).toBe('Not delivered: the customer endpoint answered HTTP 503 (after 3 attempts).');
      console.log(`restart: gaps ${gaps(ep.requests.map((r) => r.at)).join(' / ')} ms, failed at +${d.updated_at - sentAt} ms`);
    } finally {
      await second?.close();
      await ep.close();
      await store.cleanup();
    }
  });

  it('refuses a loopback target when OUTBOUND_ALLOW_PRIVATE is off: a failed attempt with a clear error, no request made', async () => {
    const t = await createTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: '0' } });
    const ep = await startEndpoint();
    try {
      const ctx = t.app.ctx;
      const seed = await seedChat(ctx, ep.url);
      const id = await enqueue(ctx, { url: `${ep.url.replace('127.0.0.1', 'localhost')}/${seed.publicId}`, chatId: seed.chatId, messageId: seed.messageId });
      await waitUntil(async () => (await row(ctx, id)).status === 'failed', 3000, 'failed');
      const d = await row(ctx, id);
      expect(d.attempts).toBe(1);
      expect(d.last_error).toMatch(/^Refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
      expect((await message(ctx, seed.messageId)).delivery_error).toMatch(/^Not delivered: Refused: localhost/);
      await new Promise((r) => setTimeout(r, 300));
      expect(ep.requests).toHaveLength(0);
    } finally {
      await ep.close();
      await t.close();
    }
  });
});

describe('several instances on one PostgreSQL store', () => {
  it.skipIf(testDialect() !== 'postgres')('share the due rows and never send the same attempt twice', async () => {
    const store = freshStore();
    const ep = await startEndpoint();
    const apps: TestApp[] = [];
    try {
      apps.push(await createTestApp({ store }), await createTestApp({ store }));
      const [a, b] = apps.map((x) => x.app.ctx);
      // Written without a wake-up, then both instances are woken at once: they race for the same rows.
      const ids = await a.db.transaction().execute(async (tx) => {
        const out: number[] = [];
        for (let i = 0; i < 60; i++) {
          out.push(
            (
              await enqueueDelivery(
                tx,
                { accountId: a.defaultAccountId, kind: 'event_webhook', eventType: 'chat_updated', url: `${ep.url}/e${i}`, body: { i } },
                Date.now(),
              )
            ).id,
          );
        }
        return out;
      });
      a.signals.deliveriesDue();
      b.signals.deliveriesDue();
      await waitUntil(
        async () => (await a.db.selectFrom('deliveries').select('id').where('status', '=', 'delivered').execute()).length === ids.length,
        10_000,
        'all delivered',
      );
      expect(ep.requests).toHaveLength(ids.length);
      expect(new Set(ep.requests.map((r) => r.headers['webhook-id'])).size).toBe(ids.length);
      const rows = await a.db.selectFrom('deliveries').select('attempts').execute();
      expect(rows.every((r) => r.attempts === 1)).toBe(true);
      // Both took part: 60 rows, at most 32 in flight per instance.
      const sent = await Promise.all([a, b].map(async (c) => (await c.metrics.deliveries.get()).values.reduce((n, v) => n + v.value, 0)));
      expect(sent[0] + sent[1]).toBe(ids.length);
      expect(Math.min(...sent)).toBeGreaterThan(0);
    } finally {
      for (const x of apps) await x.close();
      await ep.close();
      await store.cleanup();
    }
  });
});
