/**
 * The visitor panel follows the visitor (#20 "Context"): every page change
 * (a new page load's session call, a single-page app's POST /page, a title
 * sent alone) updates the page agents see and joins the visit's pages, kept
 * server-side up to PAGES_KEPT and started again with a new visit; the visit's
 * start gives the time on site; a public client address resolves to a
 * country and a city through the path a real visitor takes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatDto } from '../../../protocol/agent.js';
import type { SessionResponse } from '../../../protocol/widget.js';
import { PAGES_KEPT, type WidgetSession } from '../../domain/widget/session.js';
import { VISIT_GAP_MS } from '../../domain/widget/startVisitorSession.js';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { createWidget, sendText, startSession, visitorCall, type TestWidget } from '../../../test/helpers/widget.js';

describe('the visit: pages, time on site, place', () => {
  let t: TestApp;
  let widget: TestWidget;
  let now = Date.parse('2026-11-27T10:00:00Z');

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now, workers: false });
    widget = await createWidget(t);
  });
  afterAll(() => t.close());

  const chatOf = async (id: number): Promise<ChatDto> => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/chats/${id}`, headers: bearer(t.adminToken) });
    expect(res.statusCode).toBe(200);
    return res.json<ChatDto>();
  };
  const sessionOf = async (chatId: number): Promise<WidgetSession> => (await chatOf(chatId)).visitor.session;
  const page = async (token: string, body: Record<string, unknown>) => {
    const res = await visitorCall(t, widget.widget_id, token, 'page', body);
    expect(res.statusCode).toBe(204);
  };
  const pageChanges = (chatId: number) =>
    t.app.ctx.db
      .selectFrom('events')
      .select('data_json')
      .where('chat_id', '=', chatId)
      .where('type', '=', 'chat.updated')
      .execute()
      .then((rows) => rows.filter((r) => r.data_json.includes('"page_changed"')).length);

  it('records every page of the visit, in order, with the time the visitor got there, and tells the agents each time', async () => {
    const start = now;
    const s = await startSession(t, widget.widget_id, { page: { url: 'https://shop.example.com/', title: 'Shop' } });
    const { chat_id } = await sendText(t, widget.widget_id, s.visitor_token, 'hello');
    now += 30_000;
    await page(s.visitor_token, { url: 'https://shop.example.com/pricing', title: 'Pricing' });
    now += 30_000;
    await page(s.visitor_token, { title: 'Pricing — yearly' }); // a title alone renames the page the list ends with
    now += 30_000;
    await startSession(t, widget.widget_id, { token: s.visitor_token, page: { url: 'https://shop.example.com/cart' } }); // a full page load
    const session = await sessionOf(chat_id);
    expect(session.page).toEqual({ url: 'https://shop.example.com/cart' });
    expect(session.pages).toEqual([
      { url: 'https://shop.example.com/', title: 'Shop', at: start },
      { url: 'https://shop.example.com/pricing', title: 'Pricing — yearly', at: start + 30_000 },
      { url: 'https://shop.example.com/cart', at: start + 90_000 },
    ]);
    expect(session.visit_started_at).toBe(start);
    expect(session.last_seen_at).toBe(start + 90_000);
    expect(await pageChanges(chat_id)).toBe(3);
  });

  it(`keeps the last ${PAGES_KEPT} pages of a long visit`, async () => {
    const s = await startSession(t, widget.widget_id, { page: { url: 'https://shop.example.com/p/0' } });
    const { chat_id } = await sendText(t, widget.widget_id, s.visitor_token, 'browsing');
    for (let i = 1; i <= PAGES_KEPT + 10; i++) await page(s.visitor_token, { url: `https://shop.example.com/p/${i}` });
    const pages = (await sessionOf(chat_id)).pages ?? [];
    expect(pages).toHaveLength(PAGES_KEPT);
    expect(pages[0].url).toBe('https://shop.example.com/p/11');
    expect(pages.at(-1)?.url).toBe(`https://shop.example.com/p/${PAGES_KEPT + 10}`);
  });

  it('starts the pages and the time on site again with a new visit', async () => {
    const s = await startSession(t, widget.widget_id, { page: { url: 'https://shop.example.com/a' } });
    await page(s.visitor_token, { url: 'https://shop.example.com/b' });
    now += VISIT_GAP_MS + 1000;
    await startSession(t, widget.widget_id, { token: s.visitor_token, page: { url: 'https://shop.example.com/c' } });
    const { chat_id } = await sendText(t, widget.widget_id, s.visitor_token, 'back again');
    const session = await sessionOf(chat_id);
    expect(session.pages).toEqual([{ url: 'https://shop.example.com/c', at: now }]);
    expect(session.visit_started_at).toBe(now);
    expect(session.visits).toBe(2);
  });

  it('resolves a public client address to a country and a city (the shipped GeoIP database), seen by agents', async () => {
    // The address of the connection itself: no proxy in between, so X-Forwarded-For is not believed.
    const res = await t.app.inject({
      method: 'POST',
      url: `/widget/api/${widget.widget_id}/session`,
      remoteAddress: '81.2.69.142',
      headers: { 'x-forwarded-for': '127.0.0.1', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0.0.0 Safari/537.36' },
      payload: { page: { url: 'https://shop.example.com/' } },
    });
    expect(res.statusCode).toBe(200);
    const s = res.json<SessionResponse>();
    const { chat_id } = await sendText(t, widget.widget_id, s.visitor_token, 'where am I?');
    const session = await sessionOf(chat_id);
    expect(session.ip).toBe('81.2.69.142');
    expect(session.geoip).toMatchObject({ country_code: 'GB', country: 'United Kingdom', city: expect.stringMatching(/\w/) });
    // And through a trusted proxy (the test app trusts 127.0.0.1): the forwarded address is the visitor's.
    const viaProxy = await startSession(t, widget.widget_id, { ip: '216.160.83.56' });
    const second = await sendText(t, widget.widget_id, viaProxy.visitor_token, 'hi');
    expect((await sessionOf(second.chat_id)).geoip).toMatchObject({ country_code: 'US', region_code: 'WA', city: expect.stringMatching(/\w/) });
  });
});
