/**
 * CRM data is not echoed to the visitor (#15 item 10, docs/SECURITY.md §10).
 * A visitor claims a user token (identity verification off, so any token);
 * the receiver of chat_accepted answers with what its CRM knows of that
 * person (contact_info, custom_data, crm_link). Agents see it, events carry
 * it; the visitor's widget gets none of it back: not in the session answer,
 * not in any other widget answer, not on its socket, and a transcript goes
 * to the address the visitor gave, its lines signed with the name it gave. Both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/helpers/chatChannel.js';
import { listen, StreamClient } from '../../../test/helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { startEndpoint, type Endpoint } from '../../../test/helpers/webhooks.js';
import { agentReply, createWidget, sendText, startSession, visitorCall, visitorSocketUrl, type TestWidget } from '../../../test/helpers/widget.js';

const CRM = { name: 'Real Customer', email: 'real@crm.example', phone: '+15550199000' };
const CUSTOM = 'Gold plan, card ends 4242';
const LINK = 'https://crm.example.com/card/42';
/** Strings only the CRM's answer holds. */
const SECRETS = [CRM.name, CRM.email, CRM.phone, CUSTOM, LINK];

const leaked = (text: string): string[] => SECRETS.filter((s) => text.includes(s));

describe('a chat_accepted answer’s CRM data never reaches the visitor', () => {
  let t: TestApp;
  let receiver: Endpoint;
  let widget: TestWidget;
  let base: string;

  const api = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(t.adminToken), ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    t = await createTestApp();
    receiver = await startEndpoint((req) =>
      JSON.parse(req.body).event_name === 'chat_accepted'
        ? {
            status: 200,
            body: JSON.stringify({ result: 'ok', contact_info: CRM, custom_data: [{ title: 'Plan', content: CUSTOM }], crm_link: LINK, enable_assign: true }),
          }
        : { status: 200, body: '{"result":"ok"}' },
    );
    expect((await api('PUT', '/settings', { event_webhook_url: `${receiver.url}/events` })).statusCode).toBe(200);
    widget = await createWidget(t);
    base = await listen(t.app);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  /** The visitor writes, an agent accepts, the answer is applied: returns the agents' view of the chat. */
  /** The mail of that kind queued for the chat (its address and body). */
  const mailOf = (eventType: string, chatId: number) =>
    t.app.ctx.db.selectFrom('deliveries').select(['url', 'body']).where('event_type', '=', eventType).where('chat_id', '=', chatId).executeTakeFirstOrThrow();

  const acceptedWithAnswer = async (chatId: number) => {
    expect((await api('POST', `/chats/${chatId}/accept`)).statusCode).toBe(200);
    return waitFor(async () => {
      const chat = (await api('GET', `/chats/${chatId}`)).json();
      return chat.crm_link ? chat : null;
    });
  };

  it('agents and events get it; the session, every widget answer and the socket do not', async () => {
    const session = await startSession(t, widget.widget_id);
    const token = session.visitor_token;
    const answers: string[] = [];
    const call = async (path: string, payload?: unknown, method: 'GET' | 'POST' = 'POST') => {
      const res = await visitorCall(t, widget.widget_id, token, path, payload, { method });
      expect(res.statusCode).toBeLessThan(300);
      answers.push(res.body);
      return res;
    };
    const socket = await StreamClient.ready(visitorSocketUrl(base, widget.widget_id, token));
    try {
      await call('contact', { client_name: 'Mallory', email: 'mallory@example.com' });
      await call('user-token', { token: 'victim-42' });
      const sent = await sendText(t, widget.widget_id, token, 'Where is my order?');

      const chat = await acceptedWithAnswer(sent.chat_id);
      // Agents see it, as if the visitor had introduced itself.
      expect(chat).toMatchObject({ contact_info: CRM, custom_data: [{ title: 'Plan', content: CUSTOM }], crm_link: LINK });
      expect(chat.visitor).toMatchObject({ name: CRM.name, email: CRM.email, phone: CRM.phone });
      // And events carry it (the agents' stream, webhooks).
      const events = await t.app.ctx.db.selectFrom('events').select('data_json').where('chat_id', '=', sent.chat_id).execute();
      expect(leaked(events.map((e) => e.data_json).join('\n'))).toEqual(SECRETS);

      // The visitor goes on: more answers, an agent's reply on the socket.
      await agentReply(t, sent.chat_id, 'Let me look');
      answers.push(JSON.stringify(await sendText(t, widget.widget_id, token, 'Thanks')));
      await call('contact', { description: 'Tall' });
      await call('custom-data', { fields: [{ key: 'cart', value: '3 items' }] });
      await call('page', { url: 'https://shop.example.com/cart', title: 'Cart' });
      await call('callback', undefined, 'GET');
      await socket.until((s) => s.frames.some((f) => f.type === 'message.created' && JSON.stringify(f.data).includes('Thanks')));

      const resumed = await startSession(t, widget.widget_id, { token });
      answers.push(JSON.stringify(resumed));
      // What the visitor gave itself, and nothing of the CRM's.
      expect(resumed.visitor).toEqual({
        number: session.visitor.number,
        client_name: 'Mallory',
        email: 'mallory@example.com',
        phone: null,
        description: 'Tall',
      });
      expect(resumed.chat?.id).toBe(sent.chat_id);

      // The address is not proved yet: a confirmation link goes to it first (#31 item 2); pressing it sends the transcript.
      const mail = await call('transcript');
      expect(mail.json()).toEqual({ result: 'confirmation_sent', chat_id: sent.chat_id });
      const link = await mailOf('mail.transcript_confirmation', sent.chat_id);
      expect(link.url).toBe('mailto:mallory@example.com');
      const path = /\/widget\/transcript\/[A-Za-z0-9_-]+/.exec(String(link.body))?.[0] ?? '';
      const confirmed = await t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
      expect(confirmed.statusCode).toBe(200);
      answers.push(confirmed.body);
      const row = await mailOf('mail.chat_transcript', sent.chat_id);
      // To the address the visitor gave, not the CRM's; its lines signed with the name it gave.
      expect(row.url).toBe('mailto:mallory@example.com');
      expect(leaked(String(row.body))).toEqual([]);
      expect(String(row.body)).toContain('Mallory: Where is my order?');

      expect(leaked(answers.join('\n'))).toEqual([]);
      expect(leaked(JSON.stringify(socket.frames))).toEqual([]);
    } finally {
      await socket.close();
    }
  });

  it('a visitor who gave nothing gets nothing back, though the CRM filled its details for agents', async () => {
    const session = await startSession(t, widget.widget_id);
    const token = session.visitor_token;
    await visitorCall(t, widget.widget_id, token, 'user-token', { token: 'victim-43' });
    const sent = await sendText(t, widget.widget_id, token, 'Hello');
    expect((await acceptedWithAnswer(sent.chat_id)).visitor.email).toBe(CRM.email);

    const resumed = await startSession(t, widget.widget_id, { token });
    expect(resumed.visitor).toEqual({ number: session.visitor.number, client_name: null, email: null, phone: null, description: null });
    expect(leaked(JSON.stringify(resumed))).toEqual([]);
    // No address of its own: no transcript, rather than one to the CRM's address.
    const res = await visitorCall(t, widget.widget_id, token, 'transcript');
    expect(res.statusCode).toBe(409);
    expect(leaked(res.body)).toEqual([]);
  });
});
