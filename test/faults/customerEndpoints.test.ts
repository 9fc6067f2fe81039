/**
 * Customer endpoints that misbehave (docs/CHAT-CHANNEL.md), against a real Parley
 * process: a TCP reset mid-request and mid-answer, answers that trickle in one
 * byte every 100 ms, a 50 MB answer body, an endless header section, redirects
 * to a private address and to a public-looking one. The spec's timing holds
 * (3 attempts 3 s apart, `failed` no later than 9 s after sending, delivered
 * when a later attempt succeeds, same webhook-id), the excerpt kept is
 * bounded, redirects are never followed, and the process's memory stays flat
 * across many such deliveries (heap after a forced GC, and RSS, read from the
 * process itself through a preloaded probe). What server/webhooks/*.test.ts
 * covers already (500, plain timeout, refused connection, refusal, relative
 * redirect) is not repeated here.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStore, type TestStore } from '../helpers/testApp.js';
import { assertBuilt, repoRoot } from '../process/serverProcess.js';
import { createChannel, deliveries, expectCall, login, openChat, startParley, startReceiver, waitFor, type DeliveryDto, type Parley } from './harness.js';
import { startMisbehaving, type Behaviour, type MisbehavingEndpoint } from './misbehaving.js';

const MB = 1024 * 1024;
const HUGE = 50 * MB;
/** The excerpt of an answer kept in the delivery log (server/webhooks/send.ts EXCERPT_CHARS). */
const EXCERPT_CHARS = 2000;

interface Case {
  name: string;
  script: (attempt: number) => Behaviour;
  outcome: 'delivered' | 'failed';
  attempts: number;
  check?: (d: DeliveryDto, ep: MisbehavingEndpoint) => void;
}

interface Sent {
  c: Case;
  ep: MisbehavingEndpoint;
  chatId: number;
  messageId: number;
}

interface Message {
  id: number;
  delivery?: { status: string; error?: string };
}

const always = (b: Behaviour) => (): Behaviour => b;

describe('misbehaving customer endpoints (docs/CHAT-CHANNEL.md)', () => {
  let store: TestStore;
  let app: Parley;
  let token: string;
  const endpoints: MisbehavingEndpoint[] = [];

  const endpoint = async (script: (i: number) => Behaviour): Promise<MisbehavingEndpoint> => {
    const ep = await startMisbehaving(script);
    endpoints.push(ep);
    return ep;
  };

  /** One channel and one chat per endpoint; returns the chat id. */
  const chatOn = async (ep: MisbehavingEndpoint, name: string): Promise<number> => {
    const channel = await createChannel(app.base, token, `${ep.url}/hook`, name);
    return openChat(app.base, token, channel, `visitor-${name.replace(/\W+/g, '-')}`);
  };

  const send = async (chatId: number, text: string): Promise<number> =>
    (await expectCall<{ id: number }>(201, app.base, 'POST', `/api/v1/chats/${chatId}/messages`, { type: 'text', text }, token)).id;

  /** Waits until every listed message's delivery is delivered or failed; returns the rows by message id. */
  const settled = async (messageIds: number[], timeoutMs: number): Promise<Map<number, DeliveryDto>> =>
    waitFor(
      `${messageIds.length} deliveries to settle`,
      async () => {
        const rows = new Map((await deliveries(app.base, token)).filter((d) => d.message_id !== null).map((d) => [d.message_id as number, d]));
        return messageIds.every((id) => ['delivered', 'failed'].includes(rows.get(id)?.status ?? '')) ? rows : null;
      },
      timeoutMs,
      250,
    );

  beforeAll(async () => {
    assertBuilt();
    store = freshStore();
    app = await startParley(store.env, { nodeArgs: ['--expose-gc', '--import', pathToFileURL(path.join(repoRoot, 'test/faults/memoryProbe.mjs')).href] });
    token = await login(app.base);
  });

  afterAll(async () => {
    await app?.kill();
    await Promise.all(endpoints.map((e) => e.close()));
    await store?.cleanup();
  });

  it('keeps the 3 × 3 s / 9 s rule, the same webhook-id and a bounded excerpt, and never follows a redirect', { timeout: 60_000 }, async () => {
    const trap = await startReceiver();
    try {
      const failedWith = (pattern: RegExp) => (d: DeliveryDto) => expect(d.last_error ?? '').toMatch(pattern);
      const cases: Case[] = [
        {
          name: 'reset mid-request',
          script: always({ kind: 'reset-on-headers' }),
          outcome: 'failed',
          attempts: 3,
          check: failedWith(/reset|socket hang up|closed/i),
        },
        {
          name: 'reset mid-answer',
          script: always({ kind: 'reset-mid-response' }),
          outcome: 'failed',
          attempts: 3,
          check: failedWith(/reset|closed|aborted/i),
        },
        { name: 'trickled answer', script: always({ kind: 'trickle-status' }), outcome: 'failed', attempts: 3, check: failedWith(/timeout/) },
        { name: 'trickled body', script: always({ kind: 'trickle-body' }), outcome: 'failed', attempts: 3, check: failedWith(/timeout/) },
        {
          name: '50 MB error answer',
          script: always({ kind: 'huge', status: 500, bytes: HUGE }),
          outcome: 'failed',
          attempts: 3,
          check: (d, ep) => {
            expect(d).toMatchObject({ last_status_code: 500, last_error: 'HTTP 500' });
            expect(d.last_response).toBe('x'.repeat(EXCERPT_CHARS));
            for (const a of ep.attempts) expect(a.written).toBeLessThan(8 * MB);
          },
        },
        {
          name: '50 MB success answer',
          script: always({ kind: 'huge', status: 200, bytes: HUGE }),
          outcome: 'delivered',
          attempts: 1,
          check: (d, ep) => {
            expect(d.last_response?.length).toBe(EXCERPT_CHARS);
            expect(ep.attempts[0].written).toBeLessThan(8 * MB);
          },
        },
        { name: 'endless headers', script: always({ kind: 'huge-headers' }), outcome: 'failed', attempts: 3, check: failedWith(/header|overflow|parse/i) },
        {
          name: 'redirect to a private address',
          script: always({ kind: 'redirect', status: 307, location: `${trap.url}/internal-admin` }),
          outcome: 'failed',
          attempts: 3,
          check: (d) => {
            expect(d.last_status_code).toBe(307);
            expect(d.last_error).toContain(`redirect to ${trap.url}/internal-admin not followed`);
          },
        },
        {
          name: 'redirect to a public-looking address',
          // A reserved name (RFC 2606): nothing would answer there even if it were followed.
          script: always({ kind: 'redirect', status: 301, location: 'https://hooks.example.com/parley' }),
          outcome: 'failed',
          attempts: 3,
          check: (d) => expect(d.last_error).toContain('redirect to https://hooks.example.com/parley not followed'),
        },
        {
          name: 'reset, trickle, then ok',
          script: (i) => [{ kind: 'reset-on-headers' } as const, { kind: 'trickle-body' } as const][i] ?? { kind: 'ok' },
          outcome: 'delivered',
          attempts: 3,
        },
        {
          name: '50 MB error, then ok',
          script: (i) => (i === 0 ? { kind: 'huge', status: 502, bytes: HUGE } : { kind: 'ok' }),
          outcome: 'delivered',
          attempts: 2,
        },
      ];
      const ready = await Promise.all(
        cases.map(async (c) => {
          const ep = await endpoint(c.script);
          return { c, ep, chatId: await chatOn(ep, c.name) };
        }),
      );
      // All sent at once: the cases run side by side, as deliveries of one busy process would.
      const sent: Sent[] = await Promise.all(ready.map(async (r) => ({ ...r, messageId: await send(r.chatId, `to ${r.c.name}`) })));
      const rows = await settled(
        sent.map((s) => s.messageId),
        20_000,
      );

      const report: string[] = [];
      for (const { c, ep, chatId, messageId } of sent) {
        const d = rows.get(messageId)!;
        const label = `${c.name}: ${JSON.stringify({ status: d.status, attempts: d.attempts, error: d.last_error })}`;
        expect(d.status, label).toBe(c.outcome);
        expect(d.attempts, label).toBe(c.attempts);
        expect(ep.attempts, label).toHaveLength(c.attempts);
        // The spec's rule: attempts 3 s apart, the verdict no later than 9 s after sending.
        const gaps = ep.attempts.slice(1).map((a, i) => a.at - ep.attempts[i].at);
        for (const gap of gaps) {
          expect(gap, `${label} gaps ${gaps.join(', ')}`).toBeGreaterThanOrEqual(2500);
          expect(gap, `${label} gaps ${gaps.join(', ')}`).toBeLessThanOrEqual(4000);
        }
        expect(d.updated_at - d.created_at, label).toBeLessThanOrEqual(9000);
        // Every attempt carries the row's webhook-id: a retry is the same message, never a new one.
        expect(new Set(ep.attempts.map((a) => a.webhookId)), label).toEqual(new Set([d.webhook_id]));
        expect(d.last_response?.length ?? 0, label).toBeLessThanOrEqual(EXCERPT_CHARS);
        c.check?.(d, ep);
        const chat = await expectCall<{ messages: Message[] }>(200, app.base, 'GET', `/api/v1/chats/${chatId}`, undefined, token);
        const message = chat.messages.find((m) => m.id === messageId);
        expect(message?.delivery?.status, label).toBe(c.outcome);
        if (c.outcome === 'failed') expect(message?.delivery?.error, label).toMatch(/^Not delivered/);
        report.push(
          `${c.name}: ${d.status} after ${d.attempts} attempt(s), gaps ${gaps.join('/') || '-'} ms, settled ${d.updated_at - d.created_at} ms after sending, bytes written to its socket ${ep.attempts.map((a) => a.written).join('/')}`,
        );
      }
      expect(trap.requests).toHaveLength(0);
      console.log(`[faults] misbehaving endpoints:\n  ${report.join('\n  ')}`);
    } finally {
      await trap.close();
    }
  });

  it('keeps its memory flat across many huge, trickling, resetting and endless answers', { timeout: 120_000 }, async () => {
    const mix: Array<{ name: string; behaviour: Behaviour; perRound: number }> = [
      { name: 'huge 200', behaviour: { kind: 'huge', status: 200, bytes: HUGE }, perRound: 40 },
      { name: 'huge 500', behaviour: { kind: 'huge', status: 500, bytes: HUGE }, perRound: 8 },
      { name: 'trickle', behaviour: { kind: 'trickle-body' }, perRound: 6 },
      { name: 'reset', behaviour: { kind: 'reset-mid-response' }, perRound: 6 },
      { name: 'headers', behaviour: { kind: 'huge-headers' }, perRound: 4 },
    ];
    const targets = await Promise.all(
      mix.map(async (m) => {
        const ep = await endpoint(always(m.behaviour));
        return { ...m, ep, chatId: await chatOn(ep, `memory ${m.name}`) };
      }),
    );
    let n = 0;
    const round = async (): Promise<void> => {
      const ids: number[] = [];
      for (const t of targets) for (let i = 0; i < t.perRound; i++) ids.push(await send(t.chatId, `memory ${n++}`));
      await settled(ids, 30_000);
    };
    const probe = async (): Promise<{ rss: number; heapUsed: number }> => {
      const count = (): number => (app.output().match(/MEMPROBE /g) ?? []).length;
      const before = count();
      process.kill(app.pid, 'SIGUSR2');
      await waitFor('the memory probe', () => count() > before, 5000, 20);
      const lines = app.output().match(/MEMPROBE (\{[^\n]*\})/g) ?? [];
      return JSON.parse(lines[lines.length - 1].slice('MEMPROBE '.length)) as { rss: number; heapUsed: number };
    };

    await round();
    const before = await probe();
    const rounds = 2;
    for (let i = 0; i < rounds; i++) await round();
    const after = await probe();

    const hugeAnswers = targets.reduce((sum, t) => sum + (t.behaviour.kind === 'huge' ? t.ep.attempts.length : 0), 0);
    const offered = hugeAnswers * HUGE;
    const written = targets.flatMap((t) => t.ep.attempts.map((a) => a.written));
    const taken = written.reduce((s, w) => s + w, 0);
    console.log(
      `[faults] memory: ${n} messages, ${targets.reduce((s, t) => s + t.ep.attempts.length, 0)} attempts, ${hugeAnswers} answers of 50 MB offered (${(offered / MB).toFixed(0)} MB), ` +
        `${(taken / MB).toFixed(1)} MB handed to sockets (at most ${(Math.max(...written) / MB).toFixed(1)} MB per answer, mostly kernel buffers); heapUsed ${(before.heapUsed / MB).toFixed(1)} → ${(after.heapUsed / MB).toFixed(1)} MB, ` +
        `rss ${(before.rss / MB).toFixed(1)} → ${(after.rss / MB).toFixed(1)} MB`,
    );
    expect(app.alive()).toBe(true);
    // Generous bounds: one 50 MB answer kept anywhere would break both.
    expect(after.heapUsed - before.heapUsed).toBeLessThan(24 * MB);
    expect(after.rss - before.rss).toBeLessThan(100 * MB);
    // Every answer was cut off: a reader that went on would have taken all 50 MB.
    expect(Math.max(...written)).toBeLessThan(8 * MB);
  });
});
