/**
 * Presence and alerts of the signed-in agent: the status an agent chose is
 * what it gets back when it opens the app (after closing every tab, or after
 * an idle spell), agents who never chose get the account's default, an idle
 * agent turns Away only when the account asks for it, alert preferences are
 * kept per agent and checked, and the first-run guide follows the account's
 * state. Runs on both stores (vitest projects).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { markGone } from '../../../../realtime/presenceWorker.js';

describe('presence, alert preferences and the first-run guide', () => {
  let t: TestApp;
  let pat: { id: number; token: string };
  const call = (method: 'GET' | 'PUT' | 'POST', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
  const presence = async (token: string, state: 'active' | 'idle') => {
    const res = await call('PUT', '/me/presence', token, { state });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ agent: { status: string }; chosen_status: string; away_after_idle_minutes: number }>();
  };
  const settings = (payload: object) => call('PUT', '/settings', t.adminToken, payload);
  const statusOf = async (id: number) => (await t.app.ctx.db.selectFrom('agents').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  beforeAll(async () => {
    t = await createTestApp();
    pat = await addAgent(t, { email: 'pat@example.com' });
  });
  afterAll(() => t.close());

  it('gives an agent who never chose the account default (Online) when the app opens, without changing the choice', async () => {
    expect(await statusOf(pat.id)).toBe('offline');
    expect((await call('GET', '/me/presence', pat.token)).json()).toMatchObject({
      agent: { status: 'offline' },
      chosen_status: 'online',
      away_after_idle_minutes: 0,
    });
    const view = await presence(pat.token, 'active');
    expect(view).toMatchObject({ agent: { status: 'online' }, chosen_status: 'online' });
    const row = await t.app.ctx.db.selectFrom('agents').select(['status', 'chosen_status']).where('id', '=', pat.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'online', chosen_status: null });
  });

  it('remembers the status the agent chose: after every tab closed, opening the app gives it back', async () => {
    expect((await call('PUT', '/me/status', pat.token, { status: 'away' })).json().status).toBe('away');
    // Every tab closed: an agent that chose Away keeps it; the app opening again keeps Away.
    expect(await markGone(t.app.ctx, { accountId: 1, agentId: pat.id })).toBe(false);
    expect((await presence(pat.token, 'active')).agent.status).toBe('away');

    await call('PUT', '/me/status', pat.token, { status: 'online' });
    expect(await markGone(t.app.ctx, { accountId: 1, agentId: pat.id })).toBe(true);
    expect(await statusOf(pat.id)).toBe('offline');
    expect(await presence(pat.token, 'active')).toMatchObject({ agent: { status: 'online' }, chosen_status: 'online' });

    await call('PUT', '/me/status', pat.token, { status: 'offline' });
    expect((await presence(pat.token, 'active')).agent.status).toBe('offline');
    await call('PUT', '/me/status', pat.token, { status: 'online' });
  });

  it('turns an idle online agent Away only when the account set a delay, and back on activity', async () => {
    // 0 = never: idle changes nothing.
    expect((await presence(pat.token, 'idle')).agent.status).toBe('online');

    expect((await settings({ presence: { away_after_idle_minutes: 5 } })).statusCode).toBe(200);
    const idle = await presence(pat.token, 'idle');
    expect(idle).toMatchObject({ agent: { status: 'away' }, chosen_status: 'online', away_after_idle_minutes: 5 });
    // The agent list (and so the widget) sees Away; every tab closing while idle sets it offline.
    expect(await markGone(t.app.ctx, { accountId: 1, agentId: pat.id })).toBe(true);
    expect(await statusOf(pat.id)).toBe('offline');
    expect((await presence(pat.token, 'idle')).agent.status).toBe('offline');
    expect((await presence(pat.token, 'active')).agent.status).toBe('online');

    // An agent that chose Away or Offline is not changed by idle or activity.
    await call('PUT', '/me/status', pat.token, { status: 'offline' });
    expect((await presence(pat.token, 'idle')).agent.status).toBe('offline');
    expect((await presence(pat.token, 'active')).agent.status).toBe('offline');
    await call('PUT', '/me/status', pat.token, { status: 'online' });
  });

  it('lets an admin set the default status of agents who never chose, and checks the presence settings', async () => {
    expect((await call('GET', '/settings', t.adminToken)).json().presence).toEqual({ default_status: 'online', away_after_idle_minutes: 5 });
    expect((await settings({ presence: { default_status: 'offline' } })).json().presence).toEqual({ default_status: 'offline', away_after_idle_minutes: 5 });
    const sam = await addAgent(t, { email: 'sam@example.com' });
    expect(await presence(sam.token, 'active')).toMatchObject({ agent: { status: 'offline' }, chosen_status: 'offline' });
    // Pat chose Online: the default does not change a choice.
    expect((await presence(pat.token, 'active')).agent.status).toBe('online');

    for (const [body, message] of [
      [{ default_status: 'busy' }, /presence\.default_status must be one of/],
      [{ away_after_idle_minutes: -1 }, /presence\.away_after_idle_minutes must be a whole number/],
      [{ away_after_idle_minutes: 1441 }, /from 0 \(never\) to 1440/],
      [{ away_after_idle_minutes: 2.5 }, /.+/],
    ] as const) {
      const res = await settings({ presence: body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    expect((await call('GET', '/settings', t.adminToken)).json().presence).toEqual({ default_status: 'offline', away_after_idle_minutes: 5 });
    expect((await call('PUT', '/settings', pat.token, { presence: { away_after_idle_minutes: 1 } })).statusCode).toBe(403);
    expect((await settings({ presence: null })).json().presence).toEqual({ default_status: 'online', away_after_idle_minutes: 0 });
    expect((await call('PUT', '/me/presence', pat.token, { state: 'asleep' })).statusCode).toBe(400);
  });

  it('keeps alert preferences per agent, partial changes, refusals change nothing', async () => {
    const defaults = { sound: true, volume: 80, desktop: true, muted: false, events: { new_chat: true, new_message: true, transfer: true } };
    expect((await call('GET', '/me/notifications', pat.token)).json()).toEqual(defaults);
    const changed = await call('PUT', '/me/notifications', pat.token, { volume: 30, muted: true, events: { new_message: false } });
    expect(changed.statusCode, changed.body).toBe(200);
    const mine = { ...defaults, volume: 30, muted: true, events: { new_chat: true, new_message: false, transfer: true } };
    expect(changed.json()).toEqual(mine);
    expect((await call('GET', '/me/notifications', pat.token)).json()).toEqual(mine);
    // Another agent's preferences are its own.
    expect((await call('GET', '/me/notifications', t.adminToken)).json()).toEqual(defaults);

    for (const [body, message] of [
      [{ volume: 101 }, /volume/],
      [{ volume: -1 }, /volume/],
      [{ sound: 'yes' }, /sound/],
      [{ events: { new_visitor: true } }, /events/],
      [{ events: { new_chat: 1 } }, /new_chat/],
      [{ colour: 'red' }, /.+/],
    ] as const) {
      const res = await call('PUT', '/me/notifications', pat.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    expect((await call('GET', '/me/notifications', pat.token)).json()).toEqual(mine);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me/notifications' })).statusCode).toBe(401);
  });

  it('shows an admin the first-run guide until every step is done or it is dismissed', async () => {
    const guide = async (token = t.adminToken) => (await call('GET', '/me/guide', token)).json();
    await call('PUT', '/me/status', t.adminToken, { status: 'offline' });
    expect(await guide()).toEqual({
      steps: [
        { id: 'channel', done: false },
        { id: 'snippet', done: false },
        { id: 'online', done: false },
      ],
      done: false,
      dismissed: false,
      show: true,
    });
    expect((await guide(pat.token)).show).toBe(false);

    const channel = await call('POST', '/channels', t.adminToken, { type: 'widget', name: 'Site' });
    expect(channel.statusCode, channel.body).toBe(201);
    await call('PUT', '/me/status', t.adminToken, { status: 'online' });
    expect((await guide()).steps).toEqual([
      { id: 'channel', done: true },
      { id: 'snippet', done: false },
      { id: 'online', done: true },
    ]);

    const session = await t.app.inject({ method: 'POST', url: `/widget/api/${channel.json().widget_id}/session`, payload: {} });
    expect(session.statusCode, session.body).toBeLessThan(300);
    expect(await guide()).toMatchObject({ done: true, show: false });
    // Going Offline afterwards does not bring the "Get started" guide back.
    await call('PUT', '/me/status', t.adminToken, { status: 'offline' });
    expect(await guide()).toMatchObject({ done: true, show: false });
    expect((await guide()).steps).toContainEqual({ id: 'online', done: true });

    const other = await addAgent(t, { email: 'ada@example.com', role: 'admin' });
    await call('PUT', '/me/status', other.token, { status: 'offline' });
    expect((await guide(other.token)).show).toBe(true);
    expect((await call('POST', '/me/guide/dismiss', other.token)).statusCode).toBe(204);
    expect(await guide(other.token)).toMatchObject({ dismissed: true, show: false });
  });
});
