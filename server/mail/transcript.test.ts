/**
 * Transcript mails against a real SMTP server: the archive copy of every
 * finished chat goes to the account's archive address, with the visitor's
 * details, the chat_accepted answer's contact_info and every line (private
 * notes marked); "E-mail me this conversation" mails the visitor's own
 * address the lines the visitor saw, and is refused (409) without an address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCustomerEndpoint, waitFor } from '../../test/helpers/chatChannel.js';
import { allRelayed } from '../../test/helpers/realtime.js';
import { htmlLinks, startSmtp, type TestSmtp } from '../../test/helpers/smtp.js';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { agentReply, createWidget, sendText, startSession, visitorCall, type TestWidget } from '../../test/helpers/widget.js';

describe('transcript mails', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let widget: TestWidget;
  let receiver: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let account = '';
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(t.adminToken), ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
    receiver = await startCustomerEndpoint((req) =>
      JSON.parse(req.body).event_name === 'chat_accepted'
        ? { status: 200, body: JSON.stringify({ result: 'ok', contact_info: { name: 'Carl from CRM', phone: '+15550109', email: 'carl@crm.example' } }) }
        : { status: 200, body: '{"result":"ok"}' },
    );
    expect((await api('PUT', '/settings', { event_webhook_url: `${receiver.url}/events` })).statusCode).toBe(200);
    widget = await createWidget(t, { name: 'Shop' });
    account = (await t.app.ctx.db.selectFrom('accounts').select('name').executeTakeFirstOrThrow()).name || 'Parley';
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await smtp.close();
  });

  it('mails no archive copy while no archive address is set; then one per finished chat, with contact_info and notes marked', async () => {
    const s1 = await startSession(t, widget.widget_id);
    const first = await sendText(t, widget.widget_id, s1.visitor_token, 'no archive yet');
    expect((await api('POST', `/chats/${first.chat_id}/finish`, {})).statusCode).toBe(200);
    await allRelayed(t.app);

    const set = await api('PUT', '/settings', { notifications: { archive_email: 'Archive@Example.com' } });
    expect(set.json().notifications.archive_email).toBe('archive@example.com');
    const s = await startSession(t, widget.widget_id);
    await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { client_name: 'Vera <v>', email: 'vera@example.com' });
    const { chat_id } = await sendText(t, widget.widget_id, s.visitor_token, 'Where is my order?');
    expect((await api('POST', `/chats/${chat_id}/accept`)).statusCode).toBe(200);
    await waitFor(async () => (await api('GET', `/chats/${chat_id}`)).json().contact_info);
    await agentReply(t, chat_id, 'It ships today.');
    expect((await api('POST', `/chats/${chat_id}/messages`, { type: 'text', text: 'VIP customer', internal: true })).statusCode).toBe(201);
    expect((await api('POST', `/chats/${chat_id}/finish`, {})).statusCode).toBe(200);

    const mail = await waitFor(() => smtp.mails.find((m) => m.envelope.to.includes('archive@example.com')), 20_000);
    // The contact_info of the answer names the visitor, as if the visitor introduced himself.
    expect(mail.parsed.subject).toBe(`Chat #${chat_id} with Carl from CRM`);
    const text = mail.parsed.text ?? '';
    expect(text).toContain('Name: Carl from CRM\nE-mail: carl@crm.example\nPhone: +15550109');
    expect(text).not.toContain('Contact ');
    expect(text).toMatch(/\[\d\d:\d\d\] Carl from CRM: Where is my order\?/);
    expect(text).toMatch(/\] [^:\n]+: It ships today\./);
    expect(text).toMatch(/\(private note\): VIP customer/);
    expect(text).toContain(`http://parley.test/chats/${chat_id}`);
    expect(mail.parsed.html).not.toContain('<v>');
    expect(mail.parsed.html).toContain('Carl from CRM');
    // The archive copy names the account but is no notification: no settings link.
    expect(text).toContain(`Sent by Parley for ${account}.`);
    expect(htmlLinks(mail)).toEqual([`http://parley.test/chats/${chat_id}`]);
    // The first chat, finished before the address was set, was not archived; nothing else was.
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.mails.filter((m) => m.envelope.to.includes('archive@example.com'))).toHaveLength(1);
  });

  it('mails the visitor the conversation, without private notes, only to the address the visitor gave', async () => {
    const s = await startSession(t, widget.widget_id);
    const noChat = await visitorCall(t, widget.widget_id, s.visitor_token, 'transcript', {});
    expect(noChat.statusCode).toBe(409);
    const { chat_id } = await sendText(t, widget.widget_id, s.visitor_token, 'Hello there');
    const noAddress = await visitorCall(t, widget.widget_id, s.visitor_token, 'transcript', { email: 'stranger@example.com' });
    expect(noAddress.statusCode).toBe(409);
    expect(noAddress.json().error.message).toMatch(/e-mail address first/);
    await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { client_name: 'Walt', email: 'walt@example.com' });
    await agentReply(t, chat_id, 'Hi Walt');
    await api('POST', `/chats/${chat_id}/messages`, { type: 'text', text: 'secret note', internal: true });
    const res = await visitorCall(t, widget.widget_id, s.visitor_token, 'transcript', { email: 'stranger@example.com' });
    expect(res.statusCode).toBe(200);
    // Walt has not proved the address yet: a confirmation link goes there first (#31 item 2; transcriptMail.test.ts).
    expect(res.json()).toEqual({ result: 'confirmation_sent', chat_id });
    const confirmation = await waitFor(() => smtp.mails.find((m) => m.envelope.to.includes('walt@example.com')), 20_000);
    const link = htmlLinks(confirmation)[0].replace('http://parley.test', '');
    expect((await t.app.inject({ method: 'POST', url: link })).statusCode).toBe(200);
    const mail = await waitFor(() => smtp.mails.find((m) => m.envelope.to.includes('walt@example.com') && m !== confirmation), 20_000);
    expect(smtp.mails.some((m) => m.envelope.to.includes('stranger@example.com'))).toBe(false);
    expect(mail.parsed.subject).toMatch(/^Your conversation with /);
    expect(mail.parsed.text).toContain('Walt: Hello there');
    expect(mail.parsed.text).toContain('Hi Walt');
    expect(mail.parsed.text).not.toContain('secret note');
    expect(mail.parsed.subject).toBe(`Your conversation with ${account}`);
    expect(mail.parsed.html).toContain('Hi Walt');
    expect(mail.parsed.text).toContain(`Sent by Parley for ${account}.`);
    expect(htmlLinks(mail)).toEqual([]);
    const listed = (await api('GET', '/mails')).json<Array<{ type: string; chat_id: number }>>();
    expect(listed.find((m) => m.type === 'chat_transcript')?.chat_id).toBe(chat_id);
  });

  it("makes the archive copy's http(s) and mailto links links, nothing else, and isolates right-to-left names and messages", async () => {
    const s = await startSession(t, widget.widget_id);
    await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { client_name: 'سارة', email: 'sara@example.com' });
    const arabic = 'مرحبا، هل طلبي جاهز؟';
    const { chat_id } = await sendText(t, widget.widget_id, s.visitor_token, arabic);
    await sendText(
      t,
      widget.widget_id,
      s.visitor_token,
      'See https://shop.example/p?a=1&b=2. Not javascript:alert(1) nor data:text/html,x <a href="javascript:alert(1)">x</a>',
    );
    expect((await api('POST', `/chats/${chat_id}/accept`)).statusCode).toBe(200);
    // The CRM's answer names the visitor (as in the first test): waited for, so the names below are known.
    await waitFor(async () => (await api('GET', `/chats/${chat_id}`)).json().contact_info);
    await agentReply(t, chat_id, 'Write to mailto:help@shop.example (or https://bücher.example/faq).');
    expect((await api('POST', `/chats/${chat_id}/finish`, {})).statusCode).toBe(200);

    const mail = await waitFor(
      () => smtp.mails.find((m) => m.envelope.to.includes('archive@example.com') && m.parsed.subject?.startsWith(`Chat #${chat_id} `)),
      20_000,
    );
    expect(htmlLinks(mail)).toEqual([
      'https://shop.example/p?a=1&b=2',
      'mailto:help@shop.example',
      'https://xn--bcher-kva.example/faq',
      `http://parley.test/chats/${chat_id}`,
    ]);
    const html = mail.parsed.html || '';
    expect(html).toContain('<a href="https://shop.example/p?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">https://shop.example/p?a=1&amp;b=2</a>.');
    expect(html).toContain('&lt;a href=&quot;javascript:alert(1)&quot;&gt;x&lt;/a&gt;');
    expect(html).not.toMatch(/href="(javascript|data):/i);
    // Each name and message takes its own direction.
    expect(html).toContain(`<th align="left" dir="auto" style="padding:2px 8px 2px 0;vertical-align:top">Carl from CRM</th><td dir="auto">${arabic}</td>`);
    const text = mail.parsed.text ?? '';
    expect(text).toMatch(new RegExp(`\\] Carl from CRM: \u2068${arabic}\u2069\n`));
    // Latin lines stay as they are.
    expect(text).toMatch(/\] [^:\n]+: Write to mailto:help@shop\.example \(or https:\/\/bücher\.example\/faq\)\.\n/);
  });
});
