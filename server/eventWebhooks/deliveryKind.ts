/**
 * Event webhooks as a delivery kind (spec C, docs/EVENTS.md).
 * - Retries: a non-2xx answer (or none) is retried with exponential backoff
 *   and jitter for more than a day, 8 attempts (a Svix-like schedule).
 * - A 2xx answer reporting 'FAILURE' (answers.ts) is final: recorded failed
 *   with the answer, not retried.
 * - A delivery that fails its whole schedule is judged against the other
 *   deliveries to the same URL (giveUp.ts): this delivery only, its event
 *   type given up on, or the whole URL paused (pause.ts).
 * - A delivered chat_accepted answer fills the agent's panel (acceptedAnswer.ts).
 * - A redelivery sends its event type again if it was given up on.
 */
import type { DeliveryKindModule, DeliveryPolicy } from '../webhooks/kind.js';
import { applyAcceptedAnswer } from './acceptedAnswer.js';
import { onEventWebhookAnswer, reportedFailure, type AnswerHandler } from './answers.js';
import { clearGivenUp, settleExhausted } from './giveUp.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const policy: DeliveryPolicy = {
  maxAttempts: 8,
  delaysMs: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
  jitter: 0.1,
  timeoutMs: 10 * SECOND,
  deadlineMs: null,
};

/** The longest a whole schedule takes (every delay at its most jitter): other deliveries answered within it count. */
const SCHEDULE_MS = policy.delaysMs.reduce((sum, ms) => sum + ms, 0) * (1 + policy.jitter);

/** What a delivered answer does, per event name. */
const answerHandlers: Readonly<Record<string, AnswerHandler>> = { chat_accepted: applyAcceptedAnswer };

export const eventWebhookDeliveries: DeliveryKindModule<'event_webhook'> = {
  kind: 'event_webhook',
  policy,
  refusal: (row, result) => reportedFailure(row.event_type, result.body),
  settlesMore: (_row, d) => d.status === 'failed',
  settle: async (tx, row, d, now) => {
    if (d.attempts >= row.max_attempts) await settleExhausted(tx, row, d, now - SCHEDULE_MS, now);
  },
  delivered: (ctx, row, result) => onEventWebhookAnswer(ctx, row, result.body, answerHandlers),
  redelivered: async (tx, row) => {
    await clearGivenUp(tx, row.account_id, row.event_type);
  },
};
