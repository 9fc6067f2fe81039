/**
 * Standard Webhooks signature headers for every outgoing request: webhook-id
 * (the row's, the same on every retry), webhook-timestamp (seconds, per
 * attempt) and webhook-signature (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`
 * keyed with the account's `whsec_…` secret). The standardwebhooks package
 * reads the secret (and refuses a malformed one); the HMAC itself is node's
 * crypto, about 5 times faster than the package's JavaScript SHA-256 (one per
 * delivery attempt: issue 8). signer.test.ts checks both agree.
 */
import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

const SECRET_PREFIX = 'whsec_';

/** The HMAC key of a secret, after the package has accepted the secret (it throws on a malformed one). */
function keyOf(secret: string): Buffer {
  new Webhook(secret);
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export function signatureHeaders(secret: string, webhookId: string, body: string, now: number): SignatureHeaders {
  const seconds = Math.floor(now / 1000);
  const signature = crypto.createHmac('sha256', keyOf(secret)).update(`${webhookId}.${seconds}.${body}`, 'utf8').digest('base64');
  return { 'webhook-id': webhookId, 'webhook-timestamp': String(seconds), 'webhook-signature': `v1,${signature}` };
}
