/**
 * Web Push as a delivery kind (RFC 8030, payload encrypted per RFC 8291,
 * signed per RFC 8292): a `web_push` row is one notification for one
 * subscription, written by the push subscriber (subscriber.ts) in the relay's
 * transaction. Its body is the plaintext job ({subscription_id, payload, ttl,
 * urgency, topic}); each attempt encrypts the payload afresh for the
 * subscription's keys and signs a VAPID JWT with the deployment's key
 * (vapid.ts), through the `web-push` package, and sends the bytes with the
 * deliverer's HTTP client (send.ts: the SSRF guard, one timeout, the answer
 * read and judged).
 *
 * The push service's answers: 2xx delivered; 404 or 410, the subscription is
 * gone (the browser unsubscribed or expired it): the row fails and the
 * subscription is deleted in the attempt's transaction; 429 and 5xx are
 * retried with backoff, no sooner than a Retry-After (capped at
 * RETRY_AFTER_CAP_MS); any other 4xx is final (the push service will answer
 * the same again).
 */
import webpush from 'web-push';
import type { AppContext } from '../context.js';
import type { Delivery } from '../db/schema.js';
import { parseJson } from '../lib/json.js';
import type { DeliveryKindModule, DeliveryPolicy, Transport } from '../webhooks/kind.js';
import { sendOnce, type SendResult } from '../webhooks/send.js';
import { vapidKeys, vapidSubject, type VapidKeys } from './vapid.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_AFTER_CAP_MS = 30 * MINUTE;
/** The start of the error recorded when the push service says the subscription is gone. */
export const GONE = 'the push service says the subscription is gone';

const policy: DeliveryPolicy = {
  maxAttempts: 6,
  delaysMs: [5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE],
  jitter: 0.1,
  timeoutMs: 10 * SECOND,
  // A notification older than its longest TTL is not worth sending.
  deadlineMs: 24 * HOUR,
  retryAfterCapMs: RETRY_AFTER_CAP_MS,
};

export type Urgency = 'very-low' | 'low' | 'normal' | 'high';

/** What a `web_push` row's body holds. */
export interface PushJob {
  subscription_id: number;
  /** The notification itself, as the service worker reads it (web/agent/public/sw.js). */
  payload: PushPayload;
  /** Seconds the push service keeps it for a device that is offline. */
  ttl: number;
  urgency: Urgency;
  /** One per chat (or call, or offline message): a device shows the latest push of a topic, not every one. */
  topic: string;
}

/** No more than the notification needs: what happened, the visitor's name, the first 100 characters, where to open. */
export interface PushPayload {
  kind: 'new_chat' | 'offered' | 'message' | 'transfer' | 'callback' | 'offline_message';
  title: string;
  body: string;
  /** The app's page to open on click (`/chats/12`, `/calls?call=3`, `/offline`). */
  url: string;
  chat_id: number | null;
  /** The notification's tag: a newer one of the same chat replaces it on screen. */
  tag: string;
}

const rejected = (error: string, base: Partial<SendResult> = {}): SendResult => ({ excerpt: '', ...base, ok: false, error, failure: 'rejected' });

function lowerCaseHeaders(headers: Record<string, string | number>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
}

function openPushTransport(ctx: AppContext): Transport {
  let keys: VapidKeys | null = null;
  const subject = vapidSubject(ctx.config);
  return {
    async send(row: Delivery, timeoutMs: number): Promise<SendResult> {
      const job = parseJson<PushJob | null>(row.body, null);
      if (!job || typeof job.subscription_id !== 'number') return rejected('the stored push notification cannot be read');
      const sub = await ctx.db.selectFrom('push_subscriptions').selectAll().where('id', '=', job.subscription_id).executeTakeFirst();
      if (!sub || sub.endpoint !== row.url) return rejected('the device was removed before it could be notified');
      keys ??= await vapidKeys(ctx.db, ctx.clock());
      let details: ReturnType<typeof webpush.generateRequestDetails>;
      try {
        details = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, JSON.stringify(job.payload), {
          vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: job.ttl,
          urgency: job.urgency,
          topic: job.topic,
          contentEncoding: 'aes128gcm',
        });
      } catch (err) {
        return rejected(`the notification could not be encrypted for this device: ${(err as Error)?.message ?? String(err)}`);
      }
      const result = await sendOnce({
        url: details.endpoint,
        body: details.body ?? new Uint8Array(),
        headers: lowerCaseHeaders(details.headers),
        chunked: false,
        timeoutMs,
        allowPrivate: ctx.config.outboundAllowPrivate,
      });
      const status = result.statusCode ?? 0;
      if (status === 404 || status === 410) return rejected(`${GONE} (HTTP ${status})`, result);
      if (!result.ok && result.failure === 'status' && status >= 400 && status < 500 && status !== 408 && status !== 429)
        return rejected(`the push service refused the notification (HTTP ${status})`, result);
      if (result.ok) await ctx.db.updateTable('push_subscriptions').set({ last_pushed_at: ctx.clock() }).where('id', '=', sub.id).execute();
      return result;
    },
    close() {},
  };
}

export const webPushDeliveries: DeliveryKindModule<'web_push'> = {
  kind: 'web_push',
  policy,
  openTransport: openPushTransport,
  settlesMore: (_row, d) => d.status === 'failed' && (d.lastError ?? '').includes(GONE),
  async settle(tx, row, d) {
    if (d.status !== 'failed' || !(d.lastError ?? '').includes(GONE)) return;
    const job = parseJson<PushJob | null>(row.body, null);
    if (!job) return;
    // Gone for good at the push service: the device is no longer notified (nor listed in Profile).
    await tx.deleteFrom('push_subscriptions').where('id', '=', job.subscription_id).where('endpoint', '=', row.url).execute();
  },
};
