/**
 * How long a claim locks a row: the attempt's timeout plus a margin, but never
 * more than DEADLINE_LOCK_MARGIN_MS past a chat-channel row's deadline, so a
 * row whose instance died during its last attempt is taken over in time to be
 * `failed` by the spec's 9 s (test/scale/twoInstances.test.ts shows it on two
 * real processes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { decide } from './outcomes.js';
import { policyFor } from './kinds.js';
import {
  claimDue,
  DEADLINE_LOCK_MARGIN_MS,
  isPlainRecord,
  LOCK_MARGIN_MS,
  recordAttempt,
  recordPlainAttempts,
  type AttemptRecord,
  type Claim,
} from './queue.js';
import type { SendResult } from './send.js';
import { enqueue } from '../../test/helpers/webhooks.js';

describe('claimDue lock duration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ workers: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it('locks for timeout + margin, capped just past a chat-channel deadline', async () => {
    const ctx = t.app.ctx;
    const fresh = await enqueue(ctx, { url: 'http://127.0.0.1:9/fresh' });
    const late = await enqueue(ctx, { url: 'http://127.0.0.1:9/late' });
    const event = await enqueue(ctx, { url: 'http://127.0.0.1:9/event', kind: 'event_webhook', eventType: 'chat_accepted' });
    // `late` is at its third attempt: sent 6 s ago, deadline 2.5 s from now.
    const now = Date.now();
    const deadline = now + 2500;
    await ctx.db
      .updateTable('deliveries')
      .set({ deadline_at: deadline, created_at: deadline - 8500, attempts: 2 })
      .where('id', '=', late)
      .execute();

    const claims = await claimDue(ctx, 10, now);
    const lockOf = (id: number) => claims.find((c) => c.row.id === id)?.lock;
    expect(lockOf(fresh)).toBe(now + policyFor('chat_channel').timeoutMs + LOCK_MARGIN_MS);
    expect(lockOf(late)).toBe(deadline + DEADLINE_LOCK_MARGIN_MS);
    expect(lockOf(event)).toBe(now + policyFor('event_webhook').timeoutMs + LOCK_MARGIN_MS);
    // Locked rows are not claimed again until their lock expires.
    expect(await claimDue(ctx, 10, now + 100)).toEqual([]);
    const retaken = await claimDue(ctx, 10, deadline + DEADLINE_LOCK_MARGIN_MS + 1);
    expect(retaken.map((c) => c.row.id)).toEqual([late]);
  });
});

describe('recordPlainAttempts: several attempts in one statement', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ workers: false });
  });
  afterAll(async () => {
    await t.close();
  });

  const row = (id: number) => t.app.ctx.db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const claimAll = async (ids: number[], now: number): Promise<Claim[]> => {
    const claims = await claimDue(t.app.ctx, 100, now);
    return ids.map((id) => claims.find((c) => c.row.id === id)!);
  };
  const make = (claim: Claim, result: SendResult, now: number): AttemptRecord => ({ claim, decision: decide(claim.row, result, now, () => 0.5), result, now });
  /** The columns an attempt writes (a chat-channel retry is due relative to the row's creation). */
  const written = (d: Awaited<ReturnType<typeof row>>) => {
    const { id: _id, webhook_id: _w, url: _u, created_at, deadline_at: _d, next_attempt_at, ...rest } = d;
    return { ...rest, next_attempt_at: d.kind === 'chat_channel' ? next_attempt_at - created_at : next_attempt_at };
  };

  it('writes each row as recordAttempt would, only where its claim still holds, and answers per record in order', async () => {
    const ctx = t.app.ctx;
    const awkward = `{"a":"b,c"} \\ "quoted" {braces} NULL ünïcødé ${'x'.repeat(1500)}`;
    const results: SendResult[] = [
      { ok: true, statusCode: 200, excerpt: '{"result":"ok"}', body: { result: 'ok' } },
      { ok: false, statusCode: 500, excerpt: awkward, error: 'HTTP 500', failure: 'status' },
      { ok: false, excerpt: '', error: 'connection refused (connect ECONNREFUSED)', failure: 'network' },
      { ok: true, statusCode: 204, excerpt: '' },
    ];
    const kinds = ['event_webhook', 'event_webhook', 'chat_channel', 'event_webhook'] as const;
    // Two identical sets of rows: one recorded one by one (recordAttempt), the other in one batch.
    const single: number[] = [];
    const batched: number[] = [];
    for (const list of [single, batched]) {
      for (const kind of kinds)
        list.push(await enqueue(ctx, { url: `http://127.0.0.1:9/${kind}`, kind, eventType: kind === 'chat_channel' ? 'message' : 'chat_updated' }));
    }
    const now = Date.now() + 1;
    const claims = await claimAll([...single, ...batched], now);
    const singleClaims = claims.slice(0, kinds.length);
    const batchClaims = claims.slice(kinds.length);
    const at = now + 50;
    for (const [i, c] of singleClaims.entries()) {
      const r = make(c, results[i], at);
      expect(isPlainRecord(r.claim, r.decision)).toBe(true);
      expect(await recordAttempt(ctx, r.claim, r.decision, r.result, r.now)).not.toBeNull();
    }
    // The last batched row was taken over (its lock changed): its write must not land.
    await ctx.db
      .updateTable('deliveries')
      .set({ locked_until: now + 99_999 })
      .where('id', '=', batched[3])
      .execute();
    const records = batchClaims.map((c, i) => make(c, results[i], at));
    const out = await recordPlainAttempts(ctx, records);
    expect(out.map((d) => d?.id ?? null)).toEqual([batched[0], batched[1], batched[2], null]);
    for (let i = 0; i < 3; i++) {
      const [a, b] = [await row(single[i]), await row(batched[i])];
      expect(written(b)).toEqual(written(a));
      expect(out[i]).toEqual(b);
    }
    expect(await row(batched[1])).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      last_response: awkward,
      last_error: 'HTTP 500',
      locked_until: null,
    });
    expect(await row(batched[2])).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null, last_response: '', delivered_at: null });
    expect(await row(batched[0])).toMatchObject({ status: 'delivered', attempts: 1, delivered_at: at, updated_at: at });
    expect(await row(batched[3])).toMatchObject({ status: 'pending', attempts: 0, locked_until: now + 99_999 });
  });

  it('refuses the same row twice in one batch', async () => {
    const ctx = t.app.ctx;
    const id = await enqueue(ctx, { url: 'http://127.0.0.1:9/twice', kind: 'event_webhook', eventType: 'chat_updated' });
    const now = Date.now() + 1;
    const [claim] = await claimAll([id], now);
    const r = make(claim, { ok: true, statusCode: 200, excerpt: '' }, now);
    await expect(recordPlainAttempts(ctx, [r, r])).rejects.toThrow(/twice/);
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 0 });
  });
});
