/**
 * The retention worker on the real store: what goes (dedup keys past their
 * window, finished deliveries and relayed events past RETENTION_DAYS), what
 * stays (anything younger, pending or paused deliveries, unrelayed events,
 * events an open delivery names), batches of at most the batch size, the
 * accounts' deletion marks, and two instances pruning at once. Rows are
 * seeded straight into the tables; time is the app's injected clock.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedAccount, seedChat } from '../../test/helpers/realtime.js';
import { createTestApp, testDialect, type TestApp } from '../../test/helpers/testApp.js';
import type { AppContext } from '../context.js';
import type { Delivery } from '../db/schema.js';
import { FORGET_MS, recordSignInFailure } from '../domain/auth/throttles.js';
import { issueToken, resolveToken, revokeToken } from '../domain/auth/tokens.js';
import { DEDUP_WINDOW_MS } from '../domain/chatChannel/dedupInbound.js';
import { sha256 } from '../lib/ids.js';
import { deletedThrough } from '../events/eventMarks.js';
import { DEDUP_MARGIN_MS, pruneInboundDedup } from './pruneInboundDedup.js';
import { pruneDeliveries } from './pruneDeliveries.js';
import { pruneEvents } from './pruneEvents.js';
import { Retention } from './worker.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2031, 5, 15, 12);
/** Just past the default retention (30 days) and just inside it. */
const OLD = NOW - 30 * DAY - 1;
const RECENT = NOW - 30 * DAY + 60_000;

describe('retention', () => {
  let t: TestApp;
  let ctx: AppContext;
  let channelId: number;
  let accountId: number;

  beforeAll(async () => {
    // No workers: the relay would relay the seeded rows, and the test runs the passes itself.
    t = await createTestApp({ clock: () => NOW, workers: false });
    ctx = t.app.ctx;
    accountId = ctx.defaultAccountId;
    channelId = (await seedChat(t.app)).channelId;
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    for (const table of ['deliveries', 'events', 'inbound_dedup', 'event_retention', 'sign_in_throttles'] as const) await ctx.db.deleteFrom(table).execute();
  });

  /** An event row, relayed (the relay's cursor moved past it) unless asked otherwise. */
  async function event(createdAt: number, opts: { relayed?: boolean; accountId?: number } = {}): Promise<number> {
    const row = await ctx.db
      .insertInto('events')
      .values({
        account_id: opts.accountId ?? accountId,
        type: 'message.created',
        chat_id: null,
        channel_id: null,
        seq: null,
        data_json: '{}',
        created_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (opts.relayed !== false) await ctx.db.updateTable('relay_cursor').set({ relayed_through: row.id }).where('id', '=', 1).execute();
    return row.id;
  }

  /** A delivery that finished (or was last touched) at `at`. */
  async function delivery(status: Delivery['status'], at: number, eventId: number | null = null): Promise<number> {
    const row = await ctx.db
      .insertInto('deliveries')
      .values({
        account_id: accountId,
        kind: 'event_webhook',
        event_type: 'chat_accepted',
        event_id: eventId,
        chat_id: null,
        message_id: null,
        url: 'http://127.0.0.1:9/hook',
        body: '{}',
        webhook_id: `msg_${crypto.randomBytes(8).toString('hex')}`,
        chunked: 0,
        status,
        attempts: 1,
        max_attempts: 8,
        next_attempt_at: at,
        deadline_at: null,
        locked_until: null,
        last_status_code: null,
        last_response: null,
        last_error: null,
        created_at: at,
        updated_at: at,
        delivered_at: status === 'delivered' ? at : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function dedup(createdAt: number): Promise<string> {
    const id = crypto.randomBytes(6).toString('hex');
    await ctx.db
      .insertInto('inbound_dedup')
      .values({
        account_id: accountId,
        channel_id: channelId,
        sender_id: 'sender',
        message_external_id: id,
        content_hash: 'h',
        message_id: null,
        created_at: createdAt,
      })
      .execute();
    return id;
  }

  const ids = async (table: 'events' | 'deliveries'): Promise<number[]> =>
    (await ctx.db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => r.id);

  it('deletes dedup keys past the window and its margin, and keeps the rest', async () => {
    const gone = await dedup(NOW - DEDUP_WINDOW_MS - DEDUP_MARGIN_MS - 1);
    const inMargin = await dedup(NOW - DEDUP_WINDOW_MS - 1);
    const fresh = await dedup(NOW - 1000);
    expect((await new Retention(ctx).pass()).inbound_dedup).toBe(1);
    const left = await ctx.db.selectFrom('inbound_dedup').select('message_external_id').execute();
    expect(left.map((r) => r.message_external_id).sort()).toEqual([inMargin, fresh].sort());
    expect(left.map((r) => r.message_external_id)).not.toContain(gone);
  });

  it('deletes finished deliveries past retention; keeps recent ones and every pending or paused one', async () => {
    await delivery('delivered', OLD);
    await delivery('failed', OLD);
    const kept = [await delivery('delivered', RECENT), await delivery('failed', RECENT), await delivery('pending', OLD), await delivery('paused', OLD)];
    // Redelivered today: created long ago, pending again.
    const redelivered = await delivery('delivered', OLD);
    await ctx.db.updateTable('deliveries').set({ status: 'pending', next_attempt_at: NOW, updated_at: NOW }).where('id', '=', redelivered).execute();
    expect((await new Retention(ctx).pass()).deliveries).toBe(2);
    expect(await ids('deliveries')).toEqual([...kept, redelivered]);
  });

  it('deletes relayed events past retention; keeps recent, unrelayed and those an open delivery names; marks each account', async () => {
    const other = await seedAccount(t.app);
    const gone = [await event(OLD), await event(OLD, { accountId: other }), await event(OLD)];
    const pendingNamed = await event(OLD);
    const pausedNamed = await event(OLD);
    const finishedNamed = await event(OLD);
    const lastOld = await event(OLD);
    const recent = await event(RECENT);
    const afterRecent = await event(OLD); // older than a row before it (another instance's clock): left for a later pass
    const unrelayed = await event(OLD, { relayed: false });
    await delivery('pending', NOW, pendingNamed);
    await delivery('paused', NOW, pausedNamed);
    await delivery('delivered', NOW, finishedNamed);

    expect((await new Retention(ctx).pass()).events).toBe(5);
    expect(await ids('events')).toEqual([pendingNamed, pausedNamed, recent, afterRecent, unrelayed]);
    expect(await deletedThrough(ctx.db, accountId)).toBe(lastOld);
    expect(await deletedThrough(ctx.db, other)).toBe(gone[1]);

    // The delivery finishes: the next pass takes its event; the mark never goes down.
    await ctx.db.updateTable('deliveries').set({ status: 'delivered' }).where('event_id', '=', pendingNamed).execute();
    expect((await new Retention(ctx).pass()).events).toBe(1);
    expect(await deletedThrough(ctx.db, accountId)).toBe(lastOld);
  });

  it('deletes in batches of at most the batch size, and a pass works through them all', async () => {
    for (let i = 0; i < 7; i++) {
      await event(OLD);
      await delivery('delivered', OLD);
      await dedup(NOW - 2 * DAY);
    }
    const cutoff = NOW - 30 * DAY;
    const first = await pruneEvents(ctx, { after: 0, cutoff, limit: 3 });
    const allEvents = await ids('events');
    expect(first).toEqual({ deleted: 3, next: expect.any(Number) });
    expect(allEvents).toHaveLength(4);
    expect(first?.next).toBeLessThan(allEvents[0]);
    expect(await pruneDeliveries(ctx, { cutoff, limit: 3 })).toEqual({ deleted: 3, more: true });
    expect(await pruneInboundDedup(ctx, { now: NOW, limit: 3 })).toEqual({ deleted: 3, more: true });

    expect(await new Retention(ctx, { batchSize: 3 }).pass()).toEqual({ inbound_dedup: 4, auth: 0, deliveries: 4, events: 4, visitors: 0, audit: 0, chats: 0 });
    expect(await new Retention(ctx, { batchSize: 3 }).pass()).toEqual({ inbound_dedup: 0, auth: 0, deliveries: 0, events: 0, visitors: 0, audit: 0, chats: 0 });
  });

  it('steps over kept rows inside a batch and goes on past them', async () => {
    const protectedIds: number[] = [];
    for (let i = 0; i < 4; i++) {
      const id = await event(OLD);
      protectedIds.push(id);
      await delivery('paused', NOW, id);
    }
    const later = [await event(OLD), await event(OLD)];
    expect((await new Retention(ctx, { batchSize: 2 }).pass()).events).toBe(2);
    expect(await ids('events')).toEqual(protectedIds);
    expect(await deletedThrough(ctx.db, accountId)).toBe(later[1]);
  });

  it('deletes expired and revoked login tokens and finished sign-in throttling; keeps live ones, whatever RETENTION_DAYS says', async () => {
    const agent = await ctx.db.selectFrom('agents').select(['id', 'account_id']).where('account_id', '=', accountId).executeTakeFirstOrThrow();
    const live = await issueToken(ctx.db, agent, NOW, 3600);
    const expired = await issueToken(ctx.db, agent, NOW - 2 * DAY, 3600);
    const revoked = await issueToken(ctx.db, agent, NOW - 1000, 3600);
    await revokeToken(ctx.db, revoked, NOW - 500);
    const fail = (address: string, email: string, times: number, at: number) =>
      (async () => {
        for (let i = 0; i < times; i++) await recordSignInFailure(ctx.db, { address, email, accountId: null }, at);
      })();
    // Forgotten a day after the last failure (a pair and its source each): gone.
    await fail('10.0.0.1', 'old@example.com', 1, NOW - FORGET_MS - 1);
    // Recent failures, and a source whose last failure is old but whose delay runs on: kept.
    await fail('10.0.0.2', 'recent@example.com', 1, NOW - 60_000);
    await ctx.db
      .updateTable('sign_in_throttles')
      .set({ last_failure_at: NOW - FORGET_MS - 1, blocked_until: NOW + 10 * 60_000, expires_at: NOW + 10 * 60_000 })
      .where('key', '=', 'source:10.0.0.2')
      .execute();

    const forever: AppContext = { ...ctx, config: { ...ctx.config, retentionDays: 0 } };
    expect((await new Retention(forever).pass()).auth).toBe(4);
    const tokens = await ctx.db.selectFrom('auth_tokens').select('token_hash').execute();
    expect(tokens.map((r) => r.token_hash)).toContain(sha256(live));
    expect(tokens.map((r) => r.token_hash)).not.toEqual(expect.arrayContaining([sha256(expired)]));
    expect(tokens.map((r) => r.token_hash)).not.toEqual(expect.arrayContaining([sha256(revoked)]));
    expect(await resolveToken(ctx.db, live, NOW)).not.toBeNull();
    const keys = (await ctx.db.selectFrom('sign_in_throttles').select('key').orderBy('key').execute()).map((r) => r.key);
    expect(keys).toEqual(['pair:10.0.0.2 recent@example.com', 'source:10.0.0.2']);
  });

  it('keeps events and deliveries forever with RETENTION_DAYS=0 (dedup keys still go)', async () => {
    await event(0);
    await delivery('delivered', 0);
    await dedup(0);
    const forever: AppContext = { ...ctx, config: { ...ctx.config, retentionDays: 0 } };
    expect(await new Retention(forever).pass()).toEqual({ inbound_dedup: 1, auth: 0, deliveries: 0, events: 0, visitors: 0, audit: 0, chats: 0 });
    expect(await ids('events')).toHaveLength(1);
    expect(await ids('deliveries')).toHaveLength(1);
  });

  it('is a handful of reads when nothing is due', async () => {
    await event(RECENT);
    await delivery('delivered', RECENT);
    await dedup(NOW);
    expect(await new Retention(ctx).pass()).toEqual({ inbound_dedup: 0, auth: 0, deliveries: 0, events: 0, visitors: 0, audit: 0, chats: 0 });
  });

  // Several instances share a PostgreSQL database; SQLite is one process (two connections in one process would wait on each other).
  it.runIf(testDialect() === 'postgres')('lets two instances prune at once: every row deleted once, nothing kept deleted, no error', async () => {
    const second = await createTestApp({ clock: () => NOW, workers: false, store: t.store });
    try {
      for (let i = 0; i < 40; i++) {
        await event(OLD);
        await delivery('failed', OLD);
        await dedup(0);
      }
      const keptEvent = await event(RECENT);
      const keptDelivery = await delivery('pending', OLD);
      const passes = await Promise.all([new Retention(ctx, { batchSize: 5 }).pass(), new Retention(second.app.ctx, { batchSize: 5 }).pass()]);
      // An instance that finds the other one pruning ends its pass: a later pass finishes the work.
      const last = await new Retention(ctx, { batchSize: 5 }).pass();
      const total = (k: keyof (typeof passes)[number]) => passes[0][k] + passes[1][k] + last[k];
      expect({ events: total('events'), deliveries: total('deliveries'), inbound_dedup: total('inbound_dedup') }).toEqual({
        events: 40,
        deliveries: 40,
        inbound_dedup: 40,
      });
      expect(await ids('events')).toEqual([keptEvent]);
      expect(await ids('deliveries')).toEqual([keptDelivery]);
    } finally {
      await second.close();
    }
  });
});
