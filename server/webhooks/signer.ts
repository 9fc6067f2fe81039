/**
 * Standard Webhooks signature headers for every outgoing request: webhook-id
 * (the row's, the same on every retry), webhook-timestamp (seconds, per
 * attempt) and webhook-signature (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`
 * keyed with the account's `whsec_…` secret), computed by the standardwebhooks package.
 */
import { Webhook } from 'standardwebhooks';

export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signatureHeaders(secret: string, webhookId: string, body: string, now: number): SignatureHeaders {
  const seconds = Math.floor(now / 1000);
  const signature = new Webhook(secret).sign(webhookId, new Date(seconds * 1000), body);
  return { 'webhook-id': webhookId, 'webhook-timestamp': String(seconds), 'webhook-signature': signature };
}
