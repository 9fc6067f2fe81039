/**
 * How an attempt's answer is judged, and what the row becomes, for every kind:
 * 2xx (or a mail accepted by the SMTP server) is delivered unless the kind
 * reads the body as a refusal (final, not retried: a chat channel's error
 * object, an event webhook's 'FAILURE'); anything else is retried on the
 * kind's schedule (kinds.ts), a mail's 5xx answer (`rejected`) excepted.
 * A target refused by the SSRF guard is final for all: retrying cannot help.
 * So is a 2xx answer that cannot be understood (JSON nested too deep): the
 * receiver did answer, and would answer the same again; the attempt is
 * recorded as failed with that reason.
 */
import type { Delivery } from '../db/schema.js';
import type { Decision, Verdict } from './kind.js';
import { kindOf, policyFor } from './kinds.js';
import type { SendResult } from './send.js';

export type { Decision, Verdict };

export function judge(row: Delivery, result: SendResult): Verdict {
  if (result.failure === 'blocked') return { outcome: 'refused', error: result.error ?? 'The target address is refused.' };
  if (result.failure === 'rejected') return { outcome: 'refused', error: result.error ?? 'The receiver refused it for good.' };
  if (result.failure === 'answer') return { outcome: 'refused', error: result.error ?? 'answer not understood' };
  if (!result.ok) return { outcome: 'retry', error: result.error ?? 'failed' };
  const refusal = kindOf(row.kind).refusal?.(row, result) ?? null;
  return refusal === null ? { outcome: 'delivered' } : { outcome: 'refused', error: refusal };
}

/** When attempt `attempts + 1` is due, `attempts` having been made. */
export function nextAttemptTime(row: Delivery, attempts: number, now: number, random: () => number = Math.random): number {
  const policy = policyFor(row.kind);
  const delay = (n: number): number => policy.delaysMs[Math.min(n, policy.delaysMs.length - 1)] ?? 0;
  if (policy.fromCreation) {
    const anchor = row.deadline_at !== null && policy.deadlineMs !== null ? row.deadline_at - policy.deadlineMs : row.created_at;
    let due = anchor;
    for (let n = 0; n < attempts; n++) due += delay(n);
    return Math.max(due, now);
  }
  const base = delay(attempts - 1);
  const jittered = base * (1 + policy.jitter * (2 * random() - 1));
  return now + Math.round(jittered);
}

/** The next attempt no sooner than the answer's Retry-After asks, for a kind whose policy honours it (capped). */
function honourRetryAfter(row: Delivery, result: SendResult, next: number, now: number): number {
  const cap = policyFor(row.kind).retryAfterCapMs;
  if (cap === undefined || result.retryAfterMs === undefined) return next;
  return Math.max(next, now + Math.min(result.retryAfterMs, cap));
}

/** The agent-facing sentence of a chat-channel message that was never delivered. */
export function exhaustedSentence(result: SendResult | null, attempts: number): string {
  const times = `${attempts} attempt${attempts === 1 ? '' : 's'}`;
  if (!result) return 'Not delivered: the customer endpoint did not answer in time (the delivery deadline passed).';
  switch (result.failure) {
    case 'timeout':
      return `Not delivered: the customer endpoint did not answer (timeout after ${times}).`;
    case 'status':
      return `Not delivered: the customer endpoint answered ${result.error ?? `HTTP ${result.statusCode}`} (after ${times}).`;
    case 'network':
      return `Not delivered: the customer endpoint could not be reached (${(result.error ?? 'network error').split(' (')[0]}, after ${times}).`;
    default:
      return `Not delivered: ${result.error ?? 'the customer endpoint failed'} (after ${times}).`;
  }
}

/** What the row becomes after an attempt that got `result` at `now`. */
export function decide(row: Delivery, result: SendResult, now: number, random?: () => number): Decision {
  const attempts = row.attempts + 1;
  const verdict = judge(row, result);
  if (verdict.outcome === 'delivered') {
    return { status: 'delivered', outcome: 'delivered', attempts, nextAttemptAt: now, lastError: null, messageError: null };
  }
  if (verdict.outcome === 'refused') {
    const own = result.failure === 'blocked' || result.failure === 'answer';
    const lastError = own ? verdict.error : `refused: ${verdict.error}`;
    const messageError =
      result.failure === 'answer'
        ? `Not delivered: the customer endpoint's answer was not understood (${verdict.error.replace(/^answer not understood: /, '')}).`
        : own
          ? `Not delivered: ${verdict.error}`
          : verdict.error;
    return { status: 'failed', outcome: 'refused', attempts, nextAttemptAt: now, lastError, messageError };
  }
  const next = honourRetryAfter(row, result, nextAttemptTime(row, attempts, now, random), now);
  const exhausted = attempts >= row.max_attempts || (row.deadline_at !== null && next >= row.deadline_at);
  if (exhausted) {
    return { status: 'failed', outcome: 'failed', attempts, nextAttemptAt: now, lastError: verdict.error, messageError: exhaustedSentence(result, attempts) };
  }
  return { status: 'pending', outcome: 'retry', attempts, nextAttemptAt: next, lastError: verdict.error, messageError: null };
}

/** Failed now, final, for `error` (an attempt that could not be judged). */
export function failedDecision(row: Delivery, error: string, now: number): Decision {
  return { status: 'failed', outcome: 'failed', attempts: row.attempts + 1, nextAttemptAt: now, lastError: error, messageError: `Not delivered: ${error}.` };
}

/** A row found pending past its deadline (the process was down, or an attempt started too late): failed at once. */
export function deadlineDecision(row: Delivery, now: number): Decision {
  const lastError = row.last_error ? `${row.last_error}; delivery deadline passed` : 'delivery deadline passed before an attempt could be made';
  const messageError =
    row.attempts > 0
      ? `Not delivered: the customer endpoint did not answer in time (${row.attempts} attempt${row.attempts === 1 ? '' : 's'}, last: ${row.last_error ?? 'no answer'}).`
      : exhaustedSentence(null, 0);
  return { status: 'failed', outcome: 'failed', attempts: row.attempts, nextAttemptAt: now, lastError, messageError };
}
