/**
 * An erasure never takes the service down (#33): a visitor with 10,000
 * messages is erased in bounded batches in the background, the API answering
 * 202 at once with the job and its progress on GET /api/v1/erasures/:id; each
 * batch is short; a job survives a restart and the next process finishes it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { eraseVisitorStep } from '../../../../domain/erasure/eraseVisitor.js';
import { createChatChannel, postInbound, textMessage, waitFor } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, freshStore, testDialect, type TestApp } from '../../../../../test/helpers/testApp.js';

const MESSAGES = 10_000;

describe('erasure jobs', () => {
  const store = freshStore();
  let t: TestApp | null = null;
  afterAll(async () => {
    await t?.close();
    await store.cleanup();
  });

  it('erases 10,000 messages in short batches, shows progress, and resumes after a restart', async () => {
    t = await createTestApp({ store, workers: false });
    const channel = await createChatChannel(t);
    expect((await postInbound(t, channel, textMessage('big-sender', 'message 0'))).statusCode).toBe(200);
    const db = t.app.ctx.db;
    const visitor = await db.selectFrom('visitors').selectAll().where('external_id', '=', 'big-sender').executeTakeFirstOrThrow();
    const chat = await db.selectFrom('chats').selectAll().where('visitor_id', '=', visitor.id).executeTakeFirstOrThrow();
    for (let i = 1; i < MESSAGES; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, MESSAGES - i) }, (_, k) => ({
        account_id: chat.account_id,
        chat_id: chat.id,
        author: 'visitor' as const,
        type: 'text',
        text: `message ${i + k} of a long history`,
        internal: 0 as const,
        suppressed: 0 as const,
        created_at: Date.now(),
      }));
      await db.insertInto('messages').values(rows).execute();
    }

    const started = Date.now();
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/visitors/${visitor.id}`, headers: bearer(t.adminToken) });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.statusCode).toBe(202);
    const job = res.json().erasure;
    expect(job).toMatchObject({ status: 'running', chats_total: 1, messages_total: MESSAGES, messages_erased: 0 });

    // Three batches by hand (no workers in this process): each short, the progress visible.
    let slowest = 0;
    for (let i = 0; i < 3; i++) {
      const at = Date.now();
      expect(await eraseVisitorStep(t.app.ctx, job.id, 500)).toBe('more');
      slowest = Math.max(slowest, Date.now() - at);
    }
    expect(slowest).toBeLessThan(500);
    const mid = (await t.app.inject({ method: 'GET', url: `/api/v1/erasures/${job.id}`, headers: bearer(t.adminToken) })).json().erasure;
    // 500 messages a batch on PostgreSQL, 100 on SQLite (its search index's secure delete makes each dearer).
    const perBatch = testDialect() === 'sqlite' ? 100 : 500;
    expect(mid).toMatchObject({ status: 'running', messages_erased: 3 * perBatch, messages_total: MESSAGES });

    // A restart: the next process resumes the job with its workers and finishes it.
    await t.app.close();
    const resumedAt = Date.now();
    t = await createTestApp({ store });
    const tt = t;
    const done = await waitFor(async () => {
      const e = (await tt.app.inject({ method: 'GET', url: `/api/v1/erasures/${job.id}`, headers: bearer(tt.adminToken) })).json().erasure;
      return e.status === 'done' ? e : null;
    }, 60_000);
    // Seen by the benchmark too; logged here as a sanity figure.
    console.log(`erased the remaining ${MESSAGES - 3 * perBatch} messages in ${Date.now() - resumedAt} ms`);
    expect(done).toMatchObject({ messages_erased: MESSAGES, chats_erased: 1 });
    expect(await tt.app.ctx.db.selectFrom('messages').select('id').where('chat_id', '=', chat.id).executeTakeFirst()).toBeUndefined();
    expect(await tt.app.ctx.db.selectFrom('visitors').select('id').where('id', '=', visitor.id).executeTakeFirst()).toBeUndefined();
  }, 120_000);
});
