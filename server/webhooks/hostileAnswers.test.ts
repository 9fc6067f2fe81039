/**
 * Hostile receivers (#15 item 1): whatever a receiver answers — nested
 * thousands of levels deep, huge, malformed, endless — the attempt ends
 * recorded, failed with a clear reason where the answer is not understood,
 * and the process goes on delivering. Real HTTP receivers, real deliverer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { delivererSuite, enqueue, seedChat, waitUntil } from '../../test/helpers/webhooks.js';
import type { AppContext } from '../context.js';
import { registerAnswerHandler } from '../eventWebhooks/answers.js';

const row = (ctx: AppContext, id: number) => ctx.db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const waitStatus = (ctx: AppContext, id: number, status: string, ms = 8000) =>
  waitUntil(async () => (await row(ctx, id)).status === status, ms, `delivery ${id} to be ${status}`);

const nestedArrays = (n: number): string => '['.repeat(n) + ']'.repeat(n);
const nestedObjects = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('deliverer: hostile answers end as recorded attempts', () => {
  const suite = delivererSuite();

  it('a chat-channel receiver answering 2,000-level nested JSON: failed with a clear reason, one request, and the service keeps delivering', async () => {
    const deep = nestedArrays(2000);
    expect(deep.length).toBe(4000);
    const ep = await suite.endpoint(() => ({ body: deep }));
    const seed = await seedChat(suite.ctx, ep.url);
    const id = await enqueue(suite.ctx, { url: `${ep.url}/${seed.publicId}`, chatId: seed.chatId, messageId: seed.messageId });
    await waitStatus(suite.ctx, id, 'failed');
    const d = await row(suite.ctx, id);
    expect(d).toMatchObject({ attempts: 1, last_status_code: 200, delivered_at: null, locked_until: null });
    expect(d.last_error).toBe('answer not understood: its JSON is nested deeper than 64 levels');
    expect(d.last_response).toBe(deep.slice(0, 2000));
    const message = await suite.ctx.db.selectFrom('messages').selectAll().where('id', '=', seed.messageId).executeTakeFirstOrThrow();
    expect(message.delivery_status).toBe('failed');
    expect(message.delivery_error).toBe("Not delivered: the customer endpoint's answer was not understood (its JSON is nested deeper than 64 levels).");
    // Final: the receiver did answer; it is not asked again.
    await new Promise((r) => setTimeout(r, 3300));
    expect(ep.requests).toHaveLength(1);

    // Still alive and delivering.
    expect((await suite.t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const ok = await suite.endpoint();
    const next = await enqueue(suite.ctx, { url: `${ok.url}/x` });
    await waitStatus(suite.ctx, next, 'delivered');
  });

  it('an event-webhook receiver answering deeply nested objects (with a chat_accepted handler): failed, the handler never sees it', async () => {
    const seen: unknown[] = [];
    const off = registerAnswerHandler('chat_accepted', async (_ctx, _delivery, body) => {
      seen.push(body);
    });
    try {
      const ep = await suite.endpoint(() => ({ body: nestedObjects(5000), headers: { 'content-type': 'text/plain' } }));
      const id = await enqueue(suite.ctx, { kind: 'event_webhook', eventType: 'chat_accepted', url: ep.url, body: { event_name: 'chat_accepted' } });
      await waitStatus(suite.ctx, id, 'failed');
      expect(await row(suite.ctx, id)).toMatchObject({
        attempts: 1,
        last_status_code: 200,
        last_error: 'answer not understood: its JSON is nested deeper than 64 levels',
      });
      expect(seen).toEqual([]);
    } finally {
      off();
    }
  });

  it('nesting within the limit, brackets inside strings, and an error answer nested too deep are all understood as before', async () => {
    const within = `{"result":"ok","x":${nestedArrays(60)},"s":"${'['.repeat(5000)}"}`;
    const ep = await suite.endpoint(() => ({ body: within }));
    const id = await enqueue(suite.ctx, { url: `${ep.url}/a` });
    await waitStatus(suite.ctx, id, 'delivered');
    // A non-2xx answer is a status failure whatever its body: retried as before.
    const bad = await suite.endpoint(() => ({ status: 500, body: nestedArrays(3000) }));
    const retried = await enqueue(suite.ctx, { url: `${bad.url}/b` });
    await waitUntil(async () => (await row(suite.ctx, retried)).attempts >= 1, 5000, 'the first attempt');
    expect(await row(suite.ctx, retried)).toMatchObject({ status: 'pending', last_error: 'HTTP 500' });
  });

  it('an answer that never ends (a deep prefix streamed past 64 KiB) is cut, judged, recorded', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = '['.repeat(16 * 1024);
      const timer = setInterval(() => {
        if (!res.write(chunk)) return;
      }, 5);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const id = await enqueue(suite.ctx, { url: `${url}/endless` });
      await waitStatus(suite.ctx, id, 'failed');
      expect((await row(suite.ctx, id)).last_error).toBe('answer not understood: its JSON is nested deeper than 64 levels');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
