/**
 * enqueueDelivery(): writes an outgoing request as a `deliveries` row inside
 * the caller's transaction (the outbox for external sends). The body is
 * serialized once here, so every retry sends the same bytes with the same
 * webhook-id. The deliverer (deliverer.ts) picks the row up after commit.
 */
import crypto from 'node:crypto';
import type { Tx } from '../db/database.js';
import { noteDeliveryEnqueued } from '../events/outbox.js';
import { bool } from '../lib/json.js';
import type { DeliveryPolicy } from './kind.js';
import { policyFor, type DeliveryKind } from './kinds.js';

export interface NewDelivery {
  accountId: number;
  kind: DeliveryKind;
  /** Spec event name (chat_accepted …) or the chat-channel kind (message, typein, typeout). */
  eventType: string;
  url: string;
  body: unknown;
  chatId?: number | null;
  messageId?: number | null;
  eventId?: number | null;
  /** The visitor it is about when no chat says so (an offline message, a call): erasure finds it (domain/erasure/). */
  visitorId?: number | null;
  chunked?: boolean;
  /** Held, not sent, until the account's event webhooks are resumed. */
  paused?: boolean;
  /** A mail composed while no SMTP server is configured: shown, never sent (server/mail/). */
  kept?: boolean;
}

/**
 * The columns of a delivery that starts its attempts now (enqueued, or
 * redelivered: log.ts): none made, the kind's policy's attempts and deadline,
 * no claim, no result yet.
 */
export function newCycle(policy: DeliveryPolicy, now: number) {
  return {
    attempts: 0,
    max_attempts: policy.maxAttempts,
    next_attempt_at: now,
    deadline_at: policy.deadlineMs === null ? null : now + policy.deadlineMs,
    // An attempt in flight loses its claim: its result is dropped, the new cycle wins.
    locked_until: null,
    last_status_code: null,
    last_response: null,
    last_error: null,
    delivered_at: null,
  };
}

export async function enqueueDelivery(tx: Tx, d: NewDelivery, now: number): Promise<{ id: number; webhookId: string }> {
  const webhookId = `msg_${crypto.randomBytes(16).toString('base64url')}`;
  const row = await tx
    .insertInto('deliveries')
    .values({
      account_id: d.accountId,
      kind: d.kind,
      event_type: d.eventType,
      event_id: d.eventId ?? null,
      chat_id: d.chatId ?? null,
      message_id: d.messageId ?? null,
      url: d.url,
      body: JSON.stringify(d.body),
      webhook_id: webhookId,
      chunked: bool(d.chunked ?? false),
      status: d.kept ? 'kept' : d.paused ? 'paused' : 'pending',
      ...newCycle(policyFor(d.kind), now),
      created_at: now,
      updated_at: now,
      visitor_id: d.visitorId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  noteDeliveryEnqueued(tx);
  return { id: row.id, webhookId };
}
