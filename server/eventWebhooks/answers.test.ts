/**
 * Receivers' answers (#17 item 7): 'FAILURE' (any case) in a 2xx answer to
 * chat_assigned/chat_finished/chat_updated/offline_message is a failure
 * reported by the receiver, recorded with the answer and not retried; a
 * non-2xx answer is retried whatever it says; a JSON string that wraps an
 * object is read as that object, for chat_accepted too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { enqueue, startEndpoint, waitUntil, type Answer, type Endpoint } from '../../test/helpers/webhooks.js';
import type { AppContext } from '../context.js';
import { readAnswer, reportedFailure } from './answers.js';

const row = (ctx: AppContext, id: number) => ctx.db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('reading an answer', () => {
  it('reads a JSON string that wraps an object as that object, and nothing else', () => {
    expect(readAnswer('{"result":"ok","crm_link":"https://crm.example/1"}')).toEqual({ result: 'ok', crm_link: 'https://crm.example/1' });
    expect(readAnswer({ result: 'ok' })).toEqual({ result: 'ok' });
    expect(readAnswer('ok')).toBe('ok');
    expect(readAnswer('[1,2]')).toBe('[1,2]');
    expect(readAnswer('"{\\"result\\":\\"ok\\"}"')).toBe('"{\\"result\\":\\"ok\\"}"');
    expect(readAnswer(`${'['.repeat(100)}${']'.repeat(100)}`)).toBe(`${'['.repeat(100)}${']'.repeat(100)}`);
  });

  it("finds 'FAILURE' in any case, wrapped or not, only for the events whose answer is a result", () => {
    for (const event of ['chat_assigned', 'chat_finished', 'chat_updated', 'offline_message']) {
      expect(reportedFailure(event, { result: 'FAILURE' })).toBe('failure reported by the receiver (result "FAILURE")');
    }
    expect(reportedFailure('chat_updated', { result: 'failure' })).toMatch(/failure reported/);
    expect(reportedFailure('chat_updated', ' {"result":" Failure "} ')).toMatch(/failure reported/);
    expect(reportedFailure('chat_updated', { result: 'OK' })).toBeNull();
    expect(reportedFailure('chat_updated', undefined)).toBeNull();
    expect(reportedFailure('chat_updated', { result: 1 })).toBeNull();
    expect(reportedFailure('chat_accepted', { result: 'FAILURE' })).toBeNull();
    expect(reportedFailure('call_event', { result: 'FAILURE' })).toBeNull();
  });
});

describe("a receiver's 'FAILURE' on the real deliverer", () => {
  let t: TestApp;
  let ctx: AppContext;
  const endpoints: Endpoint[] = [];
  const endpoint = async (answer: () => Answer): Promise<Endpoint> => {
    const ep = await startEndpoint(answer);
    endpoints.push(ep);
    return ep;
  };
  beforeAll(async () => {
    t = await createTestApp();
    ctx = t.app.ctx;
  });
  afterAll(async () => {
    for (const ep of endpoints) await ep.close();
    await t.close();
  });

  const cases: Array<[string, string]> = [
    ['chat_finished', '{"result":"FAILURE"}'],
    ['chat_updated', '{"result":"failure","reason":"no such card"}'],
    ['chat_assigned', JSON.stringify(JSON.stringify({ result: 'Failure' }))],
    ['offline_message', '{"result":"FAILURE"}'],
  ];
  for (const [eventType, answer] of cases) {
    it(`${eventType} answered 200 ${answer}: failed once, with the answer in the delivery log, not retried`, async () => {
      const ep = await endpoint(() => ({ status: 200, body: answer }));
      const id = await enqueue(ctx, { kind: 'event_webhook', eventType, url: ep.url, body: { event_name: eventType } });
      await waitUntil(async () => (await row(ctx, id)).status === 'failed', 5000, 'failed');
      expect(await row(ctx, id)).toMatchObject({
        attempts: 1,
        last_status_code: 200,
        last_response: answer,
        last_error: expect.stringMatching(/^refused: failure reported by the receiver \(result "(FAILURE|failure|Failure)"\)$/),
      });
      const log = await t.app.inject({ method: 'GET', url: '/api/v1/deliveries?kind=event_webhook', headers: bearer(t.adminToken) });
      expect(log.json().find((d: { id: number }) => d.id === id)).toMatchObject({ status: 'failed', last_response: answer, next_attempt_at: null });
      await new Promise((r) => setTimeout(r, 300));
      expect(ep.requests).toHaveLength(1);
      // The receiver answered: nothing is paused for a failure it reported.
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: bearer(t.adminToken) })).json().webhooks_paused_reason).toBeNull();
    });
  }

  it("a 500 answer saying 'FAILURE' is retried (docs/EVENTS.md), and 'OK' is delivered", async () => {
    const failing = await endpoint(() => ({ status: 500, body: '{"result":"FAILURE"}' }));
    const retried = await enqueue(ctx, { kind: 'event_webhook', eventType: 'chat_updated', url: failing.url, body: { event_name: 'chat_updated' } });
    await waitUntil(async () => (await row(ctx, retried)).attempts === 1, 5000, 'one attempt');
    expect(await row(ctx, retried)).toMatchObject({ status: 'pending', last_error: 'HTTP 500' });
    const ok = await endpoint(() => ({ status: 200, body: '{"result":"ok"}' }));
    const delivered = await enqueue(ctx, { kind: 'event_webhook', eventType: 'chat_finished', url: ok.url, body: { event_name: 'chat_finished' } });
    await waitUntil(async () => (await row(ctx, delivered)).status === 'delivered', 5000, 'delivered');
  });
});

describe('a chat_accepted answer sent as a JSON string is read as the object it wraps', () => {
  let t: TestApp;
  let channel: ChatChannel;
  let receiver: Awaited<ReturnType<typeof startCustomerEndpoint>>;

  beforeAll(async () => {
    t = await createTestApp();
    const answer = JSON.stringify({ result: 'OK', crm_link: 'https://crm.example.com/card/9', enable_assign: true });
    receiver = await startCustomerEndpoint((req) =>
      JSON.parse(req.body).event_name === 'chat_accepted' ? { body: JSON.stringify(answer) } : { body: '{"result":"ok"}' },
    );
    await t.app.inject({ method: 'PUT', url: '/api/v1/settings', headers: bearer(t.adminToken), payload: { event_webhook_url: `${receiver.url}/events` } });
    channel = await createChatChannel(t);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('fills the agent panel from it', async () => {
    await postInbound(t, channel, textMessage('wrapped-1', 'hello', { name: 'Wanda' }));
    const chat = await t.app.ctx.db.selectFrom('chats').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/chats/${chat.id}/accept`, headers: bearer(t.adminToken) })).statusCode).toBe(200);
    const shown = await waitFor(async () => {
      const c = (await t.app.inject({ method: 'GET', url: `/api/v1/chats/${chat.id}`, headers: bearer(t.adminToken) })).json();
      return c.crm_link ? c : null;
    });
    expect(shown).toMatchObject({ crm_link: 'https://crm.example.com/card/9', enable_assign: true });
  });
});
