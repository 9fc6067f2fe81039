/**
 * Mail as a delivery kind: `mail` rows go out through the process's SMTP
 * mailer (send.ts) instead of HTTP, judged and retried like the others. An
 * SMTP server that is down or answers 4xx is retried with backoff for about a
 * day; a 5xx answer is final (send.ts). Without SMTP_URL nothing is sent: a
 * row is `kept` (shown on the Mail page), and a redelivered one stays kept.
 * A password mail's link is made as it is sent (passwordLinkMail.ts).
 */
import type { DeliveryKindModule, DeliveryPolicy, Transport } from '../webhooks/kind.js';
import { withPasswordLink } from './passwordLinkMail.js';
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
      send: async (row, timeoutMs) => {
        if (!mailer) return { ok: false, excerpt: '', error: 'mail is not being sent: SMTP_URL is not set', failure: 'rejected' };
        // A password mail gets its link now, never stored (passwordLinkMail.ts).
        const ready = await withPasswordLink(ctx.db, ctx.config, row, ctx.clock());
        return 'failed' in ready ? ready.failed : mailer.send(ready.row, timeoutMs);
      },
      close: () => mailer?.close(),
    };
  },
};
