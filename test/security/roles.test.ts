/**
 * Role checks, route by route, from the routes the app really registers (an
 * onRoute hook): every /api/v1 route outside the short list agents may call
 * answers 403 `forbidden` to an agent and changes nothing, so a new admin
 * route without a check fails here; every route but sign-in answers 401
 * without credentials. A route agents may call must be added to AGENT_ROUTES
 * on purpose, and a route anyone may call (sign-in, password links) to PUBLIC_ROUTES.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type TestApp } from '../helpers/testApp.js';
import { appWithRoutes, concreteUrl, snapshotTables, type RouteEntry } from './helpers.js';
import { buildWorld, type World } from './world.js';

/** What anyone may call, signed in or not: sign-in and the password links of invitations and resets. */
const PUBLIC_ROUTES = new Set([
  'POST /api/v1/auth/login',
  'POST /api/v1/auth/forgot-password',
  'GET /api/v1/auth/password-link',
  'POST /api/v1/auth/set-password',
  // The link mailed to an agent's new address: the token is the proof (domain/agents/emailChanges.ts).
  'POST /api/v1/auth/email-confirmation',
]);

/** What a signed-in agent (not an admin) may call. */
const AGENT_ROUTES = new Set([
  ...PUBLIC_ROUTES,
  'POST /api/v1/auth/logout',
  'POST /api/v1/auth/logout-all',
  'GET /api/v1/me',
  'PUT /api/v1/me/status',
  'PATCH /api/v1/me',
  'PUT /api/v1/me/password',
  'POST /api/v1/me/photo',
  // Presence, alert preferences and the first-run guide: each agent's own.
  'GET /api/v1/me/presence',
  'PUT /api/v1/me/presence',
  'GET /api/v1/me/notifications',
  'PUT /api/v1/me/notifications',
  'GET /api/v1/me/guide',
  'POST /api/v1/me/guide/dismiss',
  // Each agent's own address (confirmed by a link) and the first sign-in with the generated password.
  'GET /api/v1/me/email',
  'POST /api/v1/me/email',
  'GET /api/v1/me/first-run',
  'POST /api/v1/me/first-run',
  // Web Push: the key to subscribe with, each agent's own devices and tabs (docs/NOTIFICATIONS.md).
  'GET /api/v1/push/vapid-public-key',
  'GET /api/v1/me/push-subscriptions',
  'POST /api/v1/me/push-subscriptions',
  'DELETE /api/v1/me/push-subscriptions',
  'DELETE /api/v1/me/push-subscriptions/:id',
  'PUT /api/v1/me/tabs/:tab',
  // The company's name, for the app's header.
  'GET /api/v1/account',
  // The channels whose chats the agent sees (id, type, name): the Archive's channel filter.
  'GET /api/v1/me/channels',
  // This Parley's version and schema level: for a bug report, nothing of the account.
  'GET /api/v1/version',
  'GET /api/v1/agents',
  'GET /api/v1/agents/:id',
  'GET /api/v1/departments',
  'GET /api/v1/canned-responses',
  'GET /api/v1/chats',
  'GET /api/v1/chats/search',
  'GET /api/v1/chats/:id',
  'POST /api/v1/chats/:id/read',
  'POST /api/v1/chats/:id/accept',
  'POST /api/v1/chats/:id/messages',
  'POST /api/v1/chats/:id/uploads',
  'POST /api/v1/chats/:id/typing',
  'POST /api/v1/chats/:id/assign',
  'POST /api/v1/chats/:id/finish',
  'POST /api/v1/chats/:id/transfer',
  // Routing: the agent a chat is offered to may decline it (domain/routing/declineOffer.ts).
  'POST /api/v1/chats/:id/decline',
  'GET /api/v1/offline-messages',
  'PATCH /api/v1/offline-messages/:id',
  'GET /api/v1/calls',
  'GET /api/v1/calls/:id',
  'POST /api/v1/calls/:id/status',
  'GET /api/v1/stream',
  'GET /api/v1/visitors/:id/chats',
  // Reports: an agent gets its own figures only (domain/reports/scope.ts).
  'GET /api/v1/reports/chats',
  'GET /api/v1/reports/response-times',
  'GET /api/v1/reports/ratings',
  'GET /api/v1/reports/agents',
  'GET /api/v1/reports/busiest-hours',
]);

const key = (r: RouteEntry): string => `${r.method} ${r.url}`;

describe('role checks on every route', () => {
  let t: TestApp;
  let routes: RouteEntry[];
  let w: World;

  const concrete = (url: string): Promise<string> => concreteUrl(t, url);

  beforeAll(async () => {
    ({ t, routes } = await appWithRoutes());
    w = await buildWorld(t);
  });
  afterAll(() => t.close());

  const api = () => routes.filter((r) => r.url.startsWith('/api/v1/') && !r.websocket);

  it('finds the routes through the onRoute hook, and every route agents may call exists', () => {
    expect(api().length).toBeGreaterThan(30);
    const registered = new Set(routes.map(key));
    for (const allowed of AGENT_ROUTES) expect(registered, allowed).toContain(allowed);
  });

  it('answers 403 forbidden to an agent on every other /api/v1 route, and changes nothing', async () => {
    const adminOnly = api().filter((r) => !AGENT_ROUTES.has(key(r)));
    expect(adminOnly.map(key)).toEqual(
      expect.arrayContaining(['POST /api/v1/agents', 'PUT /api/v1/settings', 'GET /api/v1/deliveries', 'DELETE /api/v1/channels/:id']),
    );
    const before = await snapshotTables(t);
    for (const route of adminOnly) {
      const url = await concrete(route.url);
      const withBody = route.method !== 'GET' && route.method !== 'DELETE';
      for (const payload of withBody ? [{}, { name: 'x', role: 'admin', email: 'x@example.com', password: 'long-enough-1' }] : [undefined]) {
        const res = await t.app.inject({ method: route.method as 'GET', url, headers: bearer(w.agent.token), ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${key(route)} → ${res.statusCode} ${res.body}`).toBe(403);
        expect(res.json().error.code).toBe('forbidden');
      }
    }
    expect(await snapshotTables(t)).toEqual(before);
  });

  it('lets an administrator through the same routes (the 403 above is about the role, not the request)', async () => {
    // Routes that answer 400 without a query say whom or what to find.
    const QUERIES: Record<string, string> = { 'GET /api/v1/visitors': '?email=nobody@example.com' };
    for (const route of api().filter((r) => !AGENT_ROUTES.has(key(r)) && r.method === 'GET')) {
      const res = await t.app.inject({ method: 'GET', url: (await concrete(route.url)) + (QUERIES[key(route)] ?? ''), headers: bearer(t.adminToken) });
      expect(res.statusCode, key(route)).toBe(200);
    }
  });

  it('answers 401 without credentials on every /api/v1 route but sign-in, and changes nothing', async () => {
    const before = await snapshotTables(t, ['sign_in_throttles']);
    for (const route of api()) {
      if (PUBLIC_ROUTES.has(key(route))) continue;
      const url = await concrete(route.url);
      for (const headers of [{}, bearer('not-a-token'), { authorization: 'Basic YWRtaW46eA==' }, { cookie: 'parley_token=forged' }]) {
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers,
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
        });
        // A forged cookie on an unsafe method is refused by the CSRF check first.
        const expected = 'cookie' in headers && route.method !== 'GET' ? [401, 403] : [401];
        expect(expected, `${key(route)} ${JSON.stringify(headers)} → ${res.statusCode}`).toContain(res.statusCode);
      }
    }
    expect(await snapshotTables(t, ['sign_in_throttles'])).toEqual(before);
  });
});
