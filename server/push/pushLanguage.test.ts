/**
 * Web Push texts in the receiving agent's language (docs/I18N.md "Mails and
 * notifications"), against the real push service of the tests
 * (test/helpers/pushService.ts, payloads decrypted): of one event, the agent
 * who chose German reads German, the one who chose Arabic Arabic, the one
 * who chose none English; what the visitor wrote stays as written. Runs on
 * both stores (vitest projects).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { registerDevice, startPushService, type TestPushService, type TestSubscription } from '../../test/helpers/pushService.js';
import { allRelayed } from '../../test/helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { createWidget, sendText, startSession, visitorCall, type TestWidget } from '../../test/helpers/widget.js';

describe('Web Push in the agent’s language', () => {
  let t: TestApp;
  let push: TestPushService;
  let widget: TestWidget;
  const devices: Record<'de' | 'ar' | 'none', TestSubscription | null> = { de: null, ar: null, none: null };

  const call = (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

  const register = (token: string) => registerDevice(t, push, token);

  /** What each device received since `from`, once every push went out. */
  async function receivedSince(from: number) {
    await allRelayed(t.app);
    await waitFor(async () => {
      const pending = await t.app.ctx.db.selectFrom('deliveries').select('id').where('kind', '=', 'web_push').where('status', '=', 'pending').execute();
      return pending.length === 0;
    }, 15_000);
    const got = push.received.slice(from);
    const of = (device: TestSubscription | null) => got.filter((r) => r.subscription === device?.id).map((r) => r.payload);
    return { de: of(devices.de), ar: of(devices.ar), none: of(devices.none) };
  }

  beforeAll(async () => {
    t = await createTestApp();
    push = await startPushService(async () => (await call('GET', '/push/vapid-public-key', t.adminToken)).json<{ public_key: string }>().public_key);
    const dora = await addAgent(t, { email: 'dora@example.com', name: 'Dora' });
    const amal = await addAgent(t, { email: 'amal@example.com', name: 'Amal' });
    const nell = await addAgent(t, { email: 'nell@example.com', name: 'Nell' });
    expect((await call('PATCH', '/me', dora.token, { language: 'de' })).statusCode).toBe(200);
    expect((await call('PATCH', '/me', amal.token, { language: 'ar' })).statusCode).toBe(200);
    widget = await createWidget(t, { name: 'Laden', agent_ids: [dora.id, amal.id, nell.id] });
    devices.de = await register(dora.token);
    devices.ar = await register(amal.token);
    devices.none = await register(nell.token);
  });
  afterAll(async () => {
    await t.close();
    await push.close();
  });

  it('titles a new chat in each agent’s language, the visitor’s words as written', async () => {
    const from = push.received.length;
    const s = await startSession(t, widget.widget_id);
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { name: 'Ann Lee' })).statusCode).toBe(200);
    await sendText(t, widget.widget_id, s.visitor_token, 'Hallo?');
    const got = await receivedSince(from);
    expect(got.de).toEqual([expect.objectContaining({ kind: 'new_chat', title: 'Neuer Chat: Ann Lee', body: 'Hallo?' })]);
    expect(got.ar).toEqual([expect.objectContaining({ kind: 'new_chat', title: 'محادثة جديدة: Ann Lee', body: 'Hallo?' })]);
    expect(got.none).toEqual([expect.objectContaining({ kind: 'new_chat', title: 'New chat: Ann Lee', body: 'Hallo?' })]);
  });

  it('names an offline message from a visitor who gave no name in each agent’s language', async () => {
    const from = push.received.length;
    const s = await startSession(t, widget.widget_id);
    const res = await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { email: 'bo@example.com', message: 'Rufen Sie zurück' });
    expect(res.json()).toEqual({ result: 'ok' });
    const got = await receivedSince(from);
    expect(got.de).toEqual([expect.objectContaining({ kind: 'offline_message', title: 'Offline-Nachricht: ein Besucher', body: 'Rufen Sie zurück' })]);
    expect(got.ar).toEqual([expect.objectContaining({ kind: 'offline_message', title: 'رسالة خارج أوقات الاتصال: زائر', body: 'Rufen Sie zurück' })]);
    expect(got.none).toEqual([expect.objectContaining({ kind: 'offline_message', title: 'Offline message: a visitor', body: 'Rufen Sie zurück' })]);
  });

  it('asks for a callback in each agent’s language', async () => {
    expect((await call('PUT', '/settings', t.adminToken, { callback: { enabled: true, balance_seconds: 600 } })).statusCode).toBe(200);
    const from = push.received.length;
    const s = await startSession(t, widget.widget_id);
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { name: 'Kim' })).statusCode).toBe(200);
    const res = await visitorCall(t, widget.widget_id, s.visitor_token, 'callback', { phone: '+15550100199' });
    expect(res.statusCode, res.body).toBe(200);
    const got = await receivedSince(from);
    expect(got.de).toEqual([expect.objectContaining({ kind: 'callback', title: 'Rückrufbitte', body: 'Kim bittet um Rückruf.' })]);
    expect(got.ar).toEqual([expect.objectContaining({ kind: 'callback', title: 'طلب معاودة الاتصال', body: 'Kim يطلب معاودة الاتصال به.' })]);
    expect(got.none).toEqual([expect.objectContaining({ kind: 'callback', title: 'Callback request', body: 'Kim asks to be called back.' })]);
  });
});
