/** The deliverer end to end on real sockets: answers, wire format, signature, event-webhook retries and answer handlers. */
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { sql } from 'kysely';
import { createTestApp, freshStore, testDialect, type TestApp } from '../../test/helpers/testApp.js';
import type { AppContext } from '../context.js';
import { commit } from '../events/outbox.js';
import { registerAnswerHandler } from '../eventWebhooks/answers.js';
import { enqueueDelivery } from './enqueue.js';
import { delivererSuite, enqueue, seedChat, startEndpoint, waitUntil } from '../../test/helpers/webhooks.js';

const row = (ctx: AppContext, id: number) => ctx.db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const waitStatus = (ctx: AppContext, id: number, status: string, ms = 5000) =>
  waitUntil(async () => (await row(ctx, id)).status === status, ms, `delivery ${id} to be ${status}`);

describe('deliverer: answers, wire format, signature', () => {
  const suite = delivererSuite();

  it('delivers at once on {"result":"ok"}: signed, Content-Length, ?c= URL kept, message delivered live', async () => {
    const ep = await suite.endpoint();
    const seed = await seedChat(suite.ctx, `${ep.url}/hook?c=`);
    const url = `${ep.url}/hook?c=` + '/' + seed.publicId;
    const sentAt = Date.now();
    const id = await enqueue(suite.ctx, { url, chatId: seed.chatId, messageId: seed.messageId });
    await waitStatus(suite.ctx, id, 'delivered');
    expect(ep.requests).toHaveLength(1);
    const [r] = ep.requests;
    expect(r.at - sentAt).toBeLessThan(500);
    expect(r.url).toBe(`/hook?c=/${seed.publicId}`);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(r.body)));
    expect(r.headers['transfer-encoding']).toBeUndefined();
    const { webhook_secret } = await suite.ctx.db
      .selectFrom('settings')
      .select('webhook_secret')
      .where('account_id', '=', seed.accountId)
      .executeTakeFirstOrThrow();
    const headers = {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    };
    expect(new Webhook(webhook_secret).verify(r.body, headers)).toMatchObject({ message: { type: 'text', text: 'Hello' } });

    const d = await row(suite.ctx, id);
    expect(d).toMatchObject({
      attempts: 1,
      last_status_code: 200,
      last_response: '{"result":"ok"}',
      last_error: null,
      locked_until: null,
      webhook_id: headers['webhook-id'],
    });
    expect(d.delivered_at).toBeGreaterThanOrEqual(sentAt);
    const message = await suite.ctx.db.selectFrom('messages').selectAll().where('id', '=', seed.messageId).executeTakeFirstOrThrow();
    expect(message).toMatchObject({ delivery_status: 'delivered', delivery_error: null });
    const events = await suite.ctx.db.selectFrom('events').selectAll().where('chat_id', '=', seed.chatId).where('type', '=', 'message.updated').execute();
    expect(events).toHaveLength(1);
    expect(events[0].channel_id).toBe(seed.channelId);
    expect(JSON.parse(events[0].data_json).message).toMatchObject({ id: seed.messageId, delivery: { status: 'delivered' } });
    const metric = await suite.ctx.metrics.registry.getSingleMetric('parley_outbound_deliveries_total')?.get();
    expect(metric?.values.find((v) => v.labels.outcome === 'delivered' && v.labels.kind === 'chat_channel')?.value).toBeGreaterThanOrEqual(1);
  });

  it('sends with Transfer-Encoding: chunked (no Content-Length) when the row is chunked', async () => {
    const ep = await suite.endpoint();
    const id = await enqueue(suite.ctx, { url: `${ep.url}/c/PUB`, chunked: true });
    await waitStatus(suite.ctx, id, 'delivered');
    expect(ep.requests[0].headers['transfer-encoding']).toBe('chunked');
    expect(ep.requests[0].headers['content-length']).toBeUndefined();
    expect(JSON.parse(ep.requests[0].body)).toMatchObject({ message: { type: 'text' } });
  });

  it('a refusal {"error":{code,message}} is final: failed with that message, one request only', async () => {
    const ep = await suite.endpoint(() => ({ body: '{"error":{"code":12,"message":"User blocked"}}', headers: { 'content-type': 'text/plain' } }));
    const seed = await seedChat(suite.ctx, ep.url);
    const id = await enqueue(suite.ctx, { url: `${ep.url}/${seed.publicId}`, chatId: seed.chatId, messageId: seed.messageId });
    await waitStatus(suite.ctx, id, 'failed');
    expect(await row(suite.ctx, id)).toMatchObject({ attempts: 1, last_status_code: 200, last_error: 'refused: User blocked', delivered_at: null });
    const message = await suite.ctx.db.selectFrom('messages').selectAll().where('id', '=', seed.messageId).executeTakeFirstOrThrow();
    expect(message).toMatchObject({ delivery_status: 'failed', delivery_error: 'User blocked' });
    const [event] = await suite.ctx.db.selectFrom('events').selectAll().where('chat_id', '=', seed.chatId).where('type', '=', 'message.updated').execute();
    expect(JSON.parse(event.data_json).message.delivery).toEqual({ status: 'failed', error: 'User blocked' });
    await new Promise((r) => setTimeout(r, 3300));
    expect(ep.requests).toHaveLength(1);
  });

  it('event webhook: a redirect is not followed and the row waits for its backoff retry, same webhook-id', async () => {
    const ep = await suite.endpoint((r) => (r.url === '/start' ? { status: 301, headers: { location: '/elsewhere' } } : {}));
    const before = Date.now();
    const id = await enqueue(suite.ctx, { kind: 'event_webhook', eventType: 'chat_updated', url: `${ep.url}/start`, body: { event_name: 'chat_updated' } });
    await waitUntil(async () => (await row(suite.ctx, id)).attempts === 1, 5000, 'first attempt');
    const d = await row(suite.ctx, id);
    expect(d).toMatchObject({ status: 'pending', last_status_code: 301, locked_until: null });
    expect(d.last_error).toContain('redirect to /elsewhere not followed');
    // First retry 5 s ± 10 % after the attempt: "within a minute" (docs/EVENTS.md).
    expect(d.next_attempt_at - before).toBeGreaterThanOrEqual(4500);
    expect(d.next_attempt_at - Date.now()).toBeLessThanOrEqual(5500);
    expect(ep.requests.map((r) => r.url)).toEqual(['/start']);
    await waitUntil(() => ep.requests.length === 2, 8000, 'the retry');
    expect(ep.requests.map((r) => r.url)).toEqual(['/start', '/start']);
    expect(ep.requests[1].headers['webhook-id']).toBe(ep.requests[0].headers['webhook-id']);
  });

  it('event webhook: 2xx is delivered and the answer, parsed whatever its Content-Type, reaches the registered handler', async () => {
    const seen: unknown[] = [];
    const off = registerAnswerHandler('chat_accepted', async (_ctx, delivery, body) => {
      seen.push({ id: delivery.id, status: delivery.status, body });
    });
    try {
      const ep = await suite.endpoint(() => ({ body: '{"result":"OK","crm_link":"https://crm.example/1"}', headers: { 'content-type': 'text/html' } }));
      const id = await enqueue(suite.ctx, { kind: 'event_webhook', eventType: 'chat_accepted', url: ep.url, body: { event_name: 'chat_accepted' } });
      await waitUntil(() => seen.length === 1, 5000, 'the answer handler');
      expect(seen[0]).toEqual({ id, status: 'delivered', body: { result: 'OK', crm_link: 'https://crm.example/1' } });
      // No handler for this event: nothing happens, the delivery is still recorded.
      const other = await enqueue(suite.ctx, { kind: 'event_webhook', eventType: 'chat_finished', url: ep.url, body: { event_name: 'chat_finished' } });
      await waitStatus(suite.ctx, other, 'delivered');
      expect(seen).toHaveLength(1);
    } finally {
      off();
    }
  });
});

describe('deliverer: batched records', () => {
  it('a row whose result the store refuses does not keep the others recorded with it from being delivered', async () => {
    const t = await createTestApp();
    const ep = await startEndpoint(() => ({ body: '{"result":"ok"}' }));
    try {
      const ctx = t.app.ctx;
      // The store refuses to record an attempt of the rows sent to /nul… (a trigger, as a broken row would).
      if (testDialect() === 'sqlite') {
        await sql`create trigger refuse_nul before update of attempts on deliveries when new.url like '%/nul%' begin select raise(abort, 'refused'); end`.execute(
          ctx.db,
        );
      } else {
        await sql`create function refuse_nul() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`.execute(ctx.db);
        await sql`create trigger refuse_nul before update of attempts on deliveries for each row when (new.url like '%/nul%' and new.attempts > old.attempts) execute function refuse_nul()`.execute(
          ctx.db,
        );
      }
      const ids = await commit(ctx.db, ctx.signals, async (tx) => {
        const out: Array<{ id: number; nul: boolean }> = [];
        for (let i = 0; i < 12; i++) {
          const nul = i % 4 === 0;
          const url = `${ep.url}/${nul ? 'nul' : 'ok'}${i}`;
          out.push({
            id: (
              await enqueueDelivery(tx, { accountId: ctx.defaultAccountId, kind: 'event_webhook', eventType: 'chat_updated', url, body: { i } }, ctx.clock())
            ).id,
            nul,
          });
        }
        return out;
      });
      const good = ids.filter((x) => !x.nul).map((x) => x.id);
      await waitUntil(
        async () =>
          (await ctx.db.selectFrom('deliveries').select('id').where('id', 'in', good).where('status', '=', 'delivered').execute()).length === good.length,
        5000,
        'the good rows delivered',
      );
      expect(ep.requests.filter((r) => r.url.startsWith('/ok'))).toHaveLength(good.length);
    } finally {
      await t.close();
      await ep.close();
    }
  });

  it('records an answer with NUL characters (raw or escaped in JSON) without them: PostgreSQL cannot store them', async () => {
    const t = await createTestApp();
    const ep = await startEndpoint((r) => ({ body: r.url === '/raw' ? 'bad\u0000answer' : '{"result":"ok\\u0000"}' }));
    try {
      const ctx = t.app.ctx;
      const raw = await enqueue(ctx, { kind: 'event_webhook', eventType: 'chat_updated', url: `${ep.url}/raw`, body: { i: 1 } });
      const escaped = await enqueue(ctx, { kind: 'event_webhook', eventType: 'chat_updated', url: `${ep.url}/escaped`, body: { i: 2 } });
      await waitUntil(
        async () =>
          (await ctx.db.selectFrom('deliveries').select('id').where('id', 'in', [raw, escaped]).where('status', '=', 'delivered').execute()).length === 2,
        5000,
        'both delivered and recorded',
      );
      const rows = await ctx.db.selectFrom('deliveries').select(['id', 'attempts', 'last_response']).where('id', 'in', [raw, escaped]).orderBy('id').execute();
      // The escape is six plain characters in the excerpt; only the parsed answer would hold a NUL.
      expect(rows.map((r) => [r.attempts, r.last_response])).toEqual([
        [1, 'badanswer'],
        [1, '{"result":"ok\\u0000"}'],
      ]);
    } finally {
      await t.close();
      await ep.close();
    }
  });
});

describe('deliverer: shutdown', () => {
  it('waits for a chat-channel attempt in flight, and abandons a slow event webhook after the grace period, uncounted', async () => {
    const store = freshStore();
    const ep = await startEndpoint((r) => (r.url === '/slow' ? { hang: true } : { delayMs: 1000, body: '{"result":"ok"}' }));
    let after: TestApp | null = null;
    try {
      const t = await createTestApp({ store });
      const chat = await enqueue(t.app.ctx, { url: `${ep.url}/chat` });
      const event = await enqueue(t.app.ctx, { kind: 'event_webhook', eventType: 'chat_updated', url: `${ep.url}/slow`, body: {} });
      await ep.waitForRequests(2);
      const started = Date.now();
      await t.close();
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(2500);
      expect(took).toBeLessThan(4500);
      after = await createTestApp({ store, workers: false });
      expect(await row(after.app.ctx, chat)).toMatchObject({ status: 'delivered', attempts: 1, locked_until: null });
      expect(await row(after.app.ctx, event)).toMatchObject({ status: 'pending', attempts: 0, locked_until: null, last_error: null });
    } finally {
      await after?.close();
      await ep.close();
      await store.cleanup();
    }
  });
});
