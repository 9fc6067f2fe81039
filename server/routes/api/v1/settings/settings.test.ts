import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount, rowsOf } from '../../../../../test/helpers/accounts.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

const DEFAULT_CALLBACK = { enabled: false, balance_seconds: 0, timezone: 'UTC', hours: null, provider: 'agent_dialled' };

describe('/api/v1/settings', () => {
  let t: TestApp;
  const get = (token = t.adminToken) => t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: bearer(token) });
  const put = (payload: unknown, token = t.adminToken) =>
    t.app.inject({ method: 'PUT', url: '/api/v1/settings', headers: bearer(token), payload: payload as Record<string, unknown> });
  const rotate = (token = t.adminToken) => t.app.inject({ method: 'POST', url: '/api/v1/settings/webhook-secret/rotate', headers: bearer(token) });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads the defaults: no URLs, a Standard Webhooks secret, callbacks disabled', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      account_name: '',
      event_webhook_url: null,
      safe_url: null,
      webhook_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      callback: DEFAULT_CALLBACK,
      rules: null,
      webhooks_paused_reason: null,
      notifications: { emails: [], missed_chat_minutes: null, archive_email: null },
      presence: { default_status: 'online', away_after_idle_minutes: 0 },
      chat_hours: null,
      event_webhook_types: {
        chat_accepted: true,
        chat_assigned: true,
        chat_updated: true,
        chat_finished: true,
        offline_message: true,
        call_event: true,
        chat_started: false,
        chat_missed: false,
        chat_rated: false,
        visitor_erased: false,
      },
      retention: { chats_days: null, chats_due: 0 },
    });
    expect(Buffer.from(res.json().webhook_secret.slice(6), 'base64')).toHaveLength(32);
  });

  it('changes only the keys a partial object names, callback keys included', async () => {
    const start = (await get()).json();
    const a = await put({ event_webhook_url: 'https://events.example.com/hook' });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual({ ...start, event_webhook_url: 'https://events.example.com/hook' });
    const b = (await put({ safe_url: 'https://shop.example.com', callback: { enabled: true, balance_seconds: 600 } })).json();
    expect(b).toEqual({
      ...start,
      event_webhook_url: 'https://events.example.com/hook',
      safe_url: 'https://shop.example.com',
      callback: { ...DEFAULT_CALLBACK, enabled: true, balance_seconds: 600 },
    });
    const hours = {
      mon: [
        ['09:00', '12:00'],
        ['13:00', '17:30'],
      ],
      sat: [['10:00', '24:00']],
    };
    const c = (await put({ callback: { timezone: 'europe/berlin', hours } })).json();
    expect(c.callback).toEqual({ ...DEFAULT_CALLBACK, enabled: true, balance_seconds: 600, timezone: 'Europe/Berlin', hours });
    expect(await get().then((r) => r.json())).toEqual(c);
  });

  it('clears with null: URLs, single callback keys (hours null = always open), or the whole callback', async () => {
    await put({
      event_webhook_url: 'https://events.example.com/x',
      safe_url: 'https://a.example',
      callback: { enabled: true, timezone: 'Asia/Tokyo', hours: { mon: [['09:00', '10:00']] } },
    });
    const a = (await put({ event_webhook_url: null, callback: { hours: null } })).json();
    expect(a.event_webhook_url).toBeNull();
    expect(a.safe_url).toBe('https://a.example');
    expect(a.callback).toMatchObject({ enabled: true, timezone: 'Asia/Tokyo', hours: null });
    const b = (await put({ safe_url: '', callback: null })).json();
    expect(b.safe_url).toBeNull();
    expect(b.callback).toEqual(DEFAULT_CALLBACK);
  });

  it('switching callbacks on with no call time left gives them 10 hours (36000 s), unless the change names its own', async () => {
    await put({ callback: null });
    const on = await put({ callback: { enabled: true } });
    expect(on.statusCode).toBe(200);
    expect(on.json().callback).toEqual({ ...DEFAULT_CALLBACK, enabled: true, balance_seconds: 36_000 });
    // Already on: another change leaves the balance alone, even one that ran out.
    expect((await put({ callback: { balance_seconds: 0 } })).json().callback).toMatchObject({ enabled: true, balance_seconds: 0 });
    expect((await put({ callback: { enabled: true } })).json().callback.balance_seconds).toBe(0);
    // Off and on again with none left: the default again; a named balance is kept as named, 0 included.
    await put({ callback: { enabled: false } });
    expect((await put({ callback: { enabled: true } })).json().callback.balance_seconds).toBe(36_000);
    await put({ callback: { enabled: false, balance_seconds: 0 } });
    expect((await put({ callback: { enabled: true, balance_seconds: 0 } })).json().callback.balance_seconds).toBe(0);
    await put({ callback: { enabled: false, balance_seconds: 120 } });
    expect((await put({ callback: { enabled: true } })).json().callback.balance_seconds).toBe(120);
    await put({ callback: null });
  });

  it('accepts the one call provider, agent_dialled, and null resets it to the default', async () => {
    const a = await put({ callback: { provider: 'agent_dialled' } });
    expect(a.statusCode).toBe(200);
    expect(a.json().callback.provider).toBe('agent_dialled');
    expect((await put({ callback: { provider: null } })).json().callback.provider).toBe('agent_dialled');
  });

  it('treats webhook_secret as read-only: a PUT that carries one (a GET sent back) is accepted and leaves it', async () => {
    const current = (await get()).json();
    const res = await put({ ...current, webhook_secret: 'whsec_AAAA', safe_url: 'https://b.example' });
    expect(res.statusCode).toBe(200);
    expect(res.json().webhook_secret).toBe(current.webhook_secret);
    expect(res.json().safe_url).toBe('https://b.example');
  });

  it('rotates the webhook secret', async () => {
    const before = (await get()).json();
    const res = await rotate();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...before, webhook_secret: expect.stringMatching(/^whsec_/) });
    expect(res.json().webhook_secret).not.toBe(before.webhook_secret);
    expect((await get()).json().webhook_secret).toBe(res.json().webhook_secret);
  });

  it.each([
    [{ event_webhook_url: 'ftp://events.example.com' }, /event_webhook_url must be an absolute http/],
    [{ event_webhook_url: 'events.example.com/hook' }, /event_webhook_url/],
    [{ event_webhook_url: 5 }, /event_webhook_url must be string or null/],
    [{ safe_url: 'javascript:alert(1)' }, /safe_url/],
    [{ callback: { enabled: 'yes' } }, /enabled must be boolean or null/],
    [{ callback: { balance_seconds: -1 } }, /balance_seconds/],
    [{ callback: { balance_seconds: 1.5 } }, /balance_seconds/],
    [{ callback: { timezone: 'Mars/Olympus' } }, /IANA time zone/],
    [{ callback: { hours: { monday: [['09:00', '17:00']] } } }, /only name the days/],
    [{ callback: { hours: { mon: [['17:00', '09:00']] } } }, /start must come before its end/],
    [{ callback: { hours: { mon: [['09:00', '09:00']] } } }, /start must come before/],
    [{ callback: { hours: { mon: [['09:00', '24:30']] } } }, /HH:MM/],
    [{ callback: { hours: { mon: [['9:00', '17:00']] } } }, /HH:MM/],
    [{ callback: { hours: { mon: [['09:00']] } } }, /HH:MM/],
    [{ callback: { hours: { mon: '09:00-17:00' } } }, /must be array/],
    [{ callback: { hours: [] } }, /hours/],
    [{ callback: { provider: 'twilio' } }, /callback.provider must be one of "agent_dialled"/],
    [{ callback: { provider: 5 } }, /provider must be string or null/],
  ])('refuses %j with a clear 400 and stores nothing', async (payload, message) => {
    const before = await rowsOf(t, 'settings');
    const res = await put(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'validation_failed', message: expect.stringMatching(message) });
    expect(await rowsOf(t, 'settings')).toEqual(before);
  });

  it('refuses a partly bad change as a whole', async () => {
    const before = await rowsOf(t, 'settings');
    const res = await put({ safe_url: 'https://ok.example', callback: { timezone: 'Nowhere/Land' } });
    expect(res.statusCode).toBe(400);
    expect(await rowsOf(t, 'settings')).toEqual(before);
  });

  it('answers 403 to agents', async () => {
    const { token } = await addAgent(t, { email: 'settings-agent@example.com' });
    const before = await rowsOf(t, 'settings');
    for (const res of [await get(token), await put({ safe_url: null }, token), await put({ safe_url: 5 }, token), await rotate(token)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    }
    expect(await rowsOf(t, 'settings')).toEqual(before);
  });

  it("keeps each account's settings apart", async () => {
    await put({ event_webhook_url: 'https://first.example/hook' });
    const mine = (await get()).json();
    const other = await createOtherAccount(t);
    const theirs = (await get(other.token)).json();
    expect(theirs.event_webhook_url).toBeNull();
    expect(theirs.webhook_secret).not.toBe(mine.webhook_secret);
    await put({ event_webhook_url: 'https://second.example/hook' }, other.token);
    await rotate(other.token);
    expect((await get()).json()).toEqual(mine);
  });
});

describe('/api/v1/settings without OUTBOUND_ALLOW_PRIVATE', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: '0' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a private event_webhook_url, but not a private safe_url', async () => {
    const before = await rowsOf(t, 'settings');
    for (const url of ['http://127.0.0.1:8080/events', 'http://localhost/x', 'http://[::1]/', 'http://10.0.0.8/']) {
      const res = await t.app.inject({ method: 'PUT', url: '/api/v1/settings', headers: bearer(t.adminToken), payload: { event_webhook_url: url } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code).toBe('outbound_url_refused');
    }
    expect(await rowsOf(t, 'settings')).toEqual(before);
    const ok = await t.app.inject({ method: 'PUT', url: '/api/v1/settings', headers: bearer(t.adminToken), payload: { safe_url: 'http://localhost:3000' } });
    expect(ok.statusCode).toBe(200);
  });
});
