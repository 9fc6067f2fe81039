/**
 * Test helpers for realtime: a WebSocket client that records frames, and rows
 * made straight with Kysely (agents with tokens, channels, visitors, chats) so
 * stream tests do not depend on the chat domain, plus commit() of an event.
 */
import crypto from 'node:crypto';
import WebSocket from 'ws';
import { afterAll, beforeAll } from 'vitest';
import type { App } from '../../server/app.js';
import { sql } from 'kysely';
import type { Tx } from '../../server/db/database.js';
import { decodeEvent, type EventPosition, type EventType } from '../../server/events/catalogue.js';
import { commit, type RecordedEvent } from '../../server/events/outbox.js';
import type { StreamEvent } from '../../server/realtime/hub.js';
import { RELAYED_THROUGH } from '../../server/events/relayClaim.js';
import { issueToken } from '../../server/domain/auth/tokens.js';
import { wsText } from '../../server/lib/wsText.js';
import { newVisitorRow } from '../../server/domain/visitors/insertVisitors.js';
import { createTestApp, type TestApp } from './testApp.js';

export interface Frame {
  type: string;
  data: Record<string, unknown>;
  cursor?: number;
  chat_id?: number;
  seq?: number;
}

export class StreamClient {
  readonly frames: Frame[] = [];
  closeInfo: { code: number; reason: string } | null = null;
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      this.frames.push(JSON.parse(wsText(raw)) as Frame);
      this.notify();
    });
    ws.on('close', (code, reason) => {
      this.closeInfo = { code, reason: reason.toString() };
      this.notify();
    });
  }

  /** Opens a socket; resolves on open (the server may still close it, see waitClosed). */
  static open(url: string, headers: Record<string, string> = {}): Promise<StreamClient> {
    const ws = new WebSocket(url, { headers });
    const client = new StreamClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`unexpected response ${res.statusCode}`)));
    });
  }

  /** Opens, then waits for the ready frame. */
  static async ready(url: string, headers: Record<string, string> = {}): Promise<StreamClient> {
    const client = await StreamClient.open(url, headers);
    await client.until((c) => c.frames.some((f) => f.type === 'ready'));
    return client;
  }

  /** Frames of events (not ready/pong). */
  events(): Frame[] {
    return this.frames.filter((f) => f.type !== 'ready' && f.type !== 'pong');
  }

  lastCursor(): number {
    const withCursor = this.frames.map((f) => (f.type === 'ready' ? (f.data.cursor as number) : f.cursor)).filter((c): c is number => typeof c === 'number');
    return withCursor.length ? Math.max(...withCursor) : 0;
  }

  async until(cond: (c: StreamClient) => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!cond(this)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; frames: ${JSON.stringify(this.frames)} close: ${JSON.stringify(this.closeInfo)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async waitClosed(timeoutMs = 5000): Promise<{ code: number; reason: string }> {
    await this.until((c) => c.closeInfo !== null, timeoutMs);
    return this.closeInfo!;
  }

  async close(): Promise<void> {
    if (this.closeInfo) return;
    this.ws.close();
    await this.waitClosed();
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

export async function listen(app: App): Promise<string> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address.replace(/^http/, 'ws');
}

/** A describe block's app listening on a port (`base`, ws://…), and the clients its tests open, closed with it. */
export interface LiveApp {
  t: TestApp;
  base: string;
  clients: StreamClient[];
}

/** Registers the block's hooks: the app (createTestApp(opts)) started and listening before its tests; clients and app closed after them. */
export function liveApp(opts: Parameters<typeof createTestApp>[0] = {}): LiveApp {
  const live = { clients: [] } as unknown as LiveApp;
  beforeAll(async () => {
    live.t = await createTestApp(opts);
    live.base = await listen(live.t.app);
  });
  afterAll(async () => {
    await Promise.all(live.clients.map((c) => c.close()));
    await live.t.close();
  });
  return live;
}

export const streamUrl = (base: string, token: string, cursor?: number): string =>
  `${base}/api/v1/stream?token=${encodeURIComponent(token)}${cursor === undefined ? '' : `&cursor=${cursor}`}`;

export async function seedAgent(
  app: App,
  opts: { accountId?: number; email?: string; status?: 'online' | 'away' | 'offline'; tokenTtlSeconds?: number } = {},
): Promise<{ id: number; accountId: number; token: string }> {
  const db = app.ctx.db;
  const now = Date.now();
  const accountId = opts.accountId ?? app.ctx.defaultAccountId;
  const row = await db
    .insertInto('agents')
    .values({
      account_id: accountId,
      name: 'Agent',
      email: opts.email ?? `agent-${crypto.randomBytes(4).toString('hex')}@example.com`,
      password_hash: 'x',
      role: 'agent',
      phone: null,
      photo_url: null,
      status: opts.status ?? 'offline',
      // A seeded status is as if the agent chose it (PUT /me/status): an away agent chose Away, not idled into it.
      chosen_status: opts.status ?? null,
      active: 1,
      created_at: now,
      updated_at: now,
    })
    .returning(['id', 'account_id'])
    .executeTakeFirstOrThrow();
  const token = await issueToken(db, row, now, opts.tokenTtlSeconds ?? 3600);
  return { id: row.id, accountId, token };
}

export async function seedAccount(app: App): Promise<number> {
  const row = await app.ctx.db
    .insertInto('accounts')
    .values({ name: 'Other', next_visitor_number: 1, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A widget channel, assigned to agentIds (none: every agent of the account), with one visitor and one chat. */
export async function seedChat(
  app: App,
  opts: { accountId?: number; agentIds?: number[] } = {},
): Promise<{ channelId: number; chatId: number; accountId: number }> {
  const db = app.ctx.db;
  const now = Date.now();
  const accountId = opts.accountId ?? app.ctx.defaultAccountId;
  const channel = await db
    .insertInto('channels')
    .values({
      account_id: accountId,
      type: 'widget',
      name: 'Site',
      public_id: crypto.randomBytes(8).toString('hex'),
      secret: null,
      webhook_url: null,
      chunked: 0,
      options_json: '{}',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const agentId of opts.agentIds ?? [])
    await db.insertInto('channel_agents').values({ account_id: accountId, channel_id: channel.id, agent_id: agentId }).execute();
  const visitor = await db
    .insertInto('visitors')
    .values({
      ...newVisitorRow({ accountId, channelId: channel.id, externalId: crypto.randomBytes(4).toString('hex'), details: {}, now }),
      number: 1,
      chats_count: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const chat = await db
    .insertInto('chats')
    .values({
      account_id: accountId,
      channel_id: channel.id,
      visitor_id: visitor.id,
      department_id: null,
      status: 'pending',
      accepted_by: null,
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
      accepted_at: null,
      finished_at: null,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { channelId: channel.id, chatId: chat.id, accountId };
}

/** Commits one event of the chat through the outbox (which wakes the relay), with any payload (recordRawEvent). */
export function emit(
  app: App,
  chat: { accountId: number; channelId: number; chatId: number },
  type: EventType = 'message.created',
  data: Record<string, unknown> = {},
): Promise<RecordedEvent> {
  return commit(app.ctx.db, app.ctx.signals, (tx) =>
    recordRawEvent(tx, { accountId: chat.accountId, type, chatId: chat.chatId, channelId: chat.channelId, data }, Date.now()),
  );
}

/**
 * An outbox row with any payload, as recordEvent writes it (the chat's next
 * sequence number, then the row): recordEvent takes only the catalogue's
 * payloads, and tests mark their events with their own ({ n: 1 }).
 */
export async function recordRawEvent(
  tx: Tx,
  e: { accountId: number; type: EventType; chatId?: number | null; channelId?: number | null; data: Record<string, unknown> },
  now: number,
): Promise<RecordedEvent> {
  const chatId = e.chatId ?? null;
  const seq =
    chatId === null
      ? null
      : (
          await tx
            .updateTable('chats')
            .set({ last_seq: sql<number>`last_seq + 1` })
            .where('id', '=', chatId)
            .returning('last_seq')
            .executeTakeFirstOrThrow()
        ).last_seq;
  const row = await tx
    .insertInto('events')
    .values({
      account_id: e.accountId,
      type: e.type,
      chat_id: chatId,
      channel_id: e.channelId ?? null,
      seq,
      data_json: JSON.stringify(e.data),
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, seq };
}

/** An event as the hub carries it, with any payload (tests publish their own markers). */
export function rawEvent(e: EventPosition & { type: EventType; data: Record<string, unknown> }): StreamEvent {
  const { type, data, ...position } = e;
  const event = decodeEvent(position, type, data);
  if (!event) throw new Error(`not an event of the catalogue: ${type}`);
  return event;
}

/** Waits until the relay has relayed every committed event. */
export async function allRelayed(app: App, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await app.ctx.db.selectFrom('events').select('id').where('id', '>', RELAYED_THROUGH).limit(1).executeTakeFirst();
    if (!row) return;
    if (Date.now() > deadline) throw new Error('events were not relayed in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * `count` events of the chat (message.created, `{ n }`) written straight into
 * the table as relayed, in one transaction that also moves the relay's cursor
 * past them: a long backlog in a moment, without the relay's subscribers (so
 * without hub publishes either: sockets see them only by replay). The relay
 * is idle first, so it neither claims them nor moves the cursor back.
 */
export async function seedRelayedEvents(app: App, chat: { accountId: number; channelId: number; chatId: number }, count: number): Promise<number[]> {
  await allRelayed(app);
  return app.ctx.db.transaction().execute(async (tx) => {
    const ids: number[] = [];
    for (let from = 0; from < count; from += 500) {
      const rows = Array.from({ length: Math.min(500, count - from) }, (_, i) => ({
        account_id: chat.accountId,
        type: 'message.created',
        chat_id: chat.chatId,
        channel_id: chat.channelId,
        seq: null,
        data_json: JSON.stringify({ n: from + i }),
        created_at: Date.now(),
      }));
      ids.push(...(await tx.insertInto('events').values(rows).returning('id').execute()).map((r) => r.id));
    }
    await tx
      .updateTable('relay_cursor')
      .set({ relayed_through: Math.max(...ids) })
      .where('id', '=', 1)
      .execute();
    return ids;
  });
}
