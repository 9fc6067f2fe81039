/**
 * Property test of the widget's HTTP API: every /widget/api/<widget_id>/…
 * endpoint gets random bodies (nearly valid ones, junk, broken JSON, odd
 * Content-Types), with a valid visitor token, another widget's, garbage or
 * none, sometimes an unknown widget or a foreign Origin. Never a 5xx; a 4xx
 * changes no stored row and writes no file. FUZZ_RUNS raises the count.
 */
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/testApp.js';
import { createWidget, freshIp, sendText, startSession, type TestWidget } from '../helpers/widget.js';
import { anyValue, encodeSafely, fingerprint, hostileString, Outcomes, runs, timeoutFor, wireBody, type Watch } from './support.js';

const RUNS = runs(500);

const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });
const field = (a: fc.Arbitrary<unknown>) => fc.oneof({ arbitrary: a, weight: 3 }, { arbitrary: anyValue, weight: 1 });
const url = fc.oneof(fc.webUrl(), hostileString);

/** Endpoint → nearly valid bodies (each field sometimes replaced by anything). */
function bodies(uploadUrl: string): Record<string, fc.Arbitrary<unknown>> {
  return {
    session: fc.record(
      {
        visitor_token: maybe(field(fc.string())),
        page: field(fc.record({ url: field(url), title: maybe(field(fc.string())), referrer: maybe(field(url)) })),
        utm: maybe(field(fc.dictionary(fc.constantFrom('source', 'medium', 'campaign', 'content', 'term', 'x'), anyValue))),
      },
      { requiredKeys: [] },
    ),
    messages: fc.record(
      {
        type: field(fc.constantFrom('text', 'photo', 'document', 'voice', 'video', 'audio', 'location', 'typein', 'sticker')),
        text: field(fc.string({ maxLength: 300 })),
        file: field(fc.oneof(fc.constant(uploadUrl), url)),
        file_name: field(fc.string()),
        file_size: field(fc.nat()),
        invite: field(fc.string()),
        department_id: field(fc.nat()),
      },
      { requiredKeys: [] },
    ),
    typing: fc.record({ typing: field(fc.boolean()) }, { requiredKeys: [] }),
    contact: fc.record(
      { name: field(hostileString), email: field(fc.emailAddress()), phone: field(fc.constantFrom('+15550100199', '555')), description: field(hostileString) },
      { requiredKeys: [] },
    ),
    'custom-data': fc.record(
      {
        fields: field(
          fc.array(fc.record({ title: field(fc.string()), content: field(hostileString), link: field(url), key: field(fc.string()) }, { requiredKeys: [] }), {
            maxLength: 12,
          }),
        ),
      },
      { requiredKeys: [] },
    ),
    'user-token': fc.record(
      {
        token: field(fc.oneof(fc.string({ maxLength: 300 }), fc.integer())),
        signature: field(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 })),
      },
      { requiredKeys: [] },
    ),
    page: fc.record({ url: field(url), title: field(hostileString), referrer: field(url) }, { requiredKeys: [] }),
    attributes: fc.record({ attributes: field(fc.dictionary(fc.string({ maxLength: 20 }), anyValue, { maxKeys: 30 })) }, { requiredKeys: [] }),
    offline: fc.record(
      {
        name: field(fc.string()),
        email: field(fc.emailAddress()),
        phone: field(fc.string()),
        description: field(fc.string()),
        message: field(fc.string({ maxLength: 2000 })),
      },
      { requiredKeys: [] },
    ),
    rate: fc.record({ rate: field(fc.constantFrom('positive', 'negative', 'good', '')) }, { requiredKeys: [] }),
    callback: fc.record({ phone: field(fc.constantFrom('+15550100199', '+1 (555) 010-0123', '0044 20 7946 0000', '12', '+abc')) }, { requiredKeys: [] }),
  };
}

const ENDPOINTS = [
  'session',
  'messages',
  'typing',
  'contact',
  'custom-data',
  'user-token',
  'page',
  'attributes',
  'offline',
  'rate',
  'callback',
  'callback-get',
  'uploads',
] as const;
type Endpoint = (typeof ENDPOINTS)[number];

describe('widget API, fuzzed', () => {
  let now = Date.parse('2026-06-01T08:00:00Z');
  let t: TestApp;
  let widget: TestWidget;
  let other: TestWidget;
  let tokens: string[];
  let otherToken: string;
  let uploadUrl: string;
  let watch: Watch;

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now, workers: false });
    widget = await createWidget(t);
    other = await createWidget(t, { name: 'Other site' });
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      headers: bearer(t.adminToken),
      payload: { callback: { enabled: true, balance_seconds: 10_000_000, hours: null } },
    });
    tokens = [];
    for (let i = 0; i < 4; i++) tokens.push((await startSession(t, widget.widget_id)).visitor_token);
    await sendText(t, widget.widget_id, tokens[0], 'a chat is open');
    otherToken = (await startSession(t, other.widget_id)).visitor_token;
    const upload = await t.app.inject({
      method: 'POST',
      url: `/widget/api/${widget.widget_id}/uploads`,
      headers: { ...bearer(tokens[0]), 'content-type': 'text/plain', 'x-forwarded-for': freshIp() },
      payload: Buffer.from('a file'),
    });
    uploadUrl = upload.json().file;
    const pool = await t.app.ctx.db.selectFrom('visitors').select('id').execute();
    watch = {
      full: ['accounts', 'agents', 'channels', 'channel_agents', 'settings', 'chats', 'calls', 'deliveries', 'auth_tokens'],
      tail: { visitors: pool.map((v) => v.id), messages: [], events: [], offline_messages: [] },
      dirs: [path.join(t.config.dataDir, 'uploads')],
    };
  });
  afterAll(() => t.close());

  it(
    `never answers 5xx, and a 4xx changes nothing (${RUNS} cases)`,
    async () => {
      const outcomes = new Outcomes();
      const shapes = bodies(uploadUrl);
      const call = fc.constantFrom(...ENDPOINTS).chain((endpoint: Endpoint) =>
        fc.record({
          endpoint: fc.constant(endpoint),
          body:
            endpoint === 'uploads' || endpoint === 'callback-get'
              ? fc.constant({ payload: undefined, contentType: undefined })
              : wireBody(shapes[endpoint === 'callback' ? 'callback' : endpoint]),
          raw: fc.uint8Array({ maxLength: 64 }),
          rawType: fc.constantFrom('text/plain', 'image/png', 'application/pdf', 'text/html', 'image/svg+xml', '', 'application/octet-stream'),
          fileName: maybe(hostileString),
          token: fc.oneof(
            { arbitrary: fc.constantFrom(0, 1, 2, 3).map((i) => ({ kind: 'valid', i })), weight: 6 },
            { arbitrary: fc.constant({ kind: 'other', i: 0 }), weight: 1 },
            { arbitrary: fc.constant({ kind: 'none', i: 0 }), weight: 1 },
            { arbitrary: fc.constant({ kind: 'garbage', i: 0 }), weight: 1 },
          ),
          widgetId: fc.oneof({ arbitrary: fc.constant('ours'), weight: 12 }, { arbitrary: fc.constantFrom('nope', 'x'.repeat(80), '%00', '0'), weight: 1 }),
          origin: fc.oneof(
            { arbitrary: fc.constant(undefined), weight: 8 },
            { arbitrary: fc.constantFrom('https://evil.example', 'null', 'http://parley.test'), weight: 1 },
          ),
        }),
      );
      await fc.assert(
        fc.asyncProperty(call, async (c) => {
          now += 2000;
          const token =
            c.token.kind === 'valid' ? tokens[c.token.i] : c.token.kind === 'other' ? otherToken : c.token.kind === 'garbage' ? 'garbage-token' : undefined;
          const id = c.widgetId === 'ours' ? widget.widget_id : encodeURIComponent(c.widgetId);
          const headers: Record<string, string> = { 'x-forwarded-for': freshIp() };
          if (token && c.endpoint !== 'session') headers.authorization = `Bearer ${token}`;
          if (c.origin) headers.origin = c.origin;
          let payload: string | Buffer | undefined = c.body.payload;
          const text = c.body.payload;
          if (c.endpoint === 'uploads') {
            payload = Buffer.from(c.raw);
            if (c.rawType) headers['content-type'] = c.rawType;
            // As the frame sends it: URL-encoded.
            if (c.fileName !== undefined) headers['x-file-name'] = encodeSafely(c.fileName);
          } else if (c.body.contentType && payload !== undefined) headers['content-type'] = c.body.contentType;
          // A session body may carry a visitor's token to resume.
          if (c.endpoint === 'session' && token && c.body.contentType === 'application/json' && text?.startsWith('{')) {
            try {
              payload = JSON.stringify({ ...(JSON.parse(text) as object), visitor_token: token });
            } catch {
              // broken JSON stays broken
            }
          }
          const method = c.endpoint === 'callback-get' ? 'GET' : 'POST';
          const route = c.endpoint === 'callback-get' ? 'callback' : c.endpoint;

          const before = await fingerprint(t, watch);
          const res = await t.app.inject({ method, url: `/widget/api/${id}/${route}`, headers, ...(payload === undefined ? {} : { payload }) });
          outcomes.add(res.statusCode);
          expect(res.statusCode, `${method} ${route} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
          // Every answer of a widget API route is uncacheable (a path outside them is a plain 404).
          if (!res.body.includes('"route_not_found"')) expect(res.headers['cache-control']).toBe('no-store');
          if (res.statusCode >= 400) {
            expect(res.json().error).toEqual({ code: expect.any(String), message: expect.any(String) });
            expect(await fingerprint(t, watch), `${method} ${route} → ${res.statusCode} ${res.body.slice(0, 200)}`).toEqual(before);
          }
        }),
        { numRuns: RUNS },
      );
      // The generators reach both sides of the rules.
      expect(outcomes.count((s) => s < 300)).toBeGreaterThan(RUNS / 5);
      expect(outcomes.count((s) => s >= 400)).toBeGreaterThan(RUNS / 10);
    },
    timeoutFor(RUNS),
  );
});
