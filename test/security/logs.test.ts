/**
 * Secrets stay out of the logs: the request line Fastify logs for every
 * request names the URL, and URLs carry secrets — the stream's and the
 * visitor socket's `?token=`, the chat channel's random string in the path.
 * They are logged as [redacted]; so are Authorization headers and bodies
 * (never logged at all).
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, textMessage } from '../helpers/chatChannel.js';
import { listen, StreamClient } from '../helpers/realtime.js';
import { bearer, type TestApp } from '../helpers/testApp.js';
import { createWidget, startSession } from '../helpers/widget.js';
import { appWithRoutes } from './helpers.js';

describe('logs', () => {
  const lines: string[] = [];
  let t: TestApp;

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    ({ t } = await appWithRoutes({ logger: { level: 'debug', stream } }));
  });
  afterAll(() => t.close());

  it('never write a token, a visitor token, a channel secret or a password', async () => {
    const channel = await createChatChannel(t);
    const [, , secret, publicId] = channel.path.split('/');
    const widget = await createWidget(t);
    const visitor = (await startSession(t, widget.widget_id)).visitor_token;
    const agentToken = t.adminToken;
    const password = 'a-password-in-a-body-1';
    const start = lines.length;

    await t.app.inject({ method: 'GET', url: `/api/v1/stream?token=${encodeURIComponent(agentToken)}&cursor=0` });
    await t.app.inject({ method: 'GET', url: `/api/v1/stream?cursor=0&TOKEN=${encodeURIComponent(agentToken)}` });
    await t.app.inject({ method: 'GET', url: `/api/v1/stream?cursor=0&%74oken=${encodeURIComponent(agentToken)}` });
    await t.app.inject({ method: 'GET', url: `/api/v1/stream?cursor=0&%74%6F%6B%65%6E=${encodeURIComponent(agentToken)}` });
    await t.app.inject({ method: 'GET', url: `/api/v1/stream?cursor=0&access%5Ftoken=${encodeURIComponent(agentToken)}` });
    await t.app.inject({ method: 'GET', url: `/widget/ws/${widget.widget_id}?token=${encodeURIComponent(visitor)}` });
    await t.app.inject({ method: 'GET', url: `/api/v1/me?access_token=${encodeURIComponent(agentToken)}`, headers: bearer(agentToken) });
    await t.app.inject({ method: 'POST', url: `/wh/${secret}/${publicId}`, payload: JSON.stringify(textMessage('logged', 'hi')) });
    await t.app.inject({ method: 'GET', url: `/wh/${secret}/${publicId}/status` });
    await t.app.inject({ method: 'GET', url: `/wh/${secret}x/${publicId}/status` });
    await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'admin@example.com', password } });
    await t.app.inject({ method: 'POST', url: `/widget/api/${widget.widget_id}/messages`, headers: bearer(visitor), payload: { type: 'text', text: 'x' } });

    const logged = lines.slice(start);
    expect(logged.length).toBeGreaterThan(10);
    const text = logged.join('\n');
    for (const [what, value] of [
      ['agent token', agentToken],
      ['visitor token', visitor],
      ['channel secret', secret],
      ['password', password],
    ] as const) {
      expect(text.includes(value), `${what} in the log`).toBe(false);
      expect(text.includes(encodeURIComponent(value)), `${what} (encoded) in the log`).toBe(false);
    }
    expect(text).toContain('/wh/[redacted]/');
    expect(text).toContain('token=[redacted]');
  });

  it('redact a token whose query name the app reads as token once NULs are removed (?token%00=)', async () => {
    const widget = await createWidget(t);
    const visitor = (await startSession(t, widget.widget_id)).visitor_token;
    const agentToken = t.adminToken;
    const base = await listen(t.app);
    const start = lines.length;

    // The app strips NULs from query keys before a route reads them: these really sign in.
    const clients = [
      await StreamClient.ready(`${base}/api/v1/stream?token%00=${encodeURIComponent(agentToken)}&cursor=0`),
      await StreamClient.ready(`${base}/api/v1/stream?cursor=0&%00t%00o%00k%00e%00n%00=${encodeURIComponent(agentToken)}`),
      await StreamClient.ready(`${base}/widget/ws/${widget.widget_id}?to%00ken=${encodeURIComponent(visitor)}`),
    ];
    for (const c of clients) await c.close();
    // Read loosely: an escaped name with a NUL, another control character, a space.
    await t.app.inject({ method: 'GET', url: `/api/v1/stream?%74oken%00=${encodeURIComponent(agentToken)}` });
    await t.app.inject({ method: 'GET', url: `/api/v1/stream?token%01=${encodeURIComponent(agentToken)}` });
    await t.app.inject({ method: 'GET', url: `/api/v1/stream?%20access_token%00=${encodeURIComponent(agentToken)}` });

    const text = lines.slice(start).join('\n');
    expect(text).toContain('token%00=[redacted]');
    expect(text).toContain('to%00ken=[redacted]');
    for (const [what, value] of [
      ['agent token', agentToken],
      ['visitor token', visitor],
    ] as const) {
      expect(text.includes(value), `${what} in the log`).toBe(false);
      expect(text.includes(encodeURIComponent(value)), `${what} (encoded) in the log`).toBe(false);
    }
  });
});
