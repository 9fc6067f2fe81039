/**
 * The audit log (docs/DATA.md "Audit log"): successful exports, settings,
 * channel and agent changes, password resets and throttle clears are recorded
 * with who, what, which target, from which address and when; refused requests
 * are not; GET /api/v1/audit shows them newest first to administrators only;
 * rows older than AUDIT_RETENTION_DAYS go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { Retention } from '../../../../retention/worker.js';

interface Entry {
  id: number;
  at: number;
  agent: { id: number; name: string | null } | null;
  action: string;
  target: { type: string; id: string } | null;
  address: string | null;
}

describe('the audit log', () => {
  let t: TestApp;
  let agent: { id: number; token: string };
  const api = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>, token = t.adminToken) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: { ...bearer(token), 'x-forwarded-for': '203.0.113.9' }, ...(payload ? { payload } : {}) });
  const log = async () => (await api('GET', '/audit')).json<Entry[]>();
  // A row is written once its request has been answered (the onResponse hook), so a read right
  // after the answer may come first: wait for the newest rows to be the ones expected.
  const logOnce = async (newest: string[]) => {
    await expect.poll(async () => (await log()).map((e) => e.action).slice(0, newest.length), { timeout: 5000 }).toEqual(newest);
    return log();
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { AUDIT_RETENTION_DAYS: '365' } });
    agent = await addAgent(t, { email: 'ann@example.com', name: 'Ann' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('records who changed what, from where, newest first', async () => {
    expect((await api('PUT', '/settings', { missed_chat_minutes: 5 })).statusCode).toBe(200);
    const channel = await api('POST', '/channels', { type: 'widget', name: 'Shop' });
    expect(channel.statusCode).toBe(201);
    expect((await api('PATCH', `/agents/${agent.id}`, { name: 'Ann B.' })).statusCode).toBe(200);
    expect((await api('GET', '/export')).statusCode).toBe(200);
    const entries = await logOnce(['data.exported', 'agent.updated', 'channel.created', 'settings.updated', 'agent.created']);
    const admin = entries[0].agent!;
    expect(admin.name).toBe('Administrator');
    expect(entries[1]).toMatchObject({ target: { type: 'agent', id: String(agent.id) }, address: '203.0.113.9', agent: { id: admin.id } });
    expect(entries[2].target).toEqual({ type: 'channel', id: String(channel.json<{ id: number }>().id) });
    expect(entries[3].target).toBeNull();
    expect(entries.every((e) => typeof e.at === 'number')).toBe(true);
  });

  it('records nothing for a refused request or an unaudited one', async () => {
    const before = (await log()).length;
    expect((await api('PUT', '/settings', { event_webhook_url: 'not a url' })).statusCode).toBe(400);
    expect((await api('PATCH', `/agents/${agent.id}`, { name: 'x' }, agent.token)).statusCode).toBe(403);
    expect((await api('GET', '/chats')).statusCode).toBe(200);
    // Then one audited change: once its row is there, the three before it had their turn.
    expect((await api('PUT', '/settings', { missed_chat_minutes: 6 })).statusCode).toBe(200);
    expect((await logOnce(['settings.updated'])).length).toBe(before + 1);
  });

  it('records a forgotten password without an agent', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: 'ann@example.com' },
      headers: { 'x-forwarded-for': '198.51.100.4' },
    });
    expect(res.statusCode).toBe(202);
    expect((await logOnce(['password.reset_requested']))[0]).toMatchObject({ action: 'password.reset_requested', agent: null, address: '198.51.100.4' });
  });

  it("records an erasure with the visitor's id only", async () => {
    const channel = await createChatChannel(t);
    await postInbound(t, channel, textMessage('erase-me', 'forget me', { name: 'Greta Marker', email: 'greta@example.com' }));
    const visitor = await t.app.ctx.db.selectFrom('visitors').select('id').where('external_id', '=', 'erase-me').executeTakeFirstOrThrow();
    expect((await api('DELETE', `/visitors/${visitor.id}`)).statusCode).toBe(202);
    const entries = await logOnce(['visitor.erased']);
    expect(entries[0]).toMatchObject({ action: 'visitor.erased', target: { type: 'visitor', id: String(visitor.id) } });
    expect(JSON.stringify(entries)).not.toMatch(/Greta|greta@/);
  });

  it('is for administrators only', async () => {
    expect((await api('GET', '/audit', undefined, agent.token)).statusCode).toBe(403);
  });

  it('keeps rows for AUDIT_RETENTION_DAYS', async () => {
    const old = Date.now() - 366 * 86_400_000;
    await t.app.ctx.db
      .insertInto('audit_log')
      .values({
        account_id: 1,
        agent_id: null,
        agent_name: null,
        action: 'settings.updated',
        target_type: null,
        target_id: null,
        address: null,
        created_at: old,
      })
      .execute();
    const count = async () => (await log()).length;
    const before = await count();
    expect((await new Retention(t.app.ctx).pass()).audit).toBe(1);
    expect(await count()).toBe(before - 1);
  });
});
