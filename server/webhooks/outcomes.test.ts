/** Judging answers and scheduling attempts, per delivery kind. */
import { describe, expect, it } from 'vitest';
import type { Delivery } from '../db/schema.js';
import { refusalOf } from '../domain/chatChannel/deliveryKind.js';
import { deadlineDecision, decide, judge, nextAttemptTime } from './outcomes.js';
import { RETRY_AFTER_CAP_MS } from '../push/deliveryKind.js';
import { judgeAnswer, parseRetryAfter, type SendResult } from './send.js';

const T0 = 1_700_000_000_000;
const row = (over: Partial<Delivery> = {}): Delivery => ({
  id: 1,
  account_id: 1,
  kind: 'chat_channel',
  event_type: 'message',
  event_id: null,
  chat_id: 1,
  message_id: 1,
  visitor_id: null,
  url: 'http://x/y',
  body: '{}',
  webhook_id: 'msg_1',
  chunked: 0,
  status: 'pending',
  attempts: 0,
  max_attempts: 3,
  next_attempt_at: T0,
  deadline_at: T0 + 8500,
  locked_until: null,
  last_status_code: null,
  last_response: null,
  last_error: null,
  created_at: T0,
  updated_at: T0,
  delivered_at: null,
  ...over,
});
const ok = (body: unknown): SendResult => ({ ok: true, statusCode: 200, body, excerpt: JSON.stringify(body) });
const fail = (failure: SendResult['failure'], error: string, statusCode?: number): SendResult => ({ ok: false, statusCode, excerpt: '', error, failure });

describe('judging answers', () => {
  it('chat channel: 2xx delivered unless the body is an error object', () => {
    expect(judge(row(), ok({ result: 'ok' }))).toEqual({ outcome: 'delivered' });
    expect(judge(row(), ok(undefined))).toEqual({ outcome: 'delivered' });
    expect(judge(row(), ok({ error: { code: 12, message: 'User blocked' } }))).toEqual({ outcome: 'refused', error: 'User blocked' });
    expect(judge(row(), ok({ error: null, result: 'ok' }))).toEqual({ outcome: 'delivered' });
    expect(refusalOf({ error: { code: 7 } })).toContain('code 7');
  });

  it("chat channel: a result that says it failed is a refusal with its reason (#32 item 4); real clients' other answers stay delivered", () => {
    expect(judge(row(), ok({ result: 'fail', reason: 'Chat closed' }))).toEqual({ outcome: 'refused', error: 'Chat closed' });
    expect(judge(row(), ok({ result: 'FAILURE', message: 'No such user' }))).toEqual({ outcome: 'refused', error: 'No such user' });
    expect(judge(row(), ok({ result: false }))).toMatchObject({ outcome: 'refused' });
    expect(refusalOf({ result: 'error' })).toBe('The customer system answered result "error" without a reason.');
    expect(judge(row(), ok({ result: 'OK' }))).toEqual({ outcome: 'delivered' });
    expect(judge(row(), ok({ ok: true }))).toEqual({ outcome: 'delivered' });
    expect(judge(row(), ok({ result: 'success' }))).toEqual({ outcome: 'delivered' });
    expect(judge(row(), ok('{"result":"ok"}'))).toEqual({ outcome: 'delivered' }); // a JSON string holding the object
    expect(judge(row(), ok('{"result":"fail","reason":"Blocked"}'))).toEqual({ outcome: 'refused', error: 'Blocked' });
    expect(judge(row(), ok('thanks'))).toEqual({ outcome: 'delivered' });
  });

  it('event webhook: 2xx delivered whatever the body; others retried; a blocked target is final', () => {
    const ev = row({ kind: 'event_webhook' });
    expect(judge(ev, ok({ error: { code: 1, message: 'x' } }))).toEqual({ outcome: 'delivered' });
    expect(judge(ev, fail('status', 'HTTP 500', 500)).outcome).toBe('retry');
    expect(judge(ev, fail('blocked', 'Refused: …')).outcome).toBe('refused');
  });
});

describe('scheduling', () => {
  it('chat channel attempts are anchored to the first send: 0, 3, 6 s, even when an attempt ends late', () => {
    expect(nextAttemptTime(row(), 1, T0 + 2600)).toBe(T0 + 3000);
    expect(nextAttemptTime(row(), 2, T0 + 5600)).toBe(T0 + 6000);
    // A redelivered row is anchored to its fresh deadline.
    expect(nextAttemptTime(row({ deadline_at: T0 + 60_000 + 8500 }), 1, T0 + 60_100)).toBe(T0 + 63_000);
  });

  it('a chat channel row fails after the third attempt with the agent-facing sentence', () => {
    const d = decide(row({ attempts: 2 }), fail('timeout', 'timeout: no complete answer within 2.5 s'), T0 + 8500);
    expect(d).toMatchObject({ status: 'failed', outcome: 'failed', attempts: 3 });
    expect(d.messageError).toBe('Not delivered: the customer endpoint did not answer (timeout after 3 attempts).');
    expect(decide(row(), fail('status', 'HTTP 500', 500), T0 + 20)).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: T0 + 3000 });
    expect(decide(row({ attempts: 2 }), fail('network', 'connection refused (connect ECONNREFUSED)'), T0 + 6000).messageError).toContain(
      'could not be reached (connection refused',
    );
  });

  it('a refusal is final with the error message', () => {
    expect(decide(row(), ok({ error: { code: 12, message: 'User blocked' } }), T0 + 50)).toMatchObject({
      status: 'failed',
      outcome: 'refused',
      attempts: 1,
      messageError: 'User blocked',
      lastError: 'refused: User blocked',
    });
  });

  it('event webhooks back off with jitter: first retry within a minute, the whole schedule longer than a day', () => {
    const ev = row({ kind: 'event_webhook', max_attempts: 8, deadline_at: null });
    expect(nextAttemptTime(ev, 1, T0, () => 0)).toBe(T0 + 4500);
    expect(nextAttemptTime(ev, 1, T0, () => 1)).toBe(T0 + 5500);
    let total = 0;
    for (let n = 1; n < 8; n++) total += nextAttemptTime(ev, n, 0, () => 0);
    expect(total).toBeGreaterThan(24 * 3600 * 1000);
    expect(decide({ ...ev, attempts: 7 }, fail('status', 'HTTP 503', 503), T0).status).toBe('failed');
  });

  it('a row past its deadline fails at once', () => {
    const d = deadlineDecision(row({ attempts: 1, last_error: 'HTTP 500' }), T0 + 9000);
    expect(d).toMatchObject({ status: 'failed', attempts: 1 });
    expect(d.messageError).toContain('did not answer in time');
  });
});

describe("an answer's Retry-After", () => {
  const busy = (retryAfterMs?: number): SendResult => ({ ...fail('status', 'HTTP 429', 429), ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
  const push = row({ kind: 'web_push', max_attempts: 6, deadline_at: T0 + 24 * 3600_000 });

  it('is read from delta-seconds or an HTTP date, only on 429 and 503', () => {
    expect(parseRetryAfter('120', T0)).toBe(120_000);
    expect(parseRetryAfter(new Date(T0 + 90_000).toUTCString(), T0)).toBe(90_000);
    expect(parseRetryAfter('soon', T0)).toBeUndefined();
    expect(parseRetryAfter(undefined, T0)).toBeUndefined();
    expect(judgeAnswer(429, '', undefined, '7').retryAfterMs).toBe(7000);
    expect(judgeAnswer(503, '', undefined, '7').retryAfterMs).toBe(7000);
    expect(judgeAnswer(500, '', undefined, '7').retryAfterMs).toBeUndefined();
  });

  it('delays the next attempt of a kind that honours it, no sooner than asked, capped', () => {
    const random = () => 0.5;
    expect(decide(push, busy(), T0, random).nextAttemptAt).toBe(T0 + 5000);
    expect(decide(push, busy(120_000), T0, random).nextAttemptAt).toBe(T0 + 120_000);
    // Shorter than the backoff: the backoff stands.
    expect(decide(push, busy(1000), T0, random).nextAttemptAt).toBe(T0 + 5000);
    expect(decide(push, busy(10 * 24 * 3600_000), T0, random).nextAttemptAt).toBe(T0 + RETRY_AFTER_CAP_MS);
  });

  it('leaves the schedule of kinds that do not honour it as it was', () => {
    const hook = row({ kind: 'event_webhook', max_attempts: 10, deadline_at: null });
    expect(decide(hook, busy(3600_000), T0, () => 0.5).nextAttemptAt).toBe(decide(hook, busy(), T0, () => 0.5).nextAttemptAt);
  });
});
