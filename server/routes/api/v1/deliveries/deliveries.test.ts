/** The delivery log API: list, filter, page, redeliver, account scoping and admin-only access. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { createSettingsRow } from '../../../../domain/settings/settingsRow.js';
import { enqueueDelivery } from '../../../../webhooks/enqueue.js';
import { enqueue, seedChat, startEndpoint, waitUntil, type Endpoint } from '../../../../../test/helpers/webhooks.js';

describe('GET /deliveries, POST /deliveries/:id/redeliver', () => {
  let t: TestApp;
  let ep: Endpoint;
  let answer = 500;
  let agentToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    ep = await startEndpoint(() => ({ status: answer, body: answer === 200 ? '{"result":"ok"}' : 'down' }));
    agentToken = (await addAgent(t, { email: 'agent@example.com' })).token;
  });
  afterAll(async () => {
    await ep.close();
    await t.close();
  });

  const list = (query = '', token = t.adminToken) => t.app.inject({ method: 'GET', url: `/api/v1/deliveries${query}`, headers: bearer(token) });

  it("lists the account's deliveries newest first with status, attempts and last answer; filters and pages", async () => {
    const ctx = t.app.ctx;
    const a = await enqueue(ctx, { kind: 'event_webhook', eventType: 'chat_accepted', url: `${ep.url}/events`, body: { event_name: 'chat_accepted' } });
    const b = await enqueue(ctx, { kind: 'event_webhook', eventType: 'chat_updated', url: `${ep.url}/events`, body: { event_name: 'chat_updated' } });
    await waitUntil(async () => (await list()).json().every((d: { attempts: number }) => d.attempts >= 1), 5000, 'first attempts');
    const res = await list();
    expect(res.statusCode).toBe(200);
    const rows = res.json();
    expect(rows.map((d: { id: number }) => d.id)).toEqual([b, a]);
    expect(rows[0]).toEqual({
      id: b,
      kind: 'event_webhook',
      event_type: 'chat_updated',
      url: `${ep.url}/events`,
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      last_response: 'down',
      last_error: 'HTTP 500',
      webhook_id: expect.stringMatching(/^msg_/),
      chat_id: null,
      message_id: null,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      delivered_at: null,
      next_attempt_at: expect.any(Number),
    });
    expect((await list(`?before=${b}`)).json().map((d: { id: number }) => d.id)).toEqual([a]);
    expect((await list('?limit=1')).json()).toHaveLength(1);
    expect((await list('?kind=chat_channel')).json()).toEqual([]);
    expect((await list('?status=pending')).json()).toHaveLength(2);
    expect((await list('?limit=1001')).statusCode).toBe(400);
    expect((await list('?status=bogus')).statusCode).toBe(400);
  });

  it('redelivers: same webhook-id and body, attempts counted anew, a chat-channel message pending again then delivered', async () => {
    const ctx = t.app.ctx;
    answer = 500;
    const seed = await seedChat(ctx, ep.url);
    const id = await enqueue(ctx, { url: `${ep.url}/${seed.publicId}`, chatId: seed.chatId, messageId: seed.messageId });
    await waitUntil(
      async () => (await ctx.db.selectFrom('deliveries').select('attempts').where('id', '=', id).executeTakeFirstOrThrow()).attempts >= 1,
      5000,
      'attempt',
    );
    const firstRequests = ep.requests.filter((r) => r.url === `/${seed.publicId}`);
    answer = 200;
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/deliveries/${id}/redeliver`, headers: bearer(t.adminToken) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, status: 'pending', attempts: 0, last_error: null, webhook_id: firstRequests[0].headers['webhook-id'] });
    await waitUntil(async () => (await list(`?before=${id + 1}&limit=1`)).json()[0].status === 'delivered', 5000, 'redelivered');
    const mine = ep.requests.filter((r) => r.url === `/${seed.publicId}`);
    const last = mine[mine.length - 1];
    expect(last.headers['webhook-id']).toBe(firstRequests[0].headers['webhook-id']);
    expect(last.body).toBe(firstRequests[0].body);
    expect((await list(`?before=${id + 1}&limit=1`)).json()[0]).toMatchObject({ attempts: 1, last_status_code: 200, next_attempt_at: null });
    const events = await ctx.db
      .selectFrom('events')
      .select('data_json')
      .where('chat_id', '=', seed.chatId)
      .where('type', '=', 'message.updated')
      .orderBy('id')
      .execute();
    expect(events.map((e) => JSON.parse(e.data_json).message.delivery.status)).toEqual(['pending', 'delivered']);
  });

  it("is scoped by account: another account's deliveries are neither listed nor redeliverable", async () => {
    const ctx = t.app.ctx;
    const otherId = await ctx.db.transaction().execute(async (tx) => {
      const account = await tx
        .insertInto('accounts')
        .values({ name: 'Other', next_visitor_number: 1, created_at: Date.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await createSettingsRow(tx, account.id, Date.now());
      const d = await enqueueDelivery(
        tx,
        { accountId: account.id, kind: 'event_webhook', eventType: 'chat_updated', url: `${ep.url}/other`, body: {} },
        Date.now(),
      );
      return d.id;
    });
    expect((await list('?limit=1000')).json().map((d: { id: number }) => d.id)).not.toContain(otherId);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/deliveries/${otherId}/redeliver`, headers: bearer(t.adminToken) })).statusCode).toBe(404);
  });

  it('answers 404 for an unknown id and 403 to agents, 401 without a token', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/deliveries/999999/redeliver', headers: bearer(t.adminToken) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/deliveries/abc/redeliver', headers: bearer(t.adminToken) })).statusCode).toBe(404);
    const agentList = await list('', agentToken);
    expect(agentList.statusCode).toBe(403);
    expect(agentList.json().error.code).toBe('forbidden');
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/deliveries/1/redeliver', headers: bearer(agentToken) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/deliveries' })).statusCode).toBe(401);
  });
});
