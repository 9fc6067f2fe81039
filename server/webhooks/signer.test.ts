/** Standard Webhooks headers, checked with the standardwebhooks verifier. */
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '../domain/settings/settingsRow.js';
import { signatureHeaders } from './signer.js';

describe('signatureHeaders', () => {
  it('produces Standard Webhooks headers that the standardwebhooks verifier accepts', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ message: { type: 'text', text: 'Grüße — 👋' } });
    const now = Date.now();
    const headers = signatureHeaders(secret, 'msg_abc', body, now);
    expect(headers['webhook-id']).toBe('msg_abc');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('fails verification for another body or another secret', () => {
    const secret = newWebhookSecret();
    const headers = signatureHeaders(secret, 'msg_abc', '{"a":1}', Date.now());
    expect(() => new Webhook(secret).verify('{"a":2}', { ...headers })).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify('{"a":1}', { ...headers })).toThrow();
  });
});
