import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';

describe('an event-webhook endpoint failing for more than a day is paused with a visible reason', () => {
  let t: TestApp;
  let channel: ChatChannel;
  let receiver: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let healthy = false;

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(t.adminToken), ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    t = await createTestApp();
    receiver = await startCustomerEndpoint(() => (healthy ? { status: 200, body: '{"result":"ok"}' } : { status: 503, body: 'down' }));
    await api('PUT', '/settings', { event_webhook_url: `${receiver.url}/events` });
    channel = await createChatChannel(t);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('pauses after the last attempt, holds new events, and sends them on resume', async () => {
    await postInbound(t, channel, textMessage('p-1', 'hi', { name: 'Paula' }));
    await postInbound(t, channel, textMessage('p-1', 'hi', { name: 'Paula P' }));
    const db = t.app.ctx.db;
    const row = await waitFor(() => db.selectFrom('deliveries').selectAll().where('kind', '=', 'event_webhook').executeTakeFirst());
    // Fast-forward the backoff: the next attempt is the last one of the schedule.
    await waitFor(async () => (await db.selectFrom('deliveries').select('attempts').where('id', '=', row.id).executeTakeFirstOrThrow()).attempts >= 1);
    await db
      .updateTable('deliveries')
      .set({ attempts: row.max_attempts - 1, next_attempt_at: Date.now() })
      .where('id', '=', row.id)
      .execute();
    t.app.ctx.signals.deliveriesDue();
    const settings = await waitFor(async () => {
      const s = (await api('GET', '/settings')).json();
      return s.webhooks_paused_reason ? s : null;
    });
    expect(settings.webhooks_paused_reason).toMatch(/failed every attempt.*resume/i);
    expect((await db.selectFrom('deliveries').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status).toBe('failed');

    healthy = true;
    const before = receiver.requests.length;
    await postInbound(t, channel, textMessage('p-1', 'hi', { name: 'Paula Q' }));
    const held = await waitFor(() => db.selectFrom('deliveries').selectAll().where('status', '=', 'paused').executeTakeFirst());
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests.length).toBe(before);

    const resumed = await api('POST', '/settings/webhooks/resume');
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().webhooks_paused_reason).toBeNull();
    const sent = await waitFor(() => receiver.requests.find((r) => r.headers['webhook-id'] === held.webhook_id));
    expect(JSON.parse(sent.body).visitor.name).toBe('Paula Q');
  });

  it('agents may not resume', async () => {
    await api('POST', '/agents', { name: 'Ag', email: 'ag@example.com', password: 'ag-password-1', role: 'agent' });
    const token = await t.login('ag@example.com', 'ag-password-1');
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/settings/webhooks/resume', headers: bearer(token) });
    expect(res.statusCode).toBe(403);
  });
});
