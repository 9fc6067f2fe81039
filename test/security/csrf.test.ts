/**
 * CSRF: the agent app signs in with an HttpOnly, SameSite=Strict cookie, and
 * every cookie-authenticated unsafe request (each POST/PUT/PATCH/DELETE the
 * app registers under /api/v1, found with an onRoute hook) without an
 * X-CSRF-Token header equal to the parley_csrf cookie — none, a wrong one,
 * another session's, or the cookie missing — is 403 csrf_failed and changes
 * nothing. Safe methods and bearer tokens need no header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../helpers/testApp.js';
import { appWithRoutes, snapshotTables, type RouteEntry } from './helpers.js';
import { buildWorld, type World } from './world.js';

interface Session {
  token: string;
  csrf: string;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Unsafe routes without a session to protect: sign-in and the password links (anyone may call them). */
const SESSIONLESS = new Set(['/api/v1/auth/login', '/api/v1/auth/forgot-password', '/api/v1/auth/set-password', '/api/v1/auth/email-confirmation']);

describe('CSRF protection of cookie sessions', () => {
  let t: TestApp;
  let routes: RouteEntry[];
  let w: World;
  let session: Session;
  let other: Session;

  const signIn = async (): Promise<Session> => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    const cookie = (name: string) => res.cookies.find((c) => c.name === name)?.value ?? '';
    return { token: cookie('parley_token'), csrf: cookie('parley_csrf') };
  };
  const withCookies = (method: string, url: string, cookie: string, headers: Record<string, string> = {}, payload?: object) =>
    t.app.inject({ method: method as 'POST', url, headers: { cookie, ...headers }, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    ({ t, routes } = await appWithRoutes());
    w = await buildWorld(t);
    session = await signIn();
    other = await signIn();
  });
  afterAll(() => t.close());

  it('sets the session cookie HttpOnly and SameSite=Strict, the CSRF cookie readable by the app', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    const token = res.cookies.find((c) => c.name === 'parley_token');
    const csrf = res.cookies.find((c) => c.name === 'parley_csrf');
    expect(token).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(csrf).toMatchObject({ sameSite: 'Strict', path: '/' });
    expect(csrf?.httpOnly).toBeFalsy();
    expect(csrf?.value).toMatch(/^[\w-]{16,}$/);
    expect(csrf?.value).not.toBe(token?.value);
  });

  it('refuses every unsafe /api/v1 route without the right X-CSRF-Token, and changes nothing', async () => {
    const unsafe = routes.filter((r) => r.url.startsWith('/api/v1/') && UNSAFE.has(r.method) && !SESSIONLESS.has(r.url));
    expect(unsafe.length).toBeGreaterThan(15);
    const full = `parley_token=${session.token}; parley_csrf=${session.csrf}`;
    const attempts: Array<{ cookie: string; headers: Record<string, string> }> = [
      { cookie: full, headers: {} },
      { cookie: full, headers: { 'x-csrf-token': '' } },
      { cookie: full, headers: { 'x-csrf-token': `${session.csrf}x` } },
      { cookie: full, headers: { 'x-csrf-token': other.csrf } },
      { cookie: full, headers: { 'x-csrf-token': session.token } },
      // The header alone, with no CSRF cookie to match.
      { cookie: `parley_token=${session.token}`, headers: { 'x-csrf-token': session.csrf } },
      // A CSRF cookie and a header that differ.
      { cookie: `parley_token=${session.token}; parley_csrf=planted`, headers: { 'x-csrf-token': 'planted!' } },
    ];
    const before = await snapshotTables(t, ['sign_in_throttles']);
    for (const route of unsafe) {
      const url = route.url.replace(':id', String(w.chatApiChatId));
      for (const a of attempts) {
        for (const payload of [{}, { status: 'online', text: 'forged', type: 'text', name: 'Forged' }]) {
          const res = await withCookies(route.method, url, a.cookie, { ...a.headers, 'content-type': 'text/plain' }, payload);
          expect(res.statusCode, `${route.method} ${route.url} ${JSON.stringify(a.headers)}`).toBe(403);
          expect(res.json().error.code).toBe('csrf_failed');
        }
      }
    }
    expect(await snapshotTables(t, ['sign_in_throttles'])).toEqual(before);
    // The session is still good.
    expect((await withCookies('GET', '/api/v1/me', full)).statusCode).toBe(200);
  });

  it('accepts the same requests with the right header, and safe methods without it', async () => {
    const full = `parley_token=${session.token}; parley_csrf=${session.csrf}`;
    expect((await withCookies('GET', `/api/v1/chats/${w.chatApiChatId}`, full)).statusCode).toBe(200);
    const ok = await withCookies(
      'POST',
      `/api/v1/chats/${w.chatApiChatId}/messages`,
      full,
      { 'x-csrf-token': session.csrf },
      { type: 'text', text: 'sent from the app' },
    );
    expect(ok.statusCode).toBe(201);
    expect((await withCookies('PUT', '/api/v1/me/status', full, { 'x-csrf-token': session.csrf }, { status: 'away' })).statusCode).toBe(200);
  });

  it('needs no CSRF header with a bearer token (not sent by browsers on their own)', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/me/status',
      headers: { authorization: `Bearer ${session.token}` },
      payload: { status: 'online' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('CSRF cookies over https', () => {
  it('marks both cookies Secure when PUBLIC_URL is https', async () => {
    const t = await createTestApp({ env: { PUBLIC_URL: 'https://chat.example.com' }, workers: false });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
      for (const name of ['parley_token', 'parley_csrf']) expect(res.cookies.find((c) => c.name === name)?.secure, name).toBe(true);
    } finally {
      await t.close();
    }
  });
});
