/**
 * Property test of the two sockets, /widget/ws/<widget_id> and /api/v1/stream:
 * connections with random query strings (good and bad tokens and cursors)
 * send random text and binary frames — junk, JSON-ish, invalid UTF-8, frames
 * over the 64 KiB limit, pings — and close or vanish. The server never
 * crashes, never closes a socket with 1011 (internal error), keeps answering
 * HTTP, and the bystanders (a visitor socket and an agent stream opened first)
 * stay open and keep receiving their frames. FUZZ_RUNS raises the count.
 */
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, StreamClient, streamUrl } from '../helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../helpers/testApp.js';
import { agentReply, createWidget, sendText, startSession, visitorSocketUrl, type TestWidget } from '../helpers/widget.js';
import { encodeSafely, hostileString, runs, timeoutFor } from './support.js';

const RUNS = runs(150);

type FrameSpec =
  | { kind: 'text'; text: string }
  | { kind: 'binary'; bytes: Uint8Array }
  | { kind: 'big'; size: number; binary: boolean }
  | { kind: 'ping' }
  | { kind: 'badUtf8' };

const jsonish = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc
    .record(
      { type: fc.constantFrom('ping', 'pong', 'ready', 'message', 'typing', 'subscribe', '__proto__'), data: fc.anything({ maxDepth: 2 }) },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v) ?? '{}'),
  fc.constantFrom('{"type":"ping"}', '{"type": "ping", "x": "' + 'y'.repeat(90) + '"}', '{"type":"ping"', 'null', '[]', '"ping"'),
);
const frame: fc.Arbitrary<FrameSpec> = fc.oneof(
  { arbitrary: fc.oneof(jsonish, hostileString).map((text): FrameSpec => ({ kind: 'text', text })), weight: 6 },
  { arbitrary: fc.uint8Array({ maxLength: 256 }).map((bytes): FrameSpec => ({ kind: 'binary', bytes })), weight: 3 },
  {
    arbitrary: fc
      .record({ size: fc.constantFrom(60 * 1024, 64 * 1024 + 1, 200 * 1024), binary: fc.boolean() })
      .map(({ size, binary }): FrameSpec => ({ kind: 'big', size, binary })),
    weight: 1,
  },
  { arbitrary: fc.constant<FrameSpec>({ kind: 'ping' }), weight: 1 },
  { arbitrary: fc.constant<FrameSpec>({ kind: 'badUtf8' }), weight: 1 },
);

interface Connection {
  endpoint: 'visitor' | 'agent';
  token: 'valid' | 'garbage' | 'none' | 'huge';
  cursor: string | undefined;
  extra: string;
  frames: FrameSpec[];
  ending: 'close' | 'terminate' | 'linger';
}

const connection: fc.Arbitrary<Connection> = fc.record({
  endpoint: fc.constantFrom('visitor', 'agent'),
  token: fc.constantFrom('valid', 'valid', 'valid', 'garbage', 'none', 'huge'),
  cursor: fc.oneof(
    { arbitrary: fc.constantFrom(undefined, '0', '1', '999999999999999', ''), weight: 4 },
    { arbitrary: fc.oneof(fc.constantFrom('-1', '1.5', '9'.repeat(30), 'abc'), fc.string({ maxLength: 8 })), weight: 1 },
  ),
  // Raw query tails, or a hostile value (sent encoded).
  extra: fc.oneof(
    { arbitrary: fc.constant(''), weight: 4 },
    { arbitrary: fc.constantFrom('token=a&token=b', 'cursor[]=1', 'cursor=1&cursor=2', 'x=%', 'x=%E0%A4%A', '&&&'), weight: 1 },
    { arbitrary: hostileString.map((h) => `x=${encodeSafely(h)}`), weight: 1 },
  ),
  frames: fc.array(frame, { maxLength: 6 }),
  ending: fc.constantFrom('close', 'terminate', 'linger'),
});

describe('sockets, fuzzed', () => {
  let t: TestApp;
  let base: string;
  let widget: TestWidget;
  let visitorToken: string;
  let chatId: number;
  let visitorBystander: StreamClient;
  let agentBystander: StreamClient;
  const lingering: WebSocket[] = [];
  let replies = 0;

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t.app);
    widget = await createWidget(t);
    visitorToken = (await startSession(t, widget.widget_id)).visitor_token;
    chatId = (await sendText(t, widget.widget_id, visitorToken, 'hello')).chat_id;
    visitorBystander = await StreamClient.ready(visitorSocketUrl(base, widget.widget_id, visitorToken));
    agentBystander = await StreamClient.ready(streamUrl(base, t.adminToken));
  });
  afterAll(async () => {
    for (const ws of lingering) ws.terminate();
    await visitorBystander?.close();
    await agentBystander?.close();
    await t.close();
  });

  /** An agent reply both bystanders must receive: they are open and still served. */
  async function bystandersServed(): Promise<void> {
    const text = `check ${++replies}`;
    await agentReply(t, chatId, text);
    const has = (c: StreamClient) => c.frames.some((f) => JSON.stringify(f.data).includes(`"${text}"`));
    await visitorBystander.until(has, 5000);
    await agentBystander.until(has, 5000);
  }

  function urlOf(c: Connection): string {
    const token =
      c.token === 'valid'
        ? c.endpoint === 'visitor'
          ? visitorToken
          : t.adminToken
        : c.token === 'garbage'
          ? 'garbage'
          : c.token === 'huge'
            ? 'x'.repeat(5000)
            : undefined;
    const params = [
      token === undefined ? '' : `token=${encodeURIComponent(token)}`,
      c.cursor === undefined ? '' : `cursor=${encodeSafely(c.cursor)}`,
      c.extra,
    ].filter(Boolean);
    const path = c.endpoint === 'visitor' ? `/widget/ws/${widget.widget_id}` : '/api/v1/stream';
    return `${base}${path}?${params.join('&')}`;
  }

  /** Opens, sends the frames, ends as told; resolves with the close code the server chose (null: none). */
  function play(c: Connection): Promise<number | null> {
    return new Promise((resolve) => {
      const ws = new WebSocket(urlOf(c));
      let closedBy: number | null = null;
      let done = false;
      const finish = (code: number | null) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(code);
      };
      const timer = setTimeout(() => {
        if (c.ending === 'linger') {
          if (lingering.length > 20) lingering.shift()?.terminate();
          lingering.push(ws);
        } else ws.terminate();
        finish(closedBy);
      }, 3000);
      ws.on('unexpected-response', () => finish(null));
      ws.on('error', () => undefined);
      ws.on('close', (code) => {
        closedBy = code;
        finish(code);
      });
      ws.on('open', () => {
        for (const f of c.frames) {
          if (ws.readyState !== ws.OPEN) break;
          if (f.kind === 'text') ws.send(f.text);
          else if (f.kind === 'binary') ws.send(f.bytes, { binary: true });
          else if (f.kind === 'big') ws.send(Buffer.alloc(f.size, 0x7b), { binary: f.binary });
          else if (f.kind === 'ping') ws.ping();
          else ws.send(Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xff]), { binary: false });
        }
        // The server has read everything before this ping when its pong comes back.
        if (ws.readyState === ws.OPEN) ws.ping();
        ws.once('pong', () => {
          if (c.ending === 'close') ws.close(1000);
          else if (c.ending === 'terminate') {
            ws.terminate();
            finish(null);
          } else {
            if (lingering.length > 20) lingering.shift()?.terminate();
            lingering.push(ws);
            finish(null);
          }
        });
      });
    });
  }

  it(
    `never crashes, never closes with 1011, and never disturbs other sockets (${RUNS} connections)`,
    async () => {
      const codes: Record<string, number> = {};
      let cases = 0;
      await fc.assert(
        fc.asyncProperty(connection, async (c) => {
          const code = await play(c);
          codes[String(code)] = (codes[String(code)] ?? 0) + 1;
          expect(code, JSON.stringify({ ...c, frames: c.frames.map((f) => f.kind) })).not.toBe(1011);
          expect(visitorBystander.closeInfo).toBeNull();
          expect(agentBystander.closeInfo).toBeNull();
          expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
          if (++cases % 10 === 0) await bystandersServed();
        }),
        { numRuns: RUNS },
      );
      await bystandersServed();
      // The bystanders got each reply once, in order.
      const texts = visitorBystander.frames.filter((f) => f.type === 'message.created').map((f) => (f.data.message as { text?: string }).text);
      expect(texts.filter((x) => x?.startsWith('check '))).toEqual(Array.from({ length: replies }, (_, i) => `check ${i + 1}`));
      // Sockets were opened, refused and cut in every way.
      expect(Object.keys(codes).length).toBeGreaterThan(2);
      const status = await t.app.inject({ method: 'GET', url: `/api/v1/chats/${chatId}`, headers: bearer(t.adminToken) });
      expect(status.statusCode).toBe(200);
      if (process.env.FUZZ_DEBUG) console.log(JSON.stringify(codes));
    },
    timeoutFor(RUNS, 400),
  );
});
