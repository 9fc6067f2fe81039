/**
 * Retry policies of outgoing requests, one per kind.
 * - chat_channel: the spec's 3 attempts 3 s apart; failed no later than 9 s after sending.
 * - event_webhook: exponential backoff with jitter for more than a day (Svix-like schedule).
 * - mail: SMTP down or a 4xx answer is retried with backoff for about a day; a 5xx answer is final (server/mail/).
 * Chat-channel attempts are anchored to the row's creation (0, 3, 6 s), each
 * with at most 2.5 s, so the last one is judged by 8.5 s and `failed` is
 * recorded before the spec's 9 s even when an attempt starts a little late.
 */
export type DeliveryKind = 'chat_channel' | 'event_webhook' | 'mail';

export interface DeliveryPolicy {
  maxAttempts: number;
  /** Delay before attempt n+1 (n = attempts made so far, from 1), without jitter. */
  delaysMs: number[];
  /** Fraction of the delay added or removed at random. */
  jitter: number;
  /** Per-attempt timeout. */
  timeoutMs: number;
  /** Give up (failed) this long after creation, whatever the attempts; null = no deadline. */
  deadlineMs: number | null;
  /** Schedule attempt n+1 from the first send (sum of delays) instead of from the end of attempt n. */
  fromCreation?: boolean;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const POLICIES: Record<DeliveryKind, DeliveryPolicy> = {
  chat_channel: { maxAttempts: 3, delaysMs: [3 * SECOND, 3 * SECOND], jitter: 0, timeoutMs: 2500, deadlineMs: 8500, fromCreation: true },
  event_webhook: {
    maxAttempts: 8,
    delaysMs: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
    jitter: 0.1,
    timeoutMs: 10 * SECOND,
    deadlineMs: null,
  },
  // Its timeout is the event webhook's: the claim's lock (queue.ts) uses that one for every kind but chat_channel.
  mail: {
    maxAttempts: 8,
    delaysMs: [5 * SECOND, MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 12 * HOUR],
    jitter: 0.1,
    timeoutMs: 10 * SECOND,
    deadlineMs: null,
  },
};

export function policyFor(kind: DeliveryKind): DeliveryPolicy {
  return POLICIES[kind];
}
