import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChatChannel,
  postInbound,
  startCustomerEndpoint,
  textMessage,
  waitFor,
  type ChatChannel,
  type RecordedRequest,
} from '../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { bodyProblems } from '../../test/helpers/webhookBodies.js';
import { createWidget, startSession, visitorCall } from '../../test/helpers/widget.js';

type Answer = { status?: number; body?: string; delayMs?: number };

describe('event webhooks (spec C, docs/EVENTS.md)', () => {
  let t: TestApp;
  let channel: ChatChannel;
  let receiver: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let customer: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let secret: string;
  let adminId: number;
  const answers: Record<string, (n: number) => Answer> = {};

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(t.adminToken), ...(payload === undefined ? {} : { payload: payload as object }) });
  const events = (name: string) => receiver.requests.filter((r) => JSON.parse(r.body).event_name === name);
  const eventFor = (name: string, chatId: number) => waitFor(() => events(name).find((r) => JSON.parse(r.body).chat_id === chatId), 10_000);
  // A received body, as the receiver would parse it (JSON.parse gives any: the test reads what it expects).
  const body = (r: RecordedRequest) => JSON.parse(r.body);
  const openChat = async (senderId: string, name: string) => {
    await postInbound(t, channel, textMessage(senderId, `hi from ${name}`, { name }));
    return (await api('GET', '/chats')).json().find((c: { visitor: { name: string } }) => c.visitor.name === name) as {
      id: number;
      visitor: { number: number };
    };
  };

  beforeAll(async () => {
    t = await createTestApp();
    receiver = await startCustomerEndpoint((req, n) => {
      const name = String(JSON.parse(req.body).event_name);
      return answers[name]?.(n) ?? { status: 200, body: '{"result":"ok"}' };
    });
    customer = await startCustomerEndpoint();
    const settings = await api('PUT', '/settings', { event_webhook_url: `${receiver.url}/events` });
    expect(settings.statusCode).toBe(200);
    secret = settings.json().webhook_secret;
    adminId = (await api('GET', '/me')).json().id;
    channel = await createChatChannel(t, { webhook_url: `${customer.url}/in` });
  });
  afterAll(async () => {
    // Every body the receiver got in this file is exactly as docs/EVENTS.md lists it (keys, no null).
    const problems = receiver.requests.flatMap((r) => bodyProblems(JSON.parse(r.body)));
    await t.close();
    await receiver.close();
    await customer.close();
    expect(problems).toEqual([]);
  });

  it('sends chat_updated when a chat-channel sender changes name, e-mail or phone, with the common objects', async () => {
    const chat = await openChat('ev-upd', 'Una');
    await postInbound(t, channel, textMessage('ev-upd', 'again', { name: 'Una', email: 'una@example.com' }));
    const req = await eventFor('chat_updated', chat.id);
    expect(req.headers['content-type']).toBe('application/json');
    const b = body(req);
    expect(b).toMatchObject({
      event_name: 'chat_updated',
      widget_id: channel.public_id,
      user_token: null,
      chat_id: chat.id,
      visitor: { name: 'Una', email: 'una@example.com', number: String(chat.visitor.number), description: '', chats_count: 1 },
      session: { geoip: {}, utm: '', utm_json: {}, ip_addr: '', user_agent: '' },
    });
    expect(typeof b.chat_id).toBe('number');
    // Before any agent accepted: no agent key at all, never "agent": null (issue #17 item 1).
    expect(b).not.toHaveProperty('agent');
    expect(bodyProblems(b)).toEqual([]);
  });

  it('signs every request with Standard Webhooks headers the official verifier accepts', async () => {
    const req = await waitFor(() => receiver.requests[0]);
    expect(secret).toMatch(/^whsec_/);
    const headers = {
      'webhook-id': String(req.headers['webhook-id']),
      'webhook-timestamp': String(req.headers['webhook-timestamp']),
      'webhook-signature': String(req.headers['webhook-signature']),
    };
    expect(() => new Webhook(secret).verify(req.body, headers)).not.toThrow();
    expect(headers['webhook-signature']).toMatch(/^v1,/);
  });

  it('chat_accepted carries the agent; an OK answer fills the chat (custom_data, contact_info, enable_assign, crm_link, page)', async () => {
    answers.chat_accepted = () => ({
      status: 200,
      body: JSON.stringify({
        result: 'OK',
        custom_data: [{ title: 'Plan', content: '<b>Gold</b>' }],
        contact_info: { name: 'Carl from CRM', email: 'carl@example.com', description: 'Gold customer since 2019' },
        enable_assign: true,
        crm_link: 'https://crm.example.com/card/7',
        page: { url: 'https://shop.example.com/cart', title: 'Cart' },
      }),
    });
    const chat = await openChat('ev-acc', 'Carl');
    expect((await api('POST', `/chats/${chat.id}/accept`)).statusCode).toBe(200);
    const req = await eventFor('chat_accepted', chat.id);
    const admin = (await api('GET', '/me')).json();
    expect(body(req)).toMatchObject({ event_name: 'chat_accepted', chat_id: chat.id, agent: { id: adminId, name: admin.name, email: admin.email } });
    const filled = await waitFor(async () => {
      const d = (await api('GET', `/chats/${chat.id}`)).json();
      return d.crm_link ? d : null;
    });
    expect(filled).toMatchObject({
      custom_data: [{ title: 'Plan', content: '<b>Gold</b>' }],
      crm_custom_data: [{ title: 'Plan', content: '<b>Gold</b>' }],
      page_custom_data: [],
      contact_info: { name: 'Carl from CRM', email: 'carl@example.com', description: 'Gold customer since 2019' },
      enable_assign: true,
      crm_link: 'https://crm.example.com/card/7',
      // The answer's page is the CRM's; a chat-channel visitor has no page of his own.
      crm_page: { url: 'https://shop.example.com/cart', title: 'Cart' },
      page: null,
    });
    // contact_info.description is used too: the visitor record takes it, as if he had introduced himself.
    expect(filled.visitor).toMatchObject({ name: 'Carl from CRM', email: 'carl@example.com', description: 'Gold customer since 2019' });

    // chat_assigned: the agent binds the chat to the CRM card.
    expect((await api('POST', `/chats/${chat.id}/assign`)).statusCode).toBe(200);
    const assigned = body(await eventFor('chat_assigned', chat.id));
    expect(assigned).toMatchObject({ event_name: 'chat_assigned', chat_id: chat.id, agent: { id: adminId }, assign_to: 'https://crm.example.com/card/7' });
  });

  it("an answer's custom_data and page sit beside the page's own (setCustomData, the visitor's page): neither replaces the other", async () => {
    answers.chat_accepted = () => ({
      status: 200,
      body: JSON.stringify({
        result: 'ok',
        custom_data: [{ title: 'CRM plan', content: 'Gold' }],
        page: { url: 'https://crm.example.com/deals/12', title: 'Deal 12' },
      }),
    });
    const widget = await createWidget(t, { name: 'Answer site' });
    const s = await startSession(t, widget.widget_id, { page: { url: 'https://shop.example.com/checkout', title: 'Checkout' } });
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'custom-data', { fields: [{ title: 'Cart', content: '3 items' }] })).statusCode).toBe(200);
    const sent = await visitorCall(t, widget.widget_id, s.visitor_token, 'messages', { type: 'text', text: 'help with checkout' });
    const chatId: number = sent.json().chat_id;
    expect((await api('POST', `/chats/${chatId}/accept`)).statusCode).toBe(200);
    const filled = await waitFor(async () => {
      const d = (await api('GET', `/chats/${chatId}`)).json();
      return d.crm_page ? d : null;
    }, 10_000);
    expect(filled.page_custom_data).toEqual([{ title: 'Cart', content: '3 items' }]);
    expect(filled.crm_custom_data).toEqual([{ title: 'CRM plan', content: 'Gold' }]);
    expect(filled.custom_data).toEqual([...filled.page_custom_data, ...filled.crm_custom_data]);
    expect(filled.crm_page).toEqual({ url: 'https://crm.example.com/deals/12', title: 'Deal 12' });
    expect(filled.page).toEqual({ url: 'https://shop.example.com/checkout', title: 'Checkout' });

    // The page sets new custom data: the answer's stays; later events still carry the visitor's page.
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'custom-data', { fields: [{ title: 'Cart', content: '4 items' }] })).statusCode).toBe(200);
    const after = (await api('GET', `/chats/${chatId}`)).json();
    expect(after.page_custom_data).toEqual([{ title: 'Cart', content: '4 items' }]);
    expect(after.crm_custom_data).toEqual([{ title: 'CRM plan', content: 'Gold' }]);
    await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { name: 'Paula Page' });
    const updated = body(await eventFor('chat_updated', chatId));
    expect(updated.page).toEqual({ url: 'https://shop.example.com/checkout', title: 'Checkout' });
  });

  it('an answer whose result is not OK transmits nothing to the agent', async () => {
    answers.chat_accepted = () => ({ status: 200, body: JSON.stringify({ result: 'FAILURE', crm_link: 'https://crm.example.com/x' }) });
    const chat = await openChat('ev-fail', 'Fay');
    await api('POST', `/chats/${chat.id}/accept`);
    await eventFor('chat_accepted', chat.id);
    await new Promise((r) => setTimeout(r, 300));
    expect((await api('GET', `/chats/${chat.id}`)).json().crm_link).toBeNull();
  });

  it('accepting never waits for a slow receiver', async () => {
    answers.chat_accepted = () => ({ status: 200, body: '{"result":"ok","crm_link":"https://crm.example.com/slow"}', delayMs: 1500 });
    const chat = await openChat('ev-slow', 'Sid');
    const res = await api('POST', `/chats/${chat.id}/accept`);
    expect(res.statusCode).toBe(200);
    expect(res.json().crm_link).toBeNull();
    const filled = await waitFor(async () => (await api('GET', `/chats/${chat.id}`)).json().crm_link, 10_000);
    expect(filled).toBe('https://crm.example.com/slow');
  });

  it('chat_finished lists the agents and the messages with their text as message, and the transcript as text and HTML', async () => {
    answers.chat_accepted = () => ({ status: 200, body: '{"result":"ok"}' });
    const chat = await openChat('ev-fin', 'Finn');
    await api('POST', `/chats/${chat.id}/accept`);
    await api('POST', `/chats/${chat.id}/messages`, { type: 'text', text: 'Agent <b>answer</b> & more' });
    await api('POST', `/chats/${chat.id}/messages`, { type: 'text', text: 'a private note', internal: true });
    await api('POST', `/chats/${chat.id}/finish`, { blacklist: false });
    const b = body(await eventFor('chat_finished', chat.id));
    expect(b).toMatchObject({ event_name: 'chat_finished', chat_id: chat.id, agents: [{ id: adminId }] });
    expect(b.chat).toMatchObject({ rate: null, blacklisted: false });
    expect(b.chat.messages).toEqual([
      { timestamp: expect.any(Number), type: 'visitor', message: 'hi from Finn' },
      { timestamp: expect.any(Number), type: 'agent', agent_id: adminId, message: 'Agent <b>answer</b> & more' },
    ]);
    // plain_messages / html_messages: the archive mail's transcript (server/mail/compose.ts), notes left out.
    const admin = (await api('GET', '/me')).json();
    expect(b.plain_messages).toMatch(new RegExp(`^\\[\\d\\d:\\d\\d\\] Finn: hi from Finn\\n\\[\\d\\d:\\d\\d\\] ${admin.name}: Agent <b>answer</b> & more$`));
    expect(b.html_messages).toContain('<th align="left" dir="auto" style="padding:2px 8px 2px 0;vertical-align:top">Finn</th><td dir="auto">hi from Finn</td>');
    expect(b.html_messages).toContain('<td dir="auto">Agent &lt;b&gt;answer&lt;/b&gt; &amp; more</td>');
    expect(b.html_messages).not.toContain('<b>');
    expect(`${b.plain_messages}${b.html_messages}`).not.toContain('private note');
    expect(b.chat.messages[0].timestamp).toBeGreaterThan(1_700_000_000);
    expect(b.chat.messages[0].timestamp).toBeLessThan(10_000_000_000);
  });

  it('retries a receiver that does not answer 2xx with the same webhook-id', async () => {
    // The first chat_updated about "Rita B" is answered 500, the next ones 200.
    let ritaSeen = 0;
    answers.chat_updated = () => {
      const last = events('chat_updated').at(-1);
      if (last && body(last).visitor.name === 'Rita B') ritaSeen++;
      return { status: ritaSeen === 1 ? 500 : 200, body: '{"result":"ok"}' };
    };
    await openChat('ev-retry', 'Rita');
    await postInbound(t, channel, textMessage('ev-retry', 'renamed', { name: 'Rita B' }));
    const both = await waitFor(() => {
      const tries = events('chat_updated').filter((r) => body(r).visitor.name === 'Rita B');
      return tries.length >= 2 ? tries : null;
    }, 15_000);
    expect(both[1].headers['webhook-id']).toBe(both[0].headers['webhook-id']);
    expect(both[1].body).toBe(both[0].body);
    const gap = both[1].at - both[0].at;
    expect(gap).toBeGreaterThan(3000);
    expect(gap).toBeLessThan(60_000);
    const logged = await waitFor(async () =>
      (await api('GET', '/deliveries?kind=event_webhook'))
        .json()
        .find((d: { webhook_id: string; status: string }) => d.webhook_id === both[0].headers['webhook-id'] && d.status === 'delivered'),
    );
    expect(logged).toMatchObject({ status: 'delivered', attempts: 2, event_type: 'chat_updated' });
  });

  it('offline_message carries the name, e-mail and phone of the form in visitor, and the visitor record takes them', async () => {
    const widget = await createWidget(t, { name: 'Offline site' });
    const s = await startSession(t, widget.widget_id);
    const form = { name: 'Bo Offline', email: 'bo@example.com', phone: '+15550100777', description: 'Order 7', message: 'Call me back' };
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', form)).json()).toEqual({ result: 'ok' });
    const req = await waitFor(() => events('offline_message').find((r) => body(r).message === 'Call me back'), 10_000);
    const b = body(req);
    expect(b).toMatchObject({
      event_name: 'offline_message',
      widget_id: widget.widget_id,
      visitor: { name: 'Bo Offline', email: 'bo@example.com', phone: '+15550100777', description: 'Order 7' },
    });
    expect(b).not.toHaveProperty('chat_id');
    expect(b).not.toHaveProperty('agent');
    const stored = await t.app.ctx.db
      .selectFrom('visitors')
      .select(['name', 'email', 'phone', 'description'])
      .where('number', '=', Number(b.visitor.number))
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: 'Bo Offline', email: 'bo@example.com', phone: '+15550100777', description: 'Order 7' });
  });

  it('sends nothing when no event webhook URL is set', async () => {
    await api('PUT', '/settings', { event_webhook_url: null });
    const before = receiver.requests.length;
    const chat = await openChat('ev-none', 'Nora');
    await api('POST', `/chats/${chat.id}/accept`);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.requests.length).toBe(before);
    await api('PUT', '/settings', { event_webhook_url: `${receiver.url}/events` });
  });
});
