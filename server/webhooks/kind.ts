/**
 * What a delivery kind is, as the queue and the deliverer see it: its retry
 * policy, how it reads a 2xx answer (a refusal in the body), what settling an
 * attempt changes besides the row (a chat-channel message's status, an event
 * webhook's pause), what a delivered answer does (the chat_accepted answer),
 * what a redelivery resets, and how it is sent when not over HTTP (mail).
 * The kinds themselves live with what they serve (domain/chatChannel/,
 * eventWebhooks/, mail/); kinds.ts is their one list. Types only: nothing
 * here imports a kind.
 */
import type { AppContext } from '../context.js';
import type { Tx } from '../db/database.js';
import type { Delivery } from '../db/schema.js';
import type { SendResult } from './send.js';

export type DeliveryKind = Delivery['kind'];

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
  /** When set, an answer's Retry-After (429, 503) delays the next attempt at least that long, this long at most. */
  retryAfterCapMs?: number;
}

export type Verdict = { outcome: 'delivered' } | { outcome: 'refused'; error: string } | { outcome: 'retry'; error: string };

export interface Decision {
  status: 'pending' | 'delivered' | 'failed';
  /** Metric label: delivered, refused, retry (will try again) or failed (gave up). */
  outcome: 'delivered' | 'refused' | 'retry' | 'failed';
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  /** What the agent sees on a failed chat-channel message. */
  messageError: string | null;
}

/** How a kind that is not sent over HTTP sends a row (mail: SMTP). Never throws: every outcome is a result. */
export interface Transport {
  send(row: Delivery, timeoutMs: number): Promise<SendResult>;
  close(): void;
}

export interface DeliveryKindModule<K extends DeliveryKind = DeliveryKind> {
  readonly kind: K;
  readonly policy: DeliveryPolicy;
  /**
   * A 2xx answer this kind reads as refused for good (recorded failed, not
   * retried): the sentence to record, or null when the answer is not one.
   */
  readonly refusal?: (row: Delivery, result: SendResult) => string | null;
  /**
   * Whether recording decision `d` changes more than the row. When true, the
   * attempt is recorded in a transaction of its own with settle(); when false
   * it is one UPDATE, possibly batched with others.
   */
  readonly settlesMore?: (row: Delivery, d: Decision) => boolean;
  /** Runs in the attempt's transaction, after the row was written (`row` is the updated row). */
  readonly settle?: (tx: Tx, row: Delivery, d: Decision, now: number) => Promise<void>;
  /** After a delivered attempt is recorded, outside its transaction: what the answer does. Must not throw. */
  readonly delivered?: (ctx: AppContext, row: Delivery, result: SendResult) => Promise<void>;
  /** What a redelivered row becomes: pending (the default), or kept when it cannot be sent at all (mail without SMTP_URL). */
  readonly redeliverAs?: (ctx: AppContext) => 'pending' | 'kept';
  /** Runs in a redelivery's transaction, after the row was reset. */
  readonly redelivered?: (tx: Tx, row: Delivery, now: number) => Promise<void>;
  /** The kind's own transport, opened once per deliverer; absent: sent over HTTP, signed. */
  readonly openTransport?: (ctx: AppContext) => Transport;
}
