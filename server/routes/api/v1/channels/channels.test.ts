import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount, rowsOf } from '../../../../../test/helpers/accounts.js';
import { DEFAULT_APPEARANCE } from '../../../../../protocol/widget.js';
import { bearer, createTestApp, type TestApp, asAdmin } from '../../../../../test/helpers/testApp.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

describe('/api/v1/channels', () => {
  let t: TestApp;
  let agent: { id: number; token: string };
  const call = (method: Method, url: string, payload?: Record<string, unknown>, token = t.adminToken) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const chatApi = (extra: Record<string, unknown> = {}) =>
    call('POST', '/api/v1/channels', {
      type: 'chat_api',
      name: 'Shop app',
      webhook_url: 'https://hooks.example.com/in',
      chunked: false,
      agent_ids: [],
      ...extra,
    });
  const storeRows = async () => [await rowsOf(t, 'channels'), await rowsOf(t, 'channel_agents')];

  beforeAll(async () => {
    t = await createTestApp();
    agent = await addAgent(t, { email: 'channel-agent@example.com' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates a chat_api channel with its endpoint and status URLs', async () => {
    const res = await chatApi({ chunked: true, agent_ids: [agent.id, agent.id] });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['agent_ids', 'chunked', 'endpoint_url', 'id', 'name', 'public_id', 'status_url', 'type', 'webhook_url'].sort());
    expect(body).toMatchObject({ type: 'chat_api', name: 'Shop app', webhook_url: 'https://hooks.example.com/in', chunked: true, agent_ids: [agent.id] });
    const row = await t.app.ctx.db.selectFrom('channels').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(body.public_id).toBe(row.public_id);
    expect(body.endpoint_url).toBe(`http://parley.test/wh/${row.secret}/${row.public_id}`);
    expect(body.status_url).toBe(`${body.endpoint_url}/status`);
    const assigned = await t.app.ctx.db.selectFrom('channel_agents').selectAll().where('channel_id', '=', body.id).execute();
    expect(assigned).toEqual([{ account_id: row.account_id, channel_id: body.id, agent_id: agent.id }]);
  });

  it('stores webhook_url exactly as given (joined as a plain string later) and defaults chunked to false', async () => {
    const res = await call('POST', '/api/v1/channels', { type: 'chat_api', name: 'Query', webhook_url: ' https://hooks.example.com/in?c= ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ webhook_url: 'https://hooks.example.com/in?c=', chunked: false, agent_ids: [] });
  });

  it('creates a widget channel with its install snippet and options', async () => {
    const res = await call('POST', '/api/v1/channels', {
      type: 'widget',
      name: 'Site',
      color: '#1A73E8',
      allowed_domains: ['Shop.Example.com', '*.example.org', 'shop.example.com'],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(Number),
      type: 'widget',
      name: 'Site',
      widget_id: expect.stringMatching(/^[a-z0-9]{12}$/),
      script_url: `http://parley.test/widget/${body.widget_id}.js`,
      install_snippet: `<script src="http://parley.test/widget/${body.widget_id}.js" async></script>`,
      agent_ids: [],
      color: '#1a73e8',
      allowed_domains: ['shop.example.com', '*.example.org'],
      identity_secret: null,
      hide_launcher: false,
      enabled: true,
      appearance: DEFAULT_APPEARANCE,
    });
    const minimal = await call('POST', '/api/v1/channels', { type: 'widget', name: 'Plain', webhook_url: null, chunked: false });
    expect(minimal.statusCode).toBe(201);
    expect(minimal.json()).toMatchObject({ color: null, allowed_domains: [], agent_ids: [], hide_launcher: false, enabled: true });
    const own = await call('POST', '/api/v1/channels', { type: 'widget', name: 'Own button', hide_launcher: true, enabled: false });
    expect(own.json()).toMatchObject({ hide_launcher: true, enabled: false });
  });

  it.each([
    [{ type: 'chat_api', name: 'X' }, 'validation_failed', /webhook_url is required/],
    [{ type: 'chat_api', name: 'X', webhook_url: 'ftp://example.com/in' }, 'validation_failed', /http/],
    [{ type: 'chat_api', name: 'X', webhook_url: 'not a url' }, 'validation_failed', /http/],
    [{ type: 'chat_api', name: 'X', webhook_url: 'https://example.com/#frag' }, 'validation_failed', /fragment/],
    [{ type: 'chat_api', name: 'X', webhook_url: 'https://example.com/', agent_ids: [999999] }, 'validation_failed', /999999/],
    [{ type: 'chat_api', name: 'X', webhook_url: 'https://example.com/', color: '#ffffff' }, 'validation_failed', /only to widget/],
    [{ type: 'chat_api', name: 'X', webhook_url: 'https://example.com/', hide_launcher: true }, 'validation_failed', /only to widget/],
    [{ type: 'chat_api', name: '', webhook_url: 'https://example.com/' }, 'validation_failed', /name/],
    [{ type: 'email', name: 'X' }, 'validation_failed', /type/],
    [{ type: 'widget', name: 'X', color: 'red' }, 'validation_failed', /#rrggbb/],
    [{ type: 'widget', name: 'X', allowed_domains: ['https://example.com/'] }, 'validation_failed', /host names/],
    [{ type: 'widget', name: 'X', webhook_url: 'https://example.com/' }, 'validation_failed', /only to chat_api/],
    [{ type: 'widget', name: 'X', agent_ids: ['1'] }, 'validation_failed', /agent_ids/],
  ])('refuses %j with a clear 400 and stores nothing', async (payload, code, message) => {
    const before = await storeRows();
    const res = await call('POST', '/api/v1/channels', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code, message: expect.stringMatching(message) });
    expect(await storeRows()).toEqual(before);
  });

  it('refuses agents of another account', async () => {
    const other = await createOtherAccount(t);
    const before = await storeRows();
    const res = await chatApi({ agent_ids: [agent.id, other.adminId] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain(String(other.adminId));
    expect(await storeRows()).toEqual(before);
  });

  it('lists newest first (paged) and reads one', async () => {
    const a = (await chatApi({ name: 'A' })).json();
    const b = (await call('POST', '/api/v1/channels', { type: 'widget', name: 'B' })).json();
    const list = (await call('GET', '/api/v1/channels')).json();
    expect(list.slice(0, 2)).toEqual([b, a]);
    expect((await call('GET', '/api/v1/channels?limit=1')).json()).toEqual([b]);
    expect((await call('GET', `/api/v1/channels?limit=1&before=${b.id}`)).json()).toEqual([a]);
    expect((await call('GET', '/api/v1/channels?limit=5000')).statusCode).toBe(400);
    expect((await call('GET', `/api/v1/channels/${a.id}`)).json()).toEqual(a);
    expect((await call('GET', '/api/v1/channels/424242')).statusCode).toBe(404);
  });

  it('changes a chat_api channel and rotates its secret', async () => {
    const ch = (await chatApi({ agent_ids: [agent.id] })).json();
    const res = await call('PATCH', `/api/v1/channels/${ch.id}`, {
      name: 'Renamed',
      webhook_url: 'https://new.example.com/hook',
      chunked: true,
      agent_ids: [],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...ch, name: 'Renamed', webhook_url: 'https://new.example.com/hook', chunked: true, agent_ids: [] });
    const rotated = (await call('PATCH', `/api/v1/channels/${ch.id}`, { rotate_secret: true })).json();
    expect(rotated.public_id).toBe(ch.public_id);
    expect(rotated.endpoint_url).not.toBe(ch.endpoint_url);
    expect(rotated.endpoint_url).toMatch(new RegExp(`^http://parley\\.test/wh/[A-Za-z0-9_-]{32}/${ch.public_id}$`));

    const before = await storeRows();
    for (const payload of [
      { color: '#000000' },
      { webhook_url: 'mailto:a@b.c' },
      { webhook_url: null },
      { agent_ids: [123456] },
      { name: ' ' },
      { chunked: 'yes' },
    ]) {
      const bad = await call('PATCH', `/api/v1/channels/${ch.id}`, payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await storeRows()).toEqual(before);
  });

  it('changes a widget channel; null clears its options; chat_api fields are refused', async () => {
    const w = (await call('POST', '/api/v1/channels', { type: 'widget', name: 'W', color: '#123456', allowed_domains: ['a.example'] })).json();
    const res = await call('PATCH', `/api/v1/channels/${w.id}`, { name: 'W2', color: null, allowed_domains: null, agent_ids: [agent.id] });
    expect(res.json()).toEqual({ ...w, name: 'W2', color: null, allowed_domains: [], agent_ids: [agent.id] });
    const hidden = await call('PATCH', `/api/v1/channels/${w.id}`, { hide_launcher: true, enabled: false });
    expect(hidden.json()).toEqual({ ...res.json(), hide_launcher: true, enabled: false });
    const shown = await call('PATCH', `/api/v1/channels/${w.id}`, { hide_launcher: false, enabled: true });
    expect(shown.json()).toEqual(res.json());
    const before = await storeRows();
    for (const payload of [
      { rotate_secret: true },
      { chunked: true },
      { color: '#12345' },
      { allowed_domains: ['a b'] },
      { hide_launcher: 'yes' },
      { enabled: 0 },
    ]) {
      expect((await call('PATCH', `/api/v1/channels/${w.id}`, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await storeRows()).toEqual(before);
  });

  it("changes a widget's appearance field by field, and refuses bad values with a clear 400 that stores nothing", async () => {
    const w = (await call('POST', '/api/v1/channels', { type: 'widget', name: 'Looks', appearance: { title: 'Acme help', launcher: 'button' } })).json();
    expect(w.appearance).toEqual({ ...DEFAULT_APPEARANCE, title: 'Acme help', launcher: 'button' });
    const res = await call('PATCH', `/api/v1/channels/${w.id}`, {
      appearance: {
        greeting: '  Hi! How can we help?  ',
        position: 'left',
        offset_x: 40,
        offset_y: 0,
        logo: 'https://cdn.example.com/logo.png',
        language: 'ar',
      },
    });
    expect(res.statusCode).toBe(200);
    const want = {
      ...w.appearance,
      greeting: 'Hi! How can we help?',
      position: 'left',
      offset_x: 40,
      offset_y: 0,
      logo: 'https://cdn.example.com/logo.png',
      language: 'ar',
    };
    expect(res.json().appearance).toEqual(want);
    // null and '' give the default back; the rest stays.
    const cleared = await call('PATCH', `/api/v1/channels/${w.id}`, { appearance: { title: null, logo: '' } });
    expect(cleared.json().appearance).toEqual({ ...want, title: null, logo: null });
    // The visitor's frame gets it with the session.
    const session = await t.app.inject({ method: 'POST', url: `/widget/api/${w.widget_id}/session`, payload: {} });
    expect(session.json().settings.appearance).toEqual(cleared.json().appearance);

    const before = await storeRows();
    for (const [payload, message] of [
      [{ title: 'x'.repeat(61) }, /appearance.title may have at most 60 characters/],
      [{ position: 'top' }, /right|left/],
      [{ offset_x: 201 }, /offset_x|200/],
      [{ offset_y: 1.5 }, /offset_y|integer/],
      [{ launcher: 'bubble' }, /label|button/],
      [{ logo: 'http://cdn.example.com/logo.png' }, /https/],
      [{ logo: 'javascript:alert(1)' }, /https/],
      [{ language: 'xx' }, /language|auto/],
      [{ colour: 'red' }, /colour|additional|unknown/i],
      [{ greeting: 5 }, /greeting/],
    ] as const) {
      const bad = await call('PATCH', `/api/v1/channels/${w.id}`, { appearance: payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().error.message, JSON.stringify(payload)).toMatch(message);
    }
    expect((await chatApi({ appearance: { title: 'x' } })).statusCode).toBe(400);
    expect(await storeRows()).toEqual(before);
  });

  it('deletes a channel with its assignments', async () => {
    const ch = (await chatApi({ agent_ids: [agent.id] })).json();
    const res = await call('DELETE', `/api/v1/channels/${ch.id}`);
    expect(res.statusCode).toBe(204);
    expect((await call('GET', `/api/v1/channels/${ch.id}`)).statusCode).toBe(404);
    expect(await t.app.ctx.db.selectFrom('channel_agents').selectAll().where('channel_id', '=', ch.id).execute()).toEqual([]);
    expect((await call('DELETE', `/api/v1/channels/${ch.id}`)).statusCode).toBe(404);
  });

  it('answers 403 to agents on every channel call', async () => {
    const ch = (await chatApi()).json();
    const before = await storeRows();
    for (const [method, url, payload] of [
      ['GET', '/api/v1/channels', undefined],
      ['POST', '/api/v1/channels', { type: 'widget', name: 'N' }],
      ['POST', '/api/v1/channels', { type: 'bogus' }],
      ['GET', `/api/v1/channels/${ch.id}`, undefined],
      ['PATCH', `/api/v1/channels/${ch.id}`, { name: 'N' }],
      ['DELETE', `/api/v1/channels/${ch.id}`, undefined],
    ] as const) {
      const res = await call(method, url, payload, agent.token);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/channels', payload: { type: 'bogus' } });
    expect(anonymous.statusCode).toBe(401);
    expect(await storeRows()).toEqual(before);
  });

  it('keeps accounts apart: another admin sees none and gets 404', async () => {
    const ch = (await chatApi()).json();
    const other = await createOtherAccount(t, 'chan-boss@other.example');
    expect((await call('GET', '/api/v1/channels', undefined, other.token)).json()).toEqual([]);
    const before = await storeRows();
    expect((await call('GET', `/api/v1/channels/${ch.id}`, undefined, other.token)).statusCode).toBe(404);
    expect((await call('PATCH', `/api/v1/channels/${ch.id}`, { rotate_secret: true }, other.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/v1/channels/${ch.id}`, undefined, other.token)).statusCode).toBe(404);
    expect(await storeRows()).toEqual(before);
  });
});

describe('/api/v1/channels without OUTBOUND_ALLOW_PRIVATE', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: '0' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    'http://127.0.0.1:9000/hook',
    'http://localhost/hook',
    'https://api.localhost/hook',
    'http://10.1.2.3/',
    'http://172.20.0.1/',
    'http://192.168.1.10/',
    'http://169.254.169.254/latest',
    'http://[::1]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://2130706433/',
  ])('refuses %s with outbound_url_refused and stores nothing', async (url) => {
    const before = await rowsOf(t, 'channels');
    const res = await asAdmin(t, 'POST', '/api/v1/channels', { type: 'chat_api', name: 'X', webhook_url: url });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'outbound_url_refused', message: expect.stringMatching(/webhook_url/) });
    expect(await rowsOf(t, 'channels')).toEqual(before);
  });

  it('accepts a public host', async () => {
    const res = await asAdmin(t, 'POST', '/api/v1/channels', { type: 'chat_api', name: 'X', webhook_url: 'https://hooks.example.com/x' });
    expect(res.statusCode).toBe(201);
    const ch = res.json();
    const patch = await asAdmin(t, 'PATCH', `/api/v1/channels/${ch.id}`, { webhook_url: 'http://127.0.0.1/' });
    expect(patch.json().error.code).toBe('outbound_url_refused');
  });
});
