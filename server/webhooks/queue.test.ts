/**
 * How long a claim locks a row: the attempt's timeout plus a margin, but never
 * more than DEADLINE_LOCK_MARGIN_MS past a chat-channel row's deadline, so a
 * row whose instance died during its last attempt is taken over in time to be
 * `failed` by the spec's 9 s (test/scale/twoInstances.test.ts shows it on two
 * real processes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { policyFor } from './policies.js';
import { claimDue, DEADLINE_LOCK_MARGIN_MS, LOCK_MARGIN_MS } from './queue.js';
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
    await ctx.db.updateTable('deliveries').set({ deadline_at: deadline, created_at: deadline - 8500, attempts: 2 }).where('id', '=', late).execute();

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
