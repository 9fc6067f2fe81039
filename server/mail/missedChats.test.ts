/**
 * The missed-chat mail: a chat left pending past the account's
 * missed_chat_minutes is mailed to the notification addresses once, with what
 * the visitor wrote; chats answered in time and accounts without the setting
 * get none. The clock is moved instead of waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { createWidget, sendText, startSession, type TestWidget } from '../../test/helpers/widget.js';
import { sweepMissedChats } from './missedChats.js';

describe('missed-chat mail', () => {
  let t: TestApp;
  let widget: TestWidget;
  let offset = 0;
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(t.adminToken), ...(payload === undefined ? {} : { payload: payload as object }) });
  const missedMails = async () =>
    (await api('GET', '/mails'))
      .json<Array<{ type: string; to: string; chat_id: number; text: string; subject: string }>>()
      .filter((m) => m.type === 'missed_chat');

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

  it('mails a chat left waiting past the limit once, with what the visitor wrote; not an answered one', async () => {
    expect((await api('PUT', '/settings', { notifications: { missed_chat_minutes: 5 } })).json().notifications.missed_chat_minutes).toBe(5);
    // The chat of the first test has waited three hours by now: it is due too.
    const s = await startSession(t, widget.widget_id);
    const { chat_id } = await sendText(t, widget.widget_id, s.visitor_token, 'Is the blue one in stock?');
    const answered = await sendText(t, widget.widget_id, (await startSession(t, widget.widget_id)).visitor_token, 'hello');
    expect((await api('POST', `/chats/${answered.chat_id}/accept`)).statusCode).toBe(200);
    offset += 4 * 60_000;
    expect(await sweepMissedChats(t.app.ctx)).toBe(1);
    offset += 2 * 60_000;
    expect(await sweepMissedChats(t.app.ctx)).toBe(1);
    expect(await sweepMissedChats(t.app.ctx)).toBe(0);
    const mails = await missedMails();
    expect(mails.map((m) => m.chat_id).sort()).toEqual([chat_id - 1, chat_id].sort());
    const mail = mails.find((m) => m.chat_id === chat_id);
    expect(mail?.to).toBe(ADMIN_EMAIL);
    expect(mail?.subject).toMatch(/^Missed chat: Visitor \d+ waited 5 min$/);
    expect(mail?.text).toContain(': Is the blue one in stock?');
    expect(mail?.text).toContain(`http://parley.test/chats/${chat_id}`);
    expect(mail?.text).toContain('http://parley.test/admin/settings#notifications');
    expect(mails.some((m) => m.chat_id === answered.chat_id)).toBe(false);
  });
});
