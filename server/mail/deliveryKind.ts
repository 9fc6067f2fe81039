/**
 * Mail as a delivery kind: `mail` rows go out through the process's SMTP
 * mailer (send.ts) instead of HTTP, judged and retried like the others. An
 * SMTP server that is down or answers 4xx is retried with backoff for about a
 * day; a 5xx answer is final (send.ts). Without SMTP_URL nothing is sent: a
 * row is `kept` (shown on the Mail page), and a redelivered one stays kept.
 */
import type { DeliveryKindModule, DeliveryPolicy, Transport } from '../webhooks/kind.js';
import { createMailer } from './send.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const policy: DeliveryPolicy = {
  maxAttempts: 8,
  delaysMs: [5 * SECOND, MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 12 * HOUR],
  jitter: 0.1,
  timeoutMs: 10 * SECOND,
  deadlineMs: null,
};

export const mailDeliveries: DeliveryKindModule<'mail'> = {
  kind: 'mail',
  policy,
  redeliverAs: (ctx) => (ctx.config.smtpUrl === null ? 'kept' : 'pending'),
  openTransport(ctx): Transport {
    const mailer = createMailer(ctx.config, policy.timeoutMs);
    return {
      send: async (row, timeoutMs) =>
        mailer ? mailer.send(row, timeoutMs) : { ok: false, excerpt: '', error: 'mail is not being sent: SMTP_URL is not set', failure: 'rejected' },
      close: () => mailer?.close(),
    };
  },
};
