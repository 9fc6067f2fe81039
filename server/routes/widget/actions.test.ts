/**
 * Visitor actions of the widget API: contact info (→ chat.updated and the
 * chat_updated webhook), custom data rules, user token with and without an
 * identity secret, page, client attributes, rating and callback availability.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRelayed } from '../../../test/helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { createWidget, sendText, startSession, visitorCall, type TestWidget } from '../../../test/helpers/widget.js';
import { userTokenSignature } from '../../domain/widget/setUserToken.js';

describe('widget visitor actions', () => {
  let t: TestApp;
  let widget: TestWidget;

  beforeAll(async () => {
    t = await createTestApp();
    widget = await createWidget(t);
  });
  afterAll(() => t.close());

  const db = () => t.app.ctx.db;
  const visitorOf = (number: number) => db().selectFrom('visitors').selectAll().where('number', '=', number).executeTakeFirstOrThrow();
  const chatOf = (id: number) => db().selectFrom('chats').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const chatEvents = (chatId: number) =>
    db().selectFrom('events').selectAll().where('chat_id', '=', chatId).where('type', '=', 'chat.updated').orderBy('id').execute();
  const settings = (payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: '/api/v1/settings', headers: bearer(t.adminToken), payload });

  it('stores contact info on the visitor; with an open chat records chat.updated (visitor_updated) → chat_updated webhook', async () => {
    await settings({ event_webhook_url: 'http://127.0.0.1:9/events' });
    const s = await startSession(t, widget.widget_id);
    const before = await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { client_name: 'Ann', email: 'ann@example.com' });
    expect(before.json()).toEqual({ result: 'ok' });
    const { chat_id: chatId } = await sendText(t, widget.widget_id, s.visitor_token, 'hi');
    const res = await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { name: 'Ann Lee', phone: '+1 555 0100', description: 'VIP customer' });
    expect(res.json()).toEqual({ result: 'ok' });
    expect(await visitorOf(s.visitor.number)).toMatchObject({ name: 'Ann Lee', email: 'ann@example.com', phone: '+1 555 0100', description: 'VIP customer' });
    const events = await chatEvents(chatId);
    expect(events.map((e) => JSON.parse(e.data_json).change)).toEqual(['visitor_updated']);
    // The same details again change nothing and send nothing.
    await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { name: 'Ann Lee' });
    expect(await chatEvents(chatId)).toHaveLength(1);
    await allRelayed(t.app);
    const delivery = await db()
      .selectFrom('deliveries')
      .selectAll()
      .where('chat_id', '=', chatId)
      .where('event_type', '=', 'chat_updated')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(delivery.body)).toMatchObject({ event_name: 'chat_updated', chat_id: chatId, visitor: { name: 'Ann Lee', description: 'VIP customer' } });
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { email: 'not-an-email' })).statusCode).toBe(400);
    await settings({ event_webhook_url: null });
  });

  it('custom data: array required, 10 fields at most (the answer counts those dropped), strings cut to 1000, HTML kept as text', async () => {
    const s = await startSession(t, widget.widget_id);
    for (const body of [{ fields: { title: 'x' } }, { fields: 'x' }, {}]) {
      const res = await visitorCall(t, widget.widget_id, s.visitor_token, 'custom-data', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('Custom data must be array.');
    }
    const fields = Array.from({ length: 12 }, (_, i) => ({ title: `T${i}`, content: i === 0 ? '<b>bold</b><script>x()</script>' : 'y'.repeat(1500), key: 7 }));
    // Exactly 10: nothing left out, the plain answer.
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'custom-data', { fields: fields.slice(0, 10) })).json()).toEqual({ result: 'ok' });
    // 12: the last 2 were left out, and the answer says so.
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'custom-data', { fields })).json()).toEqual({ result: 'ok', dropped: 2 });
    // No chat yet: kept on the session, then copied to the chat that opens.
    const { chat_id: chatId } = await sendText(t, widget.widget_id, s.visitor_token, 'hi');
    const stored = JSON.parse((await chatOf(chatId)).custom_data_json) as Array<Record<string, string>>;
    expect(stored).toHaveLength(10);
    expect(stored[0]).toEqual({ title: 'T0', content: '<b>bold</b><script>x()</script>' });
    expect(stored[1].content).toHaveLength(1000);
  });

  it('custom data with an open chat is stored on it and sent live (chat.updated, custom_data); Safe URL filters links', async () => {
    await settings({ safe_url: 'https://shop.example.com/' });
    const s = await startSession(t, widget.widget_id);
    const { chat_id: chatId } = await sendText(t, widget.widget_id, s.visitor_token, 'hi');
    const fields = [
      { title: 'Order', link: 'https://shop.example.com/orders/1' },
      { title: 'Sub', link: 'https://admin.shop.example.com/x' },
      { title: 'Evil', link: 'https://evil.example.net/phish' },
      { title: 'Lookalike', link: 'https://notshop.example.com/' },
      { title: 'Script', link: 'javascript:alert(1)' },
    ];
    await visitorCall(t, widget.widget_id, s.visitor_token, 'custom-data', { fields });
    expect(JSON.parse((await chatOf(chatId)).custom_data_json)).toEqual([
      { title: 'Order', link: 'https://shop.example.com/orders/1' },
      { title: 'Sub', link: 'https://admin.shop.example.com/x' },
      { title: 'Evil' },
      { title: 'Lookalike' },
      { title: 'Script' },
    ]);
    const events = await chatEvents(chatId);
    expect(JSON.parse(events.at(-1)!.data_json)).toMatchObject({ change: 'custom_data', chat: { custom_data: expect.any(Array) } });
    await settings({ safe_url: null });
  });

  it('user token: stored without an identity secret; with one, only with the right HMAC signature', async () => {
    const s = await startSession(t, widget.widget_id);
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'user-token', { token: 'crm-42' })).json()).toEqual({ result: 'ok', token: 'crm-42' });
    expect((await visitorOf(s.visitor.number)).user_token).toBe('crm-42');
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'user-token', { token: 42 })).json()).toEqual({ result: 'fail', token: false });

    const secret = 'identity-secret-1';
    await db()
      .updateTable('channels')
      .set({ options_json: JSON.stringify({ identity_secret: secret }) })
      .where('id', '=', widget.id)
      .execute();
    const call = (body: Record<string, unknown>) => visitorCall(t, widget.widget_id, s.visitor_token, 'user-token', body).then((r) => r.json());
    expect(await call({ token: 'crm-43' })).toEqual({ result: 'fail', token: false });
    expect(await call({ token: 'crm-43', signature: userTokenSignature('crm-44', secret) })).toEqual({ result: 'fail', token: false });
    expect((await visitorOf(s.visitor.number)).user_token).toBe('crm-42');
    expect(await call({ token: 'crm-43', signature: userTokenSignature('crm-43', secret).toUpperCase() })).toEqual({ result: 'ok', token: 'crm-43' });
    expect((await visitorOf(s.visitor.number)).user_token).toBe('crm-43');
    await db().updateTable('channels').set({ options_json: '{}' }).where('id', '=', widget.id).execute();
  });

  it('page and title (sendPageTitle), and client attributes, go to the session', async () => {
    const s = await startSession(t, widget.widget_id);
    const session = async () => JSON.parse((await visitorOf(s.visitor.number)).session_json);
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'page', { url: 'https://shop.example.com/cart', title: 'Cart' })).statusCode).toBe(204);
    expect((await session()).page).toEqual({ url: 'https://shop.example.com/cart', title: 'Cart' });
    await visitorCall(t, widget.widget_id, s.visitor_token, 'page', { title: 'Your cart (2)' });
    expect((await session()).page).toEqual({ url: 'https://shop.example.com/cart', title: 'Your cart (2)' });
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'page', { url: 'ftp://x' })).statusCode).toBe(400);

    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'attributes', { attributes: { plan: 'pro', seats: 3, trial: false } })).statusCode).toBe(
      204,
    );
    await visitorCall(t, widget.widget_id, s.visitor_token, 'attributes', { attributes: { seats: 4 } });
    expect((await session()).attributes).toEqual({ plan: 'pro', seats: 4, trial: false });
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'attributes', { attributes: { nested: { a: 1 } } })).statusCode).toBe(400);
  });

  it('rates the open chat, then the last one once finished', async () => {
    const s = await startSession(t, widget.widget_id);
    const none = await visitorCall(t, widget.widget_id, s.visitor_token, 'rate', { rate: 'positive' });
    expect(none.statusCode).toBe(409);
    const { chat_id: chatId } = await sendText(t, widget.widget_id, s.visitor_token, 'hi');
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'rate', { rate: 'great' })).statusCode).toBe(400);
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'rate', { rate: 'positive' })).statusCode).toBe(204);
    expect((await chatOf(chatId)).rate).toBe('positive');
    await t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/finish`, headers: bearer(t.adminToken), payload: {} });
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'rate', { rate: 'negative' })).statusCode).toBe(204);
    expect((await chatOf(chatId)).rate).toBe('negative');
    expect(JSON.parse((await chatEvents(chatId)).at(-1)!.data_json)).toMatchObject({ change: 'rated', chat: { rate: 'negative' } });
  });

  it('answers callback availability (disabled until an admin enables it)', async () => {
    const s = await startSession(t, widget.widget_id);
    const res = await visitorCall(t, widget.widget_id, s.visitor_token, 'callback', undefined, { method: 'GET' });
    expect(res.json()).toEqual({ result: 'fail', reason: 'Callback disabled' });
    const start = await visitorCall(t, widget.widget_id, s.visitor_token, 'callback', { phone: '+15550100199' });
    expect(start.json()).toEqual({ result: 'fail', reason: 'Callback disabled' });
  });
});
