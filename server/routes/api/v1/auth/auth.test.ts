import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

describe('auth and me', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('logs in and answers the token and the agent', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(typeof body.token).toBe('string');
    expect(body.token.length).toBeGreaterThanOrEqual(40);
    expect(body.agent).toMatchObject({ email: ADMIN_EMAIL, role: 'admin', status: 'offline' });
    expect(body.agent.password_hash).toBeUndefined();
    expect(String(res.headers['set-cookie'])).toMatch(/parley_token=.*HttpOnly/);
  });

  it('refuses wrong credentials with 401 and the error shape', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: ADMIN_EMAIL, password: 'nope' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: { code: 'invalid_credentials', message: expect.any(String) } });
  });

  it('answers 400 for malformed JSON and for a body of the wrong shape', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('invalid_json');
    const wrong = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 5 } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('validation_failed');
  });

  it('GET /me needs a token and answers the contract fields', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me' })).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(t.adminToken) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: expect.any(Number), name: expect.any(String), email: ADMIN_EMAIL, role: 'admin', status: 'offline' });
  });

  it('PUT /me/status switches availability and refuses unknown statuses', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/v1/me/status', headers: bearer(t.adminToken), payload: { status: 'online' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('online');
    const bad = await t.app.inject({ method: 'PUT', url: '/api/v1/me/status', headers: bearer(t.adminToken), payload: { status: 'busy' } });
    expect(bad.statusCode).toBe(400);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(t.adminToken) });
    expect(me.json().status).toBe('online');
  });

  it('cookie authentication needs the CSRF header on unsafe methods', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    const cookies = Object.fromEntries(login.cookies.map((c) => [c.name, c.value]));
    const cookieHeader = `parley_token=${cookies.parley_token}; parley_csrf=${cookies.parley_csrf}`;
    const get = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie: cookieHeader } });
    expect(get.statusCode).toBe(200);
    const noCsrf = await t.app.inject({ method: 'PUT', url: '/api/v1/me/status', headers: { cookie: cookieHeader }, payload: { status: 'away' } });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error.code).toBe('csrf_failed');
    const withCsrf = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/me/status',
      headers: { cookie: cookieHeader, 'x-csrf-token': cookies.parley_csrf },
      payload: { status: 'away' },
    });
    expect(withCsrf.statusCode).toBe(200);
  });

  it('logout revokes the token', async () => {
    const token = await t.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: bearer(token) })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('serves /healthz, /metrics and the OpenAPI document', async () => {
    const h = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(h.statusCode).toBe(200);
    expect(h.json()).toEqual({ status: 'ok' });
    const m = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(m.body).toContain('parley_http_request_duration_seconds');
    const o = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(o.json().paths['/api/v1/auth/login']).toBeDefined();
  });
});
