/**
 * The retention deletes read only what they delete: their plans use the
 * indexes migrations 005, 007 and 049 made (and deliveries_due), never a scan of a table
 * that holds millions of rows. A partial index applies only when the query
 * spells its condition as the index does, which a refactoring could undo.
 */
import { sql, type CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../../test/helpers/testApp.js';
import { deleteExpiredTokens, deleteFinishedThrottles } from './pruneAuth.js';
import { deleteFinishedDeliveries } from './pruneDeliveries.js';
import { deleteOldEvents } from './pruneEvents.js';
import { deleteOldDedup } from './pruneInboundDedup.js';
import { deleteIdleVisitors } from './pruneVisitors.js';

describe('retention query plans', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ workers: false });
  });
  afterAll(async () => {
    await t.close();
  });

  /** The plan's text (as in db/hotPathPlans.test.ts). */
  async function plan(query: CompiledQuery): Promise<string> {
    const db = t.app.ctx.db;
    if (testDialect() === 'sqlite') {
      const rows = await db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` });
      return rows.rows.map((r) => r.detail).join('\n');
    }
    // Tables this small are read sequentially whatever the indexes: ask for the index plan.
    return db.connection().execute(async (conn) => {
      await sql`set enable_seqscan = off`.execute(conn);
      try {
        const rows = await conn.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `explain ${query.sql}` });
        return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await sql`reset enable_seqscan`.execute(conn);
      }
    });
  }

  const scans = (text: string, table: string): boolean =>
    testDialect() === 'sqlite' ? new RegExp(`SCAN ${table}\\b(?! USING)`).test(text) : new RegExp(`Seq Scan on ${table}\\b`).test(text);

  it('finds old dedup keys through inbound_dedup_created_at', async () => {
    const text = await plan(deleteOldDedup(t.app.ctx.db, testDialect(), { cutoff: 1, limit: 2000 }).compile());
    expect(text).toContain('inbound_dedup_created_at');
    expect(text).toContain(testDialect() === 'sqlite' ? 'sqlite_autoindex_inbound_dedup_1' : 'Tid Scan on inbound_dedup');
    expect(scans(text, 'inbound_dedup')).toBe(false);
  });

  it('finds expired login tokens and finished sign-in throttling through their indexes', async () => {
    const tokens = await plan(deleteExpiredTokens(t.app.ctx.db, { now: 1, limit: 2000 }).compile());
    expect(tokens).toContain('auth_tokens_expires_at');
    expect(scans(tokens, 'auth_tokens')).toBe(false);
    const attempts = await plan(deleteFinishedThrottles(t.app.ctx.db, { now: 1, limit: 2000 }).compile());
    expect(attempts).toContain('sign_in_throttles_expires_at');
    expect(scans(attempts, 'sign_in_throttles')).toBe(false);
  });

  it('finds finished deliveries through deliveries_due', async () => {
    const text = await plan(deleteFinishedDeliveries(t.app.ctx.db, testDialect(), { cutoff: 1, limit: 2000 }).compile());
    expect(text).toContain('deliveries_due');
    // The rows found are deleted by primary key, not by reading every finished row again.
    expect(text).toContain(testDialect() === 'sqlite' ? 'INTEGER PRIMARY KEY (rowid=?)' : 'deliveries_pkey');
    expect(scans(text, 'deliveries')).toBe(false);
  });

  it('deletes events by primary key range, checking open deliveries through deliveries_open_event', async () => {
    const text = await plan(deleteOldEvents(t.app.ctx.db, { after: 0, hi: 2000, cutoff: 1 }).compile());
    expect(text).toContain('deliveries_open_event');
    expect(scans(text, 'events')).toBe(false);
    expect(scans(text, 'deliveries')).toBe(false);
  });

  it('finds idle anonymous visitors through visitors_anonymous_created, checking what they left through indexes', async () => {
    const text = await plan(deleteIdleVisitors(t.app.ctx.db, { cutoff: 1, limit: 2000 }).compile());
    expect(text).toContain('visitors_anonymous_created');
    expect(text).toContain('offline_messages_visitor');
    expect(text).toContain('calls_visitor_status');
    expect(text).toContain('chats_visitor');
    for (const table of ['visitors', 'chats', 'offline_messages', 'calls']) expect(scans(text, table), table).toBe(false);
  });
});
