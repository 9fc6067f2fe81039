/**
 * Working hours for chat, end to end on a real app with a clock the test
 * moves: the settings key and the department hours (partial changes, null,
 * refusals that store nothing), availability (the chat channel's /status, the
 * widget's session) closed outside the hours, and the visitor socket told at
 * the opening minute without a reload — recorded once however many workers
 * look at that minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceHoursClock } from '../../../../domain/workingHours/advanceHoursClock.js';
import { createChatChannel, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { listen, StreamClient } from '../../../../../test/helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { createWidget, setStatus, startSession, visitorSocketUrl, type TestWidget } from '../../../../../test/helpers/widget.js';

// Monday 5 January 2026, 08:59:30 in Berlin (UTC+1): half a minute before opening.
const MONDAY_BEFORE_NINE = Date.parse('2026-01-05T07:59:30Z');
const NINE = Date.parse('2026-01-05T08:00:00Z');
const day: [string, string][] = [['09:00', '17:00']];
const office = { timezone: 'Europe/Berlin', weekly: { mon: day, tue: day, wed: day, thu: day, fri: day } };

describe('working hours for chat', () => {
  let t: TestApp;
  let now = MONDAY_BEFORE_NINE;
  let channel: ChatChannel;
  let widget: TestWidget;
  let base: string;
  const clients: StreamClient[] = [];

  const put = (payload: unknown) => t.app.inject({ method: 'PUT', url: '/api/v1/settings', headers: bearer(t.adminToken), payload: payload as object });
  const status = async () => (await t.app.inject({ method: 'GET', url: new URL(channel.status_url).pathname })).body;
  const hoursEvents = async () =>
    (await t.app.ctx.db.selectFrom('events').select('data_json').where('type', '=', 'working_hours.changed').orderBy('id').execute()).map((r) =>
      JSON.parse(r.data_json),
    );

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now });
    base = await listen(t.app);
    channel = await createChatChannel(t);
    widget = await createWidget(t);
    await setStatus(t, 'online');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t.close();
  });

  it('is always open without hours: /status 1, the widget online', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: bearer(t.adminToken) })).json().chat_hours).toBeNull();
    expect(await status()).toBe('1');
    expect((await startSession(t, widget.widget_id)).online).toBe(true);
  });

  it('refuses bad hours in words and stores nothing', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ chat_hours: { ...office, timezone: 'Mars/Olympus' } }, /not a time zone/],
      [{ chat_hours: { ...office, weekly: { mon: [['17:00', '09:00']] } } }, /ends before it starts/],
      [{ chat_hours: { ...office, weekly: { someday: [] } } }, /mon, tue/],
      [{ chat_hours: { ...office, exceptions: [{ date: '2026-02-30', ranges: [] }] } }, /not a date/],
      [
        {
          chat_hours: {
            ...office,
            weekly: {
              mon: [
                ['09:00', '12:00'],
                ['11:00', '13:00'],
              ],
            },
          },
        },
        /overlap/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await put(body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: bearer(t.adminToken) })).json().chat_hours).toBeNull();
    expect(await hoursEvents()).toEqual([]);
  });

  it('closes the channel outside the hours: /status 0, the widget offline, an event with the next change', async () => {
    const res = await put({ chat_hours: office });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().chat_hours).toEqual({ ...office, exceptions: [] });
    expect(await status()).toBe('0');
    expect((await startSession(t, widget.widget_id)).online).toBe(false);
    expect(await hoursEvents()).toEqual([{ department_id: null, open: false, changes_at: NINE }]);
    const overview = (await t.app.inject({ method: 'GET', url: '/api/v1/working-hours', headers: bearer(t.adminToken) })).json();
    expect(overview.account).toMatchObject({ open: false, changes_at: NINE, timezone: 'Europe/Berlin' });
    expect(overview.account.preview.map((d: { date: string; ranges: unknown }) => [d.date, d.ranges])).toEqual([
      ['2026-01-05', day],
      ['2026-01-06', day],
      ['2026-01-07', day],
      ['2026-01-08', day],
      ['2026-01-09', day],
      ['2026-01-10', []],
      ['2026-01-11', []],
    ]);
  });

  it('a partial change keeps the other keys; an exception shows in the preview', async () => {
    const res = await put({ chat_hours: { exceptions: [{ date: '2026-01-06', ranges: [], note: 'Epiphany' }] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().chat_hours).toEqual({ ...office, exceptions: [{ date: '2026-01-06', ranges: [], note: 'Epiphany' }] });
    const overview = (await t.app.inject({ method: 'GET', url: '/api/v1/working-hours', headers: bearer(t.adminToken) })).json();
    expect(overview.account.preview[1]).toEqual({ date: '2026-01-06', weekday: 'tue', ranges: [], exception: 'Epiphany' });
    // Unrelated keys leave the hours alone.
    expect((await put({ safe_url: null })).json().chat_hours.timezone).toBe('Europe/Berlin');
  });

  it('tells an open visitor socket at the opening minute, without a reload, once across workers', async () => {
    const s = await startSession(t, widget.widget_id);
    expect(s.online).toBe(false);
    const client = await StreamClient.ready(visitorSocketUrl(base, widget.widget_id, s.visitor_token, s.cursor));
    clients.push(client);
    expect(client.frames[0]).toMatchObject({ type: 'ready', data: { online: false } });
    const before = (await hoursEvents()).length;
    now = NINE;
    // Two workers (say, two instances) look at the same minute: one moves the clock, one event.
    await Promise.all([advanceHoursClock(t.app.ctx), advanceHoursClock(t.app.ctx)]);
    await client.until((c) => c.events().some((f) => f.type === 'status'));
    expect(
      client
        .events()
        .filter((f) => f.type === 'status')
        .map((f) => f.data.online),
    ).toEqual([true]);
    const events = await hoursEvents();
    expect(events.slice(before)).toEqual([{ department_id: null, open: true, changes_at: Date.parse('2026-01-05T16:00:00Z') }]);
    expect(await status()).toBe('1');
    // At closing time the same way back.
    now = Date.parse('2026-01-05T16:00:00Z');
    await advanceHoursClock(t.app.ctx);
    await client.until((c) => c.events().filter((f) => f.type === 'status').length === 2);
    expect(
      client
        .events()
        .filter((f) => f.type === 'status')
        .map((f) => f.data.online),
    ).toEqual([true, false]);
    expect(await status()).toBe('0');
  });

  it('null makes it always open again, at once', async () => {
    const res = await put({ chat_hours: null });
    expect(res.json().chat_hours).toBeNull();
    expect(await status()).toBe('1');
    expect((await hoursEvents()).at(-1)).toEqual({ department_id: null, open: true, changes_at: null });
    expect(await t.app.ctx.db.selectFrom('working_hours_clock').selectAll().execute()).toEqual([]);
  });

  it("gives a department its own hours, or the account's; 404 for another's department", async () => {
    const dep = (await t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(t.adminToken), payload: { name: 'Sales' } })).json();
    const url = `/api/v1/departments/${dep.id}/working-hours`;
    const saved = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(t.adminToken),
      payload: { hours: { timezone: 'America/New_York', weekly: { sat: day } } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ id: dep.id, name: 'Sales', hours: { timezone: 'America/New_York' }, open: false, timezone: 'America/New_York' });
    expect((await hoursEvents()).at(-1)).toMatchObject({ department_id: dep.id, open: false });
    // The account is always open again; a department's own hours do not close the channel.
    expect(await status()).toBe('1');
    const bad = await t.app.inject({ method: 'PUT', url, headers: bearer(t.adminToken), payload: { hours: { weekly: { mon: [['9', '5']] } } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/HH:MM/);
    const cleared = await t.app.inject({ method: 'PUT', url, headers: bearer(t.adminToken), payload: { hours: null } });
    expect(cleared.json()).toMatchObject({ hours: null, open: true, changes_at: null });
    const missing = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/departments/999999/working-hours',
      headers: bearer(t.adminToken),
      payload: { hours: null },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('forgets the clock row of a deleted department', async () => {
    const dep = (await t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(t.adminToken), payload: { name: 'Gone' } })).json();
    await t.app.inject({ method: 'PUT', url: `/api/v1/departments/${dep.id}/working-hours`, headers: bearer(t.adminToken), payload: { hours: office } });
    await t.app.inject({ method: 'DELETE', url: `/api/v1/departments/${dep.id}`, headers: bearer(t.adminToken) });
    now += 7 * 86_400_000;
    await advanceHoursClock(t.app.ctx);
    expect(await t.app.ctx.db.selectFrom('working_hours_clock').selectAll().where('department_id', '=', dep.id).execute()).toEqual([]);
  });
});
