/** POST /widget/api/<widget_id>/session: create, resume, invalid tokens, and what the session stores (IP, GeoIP, UA, UTM, page, visits). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { createWidget, postSession, sendText, startSession, visitorCall, type TestWidget } from '../../../test/helpers/widget.js';
import { sha256 } from '../../lib/ids.js';
import { VISIT_GAP_MS } from '../../domain/widget/startVisitorSession.js';

describe('widget session', () => {
  let t: TestApp;
  let widget: TestWidget;
  let now = Date.now();

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now });
    widget = await createWidget(t);
  });
  afterAll(() => t.close());

  const visitorRow = (number: number) => t.app.ctx.db.selectFrom('visitors').selectAll().where('number', '=', number).executeTakeFirstOrThrow();

  it('404s for an unknown widget', async () => {
    const res = await postSession(t, 'nosuchwidget');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });

  it('creates a visitor with a fresh token, stores only its hash, and answers the SessionResponse', async () => {
    const s = await startSession(t, widget.widget_id);
    expect(s.visitor_token).toMatch(/^[\w-]{43}$/); // 32 bytes, base64url
    expect(s.visitor).toEqual({ number: expect.any(Number), client_name: null, email: null, phone: null, description: null });
    expect(s).toMatchObject({ online: false, chat: null, cursor: expect.any(Number), settings: { color: null, rules: null, callback_enabled: false } });
    const row = await visitorRow(s.visitor.number);
    expect(row.token_hash).toBe(sha256(s.visitor_token));
    expect(JSON.stringify(row)).not.toContain(s.visitor_token);
    expect(row.external_id).toMatch(/^w_[a-z0-9]{20}$/);
  });

  it('resumes the visitor of a valid token, counting a new visit only after 30 idle minutes', async () => {
    const first = await startSession(t, widget.widget_id);
    const again = await startSession(t, widget.widget_id, { token: first.visitor_token });
    expect(again.visitor.number).toBe(first.visitor.number);
    expect(again.visitor_token).toBe(first.visitor_token);
    expect(JSON.parse((await visitorRow(first.visitor.number)).session_json).visits).toBe(1);
    now += VISIT_GAP_MS + 1000;
    await startSession(t, widget.widget_id, { token: first.visitor_token });
    expect(JSON.parse((await visitorRow(first.visitor.number)).session_json).visits).toBe(2);
  });

  it('resumes with the open chat and its visible messages', async () => {
    const s = await startSession(t, widget.widget_id);
    const sent = await sendText(t, widget.widget_id, s.visitor_token, 'hello there');
    const again = await startSession(t, widget.widget_id, { token: s.visitor_token });
    expect(again.chat).toMatchObject({ id: sent.chat_id, status: 'pending', agent: null, rate: null });
    expect(again.chat?.messages.map((m) => m.text)).toEqual(['hello there']);
    expect(again.cursor).toBeGreaterThanOrEqual(s.cursor);
  });

  it('makes a new visitor for an unknown token or one of another widget', async () => {
    const other = await createWidget(t, { name: 'Other site' });
    const s = await startSession(t, widget.widget_id);
    const unknown = await startSession(t, widget.widget_id, { token: 'not-a-token' });
    expect(unknown.visitor.number).not.toBe(s.visitor.number);
    expect(unknown.visitor_token).not.toBe('not-a-token');
    const elsewhere = await startSession(t, other.widget_id, { token: s.visitor_token });
    expect(elsewhere.visitor.number).not.toBe(s.visitor.number);
    // And the first widget's token is no credential on the other one.
    expect((await visitorCall(t, other.widget_id, s.visitor_token, 'typing', { typing: true })).statusCode).toBe(401);
  });

  it('stores GeoIP of the forwarded address (8.8.8.8 → US, Google LLC), and {} for a loopback address', async () => {
    const pub = await startSession(t, widget.widget_id, { ip: '8.8.8.8' });
    const session = JSON.parse((await visitorRow(pub.visitor.number)).session_json);
    expect(session.ip).toBe('8.8.8.8');
    expect(session.geoip).toMatchObject({ country_code: 'US', country: 'United States', organization: 'Google LLC' });
    for (const value of Object.values(session.geoip)) expect(typeof value).toBe('string');
    const local = await startSession(t, widget.widget_id, { ip: '127.0.0.1' });
    expect(JSON.parse((await visitorRow(local.visitor.number)).session_json).geoip).toEqual({});
  });

  it('stores the user agent with browser/OS/device, the UTM and the page; keeps UTM when a later page has none', async () => {
    const ua = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
    const s = await startSession(t, widget.widget_id, {
      headers: { 'user-agent': ua },
      utm: { source: 'google', medium: 'cpc', campaign: 'spring', content: 'ad1', term: 'chat' },
      page: { url: 'https://shop.example.com/pricing', title: 'Pricing' },
    });
    let session = JSON.parse((await visitorRow(s.visitor.number)).session_json);
    expect(session).toMatchObject({
      user_agent: ua,
      browser: { name: 'Mobile Safari', version: '17.0' },
      os: { name: 'iOS', version: '17.0' },
      device: { type: 'mobile', vendor: 'Apple', model: 'iPhone' },
      utm: { source: 'google', medium: 'cpc', campaign: 'spring', content: 'ad1', term: 'chat' },
      page: { url: 'https://shop.example.com/pricing', title: 'Pricing' },
      visits: 1,
    });
    await startSession(t, widget.widget_id, { token: s.visitor_token, page: { url: 'https://shop.example.com/cart' } });
    session = JSON.parse((await visitorRow(s.visitor.number)).session_json);
    expect(session.utm.source).toBe('google');
    expect(session.page).toEqual({ url: 'https://shop.example.com/cart' });
  });

  it("keeps the widget's language for the agents, one of the widget's own only, until another is given", async () => {
    const s = await startSession(t, widget.widget_id, { language: 'ar' });
    const language = async () => JSON.parse((await visitorRow(s.visitor.number)).session_json).language;
    expect(await language()).toBe('ar');
    await startSession(t, widget.widget_id, { token: s.visitor_token });
    expect(await language()).toBe('ar');
    for (const bad of ['klingon', '<b>', 42, { ar: 1 }]) {
      await startSession(t, widget.widget_id, { token: s.visitor_token, language: bad });
      expect(await language()).toBe('ar');
    }
    await startSession(t, widget.widget_id, { token: s.visitor_token, language: 'de' });
    expect(await language()).toBe('de');
    expect(JSON.parse((await visitorRow((await startSession(t, widget.widget_id, { language: 'xx' })).visitor.number)).session_json).language).toBeUndefined();
  });

  it('never stores a page that is not http(s)', async () => {
    const s = await startSession(t, widget.widget_id, { page: { url: 'javascript:alert(1)' } });
    expect(JSON.parse((await visitorRow(s.visitor.number)).session_json).page).toBeUndefined();
  });

  it('says online once an agent of the channel is online, and gives the widget colour', async () => {
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/channels/${widget.id}`,
      headers: { authorization: `Bearer ${t.adminToken}` },
      payload: { color: '#112233' },
    });
    await t.app.inject({ method: 'PUT', url: '/api/v1/me/status', headers: { authorization: `Bearer ${t.adminToken}` }, payload: { status: 'online' } });
    const s = await startSession(t, widget.widget_id);
    expect(s.online).toBe(true);
    expect(s.settings.color).toBe('#112233');
  });
});
