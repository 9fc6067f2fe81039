/**
 * Identity verification of widget channels: identity_verification on create
 * and PATCH issues (or removes) the secret shown to admins as
 * identity_secret, rotate_identity_secret issues a new one, and the widget's
 * setUserToken then takes only tokens signed with the current secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount, rowsOf } from '../../../../../test/helpers/accounts.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { startSession, visitorCall } from '../../../../../test/helpers/widget.js';
import { userTokenSignature } from '../../../../domain/widget/setUserToken.js';

const HEX_SECRET = /^[0-9a-f]{64}$/;

describe('widget channel identity secret', () => {
  let t: TestApp;
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>, token = t.adminToken) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
  const widget = (extra: Record<string, unknown> = {}) => call('POST', '/channels', { type: 'widget', name: 'Site', ...extra });
  const patch = (id: number, payload: Record<string, unknown>, token?: string) => call('PATCH', `/channels/${id}`, payload, token);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is off by default; identity_verification: true on create issues a 32-byte hex secret shown to admins', async () => {
    const plain = await widget();
    expect(plain.json().identity_secret).toBeNull();
    const res = await widget({ identity_verification: true });
    expect(res.statusCode).toBe(201);
    const secret = res.json().identity_secret;
    expect(secret).toMatch(HEX_SECRET);
    expect((await call('GET', `/channels/${res.json().id}`)).json().identity_secret).toBe(secret);
    expect((await widget({ identity_verification: true })).json().identity_secret).not.toBe(secret);
  });

  it('turns on with PATCH (keeping the secret when sent again), rotates, and turns off', async () => {
    const w = (await widget()).json();
    const on = (await patch(w.id, { identity_verification: true })).json();
    expect(on).toEqual({ ...w, identity_secret: expect.stringMatching(HEX_SECRET) });
    expect((await patch(w.id, { identity_verification: true, name: 'Site 2' })).json()).toMatchObject({ name: 'Site 2', identity_secret: on.identity_secret });
    const rotated = (await patch(w.id, { rotate_identity_secret: true })).json().identity_secret;
    expect(rotated).toMatch(HEX_SECRET);
    expect(rotated).not.toBe(on.identity_secret);
    // Other options survive identity changes and vice versa.
    expect((await patch(w.id, { color: '#123456' })).json()).toMatchObject({ color: '#123456', identity_secret: rotated });
    expect((await patch(w.id, { identity_verification: false })).json()).toMatchObject({ color: '#123456', identity_secret: null });
    expect((await patch(w.id, { identity_verification: false })).json().identity_secret).toBeNull();
  });

  it('refuses contradictions and chat_api channels with a 400 sentence, storing nothing', async () => {
    const w = (await widget()).json();
    const api = (await call('POST', '/channels', { type: 'chat_api', name: 'API', webhook_url: 'https://hooks.example.com/in' })).json();
    const before = await rowsOf(t, 'channels');
    for (const [id, payload, message] of [
      [w.id, { rotate_identity_secret: true }, /rotate_identity_secret needs identity verification on; send identity_verification: true/],
      [w.id, { identity_verification: false, rotate_identity_secret: true }, /identity_verification is false/],
      [w.id, { identity_verification: 'yes' }, /identity_verification must be boolean/],
      [api.id, { identity_verification: true }, /identity_verification applies only to widget channels/],
      [api.id, { rotate_identity_secret: true }, /rotate_identity_secret applies only to widget channels/],
    ] as const) {
      const res = await patch(id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toEqual({ code: 'validation_failed', message: expect.stringMatching(message) });
    }
    const created = await call('POST', '/channels', {
      type: 'chat_api',
      name: 'API',
      webhook_url: 'https://hooks.example.com/in',
      identity_verification: true,
    });
    expect(created.statusCode).toBe(400);
    expect(await rowsOf(t, 'channels')).toEqual(before);
    // false says nothing to a chat_api channel (generic forms may send it).
    expect((await patch(api.id, { identity_verification: false })).statusCode).toBe(200);
  });

  it('answers 403 to agents and 404 to another account', async () => {
    const w = (await widget({ identity_verification: true })).json();
    const { token } = await addAgent(t, { email: 'identity-agent@example.com' });
    const other = await createOtherAccount(t);
    const before = await rowsOf(t, 'channels');
    expect((await patch(w.id, { rotate_identity_secret: true }, token)).statusCode).toBe(403);
    expect((await call('GET', `/channels/${w.id}`, undefined, token)).statusCode).toBe(403);
    expect((await patch(w.id, { rotate_identity_secret: true }, other.token)).statusCode).toBe(404);
    expect((await call('GET', `/channels/${w.id}`, undefined, other.token)).statusCode).toBe(404);
    expect(await rowsOf(t, 'channels')).toEqual(before);
  });

  it('is what setUserToken checks: signed with the current secret only; none needed once off', async () => {
    const w = (await widget({ identity_verification: true })).json();
    const s = await startSession(t, w.widget_id);
    const setToken = (body: Record<string, unknown>) => visitorCall(t, w.widget_id, s.visitor_token, 'user-token', body).then((r) => r.json());
    const old = w.identity_secret as string;
    expect(await setToken({ token: 'crm-1' })).toEqual({ result: 'fail', token: false });
    expect(await setToken({ token: 'crm-1', signature: userTokenSignature('crm-1', old) })).toEqual({ result: 'ok', token: 'crm-1' });
    const rotated = (await patch(w.id, { rotate_identity_secret: true })).json().identity_secret as string;
    expect(await setToken({ token: 'crm-2', signature: userTokenSignature('crm-2', old) })).toEqual({ result: 'fail', token: false });
    expect(await setToken({ token: 'crm-2', signature: userTokenSignature('crm-2', rotated) })).toEqual({ result: 'ok', token: 'crm-2' });
    await patch(w.id, { identity_verification: false });
    expect(await setToken({ token: 'crm-3' })).toEqual({ result: 'ok', token: 'crm-3' });
    // The session answer (what any page may read) never carries the secret.
    await patch(w.id, { identity_verification: true });
    const again = await t.app.inject({ method: 'POST', url: `/widget/api/${w.widget_id}/session`, payload: { visitor_token: s.visitor_token } });
    const secret = (await call('GET', `/channels/${w.id}`)).json().identity_secret;
    expect(again.body).not.toContain(secret);
  });
});
