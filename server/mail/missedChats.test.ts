/**
 * The missed-chat mail: a chat no agent answered within the account's
 * missed_chat_minutes is mailed to the notification addresses once, with what
 * the visitor wrote; chats answered in time and accounts without the setting
 * get none (what a missed chat is: domain/chats/missedChat.ts; its test
 * checks that the mails, chat_missed and the reports agree). The clock is moved instead of waiting. With SMTP_URL set, the
 * mail arrives at a real SMTP server with its transcript, links and footer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { allRelayed } from '../../test/helpers/realtime.js';
import { htmlLinks, startSmtp } from '../../test/helpers/smtp.js';
import { ADMIN_EMAIL, bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { agentReply, createWidget, sendText, startSession, visitorCall, type TestWidget } from '../../test/helpers/widget.js';
import { sweepMissedChats } from './missedChats.js';

describe('missed-chat mail', () => {
  let t: TestApp;
  let widget: TestWidget;
  let offset = 0;
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(t.adminToken), ...(payload === undefined ? {} : { payload: payload as object }) });
  const missedMails = async () => {
    await allRelayed(t.app);
    return (await api('GET', '/mails'))
      .json<Array<{ type: string; to: string; chat_id: number; text: string; subject: string }>>()
      .filter((m) => m.type === 'missed_chat');
  };

  beforeAll(async () => {
    t = await createTestApp({ clock: () => Date.now() + offset });
    widget = await createWidget(t, { name: 'Shop' });
  });
  afterAll(() => t.close());

  it('is not sent while missed_chat_minutes is unset', async () => {
    const s = await startSession(t, widget.widget_id);
    await sendText(t, widget.widget_id, s.visitor_token, 'anyone?');
    offset += 3 * 3600_000;
    expect(await sweepMissedChats(t.app.ctx)).toBe(0);
    expect(await missedMails()).toEqual([]);
  });

  it('mails a chat no agent answered within the limit once, with what the visitor wrote; not an answered one', async () => {
    expect((await api('PUT', '/settings', { notifications: { missed_chat_minutes: 5 } })).json().notifications.missed_chat_minutes).toBe(5);
    // The chat of the first test has waited three hours by now: it is due too.
    const s = await startSession(t, widget.widget_id);
    const { chat_id } = await sendText(t, widget.widget_id, s.visitor_token, 'Is the blue one in stock?');
    const answered = await sendText(t, widget.widget_id, (await startSession(t, widget.widget_id)).visitor_token, 'hello');
    await agentReply(t, answered.chat_id, 'Hi! Yes, it is.');
    offset += 4 * 60_000;
    expect(await sweepMissedChats(t.app.ctx)).toBe(1);
    offset += 2 * 60_000;
    expect(await sweepMissedChats(t.app.ctx)).toBe(1);
    expect(await sweepMissedChats(t.app.ctx)).toBe(0);
    const mails = await missedMails();
    expect(mails.map((m) => m.chat_id).sort()).toEqual([chat_id - 1, chat_id].sort());
    const mail = mails.find((m) => m.chat_id === chat_id);
    expect(mail?.to).toBe(ADMIN_EMAIL);
    // Swept at 6 min: the minutes it waited (as chat_missed's waited_minutes), not the limit.
    expect(mail?.subject).toMatch(/^Missed chat: Visitor \d+ waited 6 min$/);
    expect(mail?.text).toContain(': Is the blue one in stock?');
    expect(mail?.text).toContain(`http://parley.test/chats/${chat_id}`);
    expect(mail?.text).toContain('http://parley.test/admin/settings#notifications');
    expect(mails.some((m) => m.chat_id === answered.chat_id)).toBe(false);
  });

  it('says "1 minute", not "1 minutes", and "2 minutes" (the language\'s plural rules)', async () => {
    expect((await api('PUT', '/settings', { notifications: { missed_chat_minutes: 1 } })).statusCode).toBe(200);
    await sweepMissedChats(t.app.ctx);
    const one = await sendText(t, widget.widget_id, (await startSession(t, widget.widget_id)).visitor_token, 'one minute');
    offset += 60_000;
    await sweepMissedChats(t.app.ctx);
    const two = await sendText(t, widget.widget_id, (await startSession(t, widget.widget_id)).visitor_token, 'two minutes');
    offset += 2 * 60_000;
    await sweepMissedChats(t.app.ctx);
    const mails = await missedMails();
    const heading = (chatId: number) => mails.find((m) => m.chat_id === chatId)?.text.split('\n')[0];
    expect(heading(one.chat_id)).toMatch(/^Visitor \d+ has waited 1 minute for an answer$/);
    expect(heading(two.chat_id)).toMatch(/^Visitor \d+ has waited 2 minutes for an answer$/);
  });
});

describe('missed-chat mail over SMTP', () => {
  it('arrives once at the notification addresses, with the transcript, the chat link and the settings link', async () => {
    const smtp = await startSmtp();
    let offset = 0;
    const t = await createTestApp({ env: { SMTP_URL: smtp.url }, clock: () => Date.now() + offset });
    try {
      await t.app.ctx.db.updateTable('accounts').set({ name: 'Corner <Shop>' }).execute();
      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/settings',
        headers: bearer(t.adminToken),
        payload: { notifications: { missed_chat_minutes: 2, emails: ['desk@example.com'] } },
      });
      expect(put.statusCode).toBe(200);
      const widget = await createWidget(t, { name: 'Shop' });
      const s = await startSession(t, widget.widget_id);
      await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { client_name: 'Nia <n>', email: 'nia@example.com', phone: '+15550100123' });
      const { chat_id } = await sendText(t, widget.widget_id, s.visitor_token, 'Do you ship <today> & tomorrow?');
      offset += 2 * 60_000 + 10_000;
      expect(await sweepMissedChats(t.app.ctx)).toBe(1);
      const mail = await waitFor(() => smtp.mails.find((m) => m.parsed.subject?.startsWith('Missed chat')), 20_000);
      expect(mail.envelope.to).toEqual(['desk@example.com']);
      expect(mail.parsed.subject).toBe('Missed chat: Nia <n> waited 2 min');
      const text = mail.parsed.text ?? '';
      expect(text).toContain('E-mail: nia@example.com\nPhone: +15550100123');
      expect(text).toMatch(/\[\d\d:\d\d\] Nia <n>: Do you ship <today> & tomorrow\?/);
      expect(text).toContain('Sent by Parley for Corner <Shop>.');
      const html = mail.parsed.html || '';
      expect(html).toContain('Do you ship &lt;today&gt; &amp; tomorrow?');
      expect(html).toContain('Sent by Parley for Corner &lt;Shop&gt;.');
      expect(htmlLinks(mail)).toEqual([`http://parley.test/chats/${chat_id}`, 'http://parley.test/admin/settings#notifications']);
      // Swept again later: nothing more.
      offset += 10 * 60_000;
      expect(await sweepMissedChats(t.app.ctx)).toBe(0);
      await new Promise((r) => setTimeout(r, 500));
      expect(smtp.mails.filter((m) => m.parsed.subject?.startsWith('Missed chat'))).toHaveLength(1);
    } finally {
      await t.close();
      await smtp.close();
    }
  });
});
