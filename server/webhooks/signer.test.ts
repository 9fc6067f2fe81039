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

  it('signs exactly as the standardwebhooks package does (secrets with and without the whsec_ prefix, any body)', () => {
    const bodies = ['', '{"a":1}', JSON.stringify({ text: 'Grüße — 👋 \u0000 "quoted" \\ ' + 'x'.repeat(3000) })];
    for (let i = 0; i < 20; i++) {
      const secret = newWebhookSecret();
      for (const s of [secret, secret.replace(/^whsec_/, '')]) {
        for (const body of bodies) {
          const now = 1_700_000_000_123 + i * 7919;
          const ours = signatureHeaders(s, `msg_${i}`, body, now);
          expect(ours['webhook-signature']).toBe(new Webhook(s).sign(`msg_${i}`, new Date(Math.floor(now / 1000) * 1000), body));
        }
      }
    }
  });

  it('refuses a malformed or empty secret, as the package does', () => {
    for (const bad of ['whsec_not base64!', 'whsec_', '']) {
      expect(() => signatureHeaders(bad, 'msg_abc', '{}', Date.now())).toThrow();
    }
  });

  it('fails verification for another body or another secret', () => {
    const secret = newWebhookSecret();
    const headers = signatureHeaders(secret, 'msg_abc', '{"a":1}', Date.now());
    expect(() => new Webhook(secret).verify('{"a":2}', { ...headers })).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify('{"a":1}', { ...headers })).toThrow();
  });
});
