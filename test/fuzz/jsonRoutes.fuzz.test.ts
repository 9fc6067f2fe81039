/**
 * Every route of /openapi.json that takes a body (#15 item 2) gets nested,
 * huge and malformed bodies — thousands of levels of arrays and objects, more
 * than the body limit, broken and truncated JSON, random text — with the
 * credentials it expects (the admin's token, a visitor's, the chat channel's
 * address). Only 4xx answers: a body nested deeper than the limit is a 400
 * invalid_json (numeric code 1001 on the chat channel), never a 500.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorRegistry } from '../../server/errors/registry.js';
import { MAX_JSON_DEPTH } from '../../server/lib/untrustedJson.js';
import { createChatChannel } from '../helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../helpers/testApp.js';
import { createWidget, freshIp, startSession } from '../helpers/widget.js';
import { runs, timeoutFor } from './support.js';

const RUNS = runs(150);

interface Route {
  method: string;
  /** OpenAPI path, `{param}` placeholders. */
  path: string;
}

const arrays = (n: number): string => '['.repeat(n) + ']'.repeat(n);
const objects = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const mixed = (n: number): string => '{"a":['.repeat(n) + ']}'.repeat(n);

/** Bodies nested deeper than the limit: each must be 400 invalid_json. */
const DEEP: Record<string, string> = {
  'arrays x2000 (4 KB)': arrays(2000),
  'objects x10000': objects(10_000),
  'arrays x100000': arrays(100_000),
  'mixed x20000': mixed(20_000),
  'one level too deep': arrays(MAX_JSON_DEPTH + 1),
  'deep inside a valid-looking object': `{"name":"x","email":"a@b.co","password":"longenough1","type":"text","text":"hi","x":${arrays(3000)}}`,
  'unclosed deep prefix': '['.repeat(50_000),
};

/**
 * Other hostile bodies: not JSON (any 4xx when sent as JSON: invalid JSON, too large), or JSON of a shape
 * no route wants (never a 5xx).
 */
const BROKEN: Record<string, string> = {
  'too large (2 MiB)': JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) }),
  truncated: '{"a":',
  'extra brace': '{"a":1}}',
  'NUL only': '\u0000',
  'not JSON': 'hello',
  'a BOM then junk': '\uFEFF{,}',
};
const ODD: Record<string, string> = {
  'a million-element array': '[' + '0,'.repeat(400_000) + '0]',
  'within the limit': arrays(MAX_JSON_DEPTH),
  'lone surrogate': '{"text":"\\ud800"}',
  'proto key': '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
  'deep brackets inside a string': JSON.stringify({ text: '['.repeat(100_000) }),
};

describe('every JSON route of /openapi.json: hostile bodies answer 4xx', () => {
  let t: TestApp;
  let routes: Route[];
  let params: Record<string, string>;
  let visitorToken: string;

  beforeAll(async () => {
    t = await createTestApp({ workers: false });
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    routes = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .map((m) => m.toUpperCase())
        .filter((m) => m !== 'GET' && m !== 'HEAD')
        .map((method) => ({ method, path })),
    );
    const widget = await createWidget(t);
    const channel = await createChatChannel(t);
    const [, , secret, publicId] = channel.path.split('/');
    params = { widgetId: widget.widget_id, secret, publicId, id: '1', name: 'x', event_type: 'call_event', tab: 'fuzz-tab' };
    visitorToken = (await startSession(t, widget.widget_id)).visitor_token;
  }, 60_000);

  afterAll(async () => {
    await t.close();
  });

  const send = (route: Route, payload: string, contentType = 'application/json') => {
    const url = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      if (!(name in params)) throw new Error(`no value for path parameter ${name} of ${route.path}`);
      return params[name];
    });
    const token = url.startsWith('/widget/') ? visitorToken : t.adminToken;
    return t.app.inject({
      method: route.method as 'POST',
      url,
      headers: { ...bearer(token), 'content-type': contentType, 'x-forwarded-for': freshIp() },
      payload,
    });
  };

  it('the document lists the JSON routes of every audience', () => {
    const paths = routes.map((r) => `${r.method} ${r.path}`);
    for (const p of [
      'POST /api/v1/auth/login',
      'POST /api/v1/agents',
      'PUT /api/v1/settings',
      'POST /widget/api/{widgetId}/session',
      'POST /widget/api/{widgetId}/custom-data',
      'POST /wh/{secret}/{publicId}',
    ]) {
      expect(paths).toContain(p);
    }
    expect(routes.length).toBeGreaterThan(30);
  });

  it(
    'a body nested deeper than the limit is 400 invalid_json on every route',
    async () => {
      const failures: string[] = [];
      for (const route of routes) {
        for (const [name, payload] of Object.entries(DEEP)) {
          const res = await send(route, payload);
          const chatChannel = route.path.startsWith('/wh/');
          const code = res.json<{ error?: { code?: unknown } }>().error?.code;
          // The upload routes (a visitor's file, an agent's photo) take any bytes as a file: a JSON text is no JSON to them, only a bad upload (any 4xx).
          const upload = route.path.endsWith('/uploads') || route.path === '/api/v1/me/photo';
          const ok = upload
            ? res.statusCode >= 400 && res.statusCode < 500
            : res.statusCode === 400 && code === (chatChannel ? errorRegistry.invalid_json.number : 'invalid_json');
          if (!ok) failures.push(`${route.method} ${route.path} [${name}] → ${res.statusCode} ${res.body.slice(0, 160)}`);
        }
      }
      expect(failures).toEqual([]);
    },
    timeoutFor(400, 200),
  );

  it(
    'huge and malformed bodies answer 4xx, odd JSON never 5xx, on every route',
    async () => {
      const failures: string[] = [];
      for (const route of routes) {
        for (const contentType of ['application/json', 'text/plain']) {
          for (const [name, payload] of Object.entries(BROKEN)) {
            const res = await send(route, payload, contentType);
            // text/plain is JSON only to the chat channel; elsewhere it is plain text a route may ignore (never a 5xx).
            const asJson = contentType === 'application/json' || route.path.startsWith('/wh/');
            if (res.statusCode >= 500 || (asJson && res.statusCode < 400))
              failures.push(`${route.method} ${route.path} [${name}, ${contentType}] → ${res.statusCode}`);
          }
          for (const [name, payload] of Object.entries(ODD)) {
            const res = await send(route, payload, contentType);
            if (res.statusCode >= 500) failures.push(`${route.method} ${route.path} [${name}, ${contentType}] → ${res.statusCode}`);
          }
        }
      }
      expect(failures).toEqual([]);
    },
    timeoutFor(1000, 200),
  );

  it(
    'random broken and nested bodies never answer 5xx',
    async () => {
      const body = fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.json({ depthSize: 'large' }).map((j) => j.slice(0, Math.max(1, j.length - 1))),
        fc
          .tuple(fc.integer({ min: 1, max: 5000 }), fc.constantFrom('[', '{"k":', '[{"a":[', '{"":'), fc.string({ maxLength: 10 }))
          .map(([n, open, tail]) => open.repeat(n) + tail),
        fc.tuple(fc.integer({ min: 1, max: 5000 }), fc.constantFrom(arrays, objects, mixed)).map(([n, nest]) => `{"text":"hi","type":"text","x":${nest(n)}}`),
      );
      await fc.assert(
        fc.asyncProperty(fc.nat({ max: 10_000 }), body, fc.constantFrom('application/json', 'text/plain'), async (i, payload, contentType) => {
          const route = routes[i % routes.length];
          const res = await send(route, payload, contentType);
          expect(res.statusCode, `${route.method} ${route.path} ${payload.slice(0, 80)}`).toBeLessThan(500);
        }),
        { numRuns: RUNS },
      );
    },
    timeoutFor(RUNS, 100),
  );
});
