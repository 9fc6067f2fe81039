/**
 * The Web Push API (docs/NOTIFICATIONS.md): the deployment's VAPID key is made
 * once and kept in the database (the same after a restart on the same data),
 * an agent registers, lists and removes its own devices, a refused body
 * changes nothing, another agent's device is not theirs to remove, and tabs
 * say whether they are visible. Runs on both stores (vitest projects).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, rowsOf } from '../../../../../test/helpers/accounts.js';
import { bearer, createTestApp, freshStore, type TestApp, type TestStore } from '../../../../../test/helpers/testApp.js';

const P256DH = (() => {
  const key = Buffer.alloc(65, 7);
  key[0] = 4;
  return key.toString('base64url');
})();
const AUTH = Buffer.alloc(16, 9).toString('base64url');

describe('push subscriptions and VAPID key', () => {
  let store: TestStore;
  let t: TestApp;
  let pat: { id: number; token: string };
  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    store = freshStore();
    t = await createTestApp({ store });
    pat = await addAgent(t, { email: 'pat@example.com' });
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('makes the VAPID key pair at first start and serves the same public key after a restart', async () => {
    const res = await call('GET', '/push/vapid-public-key', pat.token);
    expect(res.statusCode).toBe(200);
    const key = res.json<{ public_key: string }>().public_key;
    const raw = Buffer.from(key, 'base64url');
    expect(raw.length).toBe(65);
    expect(raw[0]).toBe(4);
    const rows = await t.app.ctx.db.selectFrom('web_push_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].public_key).toBe(key);
    await t.close();
    t = await createTestApp({ store });
    pat = { id: pat.id, token: await t.login('pat@example.com', 'agent-password-1') };
    expect((await call('GET', '/push/vapid-public-key', t.adminToken)).json()).toEqual({ public_key: key });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/push/vapid-public-key' })).statusCode).toBe(401);
  });

  it('registers a device, again without a duplicate, lists it and removes it by endpoint', async () => {
    const endpoint = 'https://push.example.net/send/abc';
    const body = { endpoint, expirationTime: null, keys: { p256dh: P256DH, auth: AUTH } };
    const first = await call('POST', '/me/push-subscriptions', pat.token, body);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ endpoint, service: 'push.example.net', last_pushed_at: null });
    expect((await call('POST', '/me/push-subscriptions', pat.token, body)).statusCode).toBe(200);
    const list = await call('GET', '/me/push-subscriptions', pat.token);
    expect(list.json().subscriptions).toHaveLength(1);
    expect((await call('GET', '/me/push-subscriptions', t.adminToken)).json()).toEqual({ subscriptions: [] });
    // Another agent cannot remove it.
    expect((await call('DELETE', '/me/push-subscriptions', t.adminToken, { endpoint })).statusCode).toBe(404);
    expect((await call('DELETE', '/me/push-subscriptions', pat.token, { endpoint })).statusCode).toBe(204);
    expect((await call('DELETE', '/me/push-subscriptions', pat.token, { endpoint })).statusCode).toBe(404);
    expect((await call('GET', '/me/push-subscriptions', pat.token)).json()).toEqual({ subscriptions: [] });
  });

  it('moves a device registered by another agent to them, and removes one by id (Profile)', async () => {
    const endpoint = 'https://push.example.net/send/shared';
    const body = { endpoint, keys: { p256dh: P256DH, auth: AUTH } };
    const mine = (await call('POST', '/me/push-subscriptions', pat.token, body)).json<{ id: number }>();
    expect((await call('POST', '/me/push-subscriptions', t.adminToken, body)).statusCode).toBe(200);
    expect((await call('GET', '/me/push-subscriptions', pat.token)).json()).toEqual({ subscriptions: [] });
    expect((await call('DELETE', `/me/push-subscriptions/${mine.id}`, pat.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/me/push-subscriptions/${mine.id}`, t.adminToken)).statusCode).toBe(204);
  });

  it('refuses a bad subscription with a 400 naming what is wrong, and stores nothing', async () => {
    const before = await rowsOf(t, 'push_subscriptions');
    const bad: [object, RegExp][] = [
      [{ endpoint: 'ftp://push.example.net/x', keys: { p256dh: P256DH, auth: AUTH } }, /https/],
      [{ endpoint: 'not a url', keys: { p256dh: P256DH, auth: AUTH } }, /https/],
      [{ endpoint: `https://push.example.net/${'x'.repeat(2100)}`, keys: { p256dh: P256DH, auth: AUTH } }, /2048/],
      [{ endpoint: 'https://push.example.net/x', keys: { p256dh: AUTH, auth: AUTH } }, /p256dh/],
      [{ endpoint: 'https://push.example.net/x', keys: { p256dh: P256DH, auth: P256DH } }, /auth/],
      [{ endpoint: 'https://push.example.net/x', keys: { p256dh: 'not base64!', auth: AUTH } }, /p256dh/],
      [{ endpoint: 'https://push.example.net/x' }, /keys/],
      [{ endpoint: 'https://push.example.net/x', keys: { p256dh: P256DH, auth: AUTH }, extra: 1 }, /.+/],
    ];
    for (const [body, message] of bad) {
      const res = await call('POST', '/me/push-subscriptions', pat.token, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(res.json().error.message).toMatch(message);
    }
    expect(await rowsOf(t, 'push_subscriptions')).toEqual(before);
  });

  it('stops notifying every device of an agent who signs out everywhere (a lost phone)', async () => {
    const other = await addAgent(t, { email: 'lost@example.com' });
    for (const n of [1, 2]) {
      const res = await call('POST', '/me/push-subscriptions', other.token, {
        endpoint: `https://push.example.net/lost/${n}`,
        keys: { p256dh: P256DH, auth: AUTH },
      });
      expect(res.statusCode).toBe(201);
    }
    expect((await call('POST', '/auth/logout-all', other.token)).statusCode).toBe(204);
    const left = await t.app.ctx.db.selectFrom('push_subscriptions').select('id').where('agent_id', '=', other.id).execute();
    expect(left).toEqual([]);
  });

  it('records whether a tab is visible, and refuses a bad tab id', async () => {
    expect((await call('PUT', '/me/tabs/tab-0123456789', pat.token, { visible: true })).statusCode).toBe(204);
    expect((await call('PUT', '/me/tabs/tab-0123456789', pat.token, { visible: false })).statusCode).toBe(204);
    const rows = await t.app.ctx.db.selectFrom('agent_tabs').selectAll().where('agent_id', '=', pat.id).execute();
    expect(rows.map((r) => [r.tab_id, r.visible])).toEqual([['tab-0123456789', 0]]);
    expect((await call('PUT', '/me/tabs/x', pat.token, { visible: true })).statusCode).toBe(400);
    expect((await call('PUT', '/me/tabs/tab-0123456789', pat.token, { visible: 'yes' })).statusCode).toBe(400);
    expect((await call('PUT', '/me/tabs/tab%2F..%2Fzz1234', pat.token, { visible: true })).statusCode).toBe(400);
  });
});
