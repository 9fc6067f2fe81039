/**
 * The hot path's statements use the indexes migration 004 made for them. A
 * partial index applies only when the query spells its condition as a
 * literal, which a refactoring could silently undo: this reads the plans.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../../test/helpers/testApp.js';
import { openChatsQuery, openChatsSqlite, touchVisitorsQuery, touchVisitorsSqlite } from '../domain/chatChannel/storeInboundBatch.js';
import { openChatOf } from '../domain/chats/openChat.js';
import { claimOnSqlite } from '../events/relayClaim.js';
import type { CompiledQuery } from 'kysely';

describe('hot-path query plans', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** The plan's text, the statement's parameters replaced by sample values. */
  async function plan(query: CompiledQuery, params: unknown[]): Promise<string> {
    const db = t.app.ctx.db;
    if (testDialect() === 'sqlite') {
      const rows = await db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}`, parameters: params });
      return rows.rows.map((r) => r.detail).join('\n');
    }
    // Tables this small are read sequentially whatever the indexes: ask for the index plan.
    return db.connection().execute(async (conn) => {
      await sql`set enable_seqscan = off`.execute(conn);
      try {
        const rows = await conn.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `explain ${query.sql}`, parameters: params });
        return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await sql`reset enable_seqscan`.execute(conn);
      }
    });
  }

  it('finds a visitor’s open chat through the partial index chats_visitor_open', async () => {
    expect(await plan(openChatOf.compile(t.app.ctx.db), [7, 1])).toContain('chats_visitor_open');
  });

  it.runIf(testDialect() === 'postgres')('writes a chat-channel batch through the visitors’ unique key and chats_visitor_open', async () => {
    const db = t.app.ctx.db;
    const touch = touchVisitorsQuery([1, 1], ['a', 'b'], 1).compile(db);
    expect(await plan(touch, touch.parameters as unknown[])).toContain('visitors_channel_external');
    const open = openChatsQuery([1, 2, 3]).compile(db);
    expect(await plan(open, open.parameters as unknown[])).toContain('chats_visitor_open');
  });

  it.runIf(testDialect() === 'sqlite')('writes a chat-channel batch through the visitors’ unique key and chats_visitor_open', async () => {
    const db = t.app.ctx.db;
    expect(await plan(touchVisitorsSqlite.compile(db), [1, '[[1,"a"]]'])).toMatch(
      /SEARCH v USING COVERING INDEX sqlite_autoindex_visitors_\d \(channel_id=\? AND external_id=\?\)/,
    );
    const open = await plan(openChatsSqlite.compile(db), ['[1,2]']);
    expect(open).toContain('USING INDEX chats_visitor_open');
    expect(open).not.toContain('TEMP B-TREE');
  });

  it.runIf(testDialect() === 'sqlite')("claims the events after the relay's cursor on the primary key, in its order", async () => {
    const text = await plan(claimOnSqlite.compile(t.app.ctx.db), [100]);
    expect(text).toMatch(/SEARCH events USING INTEGER PRIMARY KEY \(rowid>\?\)/);
    expect(text).not.toContain('TEMP B-TREE');
  });
});
