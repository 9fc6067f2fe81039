/**
 * A person's data for a request of access (docs/DATA.md "Export"):
 * GET /api/v1/visitors?… finds their visitor records by e-mail, phone, user
 * token or chat-channel sender; GET /api/v1/visitors/:id/export gives one
 * visitor's data: details, chats with every message, files, calls, offline
 * messages, and the events and deliveries about them. Administrators only;
 * nothing of another account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { agentReply, createWidget, sendText, startSession, visitorCall, type TestWidget } from '../../../../../test/helpers/widget.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('a visitor’s data', () => {
  let t: TestApp;
  let channel: ChatChannel;
  let widget: TestWidget;
  let agentToken: string;
  let endpoint: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let widgetVisitorId: number;
  const api = (url: string, token = t.adminToken) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(token) });
  const ids = async (query: string) => (await api(`/visitors?${query}`)).json<{ id: number }[]>().map((v) => v.id);

  beforeAll(async () => {
    t = await createTestApp();
    endpoint = await startCustomerEndpoint();
    agentToken = (await addAgent(t, { email: 'ann@example.com' })).token;
    channel = await createChatChannel(t, { webhook_url: endpoint.url });
    widget = await createWidget(t);
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      headers: bearer(t.adminToken),
      payload: { callback: { enabled: true, balance_seconds: 600 }, event_webhook_url: `${endpoint.url}/events` },
    });
    expect(put.statusCode).toBe(200);
    await postInbound(t, channel, textMessage('tg-77', 'first question', { name: 'Olga', email: 'Olga@Example.com', phone: '+49 30 1234-5678' }));
    const s = await startSession(t, widget.widget_id);
    await visitorCall(t, widget.widget_id, s.visitor_token, 'user-token', { token: 'crm-olga' });
    widgetVisitorId = (await t.app.ctx.db.selectFrom('visitors').select('id').where('number', '=', s.visitor.number).executeTakeFirstOrThrow()).id;
    const sent = await sendText(t, widget.widget_id, s.visitor_token, 'hello from the site');
    await agentReply(t, sent.chat_id, 'Hello Olga');
    const upload = await t.app.inject({
      method: 'POST',
      url: `/widget/api/${widget.widget_id}/uploads`,
      headers: { ...bearer(s.visitor_token), 'content-type': 'image/png', 'x-file-name': 'receipt.png', 'x-forwarded-for': '198.51.100.7' },
      payload: PNG,
    });
    expect(upload.statusCode).toBe(200);
    await visitorCall(t, widget.widget_id, s.visitor_token, 'messages', { type: 'photo', ...upload.json<Record<string, unknown>>() });
    await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { name: 'Olga', email: 'olga@example.com', message: 'please write back' });
    await visitorCall(t, widget.widget_id, s.visitor_token, 'callback', { phone: '+4930123456' });
    await waitFor(() => endpoint.requests.some((r) => r.url === '/events'));
  });
  afterAll(async () => {
    await t.close();
    await endpoint.close();
  });

  it('finds a person by e-mail in any case, by phone whatever the separators, by user token and by sender', async () => {
    // The widget visitor left the same address on the offline form: one person, two visitor records, newest first.
    const both = (await api('/visitors?email=olga@example.com')).json<{ id: number; external_id: string }[]>();
    expect(both.map((v) => v.id)).toEqual([widgetVisitorId, expect.any(Number)]);
    const olga = both.slice(1);
    expect(olga[0].external_id).toBe('tg-77');
    expect(await ids('phone=%2B493012345678')).toEqual([olga[0].id]);
    const spaced = await api('/visitors?phone=49%20(30)%201234.5678');
    expect(spaced.statusCode, spaced.body).toBe(200);
    expect(spaced.json().map((v: { id: number }) => v.id)).toEqual([olga[0].id]);
    expect(await ids('user_token=crm-olga')).toEqual([widgetVisitorId]);
    const bySender = await api(`/visitors?channel_id=${channel.id}&sender_id=tg-77`);
    expect(bySender.statusCode, bySender.body).toBe(200);
    expect(bySender.json().map((v: { id: number }) => v.id)).toEqual([olga[0].id]);
    expect(await ids(`channel_id=${widget.id}`)).toEqual([widgetVisitorId]);
    expect(await ids('email=nobody@example.com')).toEqual([]);
  });

  it('answers 400 saying what to give when the query names nobody', async () => {
    for (const query of ['', 'sender_id=tg-77', 'phone=12', 'channel_id=abc', 'email=' + 'x'.repeat(400)]) {
      const res = await api(`/visitors?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    expect((await api('/visitors')).json().error.message).toMatch(/email, phone, user_token, or channel_id with sender_id/);
  });

  it("exports one visitor's chats, messages, files, calls, offline messages, events and deliveries", async () => {
    const res = await api(`/visitors/${widgetVisitorId}/export`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="parley-visitor-\d+\.json"$/);
    const data = res.json();
    expect(data.visitor).toMatchObject({ id: widgetVisitorId, channel_id: widget.id });
    expect(data.chats).toHaveLength(1);
    expect(data.chats[0].messages.map((m: { text?: string; type: string }) => m.text ?? m.type)).toEqual(['hello from the site', 'Hello Olga', 'photo']);
    expect(data.files).toHaveLength(1);
    expect(data.files[0].url).toMatch(/^http:\/\/parley\.test\/widget\/uploads\/[a-z0-9]+-receipt\.png$/);
    expect(data.files[0].size).toBe(PNG.length);
    expect(data.calls).toMatchObject([{ type: 'callback', phone: '+4930123456' }]);
    expect(data.offline_messages).toMatchObject([{ message: 'please write back' }]);
    expect(data.events.map((e: { type: string }) => e.type)).toContain('message.created');
    expect(data.deliveries.some((d: { kind: string }) => d.kind === 'event_webhook')).toBe(true);
    // The user token is in what the CRM was sent (events, deliveries), never among the visitor's details.
    expect(JSON.stringify(data.visitor)).not.toContain('crm-olga');
    expect(JSON.stringify(data)).not.toMatch(/token_hash|password/);
    const olga = (await api(`/visitors?channel_id=${channel.id}&sender_id=tg-77`)).json<{ id: number }[]>()[0];
    const chatChannelData = (await api(`/visitors/${olga.id}/export`)).json();
    expect(chatChannelData.deliveries.length + chatChannelData.events.length).toBeGreaterThan(0);
    expect(chatChannelData.chats[0].messages[0].text).toBe('first question');
  });

  it('is for administrators, and for their own account only', async () => {
    expect((await api('/visitors?email=olga@example.com', agentToken)).statusCode).toBe(403);
    expect((await api(`/visitors/${widgetVisitorId}/export`, agentToken)).statusCode).toBe(403);
    const other = await createOtherAccount(t);
    expect((await api('/visitors?email=olga@example.com', other.token)).json()).toEqual([]);
    expect((await api(`/visitors/${widgetVisitorId}/export`, other.token)).statusCode).toBe(404);
    expect((await api('/visitors/999999/export')).statusCode).toBe(404);
  });
});
