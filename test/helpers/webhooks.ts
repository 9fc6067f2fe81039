/**
 * Test support for outgoing requests (used by the *.test.ts files only): a
 * real customer endpoint on 127.0.0.1 that records every request and answers
 * as the test scripts it, a closed port for "connection refused", and a chat
 * with an agent message seeded straight into the store with its delivery.
 */
import http from 'node:http';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { AppContext } from '../../server/context.js';
import { commit } from '../../server/events/outbox.js';
import { enqueueDelivery } from '../../server/webhooks/enqueue.js';
import type { DeliveryKind } from '../../server/webhooks/kinds.js';
import { createTestApp, type TestApp } from './testApp.js';
import { newVisitorRow } from '../../server/domain/visitors/insertVisitors.js';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Date.now() when the request head arrived. */
  at: number;
}

/** How to answer: a status and body (after delayMs), or `hang` (never answer), or `reset` (drop the connection). */
export interface Answer {
  delayMs?: number;
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  hang?: boolean;
  reset?: boolean;
}

export interface Endpoint {
  url: string;
  requests: Received[];
  answer: (req: Received, index: number) => Answer;
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startEndpoint(answer: Endpoint['answer'] = () => ({ status: 200, body: '{"result":"ok"}' })): Promise<Endpoint> {
  const requests: Received[] = [];
  const endpoint = { requests, answer } as Endpoint;
  const server = http.createServer((req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at };
      requests.push(received);
      const a = endpoint.answer(received, requests.length - 1);
      if (a.hang) return;
      if (a.reset) return void req.socket.destroy();
      setTimeout(() => {
        res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers });
        res.end(a.body ?? '');
      }, a.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  endpoint.waitForRequests = (n, timeoutMs = 15_000) => waitUntil(() => requests.length >= n, timeoutMs, `${n} requests (got ${requests.length})`);
  endpoint.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return endpoint;
}

/** A port on 127.0.0.1 where nothing listens. */
/** A describe block's app (workers on, so the deliverer runs) and the endpoints its tests start. */
export interface DelivererSuite {
  t: TestApp;
  ctx: AppContext;
  /** Starts an endpoint (startEndpoint) that is closed after the test. */
  endpoint(...a: Parameters<typeof startEndpoint>): Promise<Endpoint>;
}

/** Registers the block's hooks: the app started before its tests and closed after them, endpoints closed after each test. */
export function delivererSuite(): DelivererSuite {
  const endpoints: Endpoint[] = [];
  const suite: DelivererSuite = {
    t: undefined as unknown as TestApp,
    ctx: undefined as unknown as AppContext,
    endpoint: async (...a) => {
      const ep = await startEndpoint(...a);
      endpoints.push(ep);
      return ep;
    },
  };
  beforeAll(async () => {
    suite.t = await createTestApp();
    suite.ctx = suite.t.app.ctx;
  });
  afterEach(async () => {
    await Promise.all(endpoints.splice(0).map((e) => e.close()));
  });
  afterAll(async () => {
    await suite.t.close();
  });
  return suite;
}

export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface SeededChat {
  accountId: number;
  channelId: number;
  publicId: string;
  chatId: number;
  messageId: number;
}

/** A chat_api channel, a visitor, a chat and an agent message (delivery pending), inserted directly. */
export async function seedChat(ctx: AppContext, webhookUrl: string, chunked = false): Promise<SeededChat> {
  const now = Date.now();
  const accountId = ctx.defaultAccountId;
  const agent = await ctx.db.selectFrom('agents').select('id').where('account_id', '=', accountId).orderBy('id').executeTakeFirstOrThrow();
  const publicId = `pub${Math.random().toString(36).slice(2, 10)}`;
  const channel = await ctx.db
    .insertInto('channels')
    .values({
      account_id: accountId,
      type: 'chat_api',
      name: 'API',
      public_id: publicId,
      secret: 'sekrit',
      webhook_url: webhookUrl,
      chunked: chunked ? 1 : 0,
      options_json: '{}',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const visitor = await ctx.db
    .insertInto('visitors')
    .values({ ...newVisitorRow({ accountId, channelId: channel.id, externalId: 'u-1', details: { name: 'Ann' }, now }), number: 1, chats_count: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const chat = await ctx.db
    .insertInto('chats')
    .values({
      account_id: accountId,
      channel_id: channel.id,
      visitor_id: visitor.id,
      department_id: null,
      status: 'active',
      accepted_by: agent.id,
      agent_ids_json: '[]',
      custom_data_json: '[]',
      contact_info_json: null,
      crm_link: null,
      enable_assign: 0,
      page_json: null,
      rate: null,
      blacklisted: 0,
      last_seq: 0,
      created_at: now,
      accepted_at: now,
      finished_at: null,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const message = await ctx.db
    .insertInto('messages')
    .values({
      account_id: accountId,
      chat_id: chat.id,
      author: 'agent',
      agent_id: agent.id,
      type: 'text',
      text: 'Hello',
      file: null,
      file_name: null,
      file_size: null,
      thumb: null,
      latitude: null,
      longitude: null,
      extra_json: null,
      external_id: null,
      internal: 0,
      suppressed: 0,
      delivery_status: 'pending',
      delivery_error: null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { accountId, channelId: channel.id, publicId, chatId: chat.id, messageId: message.id };
}

/** Enqueues a delivery in a committed transaction (as a domain operation would); returns its id. */
export async function enqueue(
  ctx: AppContext,
  d: { kind?: DeliveryKind; url: string; body?: unknown; chunked?: boolean; chatId?: number; messageId?: number; eventType?: string },
): Promise<number> {
  const body = d.body ?? { sender: { name: 'Agent' }, recipient: { id: 'u-1' }, message: { type: 'text', id: '1', text: 'Hello' } };
  const row = await commit(ctx.db, ctx.signals, (tx) =>
    enqueueDelivery(
      tx,
      {
        accountId: ctx.defaultAccountId,
        kind: d.kind ?? 'chat_channel',
        eventType: d.eventType ?? 'message',
        url: d.url,
        body,
        chatId: d.chatId,
        messageId: d.messageId,
        chunked: d.chunked,
      },
      ctx.clock(),
    ),
  );
  return row.id;
}
