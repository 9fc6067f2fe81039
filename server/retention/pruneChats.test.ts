/**
 * Chat retention (#33, docs/DATA.md "Retention"): with retention.chats_days
 * set, finished chats older than that are erased with their messages, files,
 * events and deliveries; visitors left without chats and without contact
 * details go too; open chats, newer chats and the report totals stay. The
 * settings say how many chats the next pass removes; bad values are 400s.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage, waitFor, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { createWidget, startSession, visitorCall, type TestWidget } from '../../test/helpers/widget.js';
import { Retention } from './worker.js';

const DAY = 24 * 60 * 60 * 1000;

describe('chat retention', () => {
  let t: TestApp;
  let channel: ChatChannel;
  let widget: TestWidget;
  let now = Date.now();
  let token = '';

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now });
    channel = await createChatChannel(t);
    widget = await createWidget(t);
    token = t.adminToken;
  });
  afterAll(() => t.close());

  const api = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
  const db = () => t.app.ctx.db;
  const chatOf = async (externalId: string) => {
    const v = await db().selectFrom('visitors').select('id').where('external_id', '=', externalId).executeTakeFirstOrThrow();
    return db().selectFrom('chats').selectAll().where('visitor_id', '=', v.id).executeTakeFirstOrThrow();
  };
  const finish = async (chatId: number) => {
    expect((await api('POST', `/chats/${chatId}/accept`, {})).statusCode).toBe(200);
    expect((await api('POST', `/chats/${chatId}/finish`, {})).statusCode).toBe(200);
  };
  const startedTotal = async () => {
    const { rows } = await sql<{ n: number | string | null }>`select sum(started) as n from report_hourly`.execute(db());
    return Number(rows[0]?.n ?? 0);
  };
  /** Until the relay has handed every event to the subscribers (the rollups are written). */
  const relayed = () =>
    waitFor(async () => {
      const { rows } = await sql<{
        top: number | null;
        through: number;
      }>`select (select max(id) from events) as top, relayed_through as through from relay_cursor`.execute(db());
      return rows[0] && Number(rows[0].through) >= Number(rows[0].top ?? 0);
    });

  it('refuses bad values with a clear 400 and stores nothing', async () => {
    for (const chats_days of [0, -1, 1.5, '30', 40_000, true]) {
      const res = await api('PUT', '/settings', { retention: { chats_days } });
      expect(res.statusCode, String(chats_days)).toBe(400);
      expect(res.json().error.message).toMatch(/retention\.chats_days/);
    }
    expect((await api('PUT', '/settings', { retention: 5 })).statusCode).toBe(400);
    expect((await api('GET', '/settings')).json().retention).toEqual({ chats_days: null, chats_due: 0 });
  });

  it('erases finished chats past chats_days, their files and bare visitors; report totals stay', async () => {
    const start = now;
    // Finished long ago: an anonymous sender, a sender with an e-mail, a widget visitor with a file.
    expect((await postInbound(t, channel, textMessage('old-anonymous', 'old one'))).statusCode).toBe(200);
    expect((await postInbound(t, channel, textMessage('old-known', 'old two', { email: 'known@example.com' }))).statusCode).toBe(200);
    const s = await startSession(t, widget.widget_id);
    const up = await t.app.inject({
      method: 'POST',
      url: `/widget/api/${widget.widget_id}/uploads`,
      headers: { ...bearer(s.visitor_token), 'content-type': 'text/plain', 'x-file-name': 'old.txt', 'x-forwarded-for': '198.51.100.21' },
      payload: Buffer.from('an old file'),
    });
    expect(up.statusCode).toBe(200);
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'messages', up.json())).statusCode).toBe(201);
    const widgetVisitor = await db().selectFrom('visitors').select(['id', 'external_id']).where('number', '=', s.visitor.number).executeTakeFirstOrThrow();
    const oldChats = [await chatOf('old-anonymous'), await chatOf('old-known'), await chatOf(widgetVisitor.external_id)];
    for (const c of oldChats) await finish(c.id);
    // Still open, though as old.
    expect((await postInbound(t, channel, textMessage('old-open', 'still talking'))).statusCode).toBe(200);
    const open = await chatOf('old-open');
    await relayed();

    // 40 days on: one more chat, finished now (too new).
    now = start + 40 * DAY;
    token = await t.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await postInbound(t, channel, textMessage('new-anonymous', 'new one'))).statusCode).toBe(200);
    const fresh = await chatOf('new-anonymous');
    await finish(fresh.id);
    await relayed();
    const totals = await startedTotal();
    expect(totals).toBeGreaterThan(0);

    const set = await api('PUT', '/settings', { retention: { chats_days: 30 } });
    expect(set.statusCode).toBe(200);
    expect(set.json().retention).toEqual({ chats_days: 30, chats_due: 3 });

    const pass = await new Retention(t.app.ctx, { batchSize: 100 }).pass();
    expect(pass.chats).toBe(3);
    const left = (await db().selectFrom('chats').select('id').orderBy('id').execute()).map((c) => c.id);
    expect(left).toEqual([open.id, fresh.id].sort((a, b) => a - b));
    const oldIds = oldChats.map((c) => c.id);
    for (const table of ['messages', 'events', 'deliveries'] as const) {
      expect(await db().selectFrom(table).select('id').where('chat_id', 'in', oldIds).execute(), table).toEqual([]);
    }
    expect(fs.readdirSync(path.join(t.config.dataDir, 'uploads')).filter((f) => f.endsWith('old.txt'))).toEqual([]);
    // Bare visitors go; the one with an e-mail stays, as do the open and the new chat's.
    const visitors = (await db().selectFrom('visitors').select('external_id').execute()).map((v) => v.external_id).sort();
    expect(visitors).toEqual(['new-anonymous', 'old-known', 'old-open']);
    expect(await startedTotal()).toBe(totals);
    expect((await api('GET', '/settings')).json().retention).toEqual({ chats_days: 30, chats_due: 0 });

    // null: kept forever again.
    expect((await api('PUT', '/settings', { retention: { chats_days: null } })).json().retention).toEqual({ chats_days: null, chats_due: 0 });
  }, 60_000);
});
