/**
 * Anonymous widget visitors expire (#31 item 11): a visitor of a widget
 * session that left nothing — no chat, no offline message, no call, no
 * contact details, not blacklisted — and was not seen for VISITOR_IDLE_DAYS
 * is deleted by the retention pass; any of those keeps it. Such a visitor
 * coming back with its old token simply gets a fresh visitor and token, no
 * error. Both stores, through the real routes where a visitor does it.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { createTestApp, testDialect, type TestApp } from '../../test/helpers/testApp.js';
import { createWidget, postSession, sendText, startSession, visitorCall, type TestWidget } from '../../test/helpers/widget.js';
import { Retention } from './worker.js';

const DAY = 24 * 60 * 60 * 1000;

describe('idle anonymous visitors', () => {
  let t: TestApp;
  let widget: TestWidget;
  let now = Date.UTC(2026, 0, 10);

  beforeAll(async () => {
    t = await createTestApp({ workers: false, clock: () => now });
    widget = await createWidget(t);
  });
  afterAll(() => t.close());

  const ctx = (): AppContext => t.app.ctx;
  const visitorIds = async (): Promise<number[]> => (await ctx().db.selectFrom('visitors').select('id').orderBy('id').execute()).map((r) => r.id);
  const visitorOf = async (token: string) => (await startSessionAt(token)).visitor;
  async function startSessionAt(token?: string) {
    return startSession(t, widget.widget_id, token ? { token } : {});
  }
  async function idOf(s: { visitor: { number: number } }): Promise<number> {
    const row = await ctx().db.selectFrom('visitors').select('id').where('number', '=', s.visitor.number).executeTakeFirstOrThrow();
    return row.id;
  }

  it('deletes only visitors with nothing and not seen for VISITOR_IDLE_DAYS; any chat, message, call or contact keeps one', async () => {
    expect(ctx().config.visitorIdleDays).toBe(30);
    const started = now;
    const anonymous = await startSessionAt();
    const returning = await startSessionAt();
    const chatting = await startSessionAt();
    await sendText(t, widget.widget_id, chatting.visitor_token, 'hello');
    const contact = await startSessionAt();
    expect((await visitorCall(t, widget.widget_id, contact.visitor_token, 'contact', { email: 'ann@example.com' })).json()).toEqual({ result: 'ok' });
    const offline = await startSessionAt();
    const calling = await startSessionAt();
    const banned = await startSessionAt();
    const userToken = await startSessionAt();

    const db = ctx().db;
    const channelId = widget.id;
    const accountId = ctx().defaultAccountId;
    await db
      .insertInto('offline_messages')
      .values({ account_id: accountId, channel_id: channelId, visitor_id: await idOf(offline), message: 'call me', created_at: started })
      .execute();
    await db
      .insertInto('calls')
      .values({
        account_id: accountId,
        channel_id: channelId,
        visitor_id: await idOf(calling),
        type: 'callback',
        phone: '+15550100',
        status: 'end',
        created_at: started,
        updated_at: started,
      })
      .execute();
    await db
      .updateTable('visitors')
      .set({ blacklisted: 1 })
      .where('id', '=', await idOf(banned))
      .execute();
    await db
      .updateTable('visitors')
      .set({ user_token: 'customer-42' })
      .where('id', '=', await idOf(userToken))
      .execute();
    const kept = [chatting, contact, offline, calling, banned, userToken];
    const keptIds = await Promise.all(kept.map(idOf));
    const anonymousId = await idOf(anonymous);
    const returningId = await idOf(returning);

    // 29 days on, the returning visitor comes back (seen again); nothing is idle long enough yet.
    now = started + 29 * DAY;
    await startSessionAt(returning.visitor_token);
    expect((await new Retention(ctx()).pass()).visitors).toBe(0);

    // 31 days after the start: only the anonymous visitor never seen since goes.
    now = started + 31 * DAY;
    const before = await visitorIds();
    expect((await new Retention(ctx()).pass()).visitors).toBe(1);
    const after = await visitorIds();
    expect(before).toContain(anonymousId);
    expect(after).toEqual(before.filter((id) => id !== anonymousId));
    expect(after).toEqual(expect.arrayContaining([...keptIds, returningId]));

    // 61 days after the start, the returning visitor has been idle 32 days: it goes too; the others stay.
    now = started + 61 * DAY;
    expect((await new Retention(ctx()).pass()).visitors).toBe(1);
    expect(await visitorIds()).toEqual(after.filter((id) => id !== returningId));

    // VISITOR_IDLE_DAYS=0 keeps every visitor.
    now = started + 400 * DAY;
    const forever: AppContext = { ...ctx(), config: { ...ctx().config, visitorIdleDays: 0 } };
    const idle = await startSessionAt();
    now = started + 800 * DAY;
    expect((await new Retention(forever).pass()).visitors).toBe(0);
    expect(await visitorIds()).toContain(await idOf(idle));
  });

  it('gives an expired visitor coming back with its old token a fresh visitor and token, no error', async () => {
    const gone = await startSessionAt();
    const goneId = await idOf(gone);
    now += 31 * DAY;
    await new Retention(ctx()).pass();
    expect(await visitorIds()).not.toContain(goneId);

    const res = await postSession(t, widget.widget_id, { token: gone.visitor_token });
    expect(res.statusCode).toBe(200);
    const fresh = res.json<{ visitor_token: string; visitor: { number: number } }>();
    expect(fresh.visitor_token).not.toBe(gone.visitor_token);
    expect(fresh.visitor.number).not.toBe(gone.visitor.number);
    // The old token is refused where a visitor is needed (the widget then starts a session, as above).
    expect((await visitorCall(t, widget.widget_id, gone.visitor_token, 'messages', { type: 'text', text: 'hi' })).statusCode).toBe(401);
    // The new one works.
    expect((await visitorOf(fresh.visitor_token)).number).toBe(fresh.visitor.number);
  });

  // The race made deterministic: a transaction holds the visitor's row while the session start, which found the
  // visitor, waits for it; the visitor is then deleted. (PostgreSQL: SQLite's one connection would not let the start in.)
  it.runIf(testDialect() === 'postgres')('starts a fresh visitor, not a 500, when the visitor is deleted between the lookup and the update', async () => {
    const s = await startSessionAt();
    const id = await idOf(s);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const holder = ctx()
      .db.transaction()
      .execute(async (tx) => {
        await tx.selectFrom('visitors').select('id').where('id', '=', id).forUpdate().execute();
        held();
        await released;
        await tx.deleteFrom('visitors').where('id', '=', id).execute();
      });
    await holding;
    const answer = postSession(t, widget.widget_id, { token: s.visitor_token });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(ctx().db);
      if (rows[0].n > 0) break;
      if (Date.now() > deadline) throw new Error('the session start never waited for the visitor row');
      await new Promise((r) => setTimeout(r, 20));
    }
    release();
    await holder;
    const res = await answer;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ visitor_token: string }>().visitor_token).not.toBe(s.visitor_token);
  });
});
