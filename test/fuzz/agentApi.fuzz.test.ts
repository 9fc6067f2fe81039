/**
 * Property test of the agent and admin API: random bodies and query strings
 * for POST /agents, PATCH /agents/:id, POST and PATCH /channels, PUT /settings,
 * POST /chats/:id/messages, /typing, /finish, GET /chats?…, POST
 * /calls/:id/status and GET /deliveries?…, as the admin, as an agent and
 * without a token, at real ids and at ids that name nothing. Never a 5xx; a
 * 4xx changes no stored row. Chats and calls that the fuzzing finishes are
 * replaced as it goes, so the later cases still meet open ones.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestCallback } from '../../server/domain/calls/requestCallback.js';
import { addAgent } from '../helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../helpers/testApp.js';
import { anyValue, encodeSafely, fingerprint, hostileString, Outcomes, runs, timeoutFor, wireBody, type Watch } from './support.js';

const RUNS = runs(700);

const field = (a: fc.Arbitrary<unknown>) => fc.oneof({ arbitrary: a, weight: 4 }, { arbitrary: anyValue, weight: 1 });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 });
const url = fc.oneof(
  fc.webUrl(),
  fc.constantFrom('https://hooks.example.com/in?c=', 'http://127.0.0.1:9/x', 'http://[::1]/', 'ftp://x', 'https://x.example/#f', ''),
  hostileString,
);
const email = fc.oneof(fc.emailAddress(), hostileString);
const password = fc.oneof(fc.string({ minLength: 8, maxLength: 20 }), fc.string({ maxLength: 7 }), fc.constant('x'.repeat(2000)));
const role = fc.constantFrom('admin', 'agent', 'owner', '');
const hhmm = fc.oneof(fc.constantFrom('00:00', '09:00', '17:30', '24:00', '25:00', '9:00', 'noon'), fc.string({ maxLength: 5 }));
const hours = fc.dictionary(fc.constantFrom('mon', 'tue', 'sun', 'xyz'), fc.array(fc.array(hhmm, { maxLength: 3 }), { maxLength: 3 }), { maxKeys: 3 });

const BODIES = {
  createAgent: fc.record(
    {
      name: field(hostileString),
      email: field(email),
      password: field(password),
      role: field(role),
      phone: opt(field(fc.oneof(fc.constant(null), fc.string({ maxLength: 60 })))),
    },
    { requiredKeys: [] },
  ),
  updateAgent: fc.record(
    {
      name: field(hostileString),
      role: field(role),
      phone: field(fc.oneof(fc.constant(null), fc.string({ maxLength: 60 }))),
      password: field(password),
      active: field(fc.boolean()),
      department_ids: field(fc.oneof(fc.constant(null), fc.array(fc.oneof(fc.integer({ min: -1, max: 40 }), fc.constant(3_000_000_000)), { maxLength: 4 }))),
    },
    { requiredKeys: [] },
  ),
  createChannel: fc.record(
    {
      type: field(fc.constantFrom('chat_api', 'widget', 'email')),
      name: field(hostileString),
      webhook_url: field(url),
      chunked: field(fc.boolean()),
      agent_ids: field(fc.oneof(fc.constant(null), fc.array(fc.integer({ min: -1, max: 40 }), { maxLength: 4 }))),
      color: field(fc.constantFrom('#1a73e8', '#FFF', 'red', null)),
      allowed_domains: field(
        fc.oneof(fc.constant(null), fc.array(fc.constantFrom('shop.example.com', '*.example.org', 'https://x/', 'a b', ''), { maxLength: 3 })),
      ),
    },
    { requiredKeys: [] },
  ),
  updateChannel: fc.record(
    {
      name: field(hostileString),
      webhook_url: field(url),
      chunked: field(fc.boolean()),
      agent_ids: field(fc.oneof(fc.constant(null), fc.array(fc.integer({ min: -1, max: 40 }), { maxLength: 4 }))),
      color: field(fc.constantFrom('#1a73e8', 'red', null)),
      allowed_domains: field(fc.oneof(fc.constant(null), fc.array(fc.constantFrom('shop.example.com', 'a b'), { maxLength: 2 }))),
      rotate_secret: field(fc.boolean()),
    },
    { requiredKeys: [] },
  ),
  settings: fc.record(
    {
      event_webhook_url: field(fc.oneof(fc.constant(null), url)),
      safe_url: field(fc.oneof(fc.constant(null), url)),
      webhook_secret: field(fc.string()),
      callback: field(
        fc.oneof(
          fc.constant(null),
          fc.record(
            {
              enabled: field(fc.oneof(fc.boolean(), fc.constant(null))),
              balance_seconds: field(fc.oneof(fc.integer({ min: -5, max: 10_000_000 }), fc.constant(null))),
              timezone: field(fc.constantFrom('UTC', 'Europe/Berlin', 'Mars/Olympus', '', null)),
              hours: field(fc.oneof(fc.constant(null), hours)),
              provider: field(fc.constantFrom('agent_dialled', 'twilio', null)),
            },
            { requiredKeys: [] },
          ),
        ),
      ),
      rules: opt(anyValue),
    },
    { requiredKeys: [] },
  ),
  message: fc.record(
    {
      type: field(fc.constantFrom('text', 'photo', 'document', 'voice', 'video', 'audio', 'sticker', 'location', 'typein', 'bogus')),
      text: field(fc.string({ maxLength: 500 })),
      file: field(url),
      file_name: field(hostileString),
      file_size: field(fc.integer({ min: -1, max: 10 ** 9 })),
      thumb: field(url),
      latitude: field(fc.double()),
      longitude: field(fc.double()),
      internal: field(fc.boolean()),
    },
    { requiredKeys: [] },
  ),
  typing: fc.record({ typing: field(fc.boolean()) }, { requiredKeys: [] }),
  finish: fc.oneof(fc.constant(null), fc.record({ blacklist: field(fc.boolean()) }, { requiredKeys: [] })),
  callStatus: fc.record(
    {
      status: field(fc.constantFrom('agent_connected', 'client_connected', 'end', 'error', 'start', 'ringing')),
      reason: field(fc.oneof(fc.constant(null), fc.string({ maxLength: 600 }))),
      record_url: field(fc.oneof(fc.constant(null), url)),
    },
    { requiredKeys: [] },
  ),
};

/** Bodies that should mostly pass, so the property also sees what a success stores. */
const VALID: Record<keyof typeof BODIES, fc.Arbitrary<unknown>> = {
  createAgent: fc.record({
    name: fc.constantFrom('Ann', "Bob O'Neil", 'Zoë'),
    email: fc.nat().map((n) => `fuzz-${n}@example.com`),
    password: fc.constant('long-enough-1'),
    role: fc.constantFrom('agent', 'admin'),
  }),
  updateAgent: fc.record(
    { name: fc.constantFrom('Renamed', '  Trimmed  '), phone: fc.constantFrom(null, '+15550100123'), role: fc.constantFrom('agent', 'admin') },
    { requiredKeys: [] },
  ),
  createChannel: fc.oneof(
    fc.record(
      {
        type: fc.constant('widget'),
        name: fc.constant('Site'),
        color: fc.constantFrom('#1a73e8', null),
        allowed_domains: fc.constantFrom([], ['shop.example.com']),
      },
      { requiredKeys: ['type', 'name'] },
    ),
    fc.record(
      {
        type: fc.constant('chat_api'),
        name: fc.constant('App'),
        webhook_url: fc.constant('https://hooks.example.com/in'),
        chunked: fc.boolean(),
        agent_ids: fc.constant([]),
      },
      { requiredKeys: ['type', 'name', 'webhook_url'] },
    ),
  ),
  updateChannel: fc.record({ name: fc.constant('Renamed'), agent_ids: fc.constant([]) }, { requiredKeys: [] }),
  settings: fc.record(
    {
      safe_url: fc.constantFrom(null, 'https://shop.example.com'),
      callback: fc.record({ enabled: fc.boolean(), balance_seconds: fc.nat({ max: 100_000 }), hours: fc.constant(null) }, { requiredKeys: [] }),
    },
    { requiredKeys: [] },
  ),
  message: fc.oneof(
    fc.record(
      {
        type: fc.constant('text'),
        text: fc.string({ minLength: 1, maxLength: 200 }).filter((x) => x.trim() !== ''),
        internal: fc.option(fc.boolean(), { nil: undefined }),
      },
      { requiredKeys: ['type', 'text'] },
    ),
    fc.record({
      type: fc.constantFrom('photo', 'document'),
      file: fc.constant('https://cdn.example.com/a.png'),
      file_name: fc.constant('a.png'),
      file_size: fc.nat({ max: 10 ** 6 }).map((n) => n + 1),
    }),
    fc.record({
      type: fc.constant('location'),
      latitude: fc.double({ min: -90, max: 90, noNaN: true }),
      longitude: fc.double({ min: -180, max: 180, noNaN: true }),
    }),
  ),
  typing: fc.record({ typing: fc.boolean() }),
  finish: fc.constantFrom({}, { blacklist: false }, null),
  callStatus: fc.record(
    {
      status: fc.constantFrom('agent_connected', 'client_connected', 'end', 'error'),
      reason: fc.constantFrom(undefined, 'busy'),
      record_url: fc.constantFrom(undefined, 'https://rec.example.com/a.mp3'),
    },
    { requiredKeys: ['status'] },
  ),
};

const queryValue = fc.oneof(
  fc.constantFrom('1', '0', '-1', '1000', '1001', '2.5', '99999999999999999999', 'abc', '', '%00', '1e3'),
  fc.string({ maxLength: 12 }),
);
const chatQuery = fc.record(
  {
    status: opt(fc.constantFrom('pending', 'active', 'finished', 'open', '')),
    q: opt(fc.oneof(hostileString, fc.constantFrom('%', '_', "'", '\\'))),
    limit: opt(queryValue),
    before: opt(queryValue),
    extra: opt(queryValue),
  },
  { requiredKeys: [] },
);
const deliveryQuery = fc.record(
  {
    status: opt(fc.constantFrom('pending', 'delivered', 'failed', 'paused', 'x')),
    kind: opt(fc.constantFrom('chat_channel', 'event_webhook', 'y')),
    limit: opt(queryValue),
    before: opt(queryValue),
  },
  { requiredKeys: [] },
);

/** Raw tails no encoder makes: bad percent-escapes, repeated and bracketed keys. */
const rawTail = fc.constantFrom('', '', '', '&limit=%', '&q=%E0%A4%A', '&status[]=pending', '&limit=1&limit=2', '&before=1&before=x', '&q', '&=&&');

function queryString([q, tail]: [Record<string, unknown>, string]): string {
  const parts = Object.entries(q)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeSafely(String(v))}`);
  const text = `${parts.join('&')}${tail}`.replace(/^&/, '');
  return text ? `?${text}` : '';
}

type Op =
  | 'createAgent'
  | 'updateAgent'
  | 'createChannel'
  | 'updateChannel'
  | 'settings'
  | 'message'
  | 'typing'
  | 'finish'
  | 'listChats'
  | 'callStatus'
  | 'listDeliveries';
const OPS: Op[] = [
  'createAgent',
  'updateAgent',
  'createChannel',
  'updateChannel',
  'settings',
  'message',
  'typing',
  'finish',
  'listChats',
  'callStatus',
  'listDeliveries',
];

describe('agent and admin API, fuzzed', () => {
  let t: TestApp;
  let channel: ChatChannel;
  let caller: { id: number; token: string };
  const victims: number[] = [];
  const channels: number[] = [];
  const chats: number[] = [];
  const calls: number[] = [];
  let senders = 0;

  /** Keeps at least two open chats and one call still under way, made outside the measured requests. */
  async function replenish(): Promise<void> {
    const db = t.app.ctx.db;
    const open = await db
      .selectFrom('chats')
      .select('id')
      .where('id', 'in', chats.length ? chats : [0])
      .where('status', '!=', 'finished')
      .execute();
    if (open.length < 2) {
      const sender = `fuzz-${++senders}`;
      // The fuzzing may have rotated the channel's secret.
      const row = await db.selectFrom('channels').select(['secret', 'public_id']).where('id', '=', channel.id).executeTakeFirstOrThrow();
      const res = await postInbound(t, { ...channel, path: `/wh/${row.secret}/${row.public_id}` }, textMessage(sender, 'hello'));
      if (res.statusCode !== 200) throw new Error(`inbound: ${res.statusCode} ${res.body}`);
      const visitor = await db.selectFrom('visitors').select('id').where('external_id', '=', sender).executeTakeFirstOrThrow();
      const chat = await db.selectFrom('chats').select('id').where('visitor_id', '=', visitor.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
      chats.push(chat.id);
      if (chats.length > 6) chats.shift();
      const live = await db
        .selectFrom('calls')
        .select('id')
        .where('id', 'in', calls.length ? calls : [0])
        .where('status', 'in', ['start', 'agent_connected', 'client_connected'])
        .execute();
      if (live.length === 0) {
        await t.app.inject({
          method: 'PUT',
          url: '/api/v1/settings',
          headers: bearer(t.adminToken),
          payload: { callback: { enabled: true, balance_seconds: 10_000_000, hours: null } },
        });
        const res = await requestCallback(t.app.ctx, {
          accountId: t.app.ctx.defaultAccountId,
          channelId: channel.id,
          visitorId: visitor.id,
          chatId: chat.id,
          phone: '+15550100199',
        });
        if (res.result === 'ok') {
          calls.push(res.call.id);
          if (calls.length > 4) calls.shift();
        }
      }
    }
  }

  const watch = (): Watch => ({
    full: ['accounts', 'settings', 'departments', 'calls', 'channel_agents', 'agent_departments'],
    tail: { agents: [caller.id, ...victims], auth_tokens: [], channels: channels, chats: chats, messages: [], events: [], deliveries: [], visitors: [] },
  });

  beforeAll(async () => {
    t = await createTestApp({ workers: false, env: { TOKEN_TTL_SECONDS: String(10 * 365 * 24 * 3600) } });
    channel = await createChatChannel(t);
    channels.push(channel.id, (await createChatChannel(t, { name: 'Second' })).id);
    caller = await addAgent(t, { email: 'fuzz-caller@example.com' });
    for (let i = 0; i < 3; i++) victims.push((await addAgent(t, { email: `victim-${i}@example.com`, role: i === 0 ? 'admin' : 'agent' })).id);
    await replenish();
  });
  afterAll(() => t.close());

  it(
    `never answers 5xx, and a 4xx changes nothing (${RUNS} cases)`,
    async () => {
      const outcomes = new Outcomes();
      const idOf = (pool: () => number[]) =>
        fc.oneof(
          { arbitrary: fc.nat({ max: 5 }).map((i) => () => String(pool()[i % Math.max(1, pool().length)] ?? 1)), weight: 8 },
          { arbitrary: fc.constantFrom('0', '999999', '2147483648', 'abc', '1.5', '-1').map((v) => () => v), weight: 1 },
        );
      const request = fc.constantFrom(...OPS).chain((op) =>
        fc.record({
          op: fc.constant(op),
          who: fc.constantFrom('admin', 'admin', 'admin', 'agent', 'none'),
          id:
            op === 'updateAgent'
              ? idOf(() => victims)
              : op === 'updateChannel'
                ? idOf(() => channels)
                : op === 'callStatus'
                  ? idOf(() => calls)
                  : idOf(() => chats),
          body:
            op in BODIES
              ? fc.oneof(
                  { arbitrary: VALID[op as keyof typeof BODIES].map((v) => ({ payload: JSON.stringify(v), contentType: 'application/json' })), weight: 1 },
                  { arbitrary: wireBody(BODIES[op as keyof typeof BODIES]), weight: 1 },
                )
              : fc.constant({ payload: undefined, contentType: undefined }),
          query:
            op === 'listChats'
              ? fc.tuple(chatQuery, rawTail).map(queryString)
              : op === 'listDeliveries'
                ? fc.tuple(deliveryQuery, rawTail).map(queryString)
                : fc.constant(''),
        }),
      );

      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          await replenish();
          const id = r.id();
          const [method, url] = ((): ['GET' | 'POST' | 'PUT' | 'PATCH', string] => {
            switch (r.op) {
              case 'createAgent':
                return ['POST', '/api/v1/agents'];
              case 'updateAgent':
                return ['PATCH', `/api/v1/agents/${id}`];
              case 'createChannel':
                return ['POST', '/api/v1/channels'];
              case 'updateChannel':
                return ['PATCH', `/api/v1/channels/${id}`];
              case 'settings':
                return ['PUT', '/api/v1/settings'];
              case 'message':
                return ['POST', `/api/v1/chats/${id}/messages`];
              case 'typing':
                return ['POST', `/api/v1/chats/${id}/typing`];
              case 'finish':
                return ['POST', `/api/v1/chats/${id}/finish`];
              case 'listChats':
                return ['GET', `/api/v1/chats${r.query}`];
              case 'callStatus':
                return ['POST', `/api/v1/calls/${id}/status`];
              case 'listDeliveries':
                return ['GET', `/api/v1/deliveries${r.query}`];
            }
          })();
          const headers: Record<string, string> = r.who === 'admin' ? bearer(t.adminToken) : r.who === 'agent' ? bearer(caller.token) : {};
          if (r.body.contentType && r.body.payload !== undefined) headers['content-type'] = r.body.contentType;

          const before = await fingerprint(t, watch());
          const res = await t.app.inject({ method, url, headers, ...(r.body.payload === undefined ? {} : { payload: r.body.payload }) });
          outcomes.add(res.statusCode);
          expect(res.statusCode, `${method} ${url} ${r.body.payload?.slice(0, 300)} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
          if (res.statusCode >= 400) {
            expect(res.json().error).toEqual({ code: expect.any(String), message: expect.any(String) });
            expect(await fingerprint(t, watch()), `${method} ${url} ${r.body.payload?.slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`).toEqual(
              before,
            );
          } else if (r.op === 'createChannel') {
            channels.push(res.json().id);
          }
        }),
        { numRuns: RUNS },
      );
      if (process.env.FUZZ_DEBUG) console.log(JSON.stringify(outcomes.byStatus));
      expect(outcomes.count((s) => s < 300)).toBeGreaterThan(RUNS / 10);
      expect(outcomes.count((s) => s >= 400 && s < 500)).toBeGreaterThan(RUNS / 4);
    },
    timeoutFor(RUNS, 150),
  );
});
